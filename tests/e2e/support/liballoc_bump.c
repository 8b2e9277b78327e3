/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A toy allocator library, as jemalloc or tcmalloc are linked: it defines
 * malloc, free, calloc, realloc and malloc_usable_size, and counts the
 * blocks it hands out. Built with -fno-builtin (the calloc below must not
 * turn back into a call to calloc).
 */
#include <stddef.h>
#include <string.h>

static _Alignas(16) unsigned char bump_heap[1 << 24];
static size_t bump_used;
long bump_blocks;

void *malloc(size_t n)
{
	const size_t need = 16 + ((n + 15) & ~(size_t)15);
	const size_t at = __atomic_fetch_add(&bump_used, need, __ATOMIC_RELAXED);
	if (at + need > sizeof(bump_heap))
		return NULL;
	__atomic_fetch_add(&bump_blocks, 1, __ATOMIC_RELAXED);
	__atomic_store_n((size_t *)(void *)&bump_heap[at], n, __ATOMIC_RELAXED);
	return &bump_heap[at + 16];
}

void free(void *p)
{
	(void)p;
}

size_t malloc_usable_size(void *p)
{
	return p ? __atomic_load_n((size_t *)(void *)((unsigned char *)p - 16), __ATOMIC_RELAXED) : 0;
}

void *calloc(size_t a, size_t b)
{
	void *p = malloc(a * b);
	if (p)
		memset(p, 0, a * b);
	return p;
}

void *realloc(void *p, size_t n)
{
	void *q = malloc(n);
	if (q && p) {
		const size_t had = malloc_usable_size(p);
		memcpy(q, p, had < n ? had : n);
	}
	return q;
}
