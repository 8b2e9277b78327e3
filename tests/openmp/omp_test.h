/*
 * Helpers for the OpenMP corpus in tests/openmp/ (not a test itself: the
 * harness only runs *.c files).
 *
 * Every program fixes its own team size (OMP_TEST_THREADS, default 4), so an
 * OMP_NUM_THREADS=1 left in the environment cannot make a racy program
 * silently serial.  Racy programs repeat their racy phase until a race was
 * reported (halt_on_error=1 ends the process) or OMP_TEST_SECONDS have passed;
 * race-free programs do a fixed amount of work and check their results.
 *
 * The same sources build under plain ThreadSanitizer for
 * tests/openmp/compare-tsan.sh with -DE2E_SKIP_RUNTIME_CHECK.
 */
#ifndef UCSAN_OMP_TEST_H
#define UCSAN_OMP_TEST_H

#include <omp.h>

#include "e2e.h"

#ifndef OMP_TEST_THREADS
#define OMP_TEST_THREADS 4
#endif

#ifndef OMP_TEST_SECONDS
#define OMP_TEST_SECONDS 4.0
#endif

/*
 * Serial reference code that checks a race-free program's results: not
 * instrumented, so that the watch counts a test asserts come from the
 * parallel code.
 */
#define OMP_TEST_REFERENCE __attribute__((noinline, no_sanitize("thread")))

static double omp_test_deadline;

/* Call first in main(): runtime present, fixed team size. */
static E2E_UNUSED void omp_test_start(void)
{
	e2e_require_runtime();
	omp_set_dynamic(0);
	omp_set_num_threads(OMP_TEST_THREADS);
	omp_test_deadline = e2e_now() + OMP_TEST_SECONDS;
}

/* For racy programs, between two repetitions (serial code): go on? */
static E2E_UNUSED int omp_test_again(void)
{
	return e2e_now() < omp_test_deadline;
}

/*
 * A race-free program checks that the team really had OMP_TEST_THREADS
 * threads: a team of one would make "no report" meaningless.
 */
static E2E_UNUSED void omp_test_check_team(void)
{
	int n = 0;

#pragma omp parallel
	{
#pragma omp master
		n = omp_get_num_threads();
	}
	E2E_CHECK(n == OMP_TEST_THREADS);
}

#endif /* UCSAN_OMP_TEST_H */
