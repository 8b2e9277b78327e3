// Bug: lazy initialization of a plain pointer.  get_config() looks the
// active profile up on first use and caches the result in a static pointer:
//
//     if (!cfg) cfg = load_config();
//
// Fine while the program had one thread; now two request threads start
// together and both call it: one thread's check reads `cfg` while the other
// stores it.  (The profiles themselves are constant, so the only shared
// write is the cached pointer.)
//
// TRIES: 12
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in get_config / get_config$
// EXPECT: ^read to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT: ^write to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^read to 0x => ^ get_config\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*lazy_init\.c:67$
// EXPECT-FRAME: ^write to 0x => ^ get_config\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*lazy_init\.c:68$

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oneshot.h"

struct config {
	const char *name;
	int max_batch;
	int work_us;
};

static const struct config profiles[] = {
	{ "default", 8, 40 },
	{ "small", 4, 20 },
	{ "large", 32, 80 },
};

static const struct config *cfg;

static const struct config *load_config(void)
{
	const char *want = getenv("APP_PROFILE");
	size_t i;

	if (!want)
		return &profiles[0];
	for (i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++)
		if (strcmp(profiles[i].name, want) == 0)
			return &profiles[i];
	return &profiles[0];
}

#ifdef FIXED
static pthread_once_t cfg_once = PTHREAD_ONCE_INIT;

static void init_config(void)
{
	cfg = load_config();
}
#endif

NOINLINE const struct config *get_config(void)
{
#ifdef FIXED
	pthread_once(&cfg_once, init_config);
#else
	if (!cfg)			/* racy read */
		cfg = load_config();	/* racy write */
#endif
	return cfg;
}

struct request_thread {
	pthread_t tid;
	int requests;
	long items;
};

static long handle_request(int n)
{
	const struct config *c = get_config();
	int items = n % c->max_batch + 1;

	spin_for_us((long)c->work_us * items / 4);
	return items;
}

static void *request_main(void *arg)
{
	struct request_thread *rt = arg;
	int i;

	for (i = 0; i < rt->requests; i++)
		rt->items += handle_request(i);
	return NULL;
}

int main(void)
{
	struct request_thread rt[2] = { { .requests = 40 }, { .requests = 40 } };
	int i;

	for (i = 0; i < 2; i++)
		pthread_create(&rt[i].tid, NULL, request_main, &rt[i]);
	for (i = 0; i < 2; i++)
		pthread_join(rt[i].tid, NULL);
	printf("profile %s: %ld + %ld items\n", get_config()->name,
	       rt[0].items, rt[1].items);
	return 0;
}
