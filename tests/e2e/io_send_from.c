// A send() of a global reply buffer while another thread still fills it:
// the kernel's loads from the buffer run uninstrumented, and ucsan's
// send() interposer checks the bytes sent as a read at the caller's line.
// Built with _FORTIFY_SOURCE too, where the receiving side is __recv_chk().
//
// CFLAGS: -O2 -g -D_FORTIFY_SOURCE=2
// TRIES: 10
// EXIT: 66
// OPTIONS: halt_on_error=1
// EXPECT: ^BUG: UCSAN: data-race in (fill_reply / send_reply|send_reply / fill_reply)$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ send_reply\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*io_send_from\.c:[0-9]+$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ fill_reply\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*io_send_from\.c:[0-9]+$
// NOT: ^ (send|recv|__recv_chk)\+0x

#include <sys/socket.h>

#include "e2e.h"

char g_reply[64];
static int sock[2];

NOINLINE void fill_reply(long i)
{
	g_reply[i & 63] = (char)i;
}

NOINLINE void send_reply(long i)
{
	char in[sizeof(g_reply)];

	(void)i;
	if (send(sock[0], g_reply, sizeof(g_reply), 0) != (ssize_t)sizeof(g_reply) ||
	    recv(sock[1], in, sizeof(in), MSG_WAITALL) != (ssize_t)sizeof(in))
		e2e_die("socketpair", 0);
}

int main(void)
{
	struct e2e_race race = E2E_RACE_STEPS(fill_reply, send_reply);

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sock) != 0)
		e2e_die("socketpair", 0);
	e2e_race_for(&race, 4000);
	return 0;
}
