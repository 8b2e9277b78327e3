// SPDX-License-Identifier: Apache-2.0
/*
 * suppressions=FILE in ThreadSanitizer's syntax, and filter_mode, the
 * kernel's debugfs blacklist/whitelist: a race whose top frame (either
 * side) matches a `race:` pattern is hidden (blacklist) or is the only kind
 * shown (whitelist). Patterns match function names and source files.
 * The program's __tsan_default_suppressions(), if it defines one, adds its
 * text, as under TSan. Loaded once at start-up; matched under the report
 * lock.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "symbolize.h"

#define MAX_PATTERNS 512

static char text[65536];           /* the file, patterns cut out in place */
static char code_text[16384];      /* __tsan_default_suppressions()'s, likewise */
static const char *patterns[MAX_PATTERNS];
static int npatterns;

/*
 * ThreadSanitizer's template match: '*' matches any run of characters, a
 * trailing '$' anchors at the end and a leading '^' at the start; otherwise
 * the pattern may match anywhere in the string.
 */
static bool match_prefix(const char *p, const char *s)
{
	/* Iterative, backtracking to the last '*' only: linear space and no
	 * recursion, whatever the pattern (the fuzzer found deep recursion). */
	size_t pl = strlen(p);
	const bool anchored = pl > 0 && p[pl - 1] == '$';
	if (anchored)
		pl--;
	size_t pi = 0, star = (size_t)-1;
	const char *star_s = NULL;
	for (;;) {
		if (pi == pl) {
			if (!anchored || !*s)
				return true;
		} else if (p[pi] == '*') {
			star = pi++;
			star_s = s;
			continue;
		} else if (*s && p[pi] == *s) {
			pi++;
			s++;
			continue;
		}
		/* Mismatch: let the last '*' swallow one more character. */
		if (star == (size_t)-1 || !*star_s)
			return false;
		pi = star + 1;
		s = ++star_s;
	}
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

/* Suppression types ThreadSanitizer knows. race and race_top match the
 * racing frames, called_from_lib their module; the rest are about
 * things ucsan does not report. */
enum { S_RACE, S_LIB, S_OTHER, S_UNKNOWN };

static int type_of(const char *t, size_t n)
{
	static const struct {
		const char *name;
		int kind;
	} types[] = { { "race", S_RACE },	  { "race_top", S_RACE }, { "called_from_lib", S_LIB },
		      { "thread", S_OTHER },	  { "mutex", S_OTHER },	  { "signal", S_OTHER },
		      { "deadlock", S_OTHER } };
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strlen(types[i].name) == n && !strncmp(types[i].name, t, n))
			return types[i].kind;
	return S_UNKNOWN;
}

static const char *lib_patterns[MAX_PATTERNS];
static int nlib_patterns;
static bool noted_other;

/*
 * Parses a suppressions file held in buf (NUL-terminated, modified in
 * place; patterns keep pointing into it). On error writes one line naming
 * the file and line into err and returns false.
 */
bool ucsan_suppressions_parse(char *buf, const char *name, char *err, size_t errlen)
{
	int lineno = 0;
	for (char *line = buf; line && *line;) {
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
			int kind = colon && colon != line ? type_of(line, (size_t)(colon - line)) : S_UNKNOWN;
			if (kind == S_UNKNOWN || !colon[1]) {
				snprintf(err, errlen, "UCSAN: %s:%d: expected TYPE:PATTERN, e.g. race:my_function", name,
					 lineno);
				return false;
			}
			if (kind == S_OTHER) {
				noted_other = true;
			} else {
				const char **list = kind == S_RACE ? patterns : lib_patterns;
				int *count = kind == S_RACE ? &npatterns : &nlib_patterns;
				if (*count == MAX_PATTERNS) {
					snprintf(err, errlen, "UCSAN: %s: more than %d patterns", name, MAX_PATTERNS);
					return false;
				}
				list[(*count)++] = colon + 1;
			}
		}
		line = next;
	}
	return true;
}

void ucsan_suppressions_reset(void)
{
	npatterns = nlib_patterns = 0;
	noted_other = false;
}

static void say(const char *msg)
{
	ucsan_write_fd(STDERR_FILENO, msg, strlen(msg));
}

/* TSan's hook, weak, known by a local name: the exported one resolves to
 * the program's definition. */
static const char *no_default_suppressions(void)
{
	return NULL;
}

UCSAN_EXPORT __attribute__((weak, alias("no_default_suppressions"))) const char *__tsan_default_suppressions(void);

/* Parses buf (named `name` in messages); a bad line stops start-up. */
static void parse_or_stop(char *buf, const char *name)
{
	char err[700];
	if (!ucsan_suppressions_parse(buf, name, err, sizeof(err) - 1)) {
		strcat(err, "\n");
		say(err);
		_exit(1);
	}
}

/* Suppressions the program gives in code: parsed from a copy, which the
 * patterns point into. A bad line stops start-up, as a bad file does. */
static void code_suppressions(void)
{
	void *p = dlsym(RTLD_DEFAULT, "__tsan_default_suppressions");
	if (!p || p == (void *)no_default_suppressions)
		return;
	const char *given = ((const char *(*)(void))p)();
	if (!given || !*given)
		return;
	const size_t n = strlen(given);
	if (n >= sizeof(code_text)) {
		say("UCSAN: __tsan_default_suppressions() returned over 16 KiB\n");
		_exit(1);
	}
	memcpy(code_text, given, n + 1);
	parse_or_stop(code_text, "__tsan_default_suppressions()");
}

/* suppressions=FILE: a file that cannot be read stops start-up too. */
static void file_suppressions(const char *path)
{
	char err[700];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t len = fd < 0 ? -1 : read(fd, text, sizeof(text) - 1);
	if (fd >= 0)
		close(fd);
	if (len < 0 || len == (ssize_t)sizeof(text) - 1) {
		snprintf(err, sizeof(err), "UCSAN: cannot read suppressions file '%s'%s\n", path,
			 len < 0 ? "" : " (over 64 KiB)");
		say(err);
		_exit(1);
	}
	text[len] = '\0';
	parse_or_stop(text, path);
}

void ucsan_suppressions_init(void)
{
	const char *path = ucsan_opts.suppressions;
	code_suppressions();
	if (path && *path)
		file_suppressions(path);
	if (noted_other)
		say("UCSAN: note: thread/mutex/signal/deadlock suppressions do not apply under ucsan; ignored\n");
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

/* called_from_lib: the frame's code lives in a matching library. */
static bool module_matches(uintptr_t pc)
{
	Dl_info info;
	if (!nlib_patterns || !dladdr((void *)(pc - 1), &info) || !info.dli_fname)
		return false;
	for (int j = 0; j < nlib_patterns; j++)
		if (ucsan_template_match(lib_patterns[j], info.dli_fname))
			return true;
	return false;
}

bool ucsan_race_suppressed(uintptr_t this_frame, uintptr_t other_frame)
{
	/* As the kernel's filter list: empty filters nothing, in either mode. */
	if (!npatterns && !nlib_patterns)
		return false;
	const bool whitelist = !strcmp(ucsan_opts.filter_mode, "whitelist");
	bool matched = frame_matches(this_frame) || (other_frame && frame_matches(other_frame)) ||
		       module_matches(this_frame) || (other_frame && module_matches(other_frame));
	return whitelist ? !matched : matched;
}
