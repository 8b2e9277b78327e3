// The I/O calls ucsan interposes on (read, pread, pread64, readv, preadv,
// write, pwrite, pwrite64, writev, pwritev, recv, recvfrom, recvmsg, send,
// sendto, sendmsg, fread, fwrite, fgets, and the _FORTIFY_SOURCE
// __*_chk spellings of the reads) behave exactly like libc's own: the same
// return value, the same bytes moved (and none past them), the same errno
// on failure (a closed descriptor, an empty non-blocking pipe, a bad
// buffer) and untouched on success. Each runs once through ucsan and once
// through libc on the same input. Everything runs twice: alone (nothing is
// watched) and with a second thread, every code site watched on first use
// and a watch every few accesses, so the wrappers' checks really run.
//
// CFLAGS: -O2 -g -std=gnu11 -Wall -Wextra -Werror
// OPTIONS: skip_watch=3 cold_site_limit=0 cold_watches=1000
// OPTIONS: udelay_task=2 cold_udelay=2 cold_budget_percent=100 cold_process_percent=100
// TIMEOUT: 120
// EXPECT-STDOUT: ^io: [0-9]+ checks, 0 failed$
// NOT: UCSAN

#include "interpose.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

#define BUF 64

static char ours[BUF], theirs[BUF];

static void prefill(void)
{
	for (int i = 0; i < BUF; i++)
		ours[i] = theirs[i] = (char)('a' + i % 26);
}

/* Both sides of one call: the result, errno and the buffer after. */
#define SAME(what, ret_o, ret_l)                                                              \
	do {                                                                                  \
		const long o_ = (long)(ret_o), l_ = (long)(ret_l);                            \
		IP_EXPECT(o_ == l_, "%s: %ld from ucsan, %ld from libc", what, o_, l_);       \
		IP_EXPECT(!memcmp(ours, theirs, BUF), "%s: the buffers differ", what);        \
	} while (0)

/* A file holding BUF known bytes, for the positioned reads and stdio. */
static int data_file(void)
{
	char path[] = "/tmp/ucsan-io-XXXXXX";
	int fd = mkstemp(path);
	char bytes[BUF];
	if (fd < 0)
		e2e_die("mkstemp", errno);
	unlink(path);
	for (int i = 0; i < BUF; i++)
		bytes[i] = (char)(i * 7 + 1);
	if (write(fd, bytes, BUF) != BUF)
		e2e_die("write", errno);
	return fd;
}

static void reads(void)
{
	ssize_t (*o_read)(int, void *, size_t) = ip_ucsan_sym("read"), (*l_read)(int, void *, size_t) = ip_libc_sym("read");
	ssize_t (*o_pread)(int, void *, size_t, off_t) = ip_ucsan_sym("pread");
	ssize_t (*l_pread)(int, void *, size_t, off_t) = ip_libc_sym("pread");
	ssize_t (*o_pread64)(int, void *, size_t, off64_t) = ip_ucsan_sym("pread64");
	ssize_t (*l_pread64)(int, void *, size_t, off64_t) = ip_libc_sym("pread64");
	ssize_t (*o_readv)(int, const struct iovec *, int) = ip_ucsan_sym("readv");
	ssize_t (*l_readv)(int, const struct iovec *, int) = ip_libc_sym("readv");
	ssize_t (*o_preadv)(int, const struct iovec *, int, off_t) = ip_ucsan_sym("preadv");
	ssize_t (*l_preadv)(int, const struct iovec *, int, off_t) = ip_libc_sym("preadv");
	ssize_t (*o_read_chk)(int, void *, size_t, size_t) = ip_ucsan_sym("__read_chk");
	ssize_t (*l_read_chk)(int, void *, size_t, size_t) = ip_libc_sym("__read_chk");
	ssize_t (*o_pread_chk)(int, void *, size_t, off_t, size_t) = ip_ucsan_sym("__pread_chk");
	ssize_t (*l_pread_chk)(int, void *, size_t, off_t, size_t) = ip_libc_sym("__pread_chk");
	const int fd = data_file();
	const size_t counts[] = { 0, 1, 7, 40, BUF };
	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		const size_t n = counts[c];
		for (off_t off = 0; off < BUF; off += 21) {
			prefill();
			errno = IP_SENTINEL;
			ssize_t a = o_pread(fd, ours, n, off), b = l_pread(fd, theirs, n, off);
			IP_EXPECT(errno == IP_SENTINEL, "pread touched errno");
			SAME("pread", a, b);
			prefill();
			SAME("pread64", o_pread64(fd, ours, n, off), l_pread64(fd, theirs, n, off));
			prefill();
			SAME("__pread_chk", o_pread_chk(fd, ours, n, off, BUF), l_pread_chk(fd, theirs, n, off, BUF));
			prefill();
			struct iovec vo[2] = { { ours, n / 2 }, { ours + 32, n - n / 2 } };
			struct iovec vl[2] = { { theirs, n / 2 }, { theirs + 32, n - n / 2 } };
			SAME("preadv", o_preadv(fd, vo, 2, off), l_preadv(fd, vl, 2, off));
			prefill();
			lseek(fd, off, SEEK_SET);
			a = o_read(fd, ours, n);
			lseek(fd, off, SEEK_SET);
			SAME("read", a, l_read(fd, theirs, n));
			prefill();
			lseek(fd, off, SEEK_SET);
			a = o_read_chk(fd, ours, n, BUF);
			lseek(fd, off, SEEK_SET);
			SAME("__read_chk", a, l_read_chk(fd, theirs, n, BUF));
			prefill();
			lseek(fd, off, SEEK_SET);
			a = o_readv(fd, vo, 2);
			lseek(fd, off, SEEK_SET);
			SAME("readv", a, l_readv(fd, vl, 2));
		}
	}
	/* Failures: a closed descriptor, an empty non-blocking pipe, a bad buffer. */
	int p[2];
	if (pipe(p) != 0 || fcntl(p[0], F_SETFL, O_NONBLOCK) != 0)
		e2e_die("pipe", errno);
	int err_o, err_l;
	prefill();
	errno = 0, o_read(p[0], ours, 8), err_o = errno;
	errno = 0, l_read(p[0], theirs, 8), err_l = errno;
	IP_EXPECT(err_o == EAGAIN && err_l == EAGAIN, "read of an empty pipe: errno %d / %d", err_o, err_l);
	errno = 0, o_read(-1, ours, 8), err_o = errno;
	errno = 0, l_read(-1, theirs, 8), err_l = errno;
	IP_EXPECT(err_o == EBADF && err_l == EBADF, "read of a bad fd: errno %d / %d", err_o, err_l);
	errno = 0, o_pread(fd, (void *)16, 2, 0), err_o = errno;
	errno = 0, l_pread(fd, (void *)16, 2, 0), err_l = errno;
	IP_EXPECT(err_o == EFAULT && err_l == EFAULT, "read into a bad buffer: errno %d / %d", err_o, err_l);
	close(p[0]);
	close(p[1]);
	close(fd);
}

