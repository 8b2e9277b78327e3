// SPDX-License-Identifier: Apache-2.0
/*
 * The hooks of <sanitizer/linux_syscall_hooks.h>: a program that makes
 * system calls itself (syscall(SYS_read, ...), an assembly stub) calls
 * __sanitizer_syscall_pre_X() before and __sanitizer_syscall_post_X()
 * after each, so that a sanitizer sees what the kernel did with its
 * memory. Those that move bytes through the program's buffers are checked
 * in the post hook, over the bytes moved, as the interposed libc calls are
 * (intercept_io.c); the hook's caller is the access's site. The others,
 * including fork (a raw fork runs no pthread_atfork() handlers, and
 * running them from a hook placed around libc's fork() would run them
 * twice), do nothing: ucsan orders nothing by system calls.
 */
#include "range_checks.h"

/* The hooks pass pointers as longs. */
#define PTR(x) ((const void *)(x))

#define NOOP_HOOKS(name)                                                 \
	UCSAN_EXPORT void __sanitizer_syscall_pre_impl_##name(void)       \
	{                                                                \
	}                                                                \
	UCSAN_EXPORT void __sanitizer_syscall_post_impl_##name(void)      \
	{                                                                \
	}
#include "syscall_hooks.def"

/*
 * The calls checked after they return do nothing before. Each post hook
 * takes the leading parameters it uses (the return value, the descriptor,
 * then the buffer, the vector and its length, or the message), as the
 * no-op hooks take none: the caller passes the rest, which is harmless.
 */
#define PRE_NOOP(name)                                              \
	UCSAN_EXPORT void __sanitizer_syscall_pre_impl_##name(void) \
	{                                                           \
	}
/* res bytes moved at buf. */
#define POST_BUF(name, stored)                                                                  \
	PRE_NOOP(name)                                                                          \
	UCSAN_EXPORT void __sanitizer_syscall_post_impl_##name(long res, long fd, long buf)     \
	{                                                                                       \
		(void)fd;                                                                       \
		check_moved(PTR(buf), res, stored, CALLER_PC());                                \
	}
/* A receive into buf of len bytes. */
#define POST_RECV(name)                                                                            \
	PRE_NOOP(name)                                                                             \
	UCSAN_EXPORT void __sanitizer_syscall_post_impl_##name(long res, long fd, long buf, long len) \
	{                                                                                          \
		(void)fd;                                                                          \
		check_moved(PTR(buf), bytes_received(res, len > 0 ? (size_t)len : 0), true, CALLER_PC()); \
	}
/* res bytes moved through the vec of vlen buffers. */
#define POST_IOV(name, stored)                                                                      \
	PRE_NOOP(name)                                                                              \
	UCSAN_EXPORT void __sanitizer_syscall_post_impl_##name(long res, long fd, long vec, long vlen) \
	{                                                                                           \
		(void)fd;                                                                           \
		check_moved_iov(PTR(vec), vlen > 0 ? (size_t)vlen : 0, res, stored, CALLER_PC());   \
	}
/* res bytes moved through the message's buffers. */
#define POST_MSG(name, stored)                                                              \
	PRE_NOOP(name)                                                                      \
	UCSAN_EXPORT void __sanitizer_syscall_post_impl_##name(long res, long fd, long msg) \
	{                                                                                   \
		(void)fd;                                                                   \
		check_moved_msg(PTR(msg), res, stored, CALLER_PC());                        \
	}

/* Into the program. */
POST_BUF(read, true)
POST_BUF(pread64, true)
POST_IOV(readv, true)
POST_IOV(preadv, true)
POST_RECV(recv)
POST_RECV(recvfrom)
POST_MSG(recvmsg, true)

/* Out of the program. */
POST_BUF(write, false)
POST_BUF(pwrite64, false)
POST_IOV(writev, false)
POST_IOV(pwritev, false)
POST_BUF(send, false)
POST_BUF(sendto, false)
POST_MSG(sendmsg, false)
