// SPDX-License-Identifier: Apache-2.0
/*
 * <sanitizer/allocator_interface.h>, which ThreadSanitizer's runtime
 * exports: hooks the program installs to see every allocation and release,
 * and what the allocator holds. ucsan keeps the program's own allocator
 * (glibc's, or one linked after it), so the heap figures are that
 * allocator's (mallinfo2()), and a block's size and ownership are what the
 * block table recorded (heap_blocks.c) when it was allocated.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <malloc.h>

#include "internal.h"

/* As many hook pairs as TSan's runtime takes. */
#define MAX_HOOKS 5

typedef void (*malloc_hook_fn)(const volatile void *, size_t);
typedef void (*free_hook_fn)(const volatile void *);

static struct {
	_Atomic(malloc_hook_fn) on_malloc;
	_Atomic(free_hook_fn) on_free;
} hooks[MAX_HOOKS];
_Atomic int ucsan_alloc_hooks; /* pairs installed: the allocation path tests it */

/* Returns the pair's number plus one, or 0 when all slots are taken. */
UCSAN_EXPORT int __sanitizer_install_malloc_and_free_hooks(malloc_hook_fn malloc_hook, free_hook_fn free_hook)
{
	for (int i = 0; i < MAX_HOOKS; i++) {
		malloc_hook_fn none = NULL;
		if (atomic_compare_exchange_strong(&hooks[i].on_malloc, &none, malloc_hook)) {
			atomic_store(&hooks[i].on_free, free_hook);
			atomic_fetch_add(&ucsan_alloc_hooks, 1);
			return i + 1;
		}
	}
	return 0;
}

void ucsan_alloc_hooks_malloc(const void *p, size_t size)
{
	for (int i = 0; i < MAX_HOOKS; i++) {
		malloc_hook_fn fn = atomic_load(&hooks[i].on_malloc);
		if (fn)
			fn(p, size);
	}
}

void ucsan_alloc_hooks_free(const void *p)
{
	for (int i = 0; i < MAX_HOOKS; i++) {
		free_hook_fn fn = atomic_load(&hooks[i].on_free);
		if (fn)
			fn(p);
	}
}

/* The weak hooks, as TSan's runtime defines them: the program's own
 * definitions, if any, are found at start-up and installed as a pair.
 * The defaults are known by local names: the exported ones resolve to
 * the program's. */
static void no_malloc_hook(const volatile void *ptr, size_t size)
{
	(void)ptr;
	(void)size;
}

static void no_free_hook(const volatile void *ptr)
{
	(void)ptr;
}

UCSAN_EXPORT __attribute__((weak, alias("no_malloc_hook"))) void __sanitizer_malloc_hook(const volatile void *ptr,
											   size_t size);
UCSAN_EXPORT __attribute__((weak, alias("no_free_hook"))) void __sanitizer_free_hook(const volatile void *ptr);

void ucsan_alloc_hooks_init(void)
{
	void *m = dlsym(RTLD_DEFAULT, "__sanitizer_malloc_hook");
	void *f = dlsym(RTLD_DEFAULT, "__sanitizer_free_hook");
	const malloc_hook_fn on_malloc = m && m != (void *)no_malloc_hook ? (malloc_hook_fn)m : no_malloc_hook;
	const free_hook_fn on_free = f && f != (void *)no_free_hook ? (free_hook_fn)f : no_free_hook;
	if (on_malloc != no_malloc_hook || on_free != no_free_hook)
		__sanitizer_install_malloc_and_free_hooks(on_malloc, on_free);
}

UCSAN_EXPORT size_t __sanitizer_get_estimated_allocated_size(size_t size)
{
	return size;
}

/* A live block the table recorded, given by its start. */
UCSAN_EXPORT int __sanitizer_get_ownership(const volatile void *p)
{
	size_t size;
	return p && ucsan_heap_block_lookup((uintptr_t)p, &size);
}

/* The size the block was asked for (0 for a pointer the table does not
 * know; TSan requires an owned one). */
UCSAN_EXPORT size_t __sanitizer_get_allocated_size(const volatile void *p)
{
	return p ? ucsan_heap_block_size((uintptr_t)p) : 0;
}

UCSAN_EXPORT size_t __sanitizer_get_current_allocated_bytes(void)
{
	const struct mallinfo2 mi = mallinfo2();
	return mi.uordblks + mi.hblkhd;
}

UCSAN_EXPORT size_t __sanitizer_get_heap_size(void)
{
	const struct mallinfo2 mi = mallinfo2();
	return mi.arena + mi.hblkhd;
}

UCSAN_EXPORT size_t __sanitizer_get_free_bytes(void)
{
	return mallinfo2().fordblks;
}

/* glibc returns freed pages to the system without counting them. */
UCSAN_EXPORT size_t __sanitizer_get_unmapped_bytes(void)
{
	return 0;
}
