/*
 * Helpers for the reliability tests (tests/e2e/rel_*.c): reading back what
 * the process (and its fork children) wrote to stderr so far, splitting it
 * into reports, and checking that every line has one of the shapes a report
 * is made of (so that interleaved or torn output is noticed).
 *
 * The e2e harness runs every test with stderr redirected to a regular file.
 * The runtime writes its reports with write(2) to its own copy of that
 * descriptor, so reopening /proc/self/fd/2 shows everything written so far,
 * by this process and by the children it forked. When stderr is not a
 * regular file (a test run by hand on a terminal), rel_read_stderr()
 * returns NULL and the tests say that the check was skipped.
 *
 * Not a test itself (the harness only runs *.c and *.cpp files).
 */
#ifndef UCSAN_REL_SUPPORT_H
#define UCSAN_REL_SUPPORT_H

#include <fcntl.h>
#include <regex.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e.h"

/*
 * The helpers below scan whole output files, byte by byte: not checked by
 * the runtime (under skip_watch=0 every access would stall for a watch).
 */
#define REL_UNCHECKED __attribute__((no_sanitize("thread")))

/* The runtime's (include/ucsan.h): this thread's accesses unchecked. */
void ucsan_disable_current(void);
void ucsan_enable_current(void);

/*
 * Everything written to stderr so far, NUL-terminated, in a malloc'ed
 * buffer (the caller frees it); NULL if stderr is not a regular file.
 */
REL_UNCHECKED static E2E_UNUSED char *rel_read_stderr(size_t *lenp)
{
	struct stat st;
	size_t cap = 1 << 16, len = 0;
	char *buf;
	int fd;

	if (fstat(2, &st) != 0 || !S_ISREG(st.st_mode))
		return NULL;
	fd = open("/proc/self/fd/2", O_RDONLY);
	if (fd < 0)
		return NULL;
	buf = (char *)malloc(cap);
	if (!buf)
		e2e_die("malloc", errno);
	for (;;) {
		ssize_t n;

		if (len + 1 >= cap) {
			cap *= 2;
			buf = (char *)realloc(buf, cap);
			if (!buf)
				e2e_die("realloc", errno);
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			e2e_die("read /proc/self/fd/2", errno);
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	if (lenp)
		*lenp = len;
	return buf;
}

/*
 * rel_read_stderr() for a test's final checks: when stderr is not a file,
 * say that @unchecked goes unchecked and return NULL (the test then ends
 * with status 0).
 */
static E2E_UNUSED char *rel_stderr_for(const char *unchecked)
{
	char *text = rel_read_stderr(NULL);

	if (!text)
		fprintf(stderr, "rel: stderr is not a file: %s not checked\n", unchecked);
	return text;
}

/* Wait for fork child @pid (fork number @i): it must have exited 66. */
static E2E_UNUSED void rel_wait_exit_66(pid_t pid, int i)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		e2e_die("waitpid", errno);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 66) {
		fprintf(stderr, "e2e: child %d (fork %d) ended with status 0x%x, "
			"expected exit 66\n", (int)pid, i, status);
		exit(2);
	}
}

/* One report as read back: its title line's function part, and its PID. */
struct rel_report {
	char title[256]; /* "a / b" or "a" (unknown origin) */
	int pid;         /* from "CPU: N PID: P Comm: ...", 0 if missing */
};

/*
 * Splits text into reports (a "BUG: UCSAN: ... in " line up to the next
 * "CPU: N PID: P" line). Fills at most max entries, returns how many reports
 * there were (which may be more than max).
 */
REL_UNCHECKED static E2E_UNUSED int rel_reports(const char *text, struct rel_report *out, int max)
{
	const char *p = text;
	int n = 0;

	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t ll = eol ? (size_t)(eol - p) : strlen(p);
		const char *in;
		int cpu, pid;

		if (ll > 11 && !strncmp(p, "BUG: UCSAN: ", 12) &&
		    (in = strstr(p, " in ")) != NULL && in < p + ll) {
			if (n < max) {
				size_t tl = ll - (size_t)(in + 4 - p);

				if (tl >= sizeof(out[n].title))
					tl = sizeof(out[n].title) - 1;
				memcpy(out[n].title, in + 4, tl);
				out[n].title[tl] = '\0';
				out[n].pid = 0;
			}
			n++;
		} else if (n > 0 && n <= max &&
			   sscanf(p, "CPU: %d PID: %d Comm:", &cpu, &pid) == 2) {
			out[n - 1].pid = pid;
		}
		p += ll;
		if (*p == '\n')
			p++;
	}
	return n;
}

/* Whether stderr holds a report whose title is @title (exactly) from
 * process @pid: 1 yes, 0 not yet, -1 stderr is not a file. */
