// SPDX-License-Identifier: Apache-2.0
/* Unit test for src/symbolize.c. Build:
 *   cc -g -O2 -fno-omit-frame-pointer -rdynamic -Isrc tests/unit/test_symbolize.c \
 *      src/symbolize.c -o test_symbolize -ldw -lelf -lpthread
 * (-rdynamic only enables the demangle/re-entrance case.) Run with -v for
 * timing and memory numbers. */
#define _GNU_SOURCE
#include "../../src/symbolize.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline, used))
#define ALWAYS_INLINE static inline __attribute__((always_inline))
#define MAXF 16

static int failures, verbose;
static struct ucsan_frame fr[MAXF];
static char sbuf[4096];

static void result(const char *name, int ok, const char *why)
{
	printf("%s: unit/symbolize/%s\n", ok ? "PASS" : "FAIL", name);
	if (!ok) {
		printf("  %s\n", why);
		failures++;
	}
}

static void dump(int n)
{
	for (int i = 0; i < n; i++)
		printf("  #%d %s%s+0x%lx/0x%lx %s:%d mod=%s+0x%lx\n", i,
		       fr[i].func ? fr[i].func : "?", fr[i].is_inline ? " [inline]" : "",
		       (unsigned long)fr[i].offset, (unsigned long)fr[i].size,
		       fr[i].file ? fr[i].file : "?", fr[i].line,
		       fr[i].module ? fr[i].module : "?", (unsigned long)fr[i].module_offset);
}

