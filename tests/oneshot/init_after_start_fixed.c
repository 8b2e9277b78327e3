// Fixed twin of init_after_start.c: the server is fully initialized before
// the acceptor thread is created.
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

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
	return s->max_clients && s->clients >= s->max_clients;
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
	s->max_clients = max_clients;
	if (pthread_create(&s->acceptor, NULL, acceptor_main, s) != 0)
		return -1;
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
