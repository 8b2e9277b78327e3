// Fixed twin of once_flag.c: the generator is seeded through pthread_once().
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "oneshot.h"

static pthread_once_t seed_once = PTHREAD_ONCE_INIT;

static void seed_random(void)
{
	srandom((unsigned int)(now_us() ^ getpid()));
}

/* Exponential backoff with jitter. */
NOINLINE long retry_delay_us(int attempt)
{
	pthread_once(&seed_once, seed_random);
	return (10L << attempt) + random() % 10;
}

struct uploader {
	pthread_t tid;
	int parts;
	int sent, retries;
};

/* Upload one part; the server throttles every fifth request. */
static int upload_part(int part, int attempt)
{
	spin_for_us(50);
	return part % 5 == 1 && attempt == 0 ? -1 : 0;
}

static void *uploader_main(void *arg)
{
	struct uploader *u = arg;
	int part, attempt;

	for (part = 0; part < u->parts; part++) {
		for (attempt = 0; upload_part(part, attempt) != 0; attempt++) {
			u->retries++;
			sleep_us(retry_delay_us(attempt));
		}
		u->sent++;
	}
	return NULL;
}

int main(void)
{
	struct uploader u[2] = { { .parts = 40 }, { .parts = 40 } };
	int i;

	for (i = 0; i < 2; i++)
		pthread_create(&u[i].tid, NULL, uploader_main, &u[i]);
	for (i = 0; i < 2; i++) {
		pthread_join(u[i].tid, NULL);
		printf("uploader %d: %d parts, %d retries\n", i, u[i].sent,
		       u[i].retries);
	}
	return 0;
}
