// The allocation functions -- malloc, free, calloc, realloc, reallocarray,
// memalign, valloc, pvalloc, posix_memalign, aligned_alloc -- as the
// program resolves them (ucsan's, where the runtime interposes them to
// name heap blocks in reports; libc's otherwise) behave exactly like
// libc's own (dlsym on libc.so.6): the same results and errno on the error
// paths (sizes that cannot be allocated, calloc and reallocarray overflow,
// bad alignments, posix_memalign leaving *out alone), errno kept on
// success, free() keeping errno (glibc guarantees it), the same usable
// sizes (enough, for aligned blocks) and alignments, zeroed calloc memory, contents kept by realloc,
// realloc(p, 0) and realloc(NULL, n) as in glibc.  Each scenario runs with
// the program's functions and with libc's, logs compared (interpose.h).
//
// CFLAGS: -O2 -g -std=gnu11 -Wall -Wextra -Werror
// EXPECT-STDOUT: ^malloc: [0-9]+ checks, 0 failed$
// NOT: UCSAN

#include "interpose.h"

#include <malloc.h>

struct alloc {
	void *(*malloc)(size_t);
	void (*free)(void *);
	void *(*calloc)(size_t, size_t);
	void *(*realloc)(void *, size_t);
	void *(*reallocarray)(void *, size_t, size_t);
	void *(*memalign)(size_t, size_t);
	void *(*valloc)(size_t);
	void *(*pvalloc)(size_t);
	int (*posix_memalign)(void **, size_t, size_t);
	void *(*aligned_alloc)(size_t, size_t);
};

#define GET_ALL(get, a)                                                                                    \
	do {                                                                                               \
		(a).malloc = (__typeof__((a).malloc))get("malloc");                                        \
		(a).free = (__typeof__((a).free))get("free");                                              \
		(a).calloc = (__typeof__((a).calloc))get("calloc");                                        \
		(a).realloc = (__typeof__((a).realloc))get("realloc");                                     \
		(a).reallocarray = (__typeof__((a).reallocarray))get("reallocarray");                      \
		(a).memalign = (__typeof__((a).memalign))get("memalign");                                  \
		(a).valloc = (__typeof__((a).valloc))get("valloc");                                        \
		(a).pvalloc = (__typeof__((a).pvalloc))get("pvalloc");                                     \
		(a).posix_memalign = (__typeof__((a).posix_memalign))get("posix_memalign");                \
		(a).aligned_alloc = (__typeof__((a).aligned_alloc))get("aligned_alloc");                   \
	} while (0)

static void *program_sym(const char *name)
{
	void *p = dlsym(RTLD_DEFAULT, name);

	if (!p) {
		fprintf(stderr, "e2e: %s is not defined\n", name);
		exit(2);
	}
	return p;
}

static struct ip_log *L;

#define CALL(what, expr) IP_CALL(L, what, expr)
#define NOTE(what, value) ip_note(L, what, (long)(value), 0, NULL)

/* Properties of a block that do not depend on where it is: there, at
 * least @size usable bytes (the exact number depends on the heap's state
 * for aligned blocks), aligned. */
static void note_block(const char *what, void *p, size_t size, size_t align)
{
	NOTE(what, p != NULL);
	if (p) {
		NOTE("(usable size enough)", malloc_usable_size(p) >= size);
		NOTE("(aligned)", align ? (uintptr_t)p % align == 0 : (uintptr_t)p % 16 == 0);
	}
}

