// SPDX-License-Identifier: Apache-2.0
/*
 * An executable's own entry points (ucsan-entry.o, src/entry/entry.c)
 * attach to the runtime at start-up: they must share its state.
 */
#define _GNU_SOURCE
#include <unistd.h>

#include "internal.h"

/*
 * The executable's own entry points (ucsan-entry.o, src/entry/entry.c)
 * announce themselves. They read the state they were linked with; the
 * runtime reads what the dynamic linker bound its references to. If the two
 * differ -- the executable's copies not exported, or an entry object from
 * another ucsan version -- the process would have two contexts per thread,
 * and no report could be trusted: stop.
 */
static int entry_attached;

void ucsan_entry_attach(struct ucsan_ctx *ctx, struct ucsan_hot *hot, const uint8_t *sites_cold,
			const void *text_start, const void *text_end, unsigned abi)
{
	if (abi == UCSAN_ENTRY_ABI && ctx == &ucsan_ctx_tls && hot == &ucsan_hot && sites_cold == ucsan_sites_cold) {
		ucsan_stacktrace_add_entry_text((uintptr_t)text_start, (uintptr_t)text_end);
		entry_attached++;
		return;
	}
	static const char msg[] =
		"UCSAN: error: the executable's ucsan entry points (ucsan-entry.o) do not share libucsan.so's state:\n"
		"UCSAN: they come from another ucsan version, or the executable does not export ucsan_ctx_tls,\n"
		"UCSAN: ucsan_hot and ucsan_sites_cold (a version script or --exclude-libs hiding them?).\n"
		"UCSAN: Link with the ucsan-cc of the runtime in use.\n";
	ucsan_write_fd(STDERR_FILENO, msg, sizeof(msg) - 1);
	_exit(1);
}

UCSAN_EXPORT int __ucsan_debug_entry_attached(void)
{
	return entry_attached;
}
