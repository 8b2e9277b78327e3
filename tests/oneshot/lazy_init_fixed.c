// Fixed twin of lazy_init.c: the cached pointer is set through pthread_once(),
// which also orders the store before every caller's load.
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

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
static pthread_once_t cfg_once = PTHREAD_ONCE_INIT;

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

static void init_config(void)
{
	cfg = load_config();
}

NOINLINE const struct config *get_config(void)
{
	pthread_once(&cfg_once, init_config);
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
