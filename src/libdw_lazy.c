// SPDX-License-Identifier: Apache-2.0
/*
 * Loads libdw (and libelf behind it) on first use: see libdw_lazy.h.
 * Cold path. No lock: two threads that load at once both call dlopen(),
 * which counts references, and store the same pointers. No waiting on
 * another thread either, so a thread inside dlopen() (a library's
 * constructor that races, say) that gets here loads for itself under the
 * loader's own recursive lock.
 */
#define _GNU_SOURCE
#define UCSAN_DW_IMPL
#include "libdw_lazy.h"

#include <dlfcn.h>
#include <stdatomic.h>

struct ucsan_dw ucsan_dw;

/* 0: not tried, 1: loaded, -1: missing. */
static _Atomic int dw_state;

static int load(void)
{
	void *dw = dlopen("libdw.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!dw)
		return -1;
	struct ucsan_dw fns;
	/* libelf's functions come through libdw's own dependency. */
#define UCSAN_DW_LOAD(name)                                                     \
	if (!(fns.name = (__typeof__(fns.name))dlsym(dw, #name))) {             \
		dlclose(dw);                                                    \
		return -1;                                                      \
	}
	UCSAN_DW_FUNCS(UCSAN_DW_LOAD)
#undef UCSAN_DW_LOAD
	ucsan_dw = fns;
	return 1;
}

bool ucsan_dw_load(void)
{
	int state = atomic_load_explicit(&dw_state, memory_order_acquire);
	if (!state) {
		state = load();
		atomic_store_explicit(&dw_state, state, memory_order_release);
	}
	return state > 0;
}
