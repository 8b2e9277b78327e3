// A child's exit status and summary are its own: the parent reports a race
// (halt_on_error=0), then forks a child that races with nothing and leaves
// with exit(0). The child must exit 0, not 66, and must not print the
// "UCSAN: reported N data races" summary of the parent's reports; a second
// child that does race reports it and exits 66 with a summary that counts
// its own reports only. The parent exits 66.
//
// OPTIONS: skip_watch=0 report_once_in_ms=100000
// TRIES: 3
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in parent_reader / parent_writer$
// EXPECT: ^BUG: UCSAN: data-race in child_reader / child_writer$
// EXPECT: ^rel: quiet child exited 0, racy child exited 66$
// EXPECT: ^UCSAN: reported [0-9]+ data races?$

#include <sys/wait.h>

#include "rel_support.h"

static int parent_shared, child_shared;
static int quiet_data[64];

E2E_READER_WRITER(parent_shared, parent_reader, parent_writer)

E2E_READER_WRITER(child_shared, child_reader, child_writer)

/* Wait until the parent's race has been reported (at most 10 s). */
static int parent_reported(void)
{
	return rel_wait_for_report("parent_reader / parent_writer", (int)getpid(), 10000);
}

static int wait_child(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		e2e_die("waitpid", errno);
	if (!WIFEXITED(status)) {
		fprintf(stderr, "e2e: child %d died with status 0x%x\n", (int)pid, status);
		exit(2);
	}
	return WEXITSTATUS(status);
}

int main(void)
{
	struct e2e_race parent = E2E_RACE_RW(parent_reader, parent_writer);
	struct e2e_race child = E2E_RACE_RW(child_reader, child_writer);
	pid_t quiet, racy;
	int quiet_rc, racy_rc;
	char *text;

	e2e_require_runtime();
	e2e_race_start(&parent);
	if (!parent_reported()) {
		/* not caught in time (or stderr is no file): let the harness retry */
		e2e_race_stop(&parent);
		return 0;
	}
	e2e_race_stop(&parent);

	quiet = fork();
	if (quiet < 0)
		e2e_die("fork", errno);
	if (quiet == 0) {
		for (int i = 0; i < 64; i++)
			quiet_data[i] += i; /* instrumented, no other thread */
		exit(0);
	}
	quiet_rc = wait_child(quiet);

	racy = fork();
	if (racy < 0)
		e2e_die("fork", errno);
	if (racy == 0) {
		e2e_race_start(&child);
		rel_wait_for_report("child_reader / child_writer", (int)getpid(), 5000);
		e2e_race_stop(&child);
		exit(0);
	}
	racy_rc = wait_child(racy);

	text = rel_read_stderr(NULL);
	E2E_CHECK(text != NULL);
	if (quiet_rc != 0)
		fprintf(stderr, "e2e: the child that did not race exited %d, expected 0 "
			"(the parent's reports are not its own)\n", quiet_rc);
	if (racy_rc != 66 && racy_rc != 0)
		fprintf(stderr, "e2e: the racing child exited %d, expected 66\n", racy_rc);
	if (racy_rc == 66 && !strstr(text, "child_reader / child_writer"))
		fprintf(stderr, "e2e: the racing child exited 66 without a report\n");
	/* The parent's own summary comes after this check: any so far is a
	 * child's, and only the racing child's, counting its own reports. */
	{
		static struct rel_report reps[256];
		const char *p = text;
		int summaries = 0, own = 0, nrep = rel_reports(text, reps, 256);

		for (int k = 0; k < nrep && k < 256; k++)
			own += reps[k].pid == (int)racy;
		while ((p = strstr(p, "UCSAN: reported ")) != NULL) {
			long n = strtol(p + 16, NULL, 10);

			summaries++;
			if (n != own)
				fprintf(stderr, "e2e: a child's summary says %ld reports, "
					"expected %d (its own)\n", n, own);
			p += 16;
		}
		if (summaries != (racy_rc == 66))
			fprintf(stderr, "e2e: %d summaries from the children, expected %d\n",
				summaries, racy_rc == 66);
	}
	E2E_CHECK(rel_check_lines(text) == 0);
	free(text);
	if (racy_rc == 0)
		return 0; /* the child missed its race: retry */
	fprintf(stderr, "rel: quiet child exited %d, racy child exited %d\n", quiet_rc, racy_rc);
	return 0;
}
