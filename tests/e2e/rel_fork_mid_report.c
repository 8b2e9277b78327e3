// fork() while the parent's threads are printing reports: the parent's own
// race is reported over and over (report_once_in_ms=0), so the report lock,
// the symbolizer and the output are busy when main forks. Each of 12
// children races on its own variable until its report appears with its own
// PID (at most 5 s; the report lock and symbolizer state a parent thread
// held at fork time must not block it) and leaves with exit(0), which must
// become 66. The parent checks each child's status and report, and ends with
// 66 for its own race.
//
// OPTIONS: skip_watch=0 report_once_in_ms=0
// TRIES: 3
// TIMEOUT: 120
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in parent_reader / parent_writer$
// EXPECT: ^BUG: UCSAN: data-race in child_reader / child_writer$
// EXPECT: ^rel: 12 children exited 66 and reported with their own pid$
// EXPECT: ^UCSAN: reported [0-9]+ data races$

#include <sys/wait.h>

#include "rel_support.h"

#define CHILDREN 12

static int parent_shared, child_shared;
static int parent_stop;
long sink;

NOINLINE int parent_reader(void)
{
	return parent_shared;
}

NOINLINE void parent_writer(int v)
{
	parent_shared = v;
}

NOINLINE int child_reader(void)
{
	return child_shared;
}

NOINLINE void child_writer(int v)
{
	child_shared = v;
}

static void *parent_reader_thread(void *arg)
{
	long sum = 0;

	(void)arg;
	while (!__atomic_load_n(&parent_stop, __ATOMIC_RELAXED))
		sum += parent_reader();
	__atomic_store_n(&sink, sum, __ATOMIC_RELAXED);
	return NULL;
}

static void *parent_writer_thread(void *arg)
{
	int i = 0;

	(void)arg;
	while (!__atomic_load_n(&parent_stop, __ATOMIC_RELAXED))
		parent_writer(++i);
	return NULL;
}

static void *child_reader_thread(void *arg)
{
	long sum = 0;

	(void)arg;
	while (!e2e_stopped())
		sum += child_reader();
	__atomic_store_n(&sink, sum, __ATOMIC_RELAXED);
	return NULL;
}

static void *child_writer_thread(void *arg)
{
	int i = 0;

	(void)arg;
	while (!e2e_stopped())
		child_writer(++i);
	return NULL;
}

int main(void)
{
	pthread_t r, w;
	pid_t pids[CHILDREN];
	static struct rel_report reps[20000];
	int nrep, ok = 0, parent_reports = 0;
	char *text;

	e2e_require_runtime();
	r = e2e_spawn(parent_reader_thread, NULL);
	w = e2e_spawn(parent_writer_thread, NULL);
	for (int i = 0; i < CHILDREN; i++) {
		int status;

		e2e_sleep_ms(5 + 7 * i % 23);
		pids[i] = fork();
		if (pids[i] < 0)
			e2e_die("fork", errno);
		if (pids[i] == 0) {
			pthread_t cr, cw;

			cr = e2e_spawn(child_reader_thread, NULL);
			cw = e2e_spawn(child_writer_thread, NULL);
			rel_wait_for_report("child_reader / child_writer", (int)getpid(), 5000);
			__atomic_store_n(&e2e_stop_flag, 1, __ATOMIC_RELAXED);
			e2e_join(cr);
			e2e_join(cw);
			exit(0); /* 66 once the child reported */
		}
		if (waitpid(pids[i], &status, 0) != pids[i])
			e2e_die("waitpid", errno);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 66) {
			fprintf(stderr, "e2e: child %d (fork %d) ended with status 0x%x, "
				"expected exit 66\n", (int)pids[i], i, status);
			exit(2);
		}
	}
	__atomic_store_n(&parent_stop, 1, __ATOMIC_RELAXED);
	e2e_join(r);
	e2e_join(w);

	text = rel_read_stderr(NULL);
	if (!text) {
		fprintf(stderr, "rel: stderr is not a file: report PIDs not checked\n");
		return 0;
	}
	nrep = rel_reports(text, reps, 20000);
	E2E_CHECK(nrep <= 20000);
	for (int i = 0; i < CHILDREN; i++) {
		int mine = 0;

		for (int k = 0; k < nrep; k++) {
			if (reps[k].pid != (int)pids[i])
				continue;
			mine++;
			if (strcmp(reps[k].title, "child_reader / child_writer") != 0 &&
			    strcmp(reps[k].title, "child_reader") != 0)
				fprintf(stderr, "e2e: child %d reported '%s'\n", (int)pids[i],
					reps[k].title);
		}
		if (!mine)
			fprintf(stderr, "e2e: no report with the pid of child %d\n", (int)pids[i]);
		else
			ok++;
	}
	for (int k = 0; k < nrep; k++) {
		if (reps[k].pid != (int)getpid())
			continue;
		parent_reports++;
		if (strncmp(reps[k].title, "parent_", 7) != 0)
			fprintf(stderr, "e2e: the parent reported '%s'\n", reps[k].title);
	}
	E2E_CHECK(parent_reports > 0);
	E2E_CHECK(rel_check_lines(text) == 0);
	free(text);
	fprintf(stderr, "rel: %d children exited 66 and reported with their own pid\n", ok);
	return 0;
}
