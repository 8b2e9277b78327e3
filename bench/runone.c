// SPDX-License-Identifier: Apache-2.0
/*
 * runone RESULT TIMEOUT_S PROGRAM [ARG...]
 *
 * Runs PROGRAM (stdin, stdout and stderr inherited) and writes one line to
 * the file RESULT:
 *
 *     <wall seconds> <peak RSS KiB> <status> <CPU seconds>
 *
 * Wall time is CLOCK_MONOTONIC from just before fork() to the child's
 * reaping, in microseconds; peak RSS is the child's own ru_maxrss from
 * wait4(). <status> is the exit code, 128+N for death by signal N, or
 * "timeout" when the child ran longer than TIMEOUT_S seconds (it is then
 * killed). CPU seconds are the child's user + system time, a cross-check
 * of wall time on a loaded machine. Exit status: 0 if a line was written, 2 on usage errors.
 *
 * Used instead of /usr/bin/time because that prints wall time in
 * hundredths of a second, too coarse for ratios of ~1.05 on 0.3 s runs,
 * and is not installed everywhere.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: runone RESULT TIMEOUT_S PROGRAM [ARG...]\n");
		return 2;
	}
	const char *result = argv[1];
	const double timeout = atof(argv[2]);
	if (timeout <= 0) {
		fprintf(stderr, "runone: bad timeout '%s'\n", argv[2]);
		return 2;
	}

	/* SIGCHLD stays blocked in us so that sigtimedwait() can take it;
	 * the child gets the mask it had before. */
	sigset_t chld, old;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old);

	const double t0 = now_s();
	pid_t pid = fork();
	if (pid < 0) {
		perror("runone: fork");
		return 2;
	}
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		execvp(argv[3], argv + 3);
		fprintf(stderr, "runone: cannot run %s: %s\n", argv[3], strerror(errno));
		_exit(127);
	}

	int timed_out = 0;
	const double deadline = t0 + timeout;
	for (;;) {
		double left = deadline - now_s();
		if (left <= 0) {
			timed_out = 1;
			kill(pid, SIGKILL);
			break;
		}
		struct timespec ts = { (time_t)left, (long)((left - (double)(time_t)left) * 1e9) };
		int sig = sigtimedwait(&chld, NULL, &ts);
		if (sig == SIGCHLD) {
			/* Ours (the only child) unless it merely stopped. */
			siginfo_t si;
			si.si_pid = 0;
			if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
			    si.si_pid == pid)
				break;
		}
		/* EAGAIN: re-check the deadline; EINTR: retry. */
	}

	int status;
	struct rusage ru;
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			perror("runone: wait4");
			return 2;
		}
	}
	const double t1 = now_s();

	FILE *f = fopen(result, "w");
	if (!f) {
		perror(result);
		return 2;
	}
	const double cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
			   (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
	if (timed_out)
		fprintf(f, "%.6f %ld timeout %.6f\n", t1 - t0, ru.ru_maxrss, cpu);
	else if (WIFEXITED(status))
		fprintf(f, "%.6f %ld %d %.6f\n", t1 - t0, ru.ru_maxrss, WEXITSTATUS(status), cpu);
	else
		fprintf(f, "%.6f %ld %d %.6f\n", t1 - t0, ru.ru_maxrss, 128 + WTERMSIG(status), cpu);
	fclose(f);
	return 0;
}
