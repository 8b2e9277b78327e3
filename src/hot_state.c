// SPDX-License-Identifier: Apache-2.0
/*
 * The state the hot path reads, and nothing else: compiled into libucsan.so
 * and into ucsan-entry.o, the entry points ucsan-cc links into each
 * executable (entry.c). Where an executable has its copy, the dynamic
 * linker binds the runtime's references to it (the definitions are
 * exported from both), so a process has one of each whatever is linked;
 * ucsan_entry_attach() checks that it did.
 */
#include "internal.h"

/* The thread's context: local-exec TLS in an executable, one %fs-relative
 * load away from its entry points. Every thread starts on the all-cold
 * site table (defined below): the site test is then one load of the
 * pointer and one of the byte. */
__thread struct ucsan_ctx ucsan_ctx_tls __attribute__((tls_model(UCSAN_CTX_TLS_MODEL))) = {
	.sites = ucsan_sites_cold,
	.hot_sites = ucsan_sites_cold,
};

/* Read by every access; written only when watchpoints come and go. A
 * cache line of its own: a program variable beside it, written often,
 * would make every access miss. */
struct ucsan_hot ucsan_hot;

/* The all-cold site table: where every thread starts (cold_sites.c). */
const uint8_t ucsan_sites_cold[UCSAN_SITES] __attribute__((aligned(4096)));
