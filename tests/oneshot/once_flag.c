// Bug: pthread_once() replaced by a hand-rolled plain bool.  The retry
// helper seeds the random generator on first use:
//
//     if (!seeded) { srandom(...); seeded = true; }
//
// Two uploader threads hit their first retry at about the same time: one
// reads `seeded` while the other sets it (and both may seed).
//
// TRIES: 24
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in retry_delay_us / retry_delay_us$
// EXPECT: ^read to 0x[0-9a-f]+ of 1 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT: ^write to 0x[0-9a-f]+ of 1 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^read to 0x => ^ retry_delay_us\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*once_flag\.c:42$
// EXPECT-FRAME: ^write to 0x => ^ retry_delay_us\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*once_flag\.c:44$

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "oneshot.h"

#ifdef FIXED
static pthread_once_t seed_once = PTHREAD_ONCE_INIT;

static void seed_random(void)
{
	srandom((unsigned int)(now_us() ^ getpid()));
}
#else
static bool seeded;
#endif

/* Exponential backoff with jitter. */
NOINLINE long retry_delay_us(int attempt)
{
#ifdef FIXED
	pthread_once(&seed_once, seed_random);
#else
	if (!seeded) {			/* racy read */
		srandom((unsigned int)(now_us() ^ getpid()));
		seeded = true;		/* racy write */
	}
#endif
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
