// exit() from main while other threads sit inside watch windows (2 ms
// stalls under skip_watch=0), and instrumented accesses in a constructor,
// an atexit handler and a destructor, before main and after it: the process
// exits with the program's own status, no report, no crash or hang.
//
// OPTIONS: skip_watch=0 udelay_task=2000 delay_randomize=0
// EXIT: 3
// EXPECT-STDOUT: ^constructor ran$
// EXPECT-STDOUT: ^atexit ran$
// NOT: UCSAN
// NOT: Segmentation|Aborted

#include <stdio.h>
#include <stdlib.h>

#include "e2e.h"

static int counters[4]; /* one per thread: no races */
static int early, late;

__attribute__((constructor)) static void before_main(void)
{
	early++;
	printf("constructor ran\n");
}

static void at_exit(void)
{
	late += early;
	printf("atexit ran\n");
	fflush(stdout);
}

__attribute__((destructor)) static void after_main(void)
{
	late++;
}

static void *spin(void *arg)
{
	int *c = arg;
	for (;;)
		(*c)++; /* read-write: watched every time, 2 ms each */
	return NULL;
}

int main(void)
{
	atexit(at_exit);
	for (int i = 0; i < 4; i++)
		e2e_spawn(spin, &counters[i]);
	e2e_sleep_ms(50);
	exit(3);
}
