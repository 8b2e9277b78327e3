// A lazily loaded configuration behind a double-checked lock. The loader
// holds the lock for 4 ms while it parses; the other thread comes 1 ms
// later, reads the plain pointer unlocked (still NULL), and blocks on the
// lock. The loader's store of the pointer and that read are 3 ms apart,
// far beyond any stall, yet unordered: the reader released nothing since
// its read. Its read is held through the lock wait (watch_through_waits),
// and the loader, which owns the lock, meets it with its store. Measured,
// 10 runs each: 10 / 10 (gcc / clang); with watch_through_waits=0, 0 / 0.
//
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in get_config / get_config$
// EXPECT: ^write to 0x[0-9a-f]+ of 8 bytes by thread
// EXPECT: ^ get_config\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*held_read_lock\.c:43$
// EXPECT: ^read to 0x[0-9a-f]+ of 8 bytes by thread
// EXPECT: ^ get_config\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*held_read_lock\.c:34$
// EXPECT: ^value changed: 0x0000000000000000 -> 0x
// NOT: race at unknown origin

#include <unistd.h>

#include "e2e.h"

struct config {
	int port;
};

static struct config *config;
static pthread_mutex_t config_lock = PTHREAD_MUTEX_INITIALIZER;

/* Lines 34 and 43 are asserted above. */
NOINLINE struct config *get_config(void)
{
	struct config *c = config;
	if (!c) {
		pthread_mutex_lock(&config_lock);
		if (!config) {
			struct config *fresh = malloc(sizeof(*fresh));
			if (!fresh)
				e2e_die("malloc", ENOMEM);
			fresh->port = 8443;
			e2e_sleep_ms(4); /* parsing */
			config = fresh;
		}
		c = config;
		pthread_mutex_unlock(&config_lock);
	}
	return c;
}

static void *subsystem(void *arg)
{
	if (arg)
		e2e_sleep_ms(1);
	return get_config();
}

int main(void)
{
	pthread_t loader = e2e_spawn(subsystem, NULL);
	pthread_t late = e2e_spawn(subsystem, (void *)1);
	e2e_join(loader);
	e2e_join(late);
	printf("%d\n", get_config()->port);
	free(config);
	return 0;
}