REL_UNCHECKED static E2E_UNUSED int rel_report_seen(const char *title, int pid)
{
	char *text = rel_read_stderr(NULL);
	const char *p;
	int found = 0, title_matches = 0;

	if (!text)
		return -1;
	/* Walk the reports: a title line, later its CPU/PID line. */
	for (p = text; *p && !found;) {
		const char *eol = strchr(p, '\n');
		size_t ll = eol ? (size_t)(eol - p) : strlen(p);
		const char *in;
		int cpu, rpid;

		if (!strncmp(p, "BUG: UCSAN: ", 12) && (in = strstr(p, " in ")) != NULL &&
		    in < p + ll)
			title_matches = strlen(title) == ll - (size_t)(in + 4 - p) &&
					!strncmp(in + 4, title, strlen(title));
		else if (sscanf(p, "CPU: %d PID: %d Comm:", &cpu, &rpid) == 2)
			found = title_matches && rpid == pid;
		p += ll;
		if (*p == '\n')
			p++;
	}
	free(text);
	return found;
}

/*
 * Waits up to @ms milliseconds for that report: 1 if it came, 0 if not (or
 * if stderr is not a file). The scan's libc calls (strncmp,
 * strlen: interposed, checked like the program's own) are kept from the
 * runtime: under skip_watch=0 each would stall for a watch, and the text
 * holds thousands of reports.
 */
static E2E_UNUSED int rel_wait_for_report(const char *title, int pid, long ms)
{
	for (long waited = 0;; waited += 10) {
		ucsan_disable_current();
		const int seen = rel_report_seen(title, pid);
		ucsan_enable_current();
		if (seen)
			return seen > 0;
		if (waited >= ms)
			return 0;
		e2e_sleep_ms(10);
	}
}

/*
 * The shapes of the lines a report is made of, and of the runtime's other
 * messages. Lines starting with "rel: " are the test programs' own.
 */
static const char *const rel_line_shapes[] = {
	"^$",
	"^={66}$",
	/* C++ names may hold spaces, parentheses and templates */
	"^BUG: UCSAN: (data-race|assert: race) in [^ ].*[^ ]$",
	"^(race at unknown origin, with )?(read|write|read-write|assert no writes|assert no accesses)( \\([a-z, ]+\\))? to 0x[0-9a-f]+ of [0-9]+ bytes by (signal handler in )?thread [0-9]+( \\(OpenMP thread [0-9]+\\))? on cpu [0-9]+:$",
	"^ [^ ].*\\+0x[0-9a-f]+/0x[0-9a-f]+( [^ ]+:[0-9]+)?$",
	"^ [^ ].*( [^ ]+:[0-9]+)? \\[inline\\]$",
	"^ 0x[0-9a-f]+( \\([^ ]+\\+0x[0-9a-f]+\\))?$",
	"^value changed: 0x[0-9a-f]+ -> 0x[0-9a-f]+$",
	"^ bits changed: 0x[0-9a-f]+ with mask 0x[0-9a-f]+$",
	/* what the memory is, and who the threads are */
	"^location: [^ ].*$",
	"^thread [0-9]+ \".*\" \\((running|finished)\\)( created by thread [0-9]+ at:| is the main thread)$",
	"^thread [0-9]+ \\(not started through pthread_create\\)$",
	/* under a reordered (weak_memory) access's stack */
	"^  \\|$",
	"^  \\+-> reordered to: .+$",
	"^Reported by User-space Concurrency Sanitizer on:$",
	"^CPU: [0-9]+ PID: [0-9]+ Comm: .*$",
	"^UCSAN: reported [0-9]+ data races?$",
	"^rel: ",
};
#define REL_NSHAPES (sizeof(rel_line_shapes) / sizeof(rel_line_shapes[0]))

/*
 * Checks every line of text against rel_line_shapes and the order of a
 * report (=== / BUG / ... / Reported by / CPU / ===). Prints "e2e: " lines
 * (which fail the test) for the first few offenders; returns the number of
 * bad lines.
 */
