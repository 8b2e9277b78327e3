// SPDX-License-Identifier: Apache-2.0
/*
 * Option parsing: defaults, then the weak __ucsan_default_options() hook the
 * program may define, then $UCSAN_OPTIONS. Cold path; runs once before main.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

struct ucsan_options ucsan_opts;

/* Let a program bake options in: ours, and ThreadSanitizer's hook for
 * programs written for it. The program's definitions win over these. */
UCSAN_EXPORT __attribute__((weak)) const char *__ucsan_default_options(void)
{
	return "";
}

UCSAN_EXPORT __attribute__((weak)) const char *__tsan_default_options(void)
{
	return "";
}

enum opt_type { T_BOOL, T_INT, T_STR };

struct opt_desc {
	const char *name;
	enum opt_type type;
	void *field;
	const char *def;
	const char *desc;
};

#define T_OF_BOOL T_BOOL
#define T_OF_INT T_INT
#define T_OF_STR T_STR
static const struct opt_desc opt_table[] = {
#define OPT(type, name, def, desc) { #name, T_OF_##type, &ucsan_opts.name, #def, desc },
#include "options.def"
#undef OPT
};
#define NUM_OPTS (sizeof(opt_table) / sizeof(opt_table[0]))

/* The not-applicable keys seen, said once by ucsan_options_init(). */
static char noted[512];

/* Which options the user gave, for options whose defaults depend on others. */
static bool opt_given[NUM_OPTS];

static bool given(const char *name)
{
	for (size_t i = 0; i < NUM_OPTS; i++)
		if (!strcmp(opt_table[i].name, name))
			return opt_given[i];
	return false;
}

static void reset_strings(void);

void ucsan_options_set_defaults(void)
{
	memset(opt_given, 0, sizeof(opt_given));
	noted[0] = '\0';
	reset_strings(); /* a fresh parse: the old strings are no longer referenced */
#define OPT(type, name, def, desc) ucsan_opts.name = def;
#include "options.def"
#undef OPT
}

/* String values live here, since the parser may not keep pointers into the
 * environment (the program may change it) and must not depend on malloc. */
static char str_pool[16384]; /* every string option at its longest, twice */
static size_t str_used;

static void reset_strings(void)
{
	str_used = 0;
}

static const char *keep_string(const char *s, size_t n)
{
	if (str_used + n + 1 > sizeof(str_pool))
		return NULL;
	char *dst = str_pool + str_used;
	memcpy(dst, s, n);
	dst[n] = '\0';
	str_used += n + 1;
	return dst;
}

static bool is_sep(char c)
{
	return c == ':' || c == ',' || c == ' ' || c == '\t' || c == '\n';
}

static bool parse_long(const char *s, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end)
		return false;
	*out = v;
	return true;
}

/* Range rules beyond "is an integer": what would make the engine misbehave. */
static bool int_in_range(const char *name, long v)
{
	if (!strcmp(name, "num_watchpoints"))
		return v >= 1 && v <= UCSAN_MAX_WATCHPOINTS;
	if (!strcmp(name, "exitcode"))
		return v >= 0 && v <= 255;
	if (!strcmp(name, "udelay_task") || !strcmp(name, "udelay_interrupt"))
		return v >= 0 && v <= 1000000;
	if (!strcmp(name, "seed"))
		return true;
	if (!strcmp(name, "overhead_budget"))
		return v >= 0 && v <= 100;
	if (!strcmp(name, "watch_through_waits"))
		return v >= 0 && v <= 2;
	if (!strcmp(name, "skip_watch") || !strcmp(name, "report_once_in_ms"))
		return v >= 0 && v <= (1L << 30); /* the random draw is 32-bit */
	return v >= 0;
}

/* A value as it may appear in a one-line message: control characters
 * shown as '?', long values cut. Not reentrant; start-up only. */
static const char *printable(const char *val)
{
	static char buf[72];
	size_t i = 0;
	for (; val[i] && i < 64; i++)
		buf[i] = (unsigned char)val[i] < 0x20 || val[i] == 0x7f ? '?' : val[i];
	if (val[i])
		buf[i++] = '.', buf[i++] = '.', buf[i++] = '.';
	buf[i] = '\0';
	return buf;
}

