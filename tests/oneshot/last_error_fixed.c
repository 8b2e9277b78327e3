// Fixed twin of last_error.c: the message pointer is stored and loaded with
// atomic operations (release/acquire), as the constant strings need.
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

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
	__atomic_store_n(&c->last_error, msg, __ATOMIC_RELEASE);
}

NOINLINE void print_health(const struct client *c, int round)
{
	const char *e = __atomic_load_n(&c->last_error, __ATOMIC_ACQUIRE);

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
