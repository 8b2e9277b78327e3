// A child that runs the very race its parent just reported reports it
// itself: the report_once_in_ms memory of the parent's reports is not the
// child's (the child's reports go to its own PATH.PID with log_path, and
// its exit status is its own). The parent reports reader / writer, stops
// racing, forks; the child races the same pair for up to 5 s, well within
// report_once_in_ms (60 s here, so that a slow machine cannot let the
// parent's memory of the report expire), and must print a report with its
// own PID and exit 66.
//
// OPTIONS: skip_watch=0 report_once_in_ms=60000
// TRIES: 3
// EXIT: 66
// EXPECT: ^rel: the child reported the parent's race again, with its own pid$

#include "rel_support.h"

static int shared;

E2E_READER_WRITER(shared, reader, writer)

/* Races until a reader / writer report with this pid shows up (at most ms). */
static int race_until_reported(long ms)
{
	struct e2e_race race = E2E_RACE_RW(reader, writer);
	int found;

	e2e_race_start(&race);
	found = rel_wait_for_report("reader / writer", (int)getpid(), ms);
	e2e_race_stop(&race);
	return found;
}

int main(void)
{
	int status;
	pid_t pid;

	e2e_require_runtime();
	if (!race_until_reported(5000))
		return 0; /* not caught (or stderr is no file): retry */
	pid = fork();
	if (pid < 0)
		e2e_die("fork", errno);
	if (pid == 0)
		_exit(race_until_reported(5000) ? 66 : 0);
	if (waitpid(pid, &status, 0) != pid)
		e2e_die("waitpid", errno);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 66)
		fprintf(stderr, "rel: the child reported the parent's race again, with its own pid\n");
	else
		fprintf(stderr, "e2e: no report of reader / writer with the child's pid "
			"(status 0x%x): the parent's report_once_in_ms memory silenced it\n",
			status);
	return 0;
}
