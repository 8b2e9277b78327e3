/* A program that races for ARGV[1] ms and exits 0 itself; with
 * report_once_in_ms=0 it reports the same race over and over. With "reuse"
 * as ARGV[2] it first closes stderr and opens a file that takes fd 2. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int shared;
static int stop;

__attribute__((noinline)) static int reader(void) { return shared; }
__attribute__((noinline)) static void writer(int v) { shared = v; }

static void *write_loop(void *arg)
{
	for (int i = 0; !__atomic_load_n(&stop, __ATOMIC_RELAXED); i++)
		writer(i);
	return arg;
}

int main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 1000;
	int fd = -1;
	if (argc > 2 && !strcmp(argv[2], "reuse")) {
		close(2);
		fd = open(argv[3], O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd != 2)
			return 3;
		if (write(fd, "program data\n", 13) != 13)
			return 4;
	}
	pthread_t t;
	pthread_create(&t, NULL, write_loop, NULL);
	struct timespec start, now;
	clock_gettime(CLOCK_MONOTONIC, &start);
	static volatile long sink;
	do {
		for (int i = 0; i < 1000; i++)
			sink += reader();
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 < ms);
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	printf("racer done\n");
	return 0;
}
