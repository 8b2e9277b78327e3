// A download on its own thread; the UI thread sleeps a millisecond, reads
// the bytes received so far without the lock, then joins the download.
// The worker adds the body under its lock once the 3 ms round trip is
// over, while the UI thread is in pthread_join(): the store is unordered
// with the read before the join, and comes long after that read's watch
// (as long as the sleep before it) has ended. The read is held through
// the join (watch_through_waits=2: joins hold only when the program's
// synchronization is all visible to the runtime). Measured, 10 runs
// each: 10 / 10 (gcc / clang); with watch_through_waits=1 (the default),
// 0 / 0.
//
// OPTIONS: watch_through_waits=2
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in (add_chunk / bytes_received|bytes_received / add_chunk)$
// EXPECT: ^ add_chunk\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*held_read_join\.c:39$
// EXPECT: ^ bytes_received\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*held_read_join\.c:45$
// EXPECT-FRAME: held_read_join\.c:45$ => ^ main\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*held_read_join\.c:64$
// NOT: race at unknown origin

#include <unistd.h>

#include "e2e.h"

#define CHUNKS 4
#define CHUNK 2048

static struct {
	pthread_mutex_t lock;
	char body[CHUNKS * CHUNK];
	long received;
} download = { PTHREAD_MUTEX_INITIALIZER, { 0 }, 0 };

/* Lines 39, 45 and 64 are asserted above. */
NOINLINE void add_chunk(const char *chunk)
{
	pthread_mutex_lock(&download.lock);
	memcpy(download.body + download.received, chunk, CHUNK);
	download.received += CHUNK;
	pthread_mutex_unlock(&download.lock);
}

NOINLINE long bytes_received(void)
{
	return download.received;
}

static void *fetch(void *arg)
{
	static char chunk[CHUNK];
	(void)arg;
	usleep(3000); /* the round trip */
	for (int i = 0; i < CHUNKS; i++) {
		memset(chunk, 'a' + i, sizeof(chunk));
		add_chunk(chunk);
	}
	return NULL;
}

int main(void)
{
	pthread_t t = e2e_spawn(fetch, NULL);
	e2e_sleep_ms(1);
	const long percent = bytes_received() * 100 / (CHUNKS * CHUNK);
	e2e_join(t);
	printf("%ld%% then %c\n", percent, download.body[CHUNKS * CHUNK - 1]);
	return 0;
}