static bool set_option(const struct opt_desc *o, const char *val, char *err, unsigned long errlen)
{
	long v;
	switch (o->type) {
	case T_BOOL:
		if (!strcmp(val, "1") || !strcmp(val, "true") || !strcmp(val, "yes"))
			*(bool *)o->field = true;
		else if (!strcmp(val, "0") || !strcmp(val, "false") || !strcmp(val, "no"))
			*(bool *)o->field = false;
		else
			goto bad;
		return true;
	case T_INT:
		if (!parse_long(val, &v) || !int_in_range(o->name, v))
			goto bad;
		*(long *)o->field = v;
		return true;
	case T_STR: {
		if (!strcmp(o->name, "filter_mode") && strcmp(val, "blacklist") && strcmp(val, "whitelist"))
			goto bad;
		if (!strcmp(o->name, "report_format") && strcmp(val, "text") && strcmp(val, "json") &&
		    strcmp(val, "both"))
			goto bad;
		const char *kept = keep_string(val, strlen(val));
		if (!kept)
			goto bad;
		*(const char **)o->field = kept;
		return true;
	}
	}
bad:
	snprintf(err, errlen, "UCSAN: invalid value '%s' for option '%s'", printable(val), o->name);
	return false;
}

/* ThreadSanitizer's flags that are not ours by name (tsan_flags.def). */
static const struct tsan_flag {
	const char *name, *ours;
} tsan_flags[] = {
#define TSAN_FLAG(name, ours) { #name, ours },
#include "tsan_flags.def"
#undef TSAN_FLAG
};

static const struct tsan_flag *tsan_flag(const char *key)
{
	for (size_t i = 0; i < sizeof(tsan_flags) / sizeof(tsan_flags[0]); i++)
		if (!strcmp(tsan_flags[i].name, key))
			return &tsan_flags[i];
	return NULL;
}

size_t ucsan_tsan_flag_count(void)
{
	return sizeof(tsan_flags) / sizeof(tsan_flags[0]);
}

const char *ucsan_tsan_flag_name(size_t i)
{
	return i < ucsan_tsan_flag_count() ? tsan_flags[i].name : NULL;
}

static const struct opt_desc *find_option(const char *key)
{
	for (size_t i = 0; i < NUM_OPTS; i++)
		if (!strcmp(opt_table[i].name, key))
			return &opt_table[i];
	return NULL;
}

static void note_not_applicable(const char *key)
{
	size_t used = strlen(noted), kl = strlen(key);
	if (strstr(noted, key) || used + kl + 3 >= sizeof(noted))
		return;
	if (used)
		strcat(noted, ", ");
	strcat(noted, key);
}

bool ucsan_options_parse(const char *str, char *err, unsigned long errlen)
{
	const char *p = str;
	char key[64], val[1024];

	while (p && *p) {
		while (is_sep(*p))
			p++;
		if (!*p)
			break;
		size_t kn = 0;
		while (*p && *p != '=' && !is_sep(*p)) {
			if (kn + 1 < sizeof(key))
				key[kn++] = *p;
			p++;
		}
		key[kn] = '\0';
		if (*p != '=') {
			snprintf(err, errlen, "UCSAN: option '%s' has no value (expected KEY=VALUE)", printable(key));
			return false;
		}
		p++;
		size_t vn = 0;
		char quote = (*p == '"' || *p == '\'') ? *p++ : 0;
		while (*p && (quote ? *p != quote : !is_sep(*p))) {
			if (vn + 1 >= sizeof(val)) {
				snprintf(err, errlen, "UCSAN: value of option '%s' is too long (at most %zu bytes)",
					 printable(key), sizeof(val) - 1);
				return false;
			}
			val[vn++] = *p;
			p++;
		}
		if (quote) {
			if (*p != quote) {
				snprintf(err, errlen, "UCSAN: unterminated quote in value of option '%s'", printable(key));
				return false;
			}
			p++;
		}
		val[vn] = '\0';

		const struct opt_desc *o = find_option(key);
		const struct tsan_flag *t = o ? NULL : tsan_flag(key);
		if (t && !t->ours) {
			note_not_applicable(key);
			continue;
		}
		if (t)
			o = find_option(t->ours);
		if (!o) {
			snprintf(err, errlen, "UCSAN: unknown option '%s' (UCSAN_OPTIONS=help=1 lists them)", printable(key));
			return false;
		}
		if (!set_option(o, val, err, errlen))
			return false;
		opt_given[o - opt_table] = true;
	}
	return true;
}

