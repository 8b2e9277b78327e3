// SPDX-License-Identifier: Apache-2.0
/*
 * The calls that move bytes between the kernel (or stdio) and the
 * program's buffers: a read() or recv() into a buffer another thread is
 * still parsing, a write() or send() of one another thread is filling.
 * The kernel's accesses are not instrumented, so each call is checked
 * here after it returns, over the bytes it moved (what ThreadSanitizer's
 * interceptors check too): the bytes stored into the program as a write,
 * which may set a cold site's watch as a memcpy()'s would, the bytes
 * taken from it as a read, which sets none (range_checks.h). The return
 * value and errno are the real call's; a blocking call blocks, and is a
 * cancellation point, exactly as before.
 *
 * Before the runtime is up (another library's constructor reading a
 * file), the system calls are made directly: nothing is checked then, and
 * dlsym() may not be safe to call yet.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "range_checks.h"

REAL(read, ssize_t, int, void *, size_t)
REAL(pread, ssize_t, int, void *, size_t, off_t)
REAL(pread64, ssize_t, int, void *, size_t, off64_t)
REAL(readv, ssize_t, int, const struct iovec *, int)
REAL(preadv, ssize_t, int, const struct iovec *, int, off_t)
REAL(preadv64, ssize_t, int, const struct iovec *, int, off64_t)
REAL(write, ssize_t, int, const void *, size_t)
REAL(pwrite, ssize_t, int, const void *, size_t, off_t)
REAL(pwrite64, ssize_t, int, const void *, size_t, off64_t)
REAL(writev, ssize_t, int, const struct iovec *, int)
REAL(pwritev, ssize_t, int, const struct iovec *, int, off_t)
REAL(pwritev64, ssize_t, int, const struct iovec *, int, off64_t)
REAL(recv, ssize_t, int, void *, size_t, int)
REAL(recvfrom, ssize_t, int, void *, size_t, int, __SOCKADDR_ARG, socklen_t *)
REAL(recvmsg, ssize_t, int, struct msghdr *, int)
REAL(send, ssize_t, int, const void *, size_t, int)
REAL(sendto, ssize_t, int, const void *, size_t, int, __CONST_SOCKADDR_ARG, socklen_t)
REAL(sendmsg, ssize_t, int, const struct msghdr *, int)
REAL(fread, size_t, void *, size_t, size_t, FILE *)
REAL(fwrite, size_t, const void *, size_t, size_t, FILE *)
REAL(fgets, char *, char *, int, FILE *)
/* The _FORTIFY_SOURCE spellings, with the buffer's size. */
REAL(__read_chk, ssize_t, int, void *, size_t, size_t)
REAL(__pread_chk, ssize_t, int, void *, size_t, off_t, size_t)
REAL(__pread64_chk, ssize_t, int, void *, size_t, off64_t, size_t)
REAL(__recv_chk, ssize_t, int, void *, size_t, size_t, int)
REAL(__recvfrom_chk, ssize_t, int, void *, size_t, size_t, int, __SOCKADDR_ARG, socklen_t *)
REAL(__fread_chk, size_t, void *, size_t, size_t, size_t, FILE *)
REAL(__fgets_chk, char *, char *, size_t, int, FILE *)

/* Found at start-up: a first dlsym() later could run in a child forked
 * while another thread held the loader's lock. */
void ucsan_intercept_io_init(void)
{
	get_read();
	get_pread();
	get_pread64();
	get_readv();
	get_preadv();
	get_preadv64();
	get_write();
	get_pwrite();
	get_pwrite64();
	get_writev();
	get_pwritev();
	get_pwritev64();
	get_recv();
	get_recvfrom();
	get_recvmsg();
	get_send();
	get_sendto();
	get_sendmsg();
	get_fread();
	get_fwrite();
	get_fgets();
	get___read_chk();
	get___pread_chk();
	get___pread64_chk();
	get___recv_chk();
	get___recvfrom_chk();
	get___fread_chk();
	get___fgets_chk();
}

