// Bug: a field initialized after the thread that uses it was started.
// server_start() launches the acceptor first and only then sets the
// connection limit, which the acceptor reads for every new connection:
//
//     pthread_create(&s->acceptor, NULL, acceptor_main, s);
//     s->max_clients = max_clients;
//
// Nothing orders that store with the acceptor's loads: a data race (and the
// first connections may be accepted with no limit at all).
//
// TRIES: 12
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in at_capacity / server_start$
// EXPECT: ^read to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT: ^write to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^read to 0x => ^ at_capacity\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*init_after_start\.c:35$
// EXPECT-FRAME: ^write to 0x => ^ server_start\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*init_after_start\.c:65$

#include <pthread.h>
#include <stdio.h>

#include "oneshot.h"

struct server {
	pthread_t acceptor;
	int port;
	int max_clients;		/* 0: no limit */
	int clients;			/* acceptor thread only */
	int refused;			/* acceptor thread only */
	int backlog;			/* connections waiting, acceptor only */
};

NOINLINE int at_capacity(const struct server *s)
{
	return s->max_clients && s->clients >= s->max_clients;	/* racy read */
}

static void *acceptor_main(void *arg)
{
	struct server *s = arg;

	while (s->backlog > 0) {
		spin_for_us(15);	/* accept() */
		if (s->backlog-- % 4 == 0 && s->clients > 0)
			s->clients--;	/* a client hung up */
		if (at_capacity(s))
			s->refused++;
		else
			s->clients++;
	}
	return NULL;
}

NOINLINE int server_start(struct server *s, int port, int max_clients)
{
	s->port = port;
	s->backlog = 300;
#ifdef FIXED
	s->max_clients = max_clients;
	if (pthread_create(&s->acceptor, NULL, acceptor_main, s) != 0)
		return -1;
#else
	if (pthread_create(&s->acceptor, NULL, acceptor_main, s) != 0)
		return -1;
	s->max_clients = max_clients;	/* racy write: too late */
#endif
	return 0;
}

int main(void)
{
	static struct server s;

	if (server_start(&s, 8080, 20) != 0)
		return 1;
	pthread_join(s.acceptor, NULL);
	printf("port %d: %d clients, %d refused\n", s.port, s.clients, s.refused);
	return 0;
}
