// A readv() that fills a header and a body buffer, racing with a thread
// that reads the body without a lock: the interposer checks each buffer
// for the bytes that landed in it, so the race is on the second one.
//
// TRIES: 10
// EXIT: 66
// OPTIONS: halt_on_error=1
// EXPECT: ^BUG: UCSAN: data-race in (peek_body / receive_frame|receive_frame / peek_body)$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of 24 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ receive_frame\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*io_readv_split\.c:[0-9]+$
// EXPECT: ^location: global 'g_body' of size 64
// NOT: ^location: global 'g_head'
// NOT: ^ readv\+0x

#include <sys/uio.h>
#include <unistd.h>

#include "e2e.h"

char g_head[8];
char g_body[64];
static int pipe_fd[2];

NOINLINE long peek_body(void)
{
	return g_body[3];
}

NOINLINE void receive_frame(long i)
{
	/* 32 bytes: the 8-byte header and the first 24 of the body. */
	char frame[32] = { (char)i, 0, 0, 0, 0, 0, 0, 0, 'b', 'o', 'd', (char)(i >> 3) };
	struct iovec iov[2] = { { g_head, sizeof(g_head) }, { g_body, sizeof(g_body) } };

	if (write(pipe_fd[1], frame, sizeof(frame)) != (ssize_t)sizeof(frame) ||
	    readv(pipe_fd[0], iov, 2) != (ssize_t)sizeof(frame))
		e2e_die("pipe", 0);
}

int main(void)
{
	if (pipe(pipe_fd) != 0)
		e2e_die("pipe", 0);
	e2e_race_rw(peek_body, receive_frame, 4000);
	return 0;
}
