// SPDX-License-Identifier: Apache-2.0
/*
 * Where reports go: stderr, stdout, or PATH.PID (log_path). Everything is
 * written with write(2) from a caller's buffer: no stdio, no allocation, so
 * it works in signal handlers, after fork and with a broken stderr.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
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
/* Set by the program at run time (sanitizer_api.c), under the report
 * lock: a path that replaces log_path, or a descriptor of its own. */
static char set_path[4096];
static int set_fd = -1;
static char opened[4200]; /* the PATH.PID last opened, or "" */
/* Our own copy of the stderr the program started with: if the program
 * closes fd 2 and reuses the number for a file or socket, reports must not
 * land in it. -1: stderr was closed at start-up. */
static int stderr_fd = -1;

/* The program's __sanitizer_on_print(), which TSan's runtime calls with
 * everything it prints; found at start-up (ucsan_output_hooks_init()).
 * The default is known by a local name: the exported one resolves to the
 * program's. */
static void no_on_print(const char *str)
{
	(void)str;
}

UCSAN_EXPORT __attribute__((weak, alias("no_on_print"))) void __sanitizer_on_print(const char *str);

static void (*on_print)(const char *);

static void call_on_print(const char *buf, size_t len)
{
	/* Under the report lock: one copy at a time, in NUL-ended pieces. */
	static char piece[4096];
	while (len > 0) {
		const size_t n = len < sizeof(piece) - 1 ? len : sizeof(piece) - 1;
		memcpy(piece, buf, n);
		piece[n] = '\0';
		on_print(piece);
		buf += n;
		len -= n;
	}
}

void ucsan_output_init(void)
{
	stderr_fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 64);
}

/* Once the allocator is resolved: dlsym() may allocate. */
void ucsan_output_hooks_init(void)
{
	void *p = dlsym(RTLD_DEFAULT, "__sanitizer_on_print");
	if (p && p != (void *)no_on_print)
		on_print = (void (*)(const char *))p;
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
	const char *path = set_path[0] ? set_path : ucsan_opts.log_path;
	opened[0] = '\0';
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
	memcpy(opened, name, (size_t)n + 1);
	return fd;
}

/* Closes a file open_log() opened (not stderr, stdout or the program's). */
static void close_log(void)
{
	if (log_fd >= 0 && log_fd != stderr_fd && log_fd != STDOUT_FILENO && log_fd != set_fd)
		close(log_fd);
	log_fd = -1;
}

void ucsan_output_set_path(const char *path)
{
	close_log();
	set_fd = -1;
	snprintf(set_path, sizeof(set_path), "%s", path ? path : "");
}

void ucsan_output_set_fd(int fd)
{
	close_log();
	set_path[0] = '\0';
	opened[0] = '\0';
	set_fd = fd;
}

/* The destination, opened on first use and again in a fork child (which
 * writes its own PATH.PID). Callers hold the report lock, so the lazy open
 * is not racy. */
static int current_log(void)
{
	const int pid = (int)getpid();
	if (log_fd < 0 || log_pid != pid) {
		close_log();
		log_fd = open_log();
		log_pid = pid;
	}
	return log_fd;
}

const char *ucsan_output_file(void)
{
	if (!set_path[0])
		return NULL;
	current_log();
	return opened[0] ? opened : NULL;
}

void ucsan_log_write(const char *buf, size_t len)
{
	if (on_print)
		call_on_print(buf, len);
	const int fd = set_fd >= 0 ? set_fd : current_log();
	if (fd >= 0)
		ucsan_write_fd(fd, buf, len);
}

