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

/* Lets a program bake options in, as with ThreadSanitizer's hook. */
UCSAN_EXPORT __attribute__((weak)) const char *__ucsan_default_options(void)
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

/* Which options the user gave, for options whose defaults depend on others. */
static bool opt_given[NUM_OPTS];

static bool given(const char *name)
{
	for (size_t i = 0; i < NUM_OPTS; i++)
		if (!strcmp(opt_table[i].name, name))
			return opt_given[i];
	return false;
}

void ucsan_options_set_defaults(void)
{
	memset(opt_given, 0, sizeof(opt_given));
#define OPT(type, name, def, desc) ucsan_opts.name = def;
#include "options.def"
#undef OPT
}

/* String values live here, since the parser may not keep pointers into the
 * environment (the program may change it) and must not depend on malloc. */
static char str_pool[4096];
static size_t str_used;

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
	return v >= 0;
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
		const char *kept = keep_string(val, strlen(val));
		if (!kept)
			goto bad;
		*(const char **)o->field = kept;
		return true;
	}
	}
bad:
	snprintf(err, errlen, "UCSAN: invalid value '%s' for option '%s'", val, o->name);
	return false;
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
			snprintf(err, errlen, "UCSAN: option '%s' has no value (expected %s=VALUE)", key, key);
			return false;
		}
		p++;
		size_t vn = 0;
		char quote = (*p == '"' || *p == '\'') ? *p++ : 0;
		while (*p && (quote ? *p != quote : !is_sep(*p))) {
			if (vn + 1 < sizeof(val))
				val[vn++] = *p;
			p++;
		}
		if (quote) {
			if (*p != quote) {
				snprintf(err, errlen, "UCSAN: unterminated quote in value of option '%s'", key);
				return false;
			}
			p++;
		}
		val[vn] = '\0';

		const struct opt_desc *o = NULL;
		for (size_t i = 0; i < NUM_OPTS; i++)
			if (!strcmp(opt_table[i].name, key))
				o = &opt_table[i];
		if (!o) {
			snprintf(err, errlen, "UCSAN: unknown option '%s' (UCSAN_OPTIONS=help=1 lists them)", key);
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
	}
}

void ucsan_options_init(void)
{
	ucsan_options_set_defaults();
	die_on_bad_options("__ucsan_default_options()", __ucsan_default_options());
	/* A setuid/setgid program must not take options (log_path!) from
	 * whoever runs it. */
	const char *env = secure_getenv("UCSAN_OPTIONS");
	if (env)
		die_on_bad_options("UCSAN_OPTIONS", env);
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
		n = snprintf(line, sizeof(line), "  %-28s %-5s default %.*s: %s\n", o->name,
			     o->type == T_BOOL ? "bool" : o->type == T_INT ? "int" : "str", (int)dl, def,
			     o->desc);
		if (n > (int)sizeof(line) - 1)
			n = sizeof(line) - 1;
		ucsan_write_fd(STDERR_FILENO, line, (size_t)n);
	}
}
