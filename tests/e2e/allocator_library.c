// An allocator library linked after libucsan (as jemalloc or tcmalloc are)
// still serves every allocation: ucsan's allocation functions pass each call
// to the next definition, never to glibc's own, so its blocks never meet
// another allocator's free or malloc_usable_size.
//
// CFLAGS: -O2 -g -fno-builtin
// SHARED: support/liballoc_bump.c
// EXPECT-STDOUT: ^blocks from the library: 3, usable size 200, contents kept$

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

extern long bump_blocks;

int main(void)
{
	const long before = __atomic_load_n(&bump_blocks, __ATOMIC_RELAXED);
	char *p = malloc(100);
	E2E_CHECK(p != NULL);
	memset(p, 'x', 100);
	p = realloc(p, 200);
	E2E_CHECK(p != NULL);
	long *z = calloc(4, sizeof(long));
	E2E_CHECK(z != NULL && z[3] == 0);
	const size_t usable = malloc_usable_size(p);
	const int kept = p[0] == 'x' && p[99] == 'x';
	const long blocks = __atomic_load_n(&bump_blocks, __ATOMIC_RELAXED) - before;
	free(z);
	free(p);
	printf("blocks from the library: %ld, usable size %zu, contents %s\n", blocks, usable,
	       kept ? "kept" : "lost");
	return 0;
}
