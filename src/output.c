// SPDX-License-Identifier: Apache-2.0
/*
 * Where reports go: stderr, stdout, or PATH.PID (log_path). Everything is
 * written with write(2) from a caller's buffer: no stdio, no allocation, so
 * it works in signal handlers, after fork and with a broken stderr.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

static int log_fd = -1;  /* resolved on first use; -1: not yet */
static int log_pid;      /* the pid log_fd was opened for */

void ucsan_write_fd(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return; /* closed or full for good: drop, never block the program */
		buf += n;
		len -= (size_t)n;
	}
}

static int open_log(void)
{
	const char *path = ucsan_opts.log_path;
	if (!path || !*path || !strcmp(path, "stderr"))
		return STDERR_FILENO;
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
		ucsan_write_fd(STDERR_FILENO, msg, (size_t)m);
		return STDERR_FILENO;
	}
	return fd;
}

void ucsan_log_write(const char *buf, size_t len)
{
	/* Callers hold the report lock, so the lazy open is not racy. */
	int pid = (int)getpid();
	if (log_fd < 0 || log_pid != pid) {
		if (log_fd > STDERR_FILENO && log_pid != pid)
			close(log_fd); /* a fork child writes its own PATH.PID */
		log_fd = open_log();
		log_pid = pid;
	}
	ucsan_write_fd(log_fd, buf, len);
}

void ucsan_output_reset_after_fork(void)
{
	/* Keep the descriptor number: ucsan_log_write() notices the new pid. */
}