/* The real function once the runtime is up; before, NULL (a direct
 * system call then). */
#define REAL_OR_NULL(name) (ucsan_initialized ? get_##name() : NULL)

/* === Into the program: read, recv and friends === */

UCSAN_EXPORT ssize_t read(int fd, void *buf, size_t count)
{
	ssize_t (*f)(int, void *, size_t) = REAL_OR_NULL(read);
	const ssize_t ret = f ? f(fd, buf, count) : syscall(SYS_read, fd, buf, count);
	check_moved(buf, ret, true, CALLER_PC());
	return ret;
}

UCSAN_EXPORT ssize_t pread(int fd, void *buf, size_t count, off_t off)
{
	ssize_t (*f)(int, void *, size_t, off_t) = REAL_OR_NULL(pread);
	const ssize_t ret = f ? f(fd, buf, count, off) : syscall(SYS_pread64, fd, buf, count, off);
	check_moved(buf, ret, true, CALLER_PC());
	return ret;
}

UCSAN_EXPORT ssize_t pread64(int fd, void *buf, size_t count, off64_t off)
{
	ssize_t (*f)(int, void *, size_t, off64_t) = REAL_OR_NULL(pread64);
	const ssize_t ret = f ? f(fd, buf, count, off) : syscall(SYS_pread64, fd, buf, count, off);
	check_moved(buf, ret, true, CALLER_PC());
	return ret;
}

UCSAN_EXPORT ssize_t readv(int fd, const struct iovec *iov, int cnt)
{
	ssize_t (*f)(int, const struct iovec *, int) = REAL_OR_NULL(readv);
	const ssize_t ret = f ? f(fd, iov, cnt) : syscall(SYS_readv, fd, iov, cnt);
	check_moved_iov(iov, cnt > 0 ? (size_t)cnt : 0, ret, true, CALLER_PC());
	return ret;
}

UCSAN_EXPORT ssize_t preadv(int fd, const struct iovec *iov, int cnt, off_t off)
{
	ssize_t (*f)(int, const struct iovec *, int, off_t) = get_preadv();
	const ssize_t ret = f ? f(fd, iov, cnt, off) : (errno = ENOSYS, -1);
	check_moved_iov(iov, cnt > 0 ? (size_t)cnt : 0, ret, true, CALLER_PC());
	return ret;
}

UCSAN_EXPORT ssize_t preadv64(int fd, const struct iovec *iov, int cnt, off64_t off)
{
	ssize_t (*f)(int, const struct iovec *, int, off64_t) = get_preadv64();
	const ssize_t ret = f ? f(fd, iov, cnt, off) : (errno = ENOSYS, -1);
	check_moved_iov(iov, cnt > 0 ? (size_t)cnt : 0, ret, true, CALLER_PC());
	return ret;
}

UCSAN_EXPORT ssize_t recv(int fd, void *buf, size_t len, int flags)
{
	ssize_t (*f)(int, void *, size_t, int) = REAL_OR_NULL(recv);
	const ssize_t ret = f ? f(fd, buf, len, flags) : syscall(SYS_recvfrom, fd, buf, len, flags, NULL, NULL);
	check_moved(buf, bytes_received(ret, len), true, CALLER_PC());
	return ret;
}

UCSAN_EXPORT ssize_t recvfrom(int fd, void *buf, size_t len, int flags, __SOCKADDR_ARG from, socklen_t *fromlen)
{
	ssize_t (*f)(int, void *, size_t, int, __SOCKADDR_ARG, socklen_t *) = REAL_OR_NULL(recvfrom);
	const ssize_t ret = f ? f(fd, buf, len, flags, from, fromlen)
			      : syscall(SYS_recvfrom, fd, buf, len, flags, from.__sockaddr__, fromlen);
	check_moved(buf, bytes_received(ret, len), true, CALLER_PC());
	return ret;
}

