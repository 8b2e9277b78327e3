// report_once_in_ms=0: the same race is reported every time it is caught.
// The writer writes only every 5 ms, so there are a few dozen reports, not
// thousands.  (report_once.c: the default 3000 ms gives exactly one.)
//
// OPTIONS: skip_watch=0 report_once_in_ms=0
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in reader / slow_writer$
// EXPECT: ^UCSAN: reported ([2-9]|[1-9][0-9]+) data races$

#include "e2e.h"

int shared;

E2E_READER_WRITER(shared, reader, slow_writer)

/* One write every 5 ms. */
static void write_slowly(long i)
{
	slow_writer(i);
	e2e_sleep_ms(5);
}

int main(void)
{
	e2e_race_rw(reader, write_slowly, 600);
	return 0;
}
