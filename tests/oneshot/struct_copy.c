// Bug: a struct copied without the lock that protects it.  The request
// thread counts requests under srv->lock; the status reporter takes a
// "snapshot" with a plain struct assignment, because it is only for display:
//
//     struct server_stats snap = srv->stats;
//
// The copy reads `requests` while the request thread writes it: a data race
// (and the snapshot can be torn between fields).
//
// TRIES: 30
// (make oneshot measures how often one run finds it)
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in count_request / report_stats$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of (8|24) bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ report_stats\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*struct_copy\.c:61$
// EXPECT-FRAME: ^(write|read-write) to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ count_request\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*struct_copy\.c:45$

#include <pthread.h>
#include <stdio.h>

#include "oneshot.h"

struct server_stats {
	unsigned long requests;
	unsigned long errors;
	long long started_us;
};

struct server {
	pthread_mutex_t lock;
	struct server_stats stats;
	int stopping;
	unsigned long bytes;
};

/* Serve one request; returns the response size or -1. */
static int serve(unsigned long n)
{
	spin_for_us(25);
	return (int)(n % 7) * 100;
}

NOINLINE void count_request(struct server *srv, int rc)
{
	pthread_mutex_lock(&srv->lock);
	srv->stats.requests++;		/* racy write (under the lock) */
	if (rc < 0)
		srv->stats.errors++;
	pthread_mutex_unlock(&srv->lock);
}

NOINLINE void report_stats(struct server *srv)
{
	struct server_stats snap;
	long long up;

#ifdef FIXED
	pthread_mutex_lock(&srv->lock);
	snap = srv->stats;
	pthread_mutex_unlock(&srv->lock);
#else
	snap = srv->stats;		/* racy read: no lock */
#endif
	up = now_us() - snap.started_us;
	printf("up %lld us: %lu requests, %lu errors\n", up, snap.requests,
	       snap.errors);
}

static int stopping(struct server *srv)
{
	int s;

	pthread_mutex_lock(&srv->lock);
	s = srv->stopping;
	pthread_mutex_unlock(&srv->lock);
	return s;
}

static void *request_main(void *arg)
{
	struct server *srv = arg;
	unsigned long n = 0;

	while (!stopping(srv)) {
		int rc = serve(n++);

		count_request(srv, rc);
		if (rc > 0)
			srv->bytes += (unsigned long)rc;
	}
	return NULL;
}

int main(void)
{
	static struct server srv = { .lock = PTHREAD_MUTEX_INITIALIZER };
	pthread_t t;
	int i;

	srv.stats.started_us = now_us();
	pthread_create(&t, NULL, request_main, &srv);
	for (i = 0; i < 5; i++) {
		sleep_us(1000);
		report_stats(&srv);
	}
	pthread_mutex_lock(&srv.lock);
	srv.stopping = 1;
	pthread_mutex_unlock(&srv.lock);
	pthread_join(t, NULL);
	printf("served %lu bytes\n", srv.bytes);
	return 0;
}