/* Check one frame; on failure explain and dump the whole result. */
#define EXPECT(name, n, cond)                                              \
	do {                                                               \
		int ok_ = (cond);                                          \
		result(name, ok_, "expected: " #cond);                     \
		if (!ok_)                                                  \
			dump(n);                                           \
	} while (0)

static const char *base(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;
	return s ? s + 1 : path ? path : "";
}

static int streq(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Milliseconds per evaluation of @expr, over @n evaluations. */
#define MS_EACH(n, expr)                                                       \
	({                                                                     \
		double t0_ = now_ms();                                         \
		for (int i_ = 0; i_ < (n); i_++)                               \
			(void)(expr);                                          \
		(now_ms() - t0_) / (n);                                        \
	})

static long rss_kb(void)
{
	long pages = 0, rss = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (f) {
		if (fscanf(f, "%ld %ld", &pages, &rss) != 2)
			rss = 0;
		fclose(f);
	}
	return rss * (sysconf(_SC_PAGESIZE) / 1024);
}

NOINLINE uintptr_t get_ra(void)
{
	return (uintptr_t)__builtin_return_address(0);
}

static int normal_line;
NOINLINE uintptr_t normal_caller(void)
{
	uintptr_t pc = get_ra(); normal_line = __LINE__;
	return pc;
}

static int inner_line, mid_line, outer_line;
ALWAYS_INLINE uintptr_t inner_inl(void)
{
	uintptr_t pc = get_ra(); inner_line = __LINE__;
	return pc;
}

ALWAYS_INLINE uintptr_t mid_inl(void)
{
	uintptr_t pc = inner_inl(); mid_line = __LINE__;
	return pc;
}

NOINLINE uintptr_t outer_func(void)
{
	uintptr_t pc = mid_inl(); outer_line = __LINE__;
	return pc;
}

/* Checks the 3-frame inline chain of outer_func; used from threads too. */
static int inline_ok(int n)
{
	return n == 3 && fr[0].is_inline && streq(fr[0].func, "inner_inl") &&
	       fr[0].line == inner_line && streq(base(fr[0].file), "test_symbolize.c") &&
	       fr[1].is_inline && streq(fr[1].func, "mid_inl") && fr[1].line == mid_line &&
	       !fr[2].is_inline && streq(fr[2].func, "outer_func") &&
	       fr[2].line == outer_line && fr[2].offset < fr[2].size;
}

/* An ELF symbol that looks like C++, to drive the demangler hook below. */
NOINLINE uintptr_t cxx_like(void) __asm__("_Z8cxx_likev");
NOINLINE uintptr_t cxx_like(void)
{
	uintptr_t pc = get_ra();
	__asm__ volatile("" ::: "memory"); /* no tail call */
	return pc;
}

/* Found by the runtime via dlsym(RTLD_DEFAULT) when linked -rdynamic. It
 * also re-enters the symbolizer, which must answer "unknown" at once. */
static int reentered_n = -1;
static const char *reentered_func = "unset", *reentered_name = "unset";
char *__cxa_demangle(const char *name, char *buf, size_t *len, int *status)
{
	static struct ucsan_frame f2[2];
	static char b2[256];

	(void)buf;
	(void)len;
	reentered_n = ucsan_symbolize((uintptr_t)&outer_func, 0, f2, 2, b2, sizeof(b2));
	reentered_func = f2[0].func;
	reentered_name = ucsan_symbol_name((uintptr_t)&outer_func, b2, sizeof(b2));
	ucsan_symbolize_reset(); /* must be a no-op here */
	*status = strcmp(name, "_Z8cxx_likev") ? -2 : 0;
	return *status ? NULL : strdup("cxx_like()");
}

static int cmp_ra(const void *a, const void *b)
{
	/* Called from libc's qsort: our return address is inside libc. */
	*(uintptr_t *)sbuf = (uintptr_t)__builtin_return_address(0);
	return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

static void *thread_fn(void *arg)
{
	uintptr_t pc = *(uintptr_t *)arg;
	struct ucsan_frame f[MAXF];
	char b[1024];
	for (int i = 0; i < 200; i++) {
		int n = ucsan_symbolize(pc, 1, f, MAXF, b, sizeof(b));
		if (n != 3 || !streq(f[0].func, "inner_inl") || !streq(f[2].func, "outer_func"))
			return (void *)1;
	}
	return NULL;
}

static volatile int stop_spin;
static void *spin_fn(void *arg)
{
	uintptr_t pc = *(uintptr_t *)arg;
	struct ucsan_frame f[MAXF];
	char b[1024];
	while (!stop_spin) {
		ucsan_symbolize(pc, 1, f, MAXF, b, sizeof(b));
		ucsan_symbolize_reset(); /* keep the lock busy with heavy work */
	}
	return NULL;
}

int main(int argc, char **argv)
{
	verbose = argc > 1 && !strcmp(argv[1], "-v");
	int n;
	char name[256];

	/* Normal function, return address: line of the call, offset < size. */
	uintptr_t pc = normal_caller();
	long rss0 = rss_kb();
	double t0 = now_ms();
	n = ucsan_symbolize(pc, 1, fr, MAXF, sbuf, sizeof(sbuf));
	double t_first = now_ms() - t0;
	long rss1 = rss_kb();
	EXPECT("normal", n, n == 1 && streq(fr[0].func, "normal_caller") && !fr[0].is_inline &&
				    fr[0].offset > 0 && fr[0].offset < fr[0].size &&
				    streq(base(fr[0].file), "test_symbolize.c") &&
				    fr[0].line == normal_line && fr[0].module &&
				    fr[0].module_offset > 0 && fr[0].module_offset <= pc);
	const char *nm = ucsan_symbol_name(pc - 1, name, sizeof(name));
	EXPECT("symbol_name_normal", n, nm == name && streq(nm, fr[n - 1].func));

	/* Function entry, not a return address: offset 0. */
	n = ucsan_symbolize((uintptr_t)&outer_func, 0, fr, MAXF, sbuf, sizeof(sbuf));
	EXPECT("entry", n, n == 1 && streq(fr[0].func, "outer_func") && fr[0].offset == 0 &&
				   fr[0].size > 0 && fr[0].line > 0);

	/* Nested always_inline chain, innermost first. */
	uintptr_t ipc = outer_func();
	n = ucsan_symbolize(ipc, 1, fr, MAXF, sbuf, sizeof(sbuf));
	EXPECT("inline_chain", n, inline_ok(n));
	nm = ucsan_symbol_name(ipc - 1, name, sizeof(name));
	EXPECT("symbol_name_inline", n, streq(nm, fr[n - 1].func));

	/* Too few slots: the real function survives with the outermost call site. */
	n = ucsan_symbolize(ipc, 1, fr, 1, sbuf, sizeof(sbuf));
	EXPECT("inline_max1", n, n == 1 && !fr[0].is_inline && streq(fr[0].func, "outer_func") &&
					 fr[0].line == outer_line);
	n = ucsan_symbolize(ipc, 1, fr, 2, sbuf, sizeof(sbuf));
	EXPECT("inline_max2", n, n == 2 && streq(fr[0].func, "inner_inl") &&
					 streq(fr[1].func, "outer_func") && fr[1].line == outer_line);

	/* Tiny string buffer: strings truncated or NULL, always terminated. */
	char tiny[12];
	memset(tiny, 'x', sizeof(tiny));
	n = ucsan_symbolize(ipc, 1, fr, MAXF, tiny, sizeof(tiny));
	int ok = n == 3;
	for (int i = 0; i < n; i++) {
		const char *s[3] = { fr[i].func, fr[i].file, fr[i].module };
		for (int j = 0; j < 3; j++)
			ok &= !s[j] || (s[j] >= tiny && s[j] + strlen(s[j]) < tiny + sizeof(tiny));
	}
	EXPECT("small_strbuf", n, ok);
	n = ucsan_symbolize(ipc, 1, fr, MAXF, NULL, 0);
	EXPECT("null_strbuf", n, n == 3 && !fr[0].func && fr[2].line == outer_line);

	/* libc: ELF symbol name (and debug info only if installed). */
	void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
	uintptr_t gp = libc ? (uintptr_t)dlsym(libc, "getpid") : 0;
	t0 = now_ms();
	n = ucsan_symbolize(gp, 0, fr, MAXF, sbuf, sizeof(sbuf));
	double t_libc = now_ms() - t0;
	long rss2 = rss_kb();
	EXPECT("libc_getpid", n, gp && n >= 1 && fr[n - 1].func && !fr[n - 1].is_inline &&
					 fr[n - 1].offset == 0 && strstr(base(fr[n - 1].module), "libc"));
	nm = ucsan_symbol_name(gp, name, sizeof(name));
	EXPECT("symbol_name_libc", n, streq(nm, fr[n - 1].func));
	/* A versioned definition: a .symtab names it "__libc_start_main@@GLIBC_2.34". */
	uintptr_t lsm = libc ? (uintptr_t)dlsym(libc, "__libc_start_main") : 0;
	n = ucsan_symbolize(lsm + 1, 0, fr, MAXF, sbuf, sizeof(sbuf));
	EXPECT("symbol_version", n, lsm && streq(fr[n - 1].func, "__libc_start_main"));
	int arr[4] = { 3, 1, 2, 0 };
	qsort(arr, 4, sizeof(arr[0]), cmp_ra);
	uintptr_t qra = *(uintptr_t *)sbuf;
	n = ucsan_symbolize(qra, 1, fr, MAXF, sbuf, sizeof(sbuf));
	/* Its function may be local, unnamed without libc's debug info. */
	EXPECT("libc_return_address", n, n >= 1 && strstr(base(fr[n - 1].module), "libc") &&
						 (!fr[n - 1].func || fr[n - 1].offset <= fr[n - 1].size));

	/* vDSO: no file on disk, libdwfl reads the image from memory. */
	void *vh = dlopen("linux-vdso.so.1", RTLD_LAZY | RTLD_NOLOAD);
	uintptr_t vf = vh ? (uintptr_t)dlsym(vh, "__vdso_clock_gettime") : 0;
	if (vf) {
		n = ucsan_symbolize(vf + 1, 0, fr, MAXF, sbuf, sizeof(sbuf));
		EXPECT("vdso", n, n == 1 && streq(fr[0].func, "__vdso_clock_gettime") &&
					  fr[0].offset == 1 && fr[0].module);
	}
	uintptr_t vdso = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
	if (vdso) {
		n = ucsan_symbolize(vdso + 0x10, 0, fr, MAXF, sbuf, sizeof(sbuf));
		EXPECT("vdso_header", n, n == 1 && !fr[0].func && fr[0].module);
	}

	/* Unknown addresses: one frame, func NULL. */
	n = ucsan_symbolize(0x10, 0, fr, MAXF, sbuf, sizeof(sbuf));
	EXPECT("unmapped", n, n == 1 && !fr[0].func && !fr[0].file && !fr[0].line && !fr[0].module);
	n = ucsan_symbolize(0, 1, fr, MAXF, sbuf, sizeof(sbuf));
	EXPECT("unmapped_ra_zero", n, n == 1 && !fr[0].func);
	n = ucsan_symbolize((uintptr_t)&n, 0, fr, MAXF, sbuf, sizeof(sbuf));
	EXPECT("stack_address", n, n == 1 && !fr[0].func);
	EXPECT("symbol_name_unmapped", 0, !ucsan_symbol_name(0x10, name, sizeof(name)) &&
						  !ucsan_symbol_name(pc, name, 1));
	EXPECT("max0", 0, ucsan_symbolize(pc, 1, fr, 0, sbuf, sizeof(sbuf)) == 0);

	/* dlopen'ed after the first lookup: found by re-reporting modules. */
	static const char *const libs[][2] = { { "libcrypt.so.1", "crypt_checksalt" },
					       { "libm.so.6", "cbrt" },
					       { "libresolv.so.2", "res_mkquery" } };
	for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]); i++) {
		if (dlopen(libs[i][0], RTLD_LAZY | RTLD_NOLOAD))
			continue; /* already loaded: not a dlopen test */
		void *h = dlopen(libs[i][0], RTLD_LAZY);
		uintptr_t fp = h ? (uintptr_t)dlsym(h, libs[i][1]) : 0;
		if (!fp)
			continue;
		n = ucsan_symbolize(fp, 0, fr, MAXF, sbuf, sizeof(sbuf));
		EXPECT("dlopen", n, n >= 1 && fr[n - 1].func && strstr(fr[n - 1].func, libs[i][1]) &&
					    fr[n - 1].offset == 0 &&
					    !strncmp(base(fr[n - 1].module), libs[i][0],
						     strlen(libs[i][0])));
		break;
	}

	/* Demangling through __cxa_demangle and same-thread re-entrance. */
	if (dlsym(RTLD_DEFAULT, "__cxa_demangle") == (void *)&__cxa_demangle) {
		uintptr_t cpc = cxx_like();
		n = ucsan_symbolize(cpc, 1, fr, MAXF, sbuf, sizeof(sbuf));
		EXPECT("demangle", n, n == 1 && streq(fr[0].func, "cxx_like()"));
		EXPECT("reentrance", n, reentered_n == 1 && !reentered_func && !reentered_name);
	} else {
		printf("SKIP: unit/symbolize/demangle (link with -rdynamic)\n");
	}

	/* Threads: the internal lock serializes libdw. */
	pthread_t th[4];
	int tok = 1;
	for (int i = 0; i < 4; i++)
		tok &= pthread_create(&th[i], NULL, thread_fn, &ipc) == 0;
	for (int i = 0; i < 4; i++) {
		void *r = (void *)1;
		pthread_join(th[i], &r);
		tok &= r == NULL;
	}
	EXPECT("threads", 0, tok);

	/* Reset then use again. */
	ucsan_symbolize_reset();
	n = ucsan_symbolize(ipc, 1, fr, MAXF, sbuf, sizeof(sbuf));
	EXPECT("after_reset", n, inline_ok(n));

	/* fork() while another thread is inside the symbolizer: the child must
	 * not deadlock on the orphaned lock, with or without reset. */
	pthread_t spin;
	int fok = pthread_create(&spin, NULL, spin_fn, &ipc) == 0;
	for (int i = 0; i < 20 && fok; i++) {
		pid_t p = fork();
		if (p == 0) {
			alarm(20);
			if (i & 1)
				ucsan_symbolize_reset();
			n = ucsan_symbolize(ipc, 1, fr, MAXF, sbuf, sizeof(sbuf));
			_exit(inline_ok(n) ? 0 : 1);
		}
		int st = -1;
		if (p < 0 || waitpid(p, &st, 0) != p || !WIFEXITED(st) || WEXITSTATUS(st)) {
			printf("  fork %d: status 0x%x\n", i, st);
			fok = 0;
		}
		usleep(1000 * (i % 5));
	}
	stop_spin = 1;
	pthread_join(spin, NULL);
	EXPECT("fork_busy", 0, fok);

	if (verbose) {
		ucsan_symbolize_reset();
		double t_sym = MS_EACH(1000, ucsan_symbolize(ipc, 1, fr, MAXF, sbuf, sizeof(sbuf)));
		double t_name = MS_EACH(1000, ucsan_symbol_name(ipc - 1, name, sizeof(name)));
		double t_libc2 = MS_EACH(1000, ucsan_symbolize(qra, 1, fr, MAXF, sbuf, sizeof(sbuf)));
		double t_miss = MS_EACH(100, ucsan_symbolize(0x10, 0, fr, MAXF, sbuf, sizeof(sbuf)));
		printf("# first call %.2f ms (rss +%ld KiB), first libc call %.2f ms (rss +%ld KiB),"
		       " rss +%ld KiB at the end\n", t_first, rss1 - rss0, t_libc, rss2 - rss1,
		       rss_kb() - rss0);
		printf("# steady: symbolize %.1f us, libc %.1f us, symbol_name %.1f us, miss %.1f us\n",
		       t_sym * 1e3, t_libc2 * 1e3, t_name * 1e3, t_miss * 1e3);
	}
	return failures != 0;
}
