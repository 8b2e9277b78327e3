// What ucsan adds to a program's memory: 256 threads alive at once, each
// holding 64 heap blocks it wrote, plus a report's worth of symbolizing
// that never happens (race-free); then a forked child that exits at once
// (the runtime's reset after fork, and its exit path). Prints its own peak
// RSS in KiB at the barrier; tests/build/peak_rss.c measures the whole run,
// the child's included, as a user's `time -v` would.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define THREADS 256
#define BLOCKS 64

static pthread_barrier_t all_up, done;

static void *worker(void *arg)
{
	long *blocks[BLOCKS];
	long sum = 0;

	for (int i = 0; i < BLOCKS; i++) {
		blocks[i] = malloc(6 * sizeof(long));
		if (!blocks[i])
			abort();
		for (int k = 0; k < 6; k++)
			blocks[i][k] = (long)arg + i + k;
	}
	pthread_barrier_wait(&all_up);
	pthread_barrier_wait(&done);
	for (int i = 0; i < BLOCKS; i++) {
		sum += blocks[i][5];
		free(blocks[i]);
	}
	return (void *)sum;
}

int main(void)
{
	pthread_t t[THREADS];
	struct rusage ru;

	pthread_barrier_init(&all_up, NULL, THREADS + 1);
	pthread_barrier_init(&done, NULL, THREADS + 1);
	for (long i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i) != 0)
			return 1;
	pthread_barrier_wait(&all_up);
	getrusage(RUSAGE_SELF, &ru);
	pthread_barrier_wait(&done);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	const pid_t child = fork();
	if (child == 0)
		exit(0);
	if (child < 0 || waitpid(child, NULL, 0) != child)
		return 1;
	printf("%ld\n", ru.ru_maxrss);
	return 0;
}
