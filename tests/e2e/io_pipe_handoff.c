// No race: a producer read()s each message from a pipe into a global
// buffer, hands the buffer to a consumer by writing a token down a second
// pipe and waits for the consumer's token back before the next read(); the
// consumer parses the buffer between the two. The pipes order every access
// (ucsan sees them as nothing but calls that block), and no two overlap in
// time: with every access watched, the interposed read() and write()
// included, nothing is reported.
//
// OPTIONS: skip_watch=0 udelay_task=20 print_stats=1
// TIMEOUT: 120
// REPEAT: 2
// EXPECT: ^UCSAN: stats: setup_watchpoints: [0-9]{5,}$
// EXPECT: ^UCSAN: stats: data_races: 0$
// NOT: BUG|UCSAN: reported

#include <string.h>
#include <unistd.h>

#include "e2e.h"

#define MESSAGES 3000

static char g_buf[48];
static int feed[2], to_consumer[2], to_producer[2];
static long parsed;

static void must(int ok)
{
	if (!ok)
		e2e_die("pipe", 0);
}

static void *consumer(void *arg)
{
	char token;

	(void)arg;
	for (int i = 0; i < MESSAGES; i++) {
		must(read(to_consumer[0], &token, 1) == 1);
		for (size_t k = 0; k < sizeof(g_buf); k++)
			parsed += g_buf[k];
		must(write(to_producer[1], &token, 1) == 1);
	}
	return NULL;
}

int main(void)
{
	char msg[sizeof(g_buf)], token = 't';

	must(pipe(feed) == 0 && pipe(to_consumer) == 0 && pipe(to_producer) == 0);
	pthread_t t = e2e_spawn(consumer, NULL);
	for (int i = 0; i < MESSAGES; i++) {
		memset(msg, i & 0x3f, sizeof(msg));
		must(write(feed[1], msg, sizeof(msg)) == (ssize_t)sizeof(msg));
		must(read(feed[0], g_buf, sizeof(g_buf)) == (ssize_t)sizeof(g_buf));
		must(write(to_consumer[1], &token, 1) == 1);
		must(read(to_producer[0], &token, 1) == 1);
	}
	e2e_join(t);
	printf("parsed %ld\n", parsed);
	return 0;
}
