// A program that makes its reads as raw system calls announces them with
// the hooks of <sanitizer/linux_syscall_hooks.h>; the post hook of read()
// checks the bytes the kernel stored, at the hook's caller, so the race
// with a parser of the buffer is reported there. (gcc ships no such
// header: the test then declares the two hooks itself, as a program that
// carries its own copy does.)
//
// TRIES: 10
// EXIT: 66
// OPTIONS: halt_on_error=1
// EXPECT: ^BUG: UCSAN: data-race in (parse_raw / receive_raw|receive_raw / parse_raw)$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of 16 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ receive_raw\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*syscall_hooks\.c:[0-9]+$
// EXPECT: ^location: global 'g_raw' of size 16
// NOT: ^ __sanitizer_syscall

#define _GNU_SOURCE
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<sanitizer/linux_syscall_hooks.h>)
#include <sanitizer/linux_syscall_hooks.h>
#endif
#endif
#ifndef __sanitizer_syscall_post_read
void __sanitizer_syscall_pre_impl_read(long fd, long buf, long count);
void __sanitizer_syscall_post_impl_read(long res, long fd, long buf, long count);
#define __sanitizer_syscall_pre_read(fd, buf, count) \
	__sanitizer_syscall_pre_impl_read((long)(fd), (long)(buf), (long)(count))
#define __sanitizer_syscall_post_read(res, fd, buf, count) \
	__sanitizer_syscall_post_impl_read((res), (long)(fd), (long)(buf), (long)(count))
#endif

#include "e2e.h"

char g_raw[16];
static int pipe_fd[2];

NOINLINE long parse_raw(void)
{
	return g_raw[2];
}

NOINLINE void receive_raw(long i)
{
	char out[sizeof(g_raw)] = { (char)i, 2, (char)(i >> 4) };

	if (write(pipe_fd[1], out, sizeof(out)) != (ssize_t)sizeof(out))
		e2e_die("pipe", 0);
	__sanitizer_syscall_pre_read(pipe_fd[0], g_raw, sizeof(g_raw));
	long res = syscall(SYS_read, pipe_fd[0], g_raw, sizeof(g_raw));
	__sanitizer_syscall_post_read(res, pipe_fd[0], g_raw, sizeof(g_raw));
	if (res != (long)sizeof(g_raw))
		e2e_die("read", 0);
}

int main(void)
{
	if (pipe(pipe_fd) != 0)
		e2e_die("pipe", 0);
	e2e_race_rw(parse_raw, receive_raw, 4000);
	return 0;
}
