// memcpy, memmove and memset called before the runtime has started (here
// from the program's .preinit_array, which runs before any library's
// constructor, as the constructors of LD_PRELOADed libraries may): the
// first call finds libc's function itself, and still does exactly what
// libc's does, load for load and store for store, with the same return
// value and errno untouched.  Nothing here may be instrumented until main:
// an instrumented access would start the runtime.
//
// CFLAGS: -O2 -g -std=gnu11 -Wall -Wextra -Werror
// EXPECT-STDOUT: ^mem_early: [0-9]+ checks, 0 failed$
// NOT: UCSAN

#include "interpose.h"

typedef void *(*copy_fn)(void *, const void *, size_t);
typedef void *(*set_fn)(void *, int, size_t);

#define PAGE 4096

struct call {
	copy_fn copy;
	set_fn set;
	void *dst, *src, *ret;
	size_t n;
	int err;
};

static IP_NOSAN void do_call(void *p)
{
	struct call *k = p;

	errno = IP_SENTINEL;
	k->ret = k->copy ? k->copy(k->dst, k->src, k->n) : k->set(k->dst, 0x5a, k->n);
	k->err = errno;
}

/* What early() saw, for main() to check. */
#define CASES 8
static struct {
	const char *name;
	size_t n;
	struct call ours, libc;
	int n_ours, n_libc;
	struct ip_access acc_ours[64], acc_libc[64];
} seen[CASES];
static int n_seen, attached_early = -1;

static IP_NOSAN void trace_case(const char *name, void *ours, void *libc, int is_set, size_t n, char *region)
{
	typeof(seen[0]) *s = &seen[n_seen++];

	s->name = name;
	s->n = n;
	s->ours.dst = s->libc.dst = region + 2 * PAGE;
	s->ours.src = s->libc.src = region;
	s->ours.n = s->libc.n = n;
	if (is_set) {
		s->ours.set = (set_fn)ours;
		s->libc.set = (set_fn)libc;
	} else {
		s->ours.copy = (copy_fn)ours;
		s->libc.copy = (copy_fn)libc;
	}
	/* Ours first: the very first call is the one that finds libc's. */
	s->n_ours = ip_trace(region, 4 * PAGE, do_call, &s->ours, s->acc_ours, 64);
	s->n_libc = ip_trace(region, 4 * PAGE, do_call, &s->libc, s->acc_libc, 64);
}

static IP_NOSAN void early(int argc, char **argv, char **envp)
{
	void *libc = dlopen("libc.so.6", RTLD_NOW);
	int (*attached)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "__ucsan_debug_entry_attached");
	char *region = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	(void)argc, (void)argv, (void)envp;
	if (!libc || !attached || region == MAP_FAILED)
		return; /* main() reports it */
	/* 0: the program's constructors (the entry points' among them) have
	 * not run, so neither have libucsan's. */
	attached_early = attached();
	trace_case("memcpy", dlsym(RTLD_DEFAULT, "memcpy"), dlsym(libc, "memcpy"), 0, 16, region);
	trace_case("memmove", dlsym(RTLD_DEFAULT, "memmove"), dlsym(libc, "memmove"), 0, 16, region);
	trace_case("memset", dlsym(RTLD_DEFAULT, "memset"), dlsym(libc, "memset"), 1, 16, region);
	trace_case("__tsan_memcpy", dlsym(RTLD_DEFAULT, "__tsan_memcpy"), dlsym(libc, "memcpy"), 0, 8, region);
	trace_case("__tsan_memmove", dlsym(RTLD_DEFAULT, "__tsan_memmove"), dlsym(libc, "memmove"), 0, 32, region);
	trace_case("__tsan_memset", dlsym(RTLD_DEFAULT, "__tsan_memset"), dlsym(libc, "memset"), 1, 4, region);
}

__attribute__((section(".preinit_array"), used)) static void (*const early_ptr)(int, char **, char **) = early;

int main(void)
{
	char a[512], b[512];

	e2e_require_runtime();
	IP_EXPECT(attached_early == 0, "the .preinit_array function ran after the runtime started (%d)",
		  attached_early);
	IP_EXPECT(n_seen == 6, "only %d cases ran early", n_seen);
	for (int i = 0; i < n_seen; i++) {
		typeof(seen[0]) *s = &seen[i];
		IP_EXPECT(s->ours.ret == s->ours.dst && s->libc.ret == s->libc.dst, "%s: wrong return", s->name);
		IP_EXPECT(s->ours.err == IP_SENTINEL, "%s before start-up changed errno to %d", s->name,
			  s->ours.err);
		IP_EXPECT(ip_trace_equal(s->acc_ours, s->n_ours, s->acc_libc, s->n_libc),
			  "%s of %zu bytes before start-up: loads and stores differ from libc's:\n"
			  "    ucsan: %s\n    libc:  %s",
			  s->name, s->n, ip_trace_str(s->acc_ours, s->n_ours, a, sizeof(a)),
			  ip_trace_str(s->acc_libc, s->n_libc, b, sizeof(b)));
		IP_EXPECT(strstr(ip_object_of((void *)(s->ours.copy ? (void *)s->ours.copy : (void *)s->ours.set)),
				 "libucsan") != NULL,
			  "%s is not ucsan's", s->name);
		printf("  %-14s %2zu bytes before start-up: %s\n", s->name, s->n,
		       ip_trace_str(s->acc_ours, s->n_ours, a, sizeof(a)));
	}
	return ip_finish("mem_early");
}
