// 50 forks, from main and from a worker thread, while two threads race
// (and report) and two more sit in watch windows: every child starts two
// threads of its own that do locked and private instrumented work, joins
// them and leaves with _exit(0); the parent waits for each. No hang (each
// child gets 20 s), no crash, every child exits 0, no report outside the
// parent's planted race, and the output stays well-formed.
//
// OPTIONS: skip_watch=0 udelay_task=20 report_once_in_ms=500
// TRIES: 2
// TIMEOUT: 120
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in rep_reader / rep_writer$
// EXPECT: ^rel: 50 children exited 0$
// NOT: Segmentation|Aborted|child_

#include <sys/wait.h>

#include "rel_support.h"

#define FORKS 50

static int rep_shared;
static int watched[2][16];
static int child_private[2][16];
static long child_locked;
static pthread_mutex_t child_lock = PTHREAD_MUTEX_INITIALIZER;

E2E_READER_WRITER(rep_shared, rep_reader, rep_writer)

static void *watcher_thread(void *arg)
{
	int *p = arg;

	while (!e2e_stopped())
		(*p)++;
	return NULL;
}

/* The child's threads: a private counter and one under a mutex. */
static void *child_work(void *arg)
{
	int *mine = arg;

	for (int i = 0; i < 100; i++) {
		(*mine)++;
		pthread_mutex_lock(&child_lock);
		child_locked++;
		pthread_mutex_unlock(&child_lock);
	}
	return NULL;
}

static pid_t fork_one(void)
{
	pid_t pid = fork();

	if (pid < 0)
		e2e_die("fork", errno);
	if (pid == 0) {
		pthread_t a = e2e_spawn(child_work, child_private[0]);
		pthread_t b = e2e_spawn(child_work, child_private[1]);

		e2e_join(a);
		e2e_join(b);
		_exit(child_locked == 200 && child_private[0][0] == child_private[1][0] ? 0 : 3);
	}
	return pid;
}

/* Waits up to 20 s for pid: a child that hangs is killed and fails. */
static int wait_bounded(pid_t pid)
{
	int status;

	for (int i = 0; i < 2000; i++) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		if (r < 0)
			e2e_die("waitpid", errno);
		e2e_sleep_ms(10);
	}
	fprintf(stderr, "e2e: child %d still running after 20 s: killed\n", (int)pid);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

static void *forker_thread(void *arg)
{
	*(pid_t *)arg = fork_one();
	return NULL;
}

int main(void)
{
	struct e2e_race race = E2E_RACE_RW(rep_reader, rep_writer);
	pthread_t t[2];
	int ok = 0;
	char *text;

	e2e_require_runtime();
	e2e_race_start(&race);
	t[0] = e2e_spawn(watcher_thread, watched[0]);
	t[1] = e2e_spawn(watcher_thread, watched[1]);
	for (int i = 0; i < FORKS; i++) {
		pid_t pid;
		int rc;

		if (i % 3 == 2) {
			pthread_t f = e2e_spawn(forker_thread, &pid);
			e2e_join(f);
		} else {
			pid = fork_one();
		}
		rc = wait_bounded(pid);
		if (rc != 0)
			fprintf(stderr, "e2e: child %d (fork %d) ended with %d, expected 0\n",
				(int)pid, i, rc);
		else
			ok++;
		e2e_sleep_ms(i % 4);
	}
	e2e_race_stop(&race);
	e2e_join(t[0]);
	e2e_join(t[1]);
	text = rel_read_stderr(NULL);
	if (text) {
		E2E_CHECK(rel_check_lines(text) == 0);
		free(text);
	}
	fprintf(stderr, "rel: %d children exited 0\n", ok);
	return 0;
}