static void writes(void)
{
	ssize_t (*o_write)(int, const void *, size_t) = ip_ucsan_sym("write");
	ssize_t (*o_pwrite)(int, const void *, size_t, off_t) = ip_ucsan_sym("pwrite");
	ssize_t (*o_pwrite64)(int, const void *, size_t, off64_t) = ip_ucsan_sym("pwrite64");
	ssize_t (*o_writev)(int, const struct iovec *, int) = ip_ucsan_sym("writev");
	ssize_t (*o_pwritev)(int, const struct iovec *, int, off_t) = ip_ucsan_sym("pwritev");
	const int fd = data_file();
	char back[BUF];
	prefill();
	IP_EXPECT(o_pwrite(fd, ours, 10, 3) == 10, "pwrite");
	IP_EXPECT(o_pwrite64(fd, ours + 10, 10, 13) == 10, "pwrite64");
	struct iovec v[2] = { { ours + 20, 5 }, { ours + 25, 15 } };
	IP_EXPECT(o_pwritev(fd, v, 2, 23) == 20, "pwritev");
	IP_EXPECT(pread(fd, back, 40, 3) == 40 && !memcmp(back, ours, 40), "pwrite family: the file differs");
	lseek(fd, 0, SEEK_SET);
	IP_EXPECT(o_write(fd, ours, 3) == 3 && o_writev(fd, v, 2) == 20, "write, writev");
	IP_EXPECT(pread(fd, back, 23, 0) == 23 && !memcmp(back, ours, 3) && !memcmp(back + 3, ours + 20, 20),
		  "write, writev: the file differs");
	errno = IP_SENTINEL;
	IP_EXPECT(o_write(fd, ours, 0) == 0 && errno == IP_SENTINEL, "write of nothing");
	errno = 0;
	IP_EXPECT(o_write(-1, ours, 4) == -1 && errno == EBADF, "write to a bad fd: errno %d", errno);
	close(fd);
}