UCSAN_EXPORT ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	ssize_t (*f)(int, struct msghdr *, int) = REAL_OR_NULL(recvmsg);
	const ssize_t ret = f ? f(fd, msg, flags) : syscall(SYS_recvmsg, fd, msg, flags);
	check_moved_msg(msg, ret, true, CALLER_PC());
	return ret;
}

UCSAN_EXPORT size_t fread(void *ptr, size_t size, size_t n, FILE *stream)
{
	const size_t ret = get_fread()(ptr, size, n, stream);
	check_moved(ptr, (ssize_t)(ret * size), true, CALLER_PC());
	return ret;
}

/* A line fgets() stored: its string and terminator, measured only when
 * it is checked. */
static void line_stored(const char *ret, int n, uintptr_t pc)
{
	if (ret && checks(pc))
		moved_bytes(ret, strnlen(ret, (size_t)n) + 1, true, pc);
}

UCSAN_EXPORT char *fgets(char *s, int n, FILE *stream)
{
	char *const ret = get_fgets()(s, n, stream);
	line_stored(ret, n, CALLER_PC());
	return ret;
}

/* === Out of the program: write, send and friends === */

UCSAN_EXPORT ssize_t write(int fd, const void *buf, size_t count)
{
	ssize_t (*f)(int, const void *, size_t) = REAL_OR_NULL(write);
	const ssize_t ret = f ? f(fd, buf, count) : syscall(SYS_write, fd, buf, count);
	check_moved(buf, ret, false, CALLER_PC());
	return ret;
}

UCSAN_EXPORT ssize_t pwrite(int fd, const void *buf, size_t count, off_t off)
{
	ssize_t (*f)(int, const void *, size_t, off_t) = REAL_OR_NULL(pwrite);
	const ssize_t ret = f ? f(fd, buf, count, off) : syscall(SYS_pwrite64, fd, buf, count, off);
	check_moved(buf, ret, false, CALLER_PC());
	return ret;
}

UCSAN_EXPORT ssize_t pwrite64(int fd, const void *buf, size_t count, off64_t off)
{
	ssize_t (*f)(int, const void *, size_t, off64_t) = REAL_OR_NULL(pwrite64);
	const ssize_t ret = f ? f(fd, buf, count, off) : syscall(SYS_pwrite64, fd, buf, count, off);
	check_moved(buf, ret, false, CALLER_PC());
	return ret;
}

UCSAN_EXPORT ssize_t writev(int fd, const struct iovec *iov, int cnt)
{
	ssize_t (*f)(int, const struct iovec *, int) = REAL_OR_NULL(writev);
	const ssize_t ret = f ? f(fd, iov, cnt) : syscall(SYS_writev, fd, iov, cnt);
	check_moved_iov(iov, cnt > 0 ? (size_t)cnt : 0, ret, false, CALLER_PC());
	return ret;
}

UCSAN_EXPORT ssize_t pwritev(int fd, const struct iovec *iov, int cnt, off_t off)
{
	ssize_t (*f)(int, const struct iovec *, int, off_t) = get_pwritev();
	const ssize_t ret = f ? f(fd, iov, cnt, off) : (errno = ENOSYS, -1);
	check_moved_iov(iov, cnt > 0 ? (size_t)cnt : 0, ret, false, CALLER_PC());
	return ret;
}

UCSAN_EXPORT ssize_t pwritev64(int fd, const struct iovec *iov, int cnt, off64_t off)
{
	ssize_t (*f)(int, const struct iovec *, int, off64_t) = get_pwritev64();
	const ssize_t ret = f ? f(fd, iov, cnt, off) : (errno = ENOSYS, -1);
	check_moved_iov(iov, cnt > 0 ? (size_t)cnt : 0, ret, false, CALLER_PC());
	return ret;
}

