// SPDX-License-Identifier: Apache-2.0
/*
 * The allocation functions, interposed so that a report on heap memory can
 * say which block it is and who allocated it (heap_blocks.c). Each one does
 * exactly what it replaces -- glibc's own entry (__libc_malloc ...) or the
 * next definition (dlsym RTLD_NEXT) does the work, with the same arguments,
 * results and errno -- and then records or forgets the block.
 *
 * heap_stacks=1 adds a short allocation stack, walked along the frame
 * pointers ucsan-cc compiles with (this file keeps its own, see the
 * Makefile): a few loads per frame, bounded by the thread's stack. C++'s
 * operator new and delete end in malloc and free; the C++ runtime has no
 * frame pointers, so a block that its operator new allocated gets its stack
 * from the unwinder instead, with the C++ runtime's frames left out.
 * (operator new itself is not interposed: a definition in libucsan.so would
 * satisfy the link of a program that needs nothing else from libstdc++,
 * which --as-needed would then drop.)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <stdlib.h>
#include <unistd.h>

#include "internal.h"

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);
extern void *__libc_valloc(size_t);
extern void *__libc_pvalloc(size_t);

/* The return addresses above this function's caller, along the frame
 * pointer chain, while it stays inside the thread's stack. */
static NOINLINE int walk_frames(uintptr_t *pcs, int max)
{
	const struct ucsan_thread_info *t = ucsan_ctx_tls.thread_info;
	if (!t || !t->stack_hi)
		return 0;
	/* Our frame, then the interposed function's, then its caller's. */
	const uintptr_t *fp = __builtin_frame_address(0);
	int n = 0, skip = 1;
	while (n < max) {
		if ((uintptr_t)fp < t->stack_lo || (uintptr_t)fp + 2 * sizeof(uintptr_t) > t->stack_hi ||
		    ((uintptr_t)fp & (sizeof(uintptr_t) - 1)))
			break;
		const uintptr_t pc = fp[1];
		if (pc < 4096)
			break;
		if (skip)
			skip--;
		else
			pcs[n++] = pc;
		const uintptr_t *next = (const uintptr_t *)fp[0];
		if (next <= fp)
			break;
		fp = next;
	}
	return n;
}

/* The C++ runtime's text, if its operator new is in the process at start. */
static uintptr_t cxx_text_lo, cxx_text_hi;

static int find_text(struct dl_phdr_info *info, size_t size, void *arg)
{
	const uintptr_t pc = (uintptr_t)arg;
	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && pc >= lo && pc < lo + ph->p_memsz) {
			cxx_text_lo = lo;
			cxx_text_hi = lo + ph->p_memsz;
			return 1;
		}
	}
	return 0;
}

void ucsan_malloc_init(void)
{
	void *new_fn = dlsym(RTLD_DEFAULT, "_Znwm");
	if (new_fn)
		dl_iterate_phdr(find_text, new_fn);
}

/* A block from operator new: the unwinder's stack from its caller on. */
static NOINLINE int frames_past_cxx(uintptr_t *pcs, int max)
{
	uintptr_t all[UCSAN_HEAP_STACK + 8];
	const int n = ucsan_stack_capture(all, UCSAN_HEAP_STACK + 8);
	int i = 0, k = 0;
	while (i < n && all[i] >= cxx_text_lo && all[i] < cxx_text_hi)
		i++;
	while (i < n && k < max)
		pcs[k++] = all[i++];
	return k;
}

/* Records a new block; the runtime's own allocations (symbolizing a
 * report) are not the program's and are left out. */
static ALWAYS_INLINE void track(void *p, size_t size)
{
	if (!p || ucsan_ctx_tls.disable_count > 0)
		return;
	uintptr_t pcs[UCSAN_HEAP_STACK];
	int n = 0;
	if (ucsan_opts.heap_stacks && ucsan_initialized) {
		n = walk_frames(pcs, UCSAN_HEAP_STACK);
		if (n > 0 && pcs[0] >= cxx_text_lo && pcs[0] < cxx_text_hi)
			n = frames_past_cxx(pcs, UCSAN_HEAP_STACK);
	}
	ucsan_heap_block_add((uintptr_t)p, size, pcs, n);
}

static ALWAYS_INLINE void untrack(void *p)
{
	if (p)
		ucsan_heap_block_remove((uintptr_t)p);
}

UCSAN_EXPORT void *malloc(size_t size)
{
	void *p = __libc_malloc(size);
	track(p, size);
	return p;
}

UCSAN_EXPORT void free(void *p)
{
	untrack(p);
	__libc_free(p);
}

UCSAN_EXPORT void *calloc(size_t n, size_t size)
{
	void *p = __libc_calloc(n, size);
	track(p, n * size);
	return p;
}

UCSAN_EXPORT void *realloc(void *old, size_t size)
{
	void *p = __libc_realloc(old, size);
	/* Failed: the old block lives on. realloc(p, 0) freed it. */
	if (p || (old && size == 0))
		untrack(old);
	track(p, size);
	return p;
}

UCSAN_EXPORT void *reallocarray(void *old, size_t n, size_t size)
{
	size_t bytes;
	if (__builtin_mul_overflow(n, size, &bytes)) {
		errno = ENOMEM; /* as glibc's */
		return NULL;
	}
	return realloc(old, bytes);
}

UCSAN_EXPORT void *memalign(size_t align, size_t size)
{
	void *p = __libc_memalign(align, size);
	track(p, size);
	return p;
}

UCSAN_EXPORT void *valloc(size_t size)
{
	void *p = __libc_valloc(size);
	track(p, size);
	return p;
}

UCSAN_EXPORT void *pvalloc(size_t size)
{
	void *p = __libc_pvalloc(size);
	track(p, size);
	return p;
}

/* Functions glibc has no __libc_ name for: the next definition. */
static void *next_fn(void **cache, const char *name)
{
	void *f = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
	if (!f) {
		f = dlsym(RTLD_NEXT, name);
		__atomic_store_n(cache, f, __ATOMIC_RELEASE);
	}
	return f;
}

UCSAN_EXPORT int posix_memalign(void **out, size_t align, size_t size)
{
	static void *real;
	int (*f)(void **, size_t, size_t) = (int (*)(void **, size_t, size_t))next_fn(&real, "posix_memalign");
	if (!f)
		return ENOMEM;
	const int r = f(out, align, size);
	if (r == 0)
		track(*out, size);
	return r;
}

UCSAN_EXPORT void *aligned_alloc(size_t align, size_t size)
{
	static void *real;
	void *(*f)(size_t, size_t) = (void *(*)(size_t, size_t))next_fn(&real, "aligned_alloc");
	void *p = f ? f(align, size) : NULL;
	track(p, size);
	return p;
}
