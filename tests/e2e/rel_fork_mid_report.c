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

E2E_READER_WRITER(parent_shared, parent_reader, parent_writer)

E2E_READER_WRITER(child_shared, child_reader, child_writer)

int main(void)
{
	struct e2e_race parent = E2E_RACE_RW(parent_reader, parent_writer);
	pid_t pids[CHILDREN];
	static struct rel_report reps[20000];
	int nrep, ok = 0, parent_reports = 0;
	char *text;

	e2e_require_runtime();
	e2e_race_start(&parent);
	for (int i = 0; i < CHILDREN; i++) {
		e2e_sleep_ms(5 + 7 * i % 23);
		pids[i] = fork();
		if (pids[i] < 0)
			e2e_die("fork", errno);
		if (pids[i] == 0) {
			struct e2e_race child = E2E_RACE_RW(child_reader, child_writer);

			e2e_race_start(&child);
			rel_wait_for_report("child_reader / child_writer", (int)getpid(), 5000);
			e2e_race_stop(&child);
			exit(0); /* 66 once the child reported */
		}
		rel_wait_exit_66(pids[i], i);
	}
	e2e_race_stop(&parent);

	nrep = rel_stderr_reports(&text, reps, 20000, "report PIDs");
	if (nrep < 0)
		return 0;
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
