/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the interposed libc functions do with the bytes they move for the
 * program (intercept_string.c, intercept_io.c): they run uninstrumented,
 * so their accesses are checked here, as range accesses at the caller's
 * site, as ThreadSanitizer's interceptors do. errno is the real call's.
 */
#ifndef UCSAN_RANGE_CHECKS_H
#define UCSAN_RANGE_CHECKS_H

#include <errno.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>

#include "check.h"
#include "internal.h"

/* Once the runtime is up, not inside it, and not for its own calls
 * (options, reports); and not while the process has one thread, so that
 * a lone thread does not pay for measuring what it reads. */
static ALWAYS_INLINE bool checks(uintptr_t pc)
{
	return ucsan_initialized && ucsan_ctx_tls.disable_count == 0 &&
	       !gate_alone(atomic_load_explicit(&ucsan_hot.gate, memory_order_relaxed)) && !ucsan_pc_in_runtime(pc);
}

/* A read: it meets the watches of threads that write there, and may be
 * sampled, but sets no cold site's watch of its own. A strcmp() in every
 * lookup stalling, cold, held the lookups back from the stores that race
 * (a route cache's stamp under a read lock: 23 of 30 runs found before
 * the interposers, 7 with cold-watched reads, 24 without), while what it
 * would add is covered by the writer's watch. */
static ALWAYS_INLINE void check_read(const void *p, size_t n, uintptr_t pc)
{
	if (n)
		UCSAN_KEEP_ERRNO(ucsan_check_range(p, n, UCSAN_ACCESS_NO_COLD, pc));
}

static ALWAYS_INLINE void check_write(const void *p, size_t n, uintptr_t pc)
{
	if (n)
		UCSAN_KEEP_ERRNO(ucsan_check_range(p, n, UCSAN_ACCESS_WRITE, pc));
}

/* n bytes an I/O call moved at p (intercept_io.c, syscall_hooks.c):
 * stored into the program's memory, or taken from it. The caller has
 * asked checks(). */
static inline void moved_bytes(const void *p, size_t n, bool stored, uintptr_t pc)
{
	if (!p)
		return;
	if (stored) {
		ucsan_cold_refill(p, pc);
		check_write(p, n, pc);
		ucsan_cold_refill_end();
	} else
		check_read(p, n, pc);
}

/* What the call returned, ret bytes moved at p. */
static inline void check_moved(const void *p, ssize_t ret, bool stored, uintptr_t pc)
{
	if (ret > 0 && checks(pc))
		moved_bytes(p, (size_t)ret, stored, pc);
}

/* The same for a vector: the first ret bytes of its buffers, in order. */
static inline void check_moved_iov(const struct iovec *iov, size_t cnt, ssize_t ret, bool stored, uintptr_t pc)
{
	if (ret <= 0 || !iov || !checks(pc))
		return;
	size_t left = (size_t)ret;
	for (size_t i = 0; i < cnt && left > 0; i++) {
		const size_t len = iov[i].iov_len < left ? iov[i].iov_len : left;
		moved_bytes(iov[i].iov_base, len, stored, pc);
		left -= len;
	}
}

/* What a receive stored: a datagram received with MSG_TRUNC reports its
 * whole length, more than the buffer holds. */
static inline ssize_t bytes_received(ssize_t ret, size_t len)
{
	return ret > 0 && (size_t)ret > len ? (ssize_t)len : ret;
}

static inline void check_moved_msg(const struct msghdr *msg, ssize_t n, bool stored, uintptr_t pc)
{
	if (msg)
		check_moved_iov(msg->msg_iov, msg->msg_iovlen, n, stored, pc);
}

#endif /* UCSAN_RANGE_CHECKS_H */
