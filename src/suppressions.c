// SPDX-License-Identifier: Apache-2.0
/*
 * suppressions=FILE in ThreadSanitizer's syntax, and filter_mode, the
 * kernel's debugfs blacklist/whitelist: a race whose top frame (either
 * side) matches a `race:` pattern is hidden (blacklist) or is the only kind
 * shown (whitelist). Patterns match function names and source files.
 * Loaded once at start-up; matched under the report lock.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "symbolize.h"

#define MAX_PATTERNS 512

static char text[65536];           /* the file, patterns cut out in place */
static const char *patterns[MAX_PATTERNS];
static int npatterns;

/*
 * ThreadSanitizer's template match: '*' matches any run of characters, a
 * trailing '$' anchors at the end and a leading '^' at the start; otherwise
 * the pattern may match anywhere in the string.
 */
static bool match_prefix(const char *p, const char *s)
{
	if (!*p)
		return true;
	if (*p == '$' && !p[1])
		return !*s;
	if (*p == '*') {
		for (;; s++) {
			if (match_prefix(p + 1, s))
				return true;
			if (!*s)
				return false;
		}
	}
	return *s == *p && match_prefix(p + 1, s + 1);
}

bool ucsan_template_match(const char *pattern, const char *str)
{
	if (pattern[0] == '^')
		return match_prefix(pattern + 1, str);
	for (const char *s = str;; s++) {
		if (match_prefix(pattern, s))
			return true;
		if (!*s)
			return false;
	}
}

static void die(const char *fmt, const char *a, int b)
{
	char line[600];
	int n = snprintf(line, sizeof(line), fmt, a, b);
	ucsan_write_fd(STDERR_FILENO, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
	_exit(1);
}

/* Suppression types ThreadSanitizer knows; only race ones apply to us. */
static bool known_type(const char *t, size_t n)
{
	static const char *const types[] = { "race", "race_top", "thread", "mutex", "signal",
					     "deadlock", "called_from_lib" };
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strlen(types[i]) == n && !strncmp(types[i], t, n))
			return true;
	return false;
}

void ucsan_suppressions_init(void)
{
	const char *path = ucsan_opts.suppressions;
	if (!path || !*path)
		return;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die("UCSAN: cannot open suppressions file '%s': error %d\n", path, errno);
	ssize_t len = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (len < 0 || len == (ssize_t)sizeof(text) - 1)
		die("UCSAN: cannot read suppressions file '%s' (unreadable or over 64 KiB): %d\n", path, (int)len);
	text[len] = '\0';

	int lineno = 0;
	for (char *line = text; line && *line;) {
		char *next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		while (*line == ' ' || *line == '\t')
			line++;
		size_t n = strlen(line);
		while (n && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (n && line[0] != '#') {
			char *colon = strchr(line, ':');
			if (!colon || colon == line || !colon[1] || !known_type(line, (size_t)(colon - line)))
				die("UCSAN: %s:%d: expected TYPE:PATTERN, e.g. race:my_function\n", path, lineno);
			if (!strncmp(line, "race", 4) && (colon - line == 4 || colon - line == 8)) {
				if (npatterns == MAX_PATTERNS)
					die("UCSAN: %s: more than %d patterns\n", path, MAX_PATTERNS);
				patterns[npatterns++] = colon + 1;
			}
		}
		line = next;
	}
}

/* Does any pattern match a name or file of the frame at pc (the inline
 * chain included)? */
static bool frame_matches(uintptr_t pc)
{
	struct ucsan_frame fr[16];
	char strbuf[4096];
	int k = ucsan_symbolize(pc, 1, fr, 16, strbuf, sizeof(strbuf));
	for (int i = 0; i < k; i++)
		for (int j = 0; j < npatterns; j++)
			if ((fr[i].func && ucsan_template_match(patterns[j], fr[i].func)) ||
			    (fr[i].file && ucsan_template_match(patterns[j], fr[i].file)))
				return true;
	return false;
}

bool ucsan_race_suppressed(uintptr_t this_frame, uintptr_t other_frame)
{
	/* As the kernel's filter list: empty filters nothing, in either mode. */
	if (!npatterns)
		return false;
	const bool whitelist = !strcmp(ucsan_opts.filter_mode, "whitelist");
	bool matched = frame_matches(this_frame) || (other_frame && frame_matches(other_frame));
	return whitelist ? !matched : matched;
}
