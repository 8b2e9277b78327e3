// A plain write racing with a plain read of a global int.  The reader sets
// watchpoints (skip_watch=0); the writer's store hits one.
//
// OPTIONS: skip_watch=0 halt_on_error=1
// TRIES: 10
// EXIT: 66
// EXPECT: ^={60,}$
// EXPECT: ^BUG: UCSAN: data-race in reader / writer$
// EXPECT: ^read to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT: ^write to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^read to 0x => ^ reader\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*plain_write_read\.c:33$
// EXPECT-FRAME: ^write to 0x => ^ writer\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*plain_write_read\.c:38$
// EXPECT: ^ reader_thread\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*plain_write_read\.c:[0-9]+$
// EXPECT: ^ writer_thread\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*plain_write_read\.c:[0-9]+$
// EXPECT: ^value changed: 0x[0-9a-f]{8} -> 0x[0-9a-f]{8}$
// EXPECT: ^Reported by User-space Concurrency Sanitizer on:$
// EXPECT: ^CPU: [0-9]+ PID: [0-9]+ Comm: plain_write_rea
// NOT: race at unknown origin
// NOT: ^(read|write) \(marked\)

#include "e2e.h"

/* The racy variable (the reader's loop sums what it reads into e2e_sink,
 * so that no read is optimized away). */
int shared;

/*
 * The line numbers of the two accesses below are asserted above (33 and 38):
 * keep them in place when editing this file.
 */
NOINLINE long reader(void)
{
	return shared;
}

NOINLINE void writer(long v)
{
	shared = v;
}

/*
 * Thread functions of its own, for the stack lines asserted above (the loop
 * helper is never inlined, so they stay in the stack).
 */
static void *reader_thread(void *arg)
{
	struct e2e_loop l = { reader, NULL, 0, 0 };

	(void)arg;
	e2e_loop_run(&l);
	return NULL;
}

static void *writer_thread(void *arg)
{
	struct e2e_loop l = { NULL, writer, 0, 0 };

	(void)arg;
	e2e_loop_run(&l);
	return NULL;
}

/* Other tests include this file with a shorter RUN_MS. */
#ifndef RUN_MS
#define RUN_MS 4000
#endif

int main(void)
{
	e2e_race2(reader_thread, writer_thread, RUN_MS);
	return 0;
}
