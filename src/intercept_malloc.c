// SPDX-License-Identifier: Apache-2.0
/*
 * The allocation functions, interposed so that a report on heap memory can
 * say which block it is and who allocated it (heap_blocks.c). Each one does
 * exactly what it replaces -- the next definition (dlsym RTLD_NEXT: glibc's,
 * or an allocator library's) does the work, with the same arguments,
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
 * report) are not the program's and are left out. A block `fresh` from
 * the allocator is the calling thread's alone until it publishes it. */
static ALWAYS_INLINE void track(void *p, size_t size, bool fresh)
{
	if (!p || ucsan_ctx_tls.disable_count > 0)
		return;
	if (fresh)
		ucsan_cold_block_new((uintptr_t)p, size);
	uintptr_t pcs[UCSAN_HEAP_STACK];
	int n = 0;
	if (ucsan_opts.heap_stacks && ucsan_initialized) {
		n = walk_frames(pcs, UCSAN_HEAP_STACK);
		if (n > 0 && pcs[0] >= cxx_text_lo && pcs[0] < cxx_text_hi)
			n = frames_past_cxx(pcs, UCSAN_HEAP_STACK);
	}
	ucsan_heap_block_add((uintptr_t)p, size, pcs, n);
	if (atomic_load_explicit(&ucsan_alloc_hooks, memory_order_relaxed))
		ucsan_alloc_hooks_malloc(p, size);
}

static ALWAYS_INLINE void untrack(void *p)
{
	if (p) {
		if (atomic_load_explicit(&ucsan_alloc_hooks, memory_order_relaxed) && ucsan_ctx_tls.disable_count == 0)
			ucsan_alloc_hooks_free(p);
		ucsan_cold_block_gone((uintptr_t)p);
		ucsan_heap_block_remove((uintptr_t)p);
	}
}

/*
 * The allocator that would serve the program without ucsan: the next
 * definition after ours (glibc's, or an allocator library such as jemalloc
 * linked after libucsan, whose blocks must never reach glibc's free). Found
 * on first use; dlsym allocates while it looks, and that is served from a
 * small static arena whose blocks free() ignores.
 */
static struct {
	void *(*malloc)(size_t);
	void (*free)(void *);
	void *(*calloc)(size_t, size_t);
	void *(*realloc)(void *, size_t);
	void *(*memalign)(size_t, size_t);
	void *(*valloc)(size_t);
	void *(*pvalloc)(size_t);
	int (*posix_memalign)(void **, size_t, size_t);
	void *(*aligned_alloc)(size_t, size_t);
} real;
static _Atomic int resolved;
static __thread int resolving __attribute__((tls_model("initial-exec")));

static _Alignas(16) unsigned char arena[64 * 1024];
static _Atomic size_t arena_used;

/* 16 bytes of header (the size) before each block, 16-byte aligned. */
static void *arena_alloc(size_t size)
{
	const size_t need = 16 + ((size + 15) & ~(size_t)15);
	const size_t at = atomic_fetch_add(&arena_used, need);
	if (size > sizeof(arena) || at + need > sizeof(arena))
		return NULL;
	*(size_t *)(void *)&arena[at] = size;
	return &arena[at + 16];
}

static bool in_arena(const void *p)
{
	return (const unsigned char *)p >= arena && (const unsigned char *)p < arena + sizeof(arena);
}

#define RESOLVE(name) real.name = (__typeof__(real.name))dlsym(RTLD_NEXT, #name)

static NOINLINE bool resolve(void)
{
	if (atomic_load_explicit(&resolved, memory_order_acquire))
		return true;
	if (resolving)
		return false;
	resolving = 1;
	RESOLVE(malloc);
	RESOLVE(free);
	RESOLVE(calloc);
	RESOLVE(realloc);
	RESOLVE(memalign);
	RESOLVE(valloc);
	RESOLVE(pvalloc);
	RESOLVE(posix_memalign);
	RESOLVE(aligned_alloc);
	resolving = 0;
	if (!real.malloc || !real.free || !real.calloc || !real.realloc) {
		static const char msg[] = "UCSAN: error: no malloc after libucsan.so in the process\n";
		ucsan_write_fd(STDERR_FILENO, msg, sizeof(msg) - 1);
		abort();
	}
	atomic_store_explicit(&resolved, 1, memory_order_release);
	return true;
}

static ALWAYS_INLINE bool ready(void)
{
	return likely(atomic_load_explicit(&resolved, memory_order_acquire)) || resolve();
}

UCSAN_EXPORT void *malloc(size_t size)
{
	if (!ready())
		return arena_alloc(size);
	void *p = real.malloc(size);
	track(p, size, true);
	return p;
}

UCSAN_EXPORT void free(void *p)
{
	if (!p || in_arena(p))
		return;
	untrack(p);
	if (ready())
		real.free(p);
}

UCSAN_EXPORT void *calloc(size_t n, size_t size)
{
	if (!ready()) {
		size_t bytes;
		return __builtin_mul_overflow(n, size, &bytes) ? NULL : arena_alloc(bytes); /* zeroed: static */
	}
	void *p = real.calloc(n, size);
	track(p, n * size, true);
	return p;
}

UCSAN_EXPORT void *realloc(void *old, size_t size)
{
	if (!ready() || in_arena(old)) {
		/* An arena block moves to the real allocator (or, while still
		 * resolving, to a new arena block). */
		void *p = ready() ? malloc(size) : arena_alloc(size);
		if (p && old) {
			const size_t had = *(const size_t *)(const void *)((const unsigned char *)old - 16);
			const unsigned char *s = old;
			unsigned char *d = p;
			for (size_t i = 0; i < (had < size ? had : size); i++)
				d[i] = s[i];
		}
		return p;
	}
	void *p = real.realloc(old, size);
	/* Failed: the old block lives on. realloc(p, 0) freed it. */
	if (p || (old && size == 0))
		untrack(old);
	/* Grown in place, it may be known to other threads already. */
	track(p, size, false);
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

/* The aligned ones: never needed while resolving. */
#define ALIGNED(ret, name, params, args, size)                    \
	UCSAN_EXPORT ret name params                              \
	{                                                         \
		if (!ready() || !real.name)                       \
			return NULL;                              \
		void *p = real.name args;                         \
		track(p, size, true);                             \
		return p;                                         \
	}
ALIGNED(void *, memalign, (size_t align, size_t size), (align, size), size)
ALIGNED(void *, valloc, (size_t size), (size), size)
ALIGNED(void *, pvalloc, (size_t size), (size), size)
ALIGNED(void *, aligned_alloc, (size_t align, size_t size), (align, size), size)

UCSAN_EXPORT int posix_memalign(void **out, size_t align, size_t size)
{
	if (!ready() || !real.posix_memalign)
		return ENOMEM;
	const int r = real.posix_memalign(out, align, size);
	if (r == 0)
		track(*out, size, true);
	return r;
}