UCSAN_EXPORT ssize_t send(int fd, const void *buf, size_t len, int flags)
{
	ssize_t (*f)(int, const void *, size_t, int) = REAL_OR_NULL(send);
	const ssize_t ret = f ? f(fd, buf, len, flags) : syscall(SYS_sendto, fd, buf, len, flags, NULL, 0);
	check_moved(buf, ret, false, CALLER_PC());
	return ret;
}

UCSAN_EXPORT ssize_t sendto(int fd, const void *buf, size_t len, int flags, __CONST_SOCKADDR_ARG to,
			    socklen_t tolen)
{
	ssize_t (*f)(int, const void *, size_t, int, __CONST_SOCKADDR_ARG, socklen_t) = REAL_OR_NULL(sendto);
	const ssize_t ret = f ? f(fd, buf, len, flags, to, tolen)
			      : syscall(SYS_sendto, fd, buf, len, flags, to.__sockaddr__, tolen);
	check_moved(buf, ret, false, CALLER_PC());
	return ret;
}

UCSAN_EXPORT ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	ssize_t (*f)(int, const struct msghdr *, int) = REAL_OR_NULL(sendmsg);
	const ssize_t ret = f ? f(fd, msg, flags) : syscall(SYS_sendmsg, fd, msg, flags);
	check_moved_msg(msg, ret, false, CALLER_PC());
	return ret;
}

UCSAN_EXPORT size_t fwrite(const void *ptr, size_t size, size_t n, FILE *stream)
{
	const size_t ret = get_fwrite()(ptr, size, n, stream);
	check_moved(ptr, (ssize_t)(ret * size), false, CALLER_PC());
	return ret;
}

/* === The _FORTIFY_SOURCE spellings: the same, with the buffer's size === */

UCSAN_EXPORT ssize_t __read_chk(int fd, void *buf, size_t count, size_t buflen)
{
	const ssize_t ret = get___read_chk()(fd, buf, count, buflen);
	check_moved(buf, ret, true, CALLER_PC());
	return ret;
}

UCSAN_EXPORT ssize_t __pread_chk(int fd, void *buf, size_t count, off_t off, size_t buflen)
{
	const ssize_t ret = get___pread_chk()(fd, buf, count, off, buflen);
	check_moved(buf, ret, true, CALLER_PC());
	return ret;
}

UCSAN_EXPORT ssize_t __pread64_chk(int fd, void *buf, size_t count, off64_t off, size_t buflen)
{
	const ssize_t ret = get___pread64_chk()(fd, buf, count, off, buflen);
	check_moved(buf, ret, true, CALLER_PC());
	return ret;
}

UCSAN_EXPORT ssize_t __recv_chk(int fd, void *buf, size_t len, size_t buflen, int flags)
{
	const ssize_t ret = get___recv_chk()(fd, buf, len, buflen, flags);
	check_moved(buf, bytes_received(ret, len), true, CALLER_PC());
	return ret;
}

UCSAN_EXPORT ssize_t __recvfrom_chk(int fd, void *buf, size_t len, size_t buflen, int flags, __SOCKADDR_ARG from,
				    socklen_t *fromlen)
{
	const ssize_t ret = get___recvfrom_chk()(fd, buf, len, buflen, flags, from, fromlen);
	check_moved(buf, bytes_received(ret, len), true, CALLER_PC());
	return ret;
}

UCSAN_EXPORT size_t __fread_chk(void *ptr, size_t ptrlen, size_t size, size_t n, FILE *stream)
{
	const size_t ret = get___fread_chk()(ptr, ptrlen, size, n, stream);
	check_moved(ptr, (ssize_t)(ret * size), true, CALLER_PC());
	return ret;
}

UCSAN_EXPORT char *__fgets_chk(char *s, size_t size, int n, FILE *stream)
{
	char *const ret = get___fgets_chk()(s, size, n, stream);
	line_stored(ret, n, CALLER_PC());
	return ret;
}
