// Bug: a "last error" string pointer swapped without synchronization.  The
// fetcher thread records why the last request failed by storing a pointer
// to a constant message; the health check in main reads it to print it:
//
//     c->last_error = "connection reset";        ...    e = c->last_error;
//
// Each side is a single aligned pointer access, so nobody bothered with a
// lock or an atomic, but the two are a data race all the same.
//
// TRIES: 20
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in client_set_error / print_health$
// EXPECT: ^read to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT: ^write to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^write to 0x => ^ client_set_error\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*last_error\.c:41$
// EXPECT-FRAME: ^read to 0x => ^ print_health\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*last_error\.c:50$

#include <pthread.h>
#include <stdio.h>

#include "oneshot.h"

static const char *const reasons[] = {
	"connection reset", "timed out", "bad gateway", "TLS handshake failed",
};

struct client {
	const char *last_error;
	const char *url;
};

struct fetch_stats {
	int ok, failed;
};

NOINLINE void client_set_error(struct client *c, const char *msg)
{
#ifdef FIXED
	__atomic_store_n(&c->last_error, msg, __ATOMIC_RELEASE);
#else
	c->last_error = msg;		/* racy write */
#endif
}

NOINLINE void print_health(const struct client *c, int round)
{
#ifdef FIXED
	const char *e = __atomic_load_n(&c->last_error, __ATOMIC_ACQUIRE);
#else
	const char *e = c->last_error;	/* racy read */
#endif

	printf("health %d: %s: %s\n", round, c->url, e ? e : "ok");
}

/* Fetch one URL; fails now and then, like a real network. */
static int fetch(int i)
{
	spin_for_us(30);
	return i % 9 == 4 ? -(i / 9 % 4) - 1 : 0;
}

static void *fetcher_main(void *arg)
{
	struct client *c = arg;
	static struct fetch_stats st;
	int i;

	for (i = 0; i < 200; i++) {
		int rc = fetch(i);

		if (rc < 0) {
			client_set_error(c, reasons[-rc - 1]);
			st.failed++;
		} else {
			st.ok++;
		}
	}
	return &st;
}

int main(void)
{
	static struct client c = { .url = "http://example.com/feed" };
	struct fetch_stats *st;
	pthread_t t;
	void *ret;
	int round;

	pthread_create(&t, NULL, fetcher_main, &c);
	for (round = 0; round < 6; round++) {
		sleep_us(1000);
		print_health(&c, round);
	}
	pthread_join(t, &ret);
	st = ret;
	printf("%d ok, %d failed\n", st->ok, st->failed);
	return 0;
}
