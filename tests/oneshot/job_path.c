// Bug: a job's path formatted with snprintf() into the one job struct the
// spawning loop reuses.  Each compressor thread copies the path out with
// strncpy(), but the loop has already formatted the next file's path into
// the same buffer by then, or is in the middle of it:
//
//     for (i = 0; i < n; i++) {
//             snprintf(job.path, sizeof(job.path), "%s/%s", dir, files[i]);
//             pthread_create(&tid[i], NULL, compress_main, &job);
//     }
//
// Both accesses happen inside libc, where no instrumentation reaches: only
// an interposer on snprintf() and strncpy() sees them.
//
// TRIES: 12
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in compress_main / spawn_compressors$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ compress_main\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*job_path\.c:50$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ spawn_compressors\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*job_path\.c:73$

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "oneshot.h"

#define NFILES 4

struct job {
	const char *dir;
	char path[96];
};

static const char *const files[NFILES] = { "access.log", "error.log.1", "audit/2024-05.log", "mail.err" };

static unsigned name_sum(const char *s)
{
	unsigned h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

NOINLINE void *compress_main(void *p)
{
	const struct job *job = p;
	char path[96];

	strncpy(path, job->path, sizeof(path) - 1);	/* racy read */
	path[sizeof(path) - 1] = '\0';
	spin_for_us(400);		/* deflate the file */
	return (void *)(uintptr_t)(name_sum(path) & 0xffff);
}

NOINLINE unsigned spawn_compressors(const char *dir)
{
	pthread_t tid[NFILES];
	unsigned sum = 0;
	int i;
#ifdef FIXED
	struct job jobs[NFILES];

	for (i = 0; i < NFILES; i++) {
		jobs[i].dir = dir;
		snprintf(jobs[i].path, sizeof(jobs[i].path), "%s/%s", dir, files[i]);
		pthread_create(&tid[i], NULL, compress_main, &jobs[i]);
	}
#else
	struct job job = { .dir = dir };

	for (i = 0; i < NFILES; i++) {
		snprintf(job.path, sizeof(job.path), "%s/%s", dir, files[i]);	/* racy write */
		pthread_create(&tid[i], NULL, compress_main, &job);
	}
#endif
	for (i = 0; i < NFILES; i++) {
		void *ret;

		pthread_join(tid[i], &ret);
		sum += (unsigned)(uintptr_t)ret;
	}
	return sum;
}

int main(void)
{
	printf("compressed %d files, sum %u\n", NFILES, spawn_compressors("/var/log"));
	return 0;
}
