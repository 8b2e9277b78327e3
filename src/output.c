// SPDX-License-Identifier: Apache-2.0
/*
 * Where reports go: stderr, stdout, or PATH.PID (log_path). Everything is
 * written with write(2) from a caller's buffer: no stdio, no allocation, so
 * it works in signal handlers, after fork and with a broken stderr.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

static int log_fd = -1;  /* resolved on first use; -1: not yet */
static int log_pid;      /* the pid log_fd was opened for */
/* Our own copy of the stderr the program started with: if the program
 * closes fd 2 and reuses the number for a file or socket, reports must not
 * land in it. -1: stderr was closed at start-up. */
static int stderr_fd = -1;

void ucsan_output_init(void)
{
	stderr_fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 64);
}

/*
 * Never blocks the program for long and never kills it: a full pipe gets
 * up to ~1 s in small pieces, then the rest is dropped; a reader that went
 * away must not raise SIGPIPE in the program, so SIGPIPE is blocked around
 * the write and one we caused is consumed.
 */
static _Atomic int stuck_fd; /* fd + 1 of a destination that stayed full */

void ucsan_write_fd(int fd, const char *buf, size_t len)
{
	sigset_t pipe_set, old, pending;
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	ucsan_signals_block(SIGPIPE, &old);
	sigpending(&pending);
	const bool already_pending = sigismember(&pending, SIGPIPE);
	bool caused_epipe = false;

	/* Once a destination stayed full for the whole grace period, later
	 * writes only take what fits now: the program pays that second once,
	 * not once per report. */
	const int max_waits = atomic_load_explicit(&stuck_fd, memory_order_relaxed) == fd + 1 ? 1 : 10;
	const int wait_ms = max_waits == 1 ? 0 : 100;
	int waits = 0;
	while (len > 0 && waits < max_waits) {
		struct pollfd p = { .fd = fd, .events = POLLOUT };
		int r = poll(&p, 1, wait_ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0) {
			waits++;
			continue;
		}
		if (r < 0 || (p.revents & (POLLERR | POLLNVAL)))
			break;
		/* A pipe with room takes PIPE_BUF bytes without blocking. */
		ssize_t n = write(fd, buf, len < PIPE_BUF ? len : PIPE_BUF);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0) {
			caused_epipe = n < 0 && errno == EPIPE;
			break;
		}
		buf += n;
		len -= (size_t)n;
	}

	atomic_store_explicit(&stuck_fd, len > 0 && waits >= max_waits ? fd + 1 : 0, memory_order_relaxed);
	if (caused_epipe && !already_pending) {
		struct timespec zero = { 0, 0 };
		sigtimedwait(&pipe_set, NULL, &zero);
	}
	ucsan_signals_restore(&old);
}

static int open_log(void)
{
	const char *path = ucsan_opts.log_path;
	if (!path || !*path || !strcmp(path, "stderr"))
		return stderr_fd;
	if (!strcmp(path, "stdout"))
		return STDOUT_FILENO;

	char name[4096];
	int n = snprintf(name, sizeof(name), "%s.%d", path, (int)getpid());
	int fd = -1;
	if (n > 0 && n < (int)sizeof(name))
		/* O_NOFOLLOW|O_EXCL-free append: never write through a planted
		 * symlink, keep earlier reports of the same pid. */
		fd = open(name, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		char msg[4300];
		int m = snprintf(msg, sizeof(msg), "UCSAN: cannot open log_path '%s': %s; using stderr\n",
				 n > 0 && n < (int)sizeof(name) ? name : path, strerror(errno));
		if (m > (int)sizeof(msg) - 1)
			m = sizeof(msg) - 1;
		ucsan_write_fd(stderr_fd, msg, (size_t)m);
		return stderr_fd;
	}
	return fd;
}

void ucsan_log_write(const char *buf, size_t len)
{
	/* Callers hold the report lock, so the lazy open is not racy. */
	int pid = (int)getpid();
	if (log_fd < 0 || log_pid != pid) {
		if (log_fd >= 0 && log_fd != stderr_fd && log_fd != STDOUT_FILENO && log_pid != pid)
			close(log_fd); /* a fork child writes its own PATH.PID */
		log_fd = open_log();
		log_pid = pid;
	}
	if (log_fd >= 0)
		ucsan_write_fd(log_fd, buf, len);
}

