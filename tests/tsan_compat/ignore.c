// Racy increments inside ignore regions are not reported, under TSan and
// under ucsan: AnnotateIgnoreReadsBegin/End on one thread and
// AnnotateIgnoreWritesBegin/End on the other around the same counter (TSan
// ignores reads and writes in both, and so does ucsan), and
// __tsan_ignore_thread_begin/end on both around a second one. The counter
// outside any region is reported (the control); built with
// -DNO_ANNOTATIONS, the others are reported too.
//
// Both sides of each ignored race are inside regions: an ignored write that
// a non-ignored reader's watchpoint sees change the value would be reported
// by ucsan as a race at unknown origin (see docs/coming-from-tsan.md).
//
// OPTIONS: skip_watch=0
// TRIES: 3
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in bump_control / bump_control$
// NOT: ^BUG: UCSAN: .*(in_ignore_reads|in_ignore_writes|in_ignore_thread)
// NOT: unbalanced
// UCSAN-CONTROL: -DNO_ANNOTATIONS
// UCSAN-CONTROL-EXPECT: ^BUG: UCSAN: data-race in in_ignore_reads / in_ignore_writes$
// UCSAN-CONTROL-EXPECT: ^BUG: UCSAN: data-race in in_ignore_thread / in_ignore_thread$
// TSAN-EXIT: 66
// TSAN-EXPECT: ^    #0 bump_control
// TSAN-NOT: ^    #0 (in_ignore_reads|in_ignore_writes|in_ignore_thread)

#include "tsan_compat.h"

#ifdef NO_ANNOTATIONS
#undef ANNOTATE_IGNORE_READS_BEGIN
#undef ANNOTATE_IGNORE_READS_END
#undef ANNOTATE_IGNORE_WRITES_BEGIN
#undef ANNOTATE_IGNORE_WRITES_END
#define ANNOTATE_IGNORE_READS_BEGIN() ((void)0)
#define ANNOTATE_IGNORE_READS_END() ((void)0)
#define ANNOTATE_IGNORE_WRITES_BEGIN() ((void)0)
#define ANNOTATE_IGNORE_WRITES_END() ((void)0)
#define __tsan_ignore_thread_begin() ((void)0)
#define __tsan_ignore_thread_end() ((void)0)
#endif

static unsigned long counter_a, counter_b, control_counter;

NOINLINE static void in_ignore_reads(void)
{
	ANNOTATE_IGNORE_READS_BEGIN();
	counter_a++;
	ANNOTATE_IGNORE_READS_END();
}

NOINLINE static void in_ignore_writes(void)
{
	ANNOTATE_IGNORE_WRITES_BEGIN();
	counter_a += 3;
	ANNOTATE_IGNORE_WRITES_END();
}

NOINLINE static void in_ignore_thread(int i)
{
	__tsan_ignore_thread_begin();
	counter_b += (unsigned)i;
	__tsan_ignore_thread_end();
}

NOINLINE static void bump_control(void)
{
	control_counter++;
}

static void step_a(long i)
{
	(void)i;
	in_ignore_reads();
	in_ignore_thread(1);
	bump_control();
}

static void step_b(long i)
{
	(void)i;
	in_ignore_writes();
	in_ignore_thread(2);
	bump_control();
}

int main(void)
{
	e2e_require_runtime();
	compat_race(step_a, step_b, 1500);
	printf("%lu %lu\n", counter_a, counter_b);
	return 0;
}
