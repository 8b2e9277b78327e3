// The writer keeps storing the value the variable already holds.  With the
// default report_value_change_only=1 such a race is not reported
// (value_unchanged_reported.c runs this program with it off).  The stats
// show that the writer did hit the reader's watchpoints: the races were
// found and suppressed.
//
// OPTIONS: skip_watch=0 print_stats=1
// EXPECT: ^UCSAN: stats: setup_watchpoints: [1-9][0-9]{3,}$
// EXPECT: ^UCSAN: stats: reports_suppressed: [1-9][0-9]{2,}$
// NOT: BUG|UCSAN: reported

#include "e2e.h"

int shared = 42;
int value = 42;

E2E_READER_WRITER(shared, reader, writer)

/* Marked, so never watched, and no compile-time constant either. */
static void write_same(long i)
{
	(void)i;
	writer(__atomic_load_n(&value, __ATOMIC_RELAXED));
}

int main(void)
{
	e2e_require_runtime();
	e2e_race_rw(reader, write_same, 1500);
	return 0;
}