REL_UNCHECKED static E2E_UNUSED int rel_check_lines(const char *text)
{
	regex_t re[REL_NSHAPES];
	const char *p = text;
	int bad = 0, lineno = 0;
	/* 0: between reports, 1: after the opening rule, 2: in the body,
	 * 3: after "Reported by", 4: after the CPU line. */
	int state = 0;

	for (size_t i = 0; i < REL_NSHAPES; i++)
		if (regcomp(&re[i], rel_line_shapes[i], REG_EXTENDED | REG_NOSUB) != 0) {
			fprintf(stderr, "e2e: bad regex %s\n", rel_line_shapes[i]);
			exit(2);
		}
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t ll = eol ? (size_t)(eol - p) : strlen(p);
		char line[4096];
		const char *why = NULL;
		size_t i;

		lineno++;
		if (ll >= sizeof(line))
			ll = sizeof(line) - 1;
		memcpy(line, p, ll);
		line[ll] = '\0';
		for (i = 0; i < REL_NSHAPES; i++)
			if (regexec(&re[i], line, 0, NULL, 0) == 0)
				break;
		if (i == REL_NSHAPES) {
			why = "unknown line shape";
		} else if (!strncmp(line, "rel: ", 5)) {
			/* the program's own lines: between reports only */
			if (state != 0)
				why = "program line inside a report";
		} else if (line[0] == '=') {
			if (state == 0)
				state = 1;
			else if (state == 4)
				state = 0;
			else
				why = "rule line in the middle of a report";
		} else if (!strncmp(line, "BUG:", 4)) {
			if (state != 1)
				why = "title not right after the opening rule";
			state = 2;
		} else if (!strncmp(line, "Reported by", 11)) {
			if (state != 2)
				why = "footer outside a report";
			state = 3;
		} else if (!strncmp(line, "CPU:", 4)) {
			if (state != 3)
				why = "CPU line not right after the footer";
			state = 4;
		} else if (!strncmp(line, "UCSAN: reported", 15)) {
			if (state != 0)
				why = "summary inside a report";
		} else if (state != 2) {
			why = "report body line outside a report body";
		}
		if (why) {
			if (bad < 5)
				fprintf(stderr, "e2e: stderr line %d: %s: '%s'\n", lineno, why, line);
			bad++;
		}
		p += eol ? (size_t)(eol - p) + 1 : strlen(p);
		if (!eol)
			break;
	}
	if (state != 0) {
		fprintf(stderr, "e2e: stderr ends inside a report (state %d)\n", state);
		bad++;
	}
	for (size_t i = 0; i < REL_NSHAPES; i++)
		regfree(&re[i]);
	return bad;
}

/*
 * The reports on stderr so far, into @reps (more than @max fail the test),
 * with the text in *@text for the caller to free; -1 when stderr is not a
 * file (see rel_stderr_for()).
 */
static E2E_UNUSED int rel_stderr_reports(char **text, struct rel_report *reps, int max,
					 const char *unchecked)
{
	int n;

	*text = rel_stderr_for(unchecked);
	if (!*text)
		return -1;
	n = rel_reports(*text, reps, max);
	E2E_CHECK(n <= max);
	return n;
}

/*
 * Count the reports on stderr so far and check that every line has a
 * report's shape (rel_check_lines()); -1 when stderr is not a file.
 */
static E2E_UNUSED int rel_check_stderr(void)
{
	char *text = rel_stderr_for("lines");
	int n;

	if (!text)
		return -1;
	n = rel_reports(text, NULL, 0);
	E2E_CHECK(rel_check_lines(text) == 0);
	free(text);
	return n;
}

/*
 * For tests whose interesting part is how the process ends (exit() from a
 * thread, main returning mid-report): the output can only be checked once
 * the process is gone. Called first thing in main: in the original process
 * it runs the program again as "PROG --rel-run" (a fresh process, stderr
 * shared), waits for it, checks every line it printed with
 * rel_check_lines(), says "rel: output of the run checked" and exits with
 * the run's own exit status (2 if it was killed by a signal). In the
 * re-executed process it returns and the test proper runs.
 */
static E2E_UNUSED int rel_in_run; /* 1 in the re-executed process */

REL_UNCHECKED static E2E_UNUSED void rel_supervise(int argc, char **argv)
{
	char self[4096];
	ssize_t n;
	pid_t pid;
	int status;
	size_t before = 0;
	char *text;

	if (argc > 1 && !strcmp(argv[1], "--rel-run")) {
		rel_in_run = 1;
		return;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0)
		e2e_die("readlink /proc/self/exe", errno);
	self[n] = '\0';
	text = rel_read_stderr(&before);
	free(text);
	pid = fork();
	if (pid < 0)
		e2e_die("fork", errno);
	if (pid == 0) {
		execl(self, self, "--rel-run", (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) != pid)
		if (errno != EINTR)
			e2e_die("waitpid", errno);
	if (!WIFEXITED(status)) {
		fprintf(stderr, "e2e: the run was killed by signal %d\n",
			WIFSIGNALED(status) ? WTERMSIG(status) : -1);
		exit(2);
	}
	text = rel_read_stderr(NULL);
	if (text) {
		const char *sum = strstr(text + before, "\nUCSAN: reported ");
		int nrep = rel_reports(text + before, NULL, 0);

		if (rel_check_lines(text + before) != 0)
			exit(2);
		/* The summary counts exactly the reports that were printed. */
		if (sum && strtol(sum + 17, NULL, 10) != nrep) {
			fprintf(stderr, "e2e: the summary says %ld reports, %d were printed\n",
				strtol(sum + 17, NULL, 10), nrep);
			exit(2);
		}
		if (!sum && nrep) {
			fprintf(stderr, "e2e: %d reports but no summary line\n", nrep);
			exit(2);
		}
		free(text);
		fprintf(stderr, "rel: output of the run checked\n");
	} else {
		fprintf(stderr, "rel: stderr is not a file: output not checked\n");
	}
	exit(WEXITSTATUS(status));
}

#endif /* UCSAN_REL_SUPPORT_H */
