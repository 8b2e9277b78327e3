// Publication without a release: the writer initializes an object with a
// plain store, then publishes its pointer with a RELAXED store. On a weakly
// ordered CPU the reader may see the pointer before the data. Under
// weak_memory=1 the data store stays "in flight" past the publication and
// meets the reader's read of it: reported as (reordered).
//
// CFLAGS: -O2 -g --ucsan-weak-memory
// OPTIONS: weak_memory=1 skip_watch=0 udelay_task=20 halt_on_error=1
// TRIES: 10
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in consume / publish$
// EXPECT-FRAME: ^write \(reordered\) to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ publish\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*publish_relaxed\.c:36$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ consume\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*publish_relaxed\.c:[0-9]+$
// EXPECT: ^  \+-> reordered to: publish\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*publish_relaxed\.c:[0-9]+$

#include <ucsan/kernel.h>

#include "e2e.h"

#ifndef PUBLISH_ORDER
#define PUBLISH_ORDER __ATOMIC_RELAXED
#endif

struct obj {
	int data;
};

/* Never reused: a reader may still hold an old one. */
#define NOBJS (1 << 22)
static struct obj objs[NOBJS];
static struct obj *published;
static int busy;

NOINLINE void publish(struct obj *o, int v)
{
	o->data = v; /* line 36: the store that should be ordered before the publication */
#ifdef PUBLISH_WMB
	smp_wmb();
#endif
#if defined(PUBLISH_ONCE)
	WRITE_ONCE(published, o);
#elif defined(PUBLISH_STORE_RELEASE)
	smp_store_release(&published, o);
#else
	__atomic_store_n(&published, o, PUBLISH_ORDER);
#endif
	/* The writer goes on in the same function: each runtime entry here
	 * checks the still-pending data store again. */
	for (int i = 0; i < 200; i++)
		__atomic_fetch_add(&busy, 1, __ATOMIC_RELAXED);
}

NOINLINE long consume(void)
{
	struct obj *o = __atomic_load_n(&published, __ATOMIC_ACQUIRE);
	return o ? o->data : 0;
}

static void publish_next(long i)
{
	publish(&objs[i], (int)i);
}

#ifndef RUN_MS
#define RUN_MS 4000
#endif

int main(void)
{
	/* objs[1] to objs[NOBJS - 1], each published once. */
	struct e2e_race race = {
		.loop = { { NULL, publish_next, NOBJS - 1, 0 }, { consume, NULL, 0, 0 } }
	};

	e2e_race_for(&race, RUN_MS);
	return 0;
}
