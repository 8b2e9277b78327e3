// SPDX-License-Identifier: Apache-2.0
/*
 * The memory of the objects loaded at start-up, as the cold sites see it:
 * their writable segments hold the program's static variables (flags,
 * once-initialised pointers, registries), and their read-only ones --
 * code, constants, string literals, and what RELRO made read-only after
 * relocation -- can never be written, so a read there cannot race. Read
 * once at start-up (dl_iterate_phdr); an instrumented library loaded
 * later is in neither set.
 */
#define _GNU_SOURCE
#include <link.h>

#include "internal.h"

/* Enough for the program, libc, the runtime and their usual company:
 * a few segments per object. Objects past the limit are left out, which
 * only means their memory is watched like any other. */
#define RANGES 64

struct ranges {
	int n;
	uintptr_t lo[RANGES], hi[RANGES];
};

static struct ranges writable, read_only;

static void add(struct ranges *r, uintptr_t lo, uintptr_t hi)
{
	if (r->n < RANGES) {
		r->lo[r->n] = lo;
		r->hi[r->n] = hi;
		r->n++;
	}
}

static bool in(const struct ranges *r, uintptr_t p)
{
	for (int i = 0; i < r->n; i++)
		if (p >= r->lo[i] && p < r->hi[i])
			return true;
	return false;
}

static int note_segments(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
		if (ph->p_type == PT_GNU_RELRO)
			add(&read_only, lo, hi);
		else if (ph->p_type == PT_LOAD)
			add((ph->p_flags & PF_W) ? &writable : &read_only, lo, hi);
	}
	return 0;
}

void ucsan_segments_init(void)
{
	dl_iterate_phdr(note_segments, NULL);
}

bool ucsan_static_data(const volatile void *ptr)
{
	return in(&writable, (uintptr_t)ptr);
}

/* RELRO lies inside a writable PT_LOAD: read-only wins there. */
bool ucsan_read_only(const volatile void *ptr)
{
	return in(&read_only, (uintptr_t)ptr);
}
