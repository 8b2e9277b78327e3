// SPDX-License-Identifier: Apache-2.0
/*
 * ucsan-entry.o, which ucsan-cc links into every executable: the
 * plain-access and atomic entry points (../tsan_abi.c, ../tsan_atomics.c,
 * but for the 16-byte atomics, which need libatomic) and the state they read
 * (../hot_state.c), built with -fPIE and local-exec TLS. Each instrumented
 * access is then a direct call, and its context one %fs-relative load,
 * instead of a call through the GOT into libucsan.so and a TLS offset
 * fetched from the GOT. The slow paths stay in libucsan.so.
 *
 * The executable exports these definitions (libucsan.so defines the same
 * names, and a program's definition of a name a linked library also
 * defines is exported), so the dynamic linker binds the runtime's own
 * references, and those of instrumented libraries, to them: one context
 * per thread, one gate, one site table per process. The constructor below
 * has the runtime check that it did.
 */
#include "../internal.h"

/* The linker's bounds of the entry points' section (UCSAN_EXPORT). */
extern const char __start_ucsan_entry_text[], __stop_ucsan_entry_text[];

__attribute__((constructor)) static void entry_attach(void)
{
	ucsan_entry_attach(&ucsan_ctx_tls, &ucsan_hot, ucsan_sites_cold, __start_ucsan_entry_text,
			   __stop_ucsan_entry_text, UCSAN_ENTRY_ABI);
}
