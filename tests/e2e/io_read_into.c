// A read() from a pipe into a global message buffer racing with a parser
// that reads the buffer without a lock. The kernel's stores into the
// buffer run uninstrumented: ucsan's read() interposer checks the bytes
// the call returned as a write at the caller's line, and the report names
// it.
//
// TRIES: 10
// EXIT: 66
// OPTIONS: halt_on_error=1
// EXPECT: ^BUG: UCSAN: data-race in (parse_msg / receive_msg|receive_msg / parse_msg)$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ receive_msg\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*io_read_into\.c:[0-9]+$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ parse_msg\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*io_read_into\.c:[0-9]+$
// EXPECT: ^location: global 'g_msg' of size 32
// NOT: ^ (read|__read_chk)\+0x

#include <unistd.h>

#include "e2e.h"

char g_msg[32];
static int pipe_fd[2];

NOINLINE long parse_msg(void)
{
	return g_msg[0] + g_msg[7];
}

NOINLINE void receive_msg(long i)
{
	char out[sizeof(g_msg)] = { (char)i, 1, 2, 3, 4, 5, 6, (char)(i >> 8) };

	if (write(pipe_fd[1], out, sizeof(out)) != (ssize_t)sizeof(out) ||
	    read(pipe_fd[0], g_msg, sizeof(g_msg)) != (ssize_t)sizeof(g_msg))
		e2e_die("pipe", 0);
}

int main(void)
{
	if (pipe(pipe_fd) != 0)
		e2e_die("pipe", 0);
	e2e_race_rw(parse_msg, receive_msg, 4000);
	return 0;
}
