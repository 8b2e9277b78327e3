// Bug: double-checked locking with a plain flag.  A module registers itself
// in a global registry on first use; to keep the common path lock-free the
// flag is tested once without the lock and once with it:
//
//     if (m->registered) return;
//     lock(); if (!m->registered) { add(m); m->registered = 1; } unlock();
//
// The unlocked test reads the flag while another thread sets it under the
// lock: a data race (C11 requires an atomic with acquire/release here).
//
// TRIES: 12
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in module_register / module_register$
// EXPECT: ^read to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT: ^write to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^read to 0x => ^ module_register\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*dcl_flag\.c:48$
// EXPECT-FRAME: ^write to 0x => ^ module_register\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*dcl_flag\.c:61$

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#include "oneshot.h"

struct module {
	const char *name;
#ifdef FIXED
	atomic_int registered;
#else
	int registered;
#endif
};

struct registry {
	pthread_mutex_t lock;
	const struct module *mods[8];
	int count;
};

static struct registry registry = { .lock = PTHREAD_MUTEX_INITIALIZER };
static struct module compress_module = { .name = "compress" };

NOINLINE void module_register(struct module *m)
{
#ifdef FIXED
	if (atomic_load_explicit(&m->registered, memory_order_acquire))
#else
	if (m->registered)		/* racy read: no lock */
#endif
		return;
	pthread_mutex_lock(&registry.lock);
#ifdef FIXED
	if (!atomic_load_explicit(&m->registered, memory_order_relaxed)) {
#else
	if (!m->registered) {
#endif
		registry.mods[registry.count++] = m;
#ifdef FIXED
		atomic_store_explicit(&m->registered, 1, memory_order_release);
#else
		m->registered = 1;	/* racy write (under the lock) */
#endif
	}
	pthread_mutex_unlock(&registry.lock);
}

/* Run-length encode @in; registers the compression module on first use. */
static size_t compress_block(const unsigned char *in, size_t n, unsigned char *out)
{
	size_t i = 0, o = 0;

	module_register(&compress_module);
	while (i < n) {
		size_t run = 1;

		while (i + run < n && run < 255 && in[i + run] == in[i])
			run++;
		out[o++] = (unsigned char)run;
		out[o++] = in[i];
		i += run;
	}
	spin_for_us(50);		/* write the block out */
	return o;
}

struct writer {
	pthread_t tid;
	unsigned char seed;
	size_t in_bytes, out_bytes;
};

static void *writer_main(void *arg)
{
	struct writer *w = arg;
	unsigned char in[1024], out[2048];
	int blk;
	size_t i;

	for (blk = 0; blk < 30; blk++) {
		for (i = 0; i < sizeof(in); i++)
			in[i] = (unsigned char)(w->seed + (i / (blk % 7 + 1)));
		w->in_bytes += sizeof(in);
		w->out_bytes += compress_block(in, sizeof(in), out);
	}
	return NULL;
}

int main(void)
{
	struct writer w[2] = { { .seed = 1 }, { .seed = 2 } };
	int i;

	for (i = 0; i < 2; i++)
		pthread_create(&w[i].tid, NULL, writer_main, &w[i]);
	for (i = 0; i < 2; i++)
		pthread_join(w[i].tid, NULL);
	printf("%d module(s) registered; %zu -> %zu bytes\n", registry.count,
	       w[0].in_bytes + w[1].in_bytes, w[0].out_bytes + w[1].out_bytes);
	return 0;
}
