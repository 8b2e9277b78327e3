// C11 <threads.h>: threads made by thrd_create() are threads to the runtime
// (glibc makes them past the pthread_create() interposer), and the wrappers
// behave as glibc's do: the results thrd_join() hands back, mtx_trylock()
// on a held mutex, mtx_timedlock(), a cnd_wait()/cnd_signal() handshake,
// thrd_sleep(). Every shared access is under the mtx_t, watched
// aggressively: nothing may be reported, and the watches must have been
// set (the process was known to have more than one thread).
//
// OPTIONS: skip_watch=0 print_stats=1
// TIMEOUT: 120
// EXPECT: ^UCSAN: stats: setup_watchpoints: [1-9][0-9]{3,}$
// EXPECT: ^UCSAN: stats: data_races: 0$
// NOT: BUG|UCSAN: reported

#include <threads.h>
#include "e2e.h"

#define THREADS 4
#define ITERS 20000

static mtx_t lock;
static cnd_t turn;
static long total;      /* under lock */
static int ready;       /* under lock: the handshake */

static int adder(void *arg)
{
	const int id = *(const int *)arg;
	for (int i = 0; i < ITERS; i++) {
		E2E_CHECK(mtx_lock(&lock) == thrd_success);
		total += id;
		E2E_CHECK(mtx_unlock(&lock) == thrd_success);
	}
	return id * 10;
}

static int waiter(void *arg)
{
	(void)arg;
	E2E_CHECK(mtx_lock(&lock) == thrd_success);
	while (!ready)
		E2E_CHECK(cnd_wait(&turn, &lock) == thrd_success);
	ready = 2;
	E2E_CHECK(mtx_unlock(&lock) == thrd_success);
	return 7;
}

int main(void)
{
	thrd_t t[THREADS], w;
	int ids[THREADS], res;

	e2e_require_runtime();
	E2E_CHECK(mtx_init(&lock, mtx_timed) == thrd_success);
	E2E_CHECK(cnd_init(&turn) == thrd_success);

	E2E_CHECK(thrd_create(&w, waiter, NULL) == thrd_success);
	for (int i = 0; i < THREADS; i++) {
		ids[i] = i + 1;
		E2E_CHECK(thrd_create(&t[i], adder, &ids[i]) == thrd_success);
	}
	for (int i = 0; i < THREADS; i++) {
		E2E_CHECK(thrd_join(t[i], &res) == thrd_success);
		E2E_CHECK(res == ids[i] * 10);
	}
	E2E_CHECK(total == (long)ITERS * (1 + 2 + 3 + 4));

	/* Held by main: a try fails busy. */
	E2E_CHECK(mtx_lock(&lock) == thrd_success);
	E2E_CHECK(mtx_trylock(&lock) == thrd_busy);
	ready = 1;
	E2E_CHECK(cnd_signal(&turn) == thrd_success);
	E2E_CHECK(mtx_unlock(&lock) == thrd_success);
	E2E_CHECK(thrd_join(w, &res) == thrd_success && res == 7);
	E2E_CHECK(ready == 2);

	struct timespec deadline;
	E2E_CHECK(timespec_get(&deadline, TIME_UTC) == TIME_UTC);
	E2E_CHECK(mtx_timedlock(&lock, &deadline) == thrd_success);
	E2E_CHECK(mtx_unlock(&lock) == thrd_success);

	const struct timespec nap = { 0, 2000000 };
	E2E_CHECK(thrd_sleep(&nap, NULL) == 0);
	mtx_destroy(&lock);
	cnd_destroy(&turn);
	return 0;
}