static void sockets(void)
{
	ssize_t (*o_recv)(int, void *, size_t, int) = ip_ucsan_sym("recv");
	ssize_t (*o_recvfrom)(int, void *, size_t, int, struct sockaddr *, socklen_t *) = ip_ucsan_sym("recvfrom");
	ssize_t (*o_recvmsg)(int, struct msghdr *, int) = ip_ucsan_sym("recvmsg");
	ssize_t (*o_send)(int, const void *, size_t, int) = ip_ucsan_sym("send");
	ssize_t (*o_sendto)(int, const void *, size_t, int, const struct sockaddr *, socklen_t) = ip_ucsan_sym("sendto");
	ssize_t (*o_sendmsg)(int, const struct msghdr *, int) = ip_ucsan_sym("sendmsg");
	ssize_t (*o_recv_chk)(int, void *, size_t, size_t, int) = ip_ucsan_sym("__recv_chk");
	int s[2];
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, s) != 0)
		e2e_die("socketpair", errno);
	prefill();
	char got[BUF];
	IP_EXPECT(o_send(s[0], ours, 12, 0) == 12 && o_recv(s[1], got, BUF, 0) == 12 && !memcmp(got, ours, 12),
		  "send, recv");
	IP_EXPECT(o_sendto(s[0], ours + 1, 9, 0, NULL, 0) == 9 && o_recvfrom(s[1], got, BUF, 0, NULL, NULL) == 9 &&
			  !memcmp(got, ours + 1, 9),
		  "sendto, recvfrom");
	struct iovec vs[2] = { { ours, 4 }, { ours + 30, 6 } }, vr[2] = { { got, 3 }, { got + 3, 20 } };
	struct msghdr ms = { .msg_iov = vs, .msg_iovlen = 2 }, mr = { .msg_iov = vr, .msg_iovlen = 2 };
	IP_EXPECT(o_sendmsg(s[0], &ms, 0) == 10 && o_recvmsg(s[1], &mr, 0) == 10 && !memcmp(got, ours, 4) &&
			  !memcmp(got + 4, ours + 30, 6),
		  "sendmsg, recvmsg");
	/* A datagram longer than the buffer: MSG_TRUNC reports its length,
	 * and only the buffer's bytes are stored. */
	memset(got, 0, BUF);
	IP_EXPECT(o_send(s[0], ours, 20, 0) == 20 && o_recv_chk(s[1], got, 5, BUF, MSG_TRUNC) == 20 &&
			  !memcmp(got, ours, 5) && got[5] == 0,
		  "recv with MSG_TRUNC");
	errno = 0;
	IP_EXPECT(o_recv(s[1], got, BUF, MSG_DONTWAIT) == -1 && errno == EAGAIN, "recv of nothing: errno %d", errno);
	close(s[0]);
	close(s[1]);
}

static void stdio(void)
{
	size_t (*o_fread)(void *, size_t, size_t, FILE *) = ip_ucsan_sym("fread");
	size_t (*l_fread)(void *, size_t, size_t, FILE *) = ip_libc_sym("fread");
	size_t (*o_fwrite)(const void *, size_t, size_t, FILE *) = ip_ucsan_sym("fwrite");
	char *(*o_fgets)(char *, int, FILE *) = ip_ucsan_sym("fgets");
	char *(*l_fgets)(char *, int, FILE *) = ip_libc_sym("fgets");
	char *(*o_fgets_chk)(char *, size_t, int, FILE *) = ip_ucsan_sym("__fgets_chk");
	size_t (*o_fread_chk)(void *, size_t, size_t, size_t, FILE *) = ip_ucsan_sym("__fread_chk");
	FILE *f = tmpfile();
	if (!f)
		e2e_die("tmpfile", errno);
	prefill();
	IP_EXPECT(o_fwrite("line one\nline two\nrest", 1, 23, f) == 23, "fwrite");
	const int sizes[] = { 1, 2, 5, 9, 10, 40 };
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		prefill();
		rewind(f);
		char *a = o_fgets(ours, sizes[i], f);
		rewind(f);
		char *b = l_fgets(theirs, sizes[i], f);
		SAME("fgets", a ? a - ours : -1, b ? b - theirs : -1);
		prefill();
		rewind(f);
		size_t ra = o_fread(ours, 3, (size_t)sizes[i], f);
		rewind(f);
		SAME("fread", ra, l_fread(theirs, 3, (size_t)sizes[i], f));
	}
	prefill();
	rewind(f);
	IP_EXPECT(o_fgets_chk(ours, BUF, 40, f) == ours && !strcmp(ours, "line one\n"), "__fgets_chk");
	IP_EXPECT(o_fread_chk(ours, BUF, 1, 40, f) == 14 && !memcmp(ours, "line two\nrest", 13), "__fread_chk");
	IP_EXPECT(o_fgets(ours, BUF, f) == NULL && feof(f), "fgets at the end");
	fclose(f);
}

static void all(void)
{
	reads();
	writes();
	sockets();
	stdio();
}

int main(void)
{
	e2e_require_runtime();
	IP_EXPECT((void *)read == ip_ucsan_sym("read"), "the program's read is not ucsan's");
	all();			/* alone: ucsan watches nothing */
	e2e_keep_company();	/* now the wrappers' checks run, and watch */
	all();
	return ip_finish("io");
}