static void die_on_bad_options(const char *from, const char *str)
{
	char err[512];
	if (ucsan_options_parse(str, err, sizeof(err)))
		return;
	char line[700];
	int n = snprintf(line, sizeof(line), "%s (in %s)\n", err, from);
	if (n > (int)sizeof(line) - 1)
		n = sizeof(line) - 1;
	ucsan_write_fd(STDERR_FILENO, line, (size_t)n);
	_exit(1);
}

/* strict is the kernel's KCSAN_STRICT: it overrides the options it implies. */
void ucsan_options_apply_modes(void)
{
	/* An explicit skip_watch asks for KCSAN's fixed sampling. */
	if (given("skip_watch") && !given("overhead_budget"))
		ucsan_opts.overhead_budget = 0;
	if (ucsan_opts.strict) {
		ucsan_opts.report_value_change_only = false;
		ucsan_opts.assume_plain_writes_atomic = false;
		ucsan_opts.permissive = false;
		ucsan_opts.weak_memory = true;
	}
	/* As in the kernel, where weak memory modeling depends on strict
	 * mode: the writes it reorders must be watched at all. */
	if (ucsan_opts.weak_memory && !given("assume_plain_writes_atomic"))
		ucsan_opts.assume_plain_writes_atomic = false;
}

void ucsan_options_init(void)
{
	ucsan_options_set_defaults();
	die_on_bad_options("__tsan_default_options()", __tsan_default_options());
	die_on_bad_options("__ucsan_default_options()", __ucsan_default_options());
	/* A setuid/setgid program must not take options (log_path!) from
	 * whoever runs it. TSAN_OPTIONS is the fallback, so a CI job set up
	 * for ThreadSanitizer keeps its settings. */
	const char *env = secure_getenv("UCSAN_OPTIONS");
	const char *from = "UCSAN_OPTIONS";
	if (!env) {
		env = secure_getenv("TSAN_OPTIONS");
		from = "TSAN_OPTIONS";
	}
	if (env)
		die_on_bad_options(from, env);
	if (noted[0]) {
		char line[700];
		int n = snprintf(line, sizeof(line), "UCSAN: note: not applicable under ucsan, ignored: %s\n",
				 noted);
		ucsan_write_fd(STDERR_FILENO, line, n < (int)sizeof(line) ? (size_t)n : sizeof(line) - 1);
	}
	ucsan_options_apply_modes();
	if (ucsan_opts.help)
		ucsan_options_print_help();
}

void ucsan_options_print_help(void)
{
	char line[512];
	int n = snprintf(line, sizeof(line), "UCSAN_OPTIONS=key=value:key=value (also ',' or spaces)\n");
	ucsan_write_fd(STDERR_FILENO, line, (size_t)n);
	for (size_t i = 0; i < NUM_OPTS; i++) {
		const struct opt_desc *o = &opt_table[i];
		const char *def = o->def;
		size_t dl = strlen(def);
		/* String defaults are stringized literals: drop the quotes. */
		if (o->type == T_STR && dl >= 2)
			def++, dl -= 2;
		/* The description goes out as it is: some are longer than any
		 * line buffer, and a cut one would run into the next option. */
		n = snprintf(line, sizeof(line), "  %-28s %-5s default %.*s: ", o->name,
			     o->type == T_BOOL ? "bool" : o->type == T_INT ? "int" : "str", (int)dl, def);
		if (n > (int)sizeof(line) - 1)
			n = sizeof(line) - 1;
		ucsan_write_fd(STDERR_FILENO, line, (size_t)n);
		ucsan_write_fd(STDERR_FILENO, o->desc, strlen(o->desc));
		ucsan_write_fd(STDERR_FILENO, "\n", 1);
	}
}
