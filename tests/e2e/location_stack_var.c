// The report says what raced on a stack: when the thread that owns the stack
// is one of the two racing, the local variable, its frame and where it is
// declared (DWARF), as well as the offset inside it.
//
// OPTIONS: halt_on_error=1 skip_watch=0
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in producer / reader$
// EXPECT: ^location: stack of thread [0-9]+: 'job' of size 16 at \+0x8 in frame producer \([^ ]*location_stack_var\.c:30\)$

#include "e2e.h"

struct job {
	long id;
	long progress; /* the creator updates it while the worker reads it */
};

NOINLINE static void *reader(void *arg)
{
	struct job *const volatile job = arg;
	long seen = 0;
	while (!e2e_stopped())
		seen += job->progress;
	return (void *)seen;
}

/* The job lives in this frame; the worker gets a pointer to it. */
NOINLINE static void producer(void)
{
	struct job job = { 1, 0 };
	struct job *volatile mine = &job;
	pthread_t t = e2e_spawn(reader, &job);
	const double end = e2e_now() + 10;
	while (e2e_now() < end)
		mine->progress++;
	__atomic_store_n(&e2e_stop_flag, 1, __ATOMIC_RELAXED);
	e2e_join(t);
}

int main(void)
{
	producer();
	return 0;
}
