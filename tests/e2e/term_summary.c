// A process that SIGTERM ends still prints "UCSAN: reported N data races",
// and still dies of SIGTERM (exit status unchanged). A child (this program
// run again) races until its first report; the parent, watching the child's
// stderr, then sends SIGTERM.
// A second child sets its own SIGTERM handler, which must be the one that
// runs (the runtime never touches a disposition the program set), and a
// third checks that the program reads SIG_DFL back, not the runtime's.
//
// OPTIONS: skip_watch=0
// TRIES: 3
// EXPECT-STDOUT: ^default: killed by signal 15, summary 1$
// EXPECT-STDOUT: ^own handler: exit 42, summary 0$
// EXPECT-STDOUT: ^reads back SIG_DFL: 1$
// NOT: ^BUG: UCSAN

#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e.h"

static long counter;

NOINLINE static void *bump(void *arg)
{
	for (;;) {
		counter++;
		__asm__ __volatile__("" ::: "memory"); /* a store per round */
	}
	return arg;
}

static void own_handler(int sig)
{
	(void)sig;
	_exit(42);
}

/* Runs a racing child; returns its wait status and whether the summary
 * line showed on its stderr. */
/* The racing child: this program again, its stderr a pipe from the start
 * (the runtime writes to the stderr it found at start-up). */
static void child(int own)
{
	if (own)
		signal(SIGTERM, own_handler);
	e2e_spawn(bump, NULL);
	e2e_spawn(bump, NULL);
	for (;;)
		pause();
}

static int run_child(int own, int *summary)
{
	int fds[2];
	if (pipe(fds) != 0)
		e2e_die("pipe", errno);
	pid_t pid = fork();
	if (pid < 0)
		e2e_die("fork", errno);
	if (pid == 0) {
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		execl("/proc/self/exe", "term_summary", own ? "own" : "default", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	char buf[8192];
	size_t have = 0;
	int sent = 0;
	double start = e2e_now();
	for (;;) {
		struct pollfd pfd = { fds[0], POLLIN, 0 };
		if (poll(&pfd, 1, 500) == 0) {
			if (!sent && e2e_now() - start > 20) {
				kill(pid, SIGTERM);
				sent = 1;
			}
			continue;
		}
		ssize_t n = read(fds[0], buf + have, sizeof(buf) - 1 - have);
		if (n <= 0)
			break;
		have += (size_t)n;
		buf[have] = '\0';
		if (!sent && (strstr(buf, "BUG: UCSAN") || e2e_now() - start > 20)) {
			/* Let the report finish before the signal. */
			e2e_sleep_ms(100);
			kill(pid, SIGTERM);
			sent = 1;
		}
		if (have >= sizeof(buf) - 1)
			have = 0;
	}
	int status;
	waitpid(pid, &status, 0);
	*summary = strstr(buf, "UCSAN: reported ") != NULL;
	close(fds[0]);
	return status;
}

int main(int argc, char **argv)
{
	int summary, status;

	if (argc > 1) {
		child(strcmp(argv[1], "own") == 0);
		return 0;
	}
	status = run_child(0, &summary);
	if (WIFSIGNALED(status))
		printf("default: killed by signal %d, summary %d\n", WTERMSIG(status), summary);
	else
		printf("default: exit %d, summary %d\n", WEXITSTATUS(status), summary);

	status = run_child(1, &summary);
	printf("own handler: exit %d, summary %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1, summary);

	struct sigaction old;
	sigaction(SIGTERM, NULL, &old);
	printf("reads back SIG_DFL: %d\n", old.sa_handler == SIG_DFL && !(old.sa_flags & SA_SIGINFO));
	return 0;
}
