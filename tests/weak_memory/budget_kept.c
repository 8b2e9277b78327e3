// weak_memory=1 keeps the sampling budget: a watched access made pending
// and then retired by an unlock must not leave the thread watching again at
// once. (It did: the watch made the thread "special" and its new sample
// count went to the wrong counter, so every unlock after the first watch
// was followed by another watch -- 2 M lock/unlock pairs took minutes.)
// Here a locked counter is bumped 2 M times at default options: a few
// watches, not one per unlock, and done well within the timeout.
//
// CFLAGS: -O2 -g --ucsan-weak-memory
// OPTIONS: weak_memory=1 print_stats=1
// TIMEOUT: 60
// EXIT: 0
// NOT: BUG: UCSAN
// EXPECT: ^UCSAN: stats: setup_watchpoints: [1-9][0-9]{0,3}$
// EXPECT: ^budget_kept: counter=2000000$

#include <pthread.h>
#include <stdio.h>

#include "e2e.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;

NOINLINE static void bump(void)
{
	pthread_mutex_lock(&lock);
	counter++;
	pthread_mutex_unlock(&lock);
}

int main(void)
{
	e2e_keep_company(); /* nothing is watched in a lone thread */
	for (int i = 0; i < 2000000; i++)
		bump();
	fprintf(stderr, "budget_kept: counter=%ld\n", counter);
	return 0;
}