static void scenario(const struct alloc *a)
{
	static const size_t sizes[] = { 0, 1, 8, 24, 100, 4096, 100000, 1 << 20 };
	static const size_t aligns[] = { 1, 2, 8, 16, 64, 4096, 65536, 3, 24, 100 };
	const size_t huge = (size_t)1 << 62, too_big = SIZE_MAX - 4096;
	void *p, *q;
	char *c;

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		const size_t n = sizes[i];
		CALL("malloc", (p = a->malloc(n)) != NULL);
		note_block("(malloc block)", p, n, 0);
		NOTE("(malloc: usable size)", malloc_usable_size(p));
		CALL("free", (a->free(p), 0));
		CALL("calloc", (c = a->calloc(n, 3)) != NULL);
		int zero = 1;
		for (size_t k = 0; c && k < 3 * n; k++)
			zero &= c[k] == 0;
		NOTE("(calloc zeroed)", zero);
		note_block("(calloc block)", c, 3 * n, 0);
		a->free(c);
		/* realloc: grow and shrink, contents kept */
		CALL("realloc(NULL, n)", (c = a->realloc(NULL, n + 1)) != NULL);
		for (size_t k = 0; k <= n; k++)
			c[k] = (char)(k * 7);
		CALL("realloc, grow", (c = a->realloc(c, 3 * n + 10)) != NULL);
		int kept = 1;
		for (size_t k = 0; k <= n; k++)
			kept &= c[k] == (char)(k * 7);
		NOTE("(contents kept)", kept);
		CALL("realloc, shrink", (c = a->realloc(c, n / 2 + 1)) != NULL);
		note_block("(realloc block)", c, n / 2 + 1, 0);
		CALL("realloc(p, 0)", a->realloc(c, 0) == NULL); /* glibc: frees, NULL */
		CALL("reallocarray", (c = a->reallocarray(NULL, n + 1, 5)) != NULL);
		note_block("(reallocarray block)", c, 5 * n + 5, 0);
		a->free(c);
		CALL("valloc", (p = a->valloc(n)) != NULL);
		note_block("(valloc block)", p, n, 4096);
		a->free(p);
		CALL("pvalloc", (p = a->pvalloc(n)) != NULL);
		note_block("(pvalloc block)", p, n, 4096);
		a->free(p);
		for (size_t j = 0; j < sizeof(aligns) / sizeof(aligns[0]); j++) {
			const size_t al = aligns[j];
			CALL("memalign", (p = a->memalign(al, n)) != NULL);
			note_block("(memalign block)", p, n, al & (al - 1) ? 0 : al);
			a->free(p);
			CALL("aligned_alloc", (p = a->aligned_alloc(al, n)) != NULL);
			note_block("(aligned_alloc block)", p, n, al & (al - 1) ? 0 : al);
			a->free(p);
			q = (void *)&q; /* posix_memalign leaves *out alone on failure */
			CALL("posix_memalign", a->posix_memalign(&q, al, n));
			NOTE("(*out untouched)", q == (void *)&q);
			if (q != (void *)&q) {
				note_block("(posix_memalign block)", q, n, al);
				a->free(q);
			}
		}
	}
	/* What cannot be allocated: NULL and ENOMEM (or the error code). */
	CALL("malloc(huge)", a->malloc(huge));
	CALL("malloc(SIZE_MAX - 4096)", a->malloc(too_big));
	CALL("calloc overflow", a->calloc(huge, 8));
	CALL("calloc(huge)", a->calloc(1, huge));
	CALL("realloc(NULL, huge)", a->realloc(NULL, huge));
	p = a->malloc(32);
	CALL("realloc(p, huge)", a->realloc(p, huge));
	CALL("reallocarray overflow", a->reallocarray(p, huge, 8));
	CALL("reallocarray(p, huge)", a->reallocarray(p, 1, huge));
	a->free(p);
	CALL("memalign(64, huge)", a->memalign(64, huge));
	CALL("memalign(huge, 8)", a->memalign(huge, 8));
	CALL("aligned_alloc(64, huge)", a->aligned_alloc(64, huge));
	CALL("valloc(huge)", a->valloc(huge));
	CALL("pvalloc(huge)", a->pvalloc(huge));
	q = (void *)&q;
	CALL("posix_memalign(64, huge)", a->posix_memalign(&q, 64, huge));
	NOTE("(*out untouched)", q == (void *)&q);
	CALL("posix_memalign(0, 8)", a->posix_memalign(&q, 0, 8));
	NOTE("(*out untouched)", q == (void *)&q);
	CALL("free(NULL)", (a->free(NULL), 0));
}

int main(void)
{
	static struct ip_log l_ours, l_libc;
	struct alloc ours, libc;

	e2e_require_runtime();
	e2e_keep_company();
	/* A fixed mmap threshold: glibc's moves up as mapped blocks are freed,
	 * which would give the second run other usable sizes. */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
	GET_ALL(program_sym, ours);
	GET_ALL(ip_libc_sym, libc);
	printf("the program's malloc is %s's\n",
	       strstr(ip_object_of((void *)ours.malloc), "libucsan") ? "ucsan" : "libc");
	L = &l_ours;
	scenario(&ours);
	L = &l_libc;
	scenario(&libc);
	ip_compare_logs("allocation", &l_ours, &l_libc);
	return ip_finish("malloc");
}
