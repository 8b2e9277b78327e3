// fork() while the parent's other threads sit inside watch windows (3 ms
// stalls, skip_watch=0): with num_watchpoints=1 the whole table is three
// words, which the parent's three watching threads keep occupied, so a child
// that inherited them could never set a watchpoint of its own. Each of 8
// children (forked alternately by main and by another thread) starts two
// threads that race, must report that race with its own PID in the CPU/PID
// line and, with halt_on_error=1, exit 66. The parent, which has no race,
// checks every child's status and report and exits 0.
//
// OPTIONS: skip_watch=0 udelay_task=3000 delay_randomize=0 num_watchpoints=1
// OPTIONS: halt_on_error=1
// TRIES: 3
// TIMEOUT: 90
// EXPECT: ^BUG: UCSAN: data-race in child_reader / child_writer$
// EXPECT: ^rel: 8 children exited 66 and reported with their own pid$
// NOT: parent_

#include <sys/wait.h>

#include "rel_support.h"

#define CHILDREN 8
#define WATCHERS 3

static int child_shared;
static int parent_private[WATCHERS][16]; /* one line per watching thread */
static int parent_stop;

E2E_READER_WRITER(child_shared, child_reader, child_writer)

/* The child: race for up to 5 s; halt_on_error ends it at the report. */
static void child_main(void)
{
	e2e_race_rw(child_reader, child_writer, 5000);
	_exit(0); /* not reached when the race was reported */
}

/* Parent threads: a read-modify-write of their own variable is watched
 * every time, for 3 ms. */
NOINLINE void parent_watch(int *p)
{
	(*p)++;
}

static void *parent_watcher(void *arg)
{
	int *p = arg;

	while (!__atomic_load_n(&parent_stop, __ATOMIC_RELAXED))
		parent_watch(p);
	return NULL;
}

static pid_t do_fork(void)
{
	pid_t pid;

	e2e_sleep_ms(7); /* let the watchers be in the middle of a stall */
	pid = fork();
	if (pid < 0)
		e2e_die("fork", errno);
	if (pid == 0)
		child_main();
	return pid;
}

static void *forking_thread(void *arg)
{
	*(pid_t *)arg = do_fork();
	return NULL;
}

int main(void)
{
	pthread_t w[WATCHERS];
	pid_t pids[CHILDREN];
	struct rel_report reps[64];
	int nrep, ok = 0;
	char *text;

	e2e_require_runtime();
	for (int i = 0; i < WATCHERS; i++)
		w[i] = e2e_spawn(parent_watcher, parent_private[i]);
	for (int i = 0; i < CHILDREN; i++) {
		if (i % 2 == 0) {
			pids[i] = do_fork();
		} else {
			pthread_t f = e2e_spawn(forking_thread, &pids[i]);
			e2e_join(f);
		}
		rel_wait_exit_66(pids[i], i);
	}
	__atomic_store_n(&parent_stop, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < WATCHERS; i++)
		e2e_join(w[i]);

	nrep = rel_stderr_reports(&text, reps, 64, "report PIDs");
	if (nrep < 0)
		return 0;
	for (int i = 0; i < CHILDREN; i++) {
		int mine = 0;

		for (int r = 0; r < nrep; r++)
			if (reps[r].pid == (int)pids[i])
				mine++;
		if (mine != 1)
			fprintf(stderr, "e2e: child %d printed %d reports with its pid, "
				"expected 1 (halt_on_error)\n", (int)pids[i], mine);
		else
			ok++;
	}
	for (int r = 0; r < nrep; r++) {
		if (reps[r].pid == (int)getpid())
			fprintf(stderr, "e2e: a report carries the parent's pid: %s\n", reps[r].title);
		if (strcmp(reps[r].title, "child_reader / child_writer") != 0)
			fprintf(stderr, "e2e: unexpected report: %s (pid %d)\n", reps[r].title, reps[r].pid);
	}
	E2E_CHECK(rel_check_lines(text) == 0);
	free(text);
	fprintf(stderr, "rel: %d children exited 66 and reported with their own pid\n", ok);
	return 0;
}
