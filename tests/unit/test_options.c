// SPDX-License-Identifier: Apache-2.0
/* Unit tests: the option parser (separators, types, ranges, errors). */
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define UNIT_NAME "options"
#include "unit_check.h"

static char err[512];

static bool parse(const char *s)
{
	err[0] = '\0';
	ucsan_options_set_defaults();
	return ucsan_options_parse(s, err, sizeof(err));
}

int main(void)
{
	CHECK("defaults", parse("") && ucsan_opts.skip_watch == 4000 && ucsan_opts.udelay_task == 80 &&
				  ucsan_opts.udelay_interrupt == 20 && ucsan_opts.num_watchpoints == 64 &&
				  ucsan_opts.report_once_in_ms == 3000 && ucsan_opts.exitcode == 66 &&
				  ucsan_opts.enabled && ucsan_opts.report_value_change_only &&
				  !ucsan_opts.assume_plain_writes_atomic && !ucsan_opts.halt_on_error &&
				  ucsan_opts.cold_watches == 1 && ucsan_opts.cold_site_limit == 1 && ucsan_opts.cold_udelay == 800 &&
				  ucsan_opts.cold_budget_ms == 10 && ucsan_opts.cold_budget_percent == 50);
	CHECK("colon", parse("skip_watch=0:udelay_task=5") && ucsan_opts.skip_watch == 0 &&
			       ucsan_opts.udelay_task == 5);
	CHECK("comma_and_space", parse("skip_watch=7, exitcode=3  halt_on_error=1") &&
					 ucsan_opts.skip_watch == 7 && ucsan_opts.exitcode == 3 &&
					 ucsan_opts.halt_on_error);
	CHECK("bool_words", parse("enabled=false:print_stats=true") && !ucsan_opts.enabled &&
				    ucsan_opts.print_stats);
	CHECK("string", parse("log_path=/tmp/x:strip_path_prefix=/src/") &&
				!strcmp(ucsan_opts.log_path, "/tmp/x") &&
				!strcmp(ucsan_opts.strip_path_prefix, "/src/"));
	CHECK("quoted_string", parse("log_path='/tmp/a b:c'") && !strcmp(ucsan_opts.log_path, "/tmp/a b:c"));
	CHECK("last_wins", parse("skip_watch=1:skip_watch=2") && ucsan_opts.skip_watch == 2);
	CHECK("report_format", parse("report_format=json") && !strcmp(ucsan_opts.report_format, "json") &&
				       parse("report_format=both") && parse("report_format=text") &&
				       !parse("report_format=xml") && strstr(err, "report_format"));
	CHECK("heap_stacks", parse("heap_stacks=0") && !ucsan_opts.heap_stacks && parse("heap_stacks=1") &&
				     ucsan_opts.heap_stacks);
	CHECK("unknown_key", !parse("nonsense=1") && strstr(err, "unknown option 'nonsense'"));
	CHECK("bad_int", !parse("skip_watch=abc") && strstr(err, "'abc'") && strstr(err, "skip_watch"));
	CHECK("trailing_garbage", !parse("skip_watch=12x") && strstr(err, "skip_watch"));
	CHECK("negative", !parse("udelay_task=-1") && strstr(err, "udelay_task"));
	CHECK("bad_bool", !parse("enabled=2") && strstr(err, "enabled"));
	CHECK("no_value", !parse("skip_watch") && strstr(err, "skip_watch"));
	CHECK("watchpoints_range", !parse("num_watchpoints=0") && !parse("num_watchpoints=100000") &&
					   parse("num_watchpoints=4096"));
	CHECK("exitcode_range", !parse("exitcode=256") && parse("exitcode=0"));
	CHECK("tsan_only_key_accepted", parse("history_size=3:report_bugs=0:skip_watch=9") && ucsan_opts.skip_watch == 9);
	CHECK("budget_default_on", parse("") && ucsan_opts.overhead_budget == 5);
	CHECK("skip_watch_range", !parse("skip_watch=8589934592") && parse("skip_watch=1073741824"));
	CHECK("err_prefix", !parse("x=1") && !strncmp(err, "UCSAN: ", 7));
	/* Every ThreadSanitizer flag of tsan_flags.def parses, with a number and
	 * with a quoted string, as TSAN_OPTIONS written for TSan has them. */
	size_t bad_flags = 0;
	for (size_t i = 0; i < ucsan_tsan_flag_count(); i++) {
		char opt[160];
		snprintf(opt, sizeof(opt), "%s=1", ucsan_tsan_flag_name(i));
		if (!parse(opt)) {
			printf("  %s: %s\n", opt, err);
			bad_flags++;
		}
		if (strcmp(ucsan_tsan_flag_name(i), "report_bugs") == 0)
			continue;
		snprintf(opt, sizeof(opt), "%s=\"%%p %%F:%%L\"", ucsan_tsan_flag_name(i));
		if (!parse(opt)) {
			printf("  %s: %s\n", opt, err);
			bad_flags++;
		}
	}
	CHECK("tsan_flags_all_parse", ucsan_tsan_flag_count() >= 100 && bad_flags == 0);
	CHECK("tsan_flags_as_written", parse("allocator_may_return_null=1 stack_trace_format='    #%n %p %F %L'"
					     ":detect_deadlocks=1,second_deadlock_stack=1:halt_on_error=1") &&
					       ucsan_opts.halt_on_error);
	CHECK("tsan_report_bugs_is_enabled", parse("report_bugs=0") && !ucsan_opts.enabled);
	CHECK("unknown_key_still_an_error", !parse("no_such_flag_anywhere=1") && strstr(err, "unknown option"));
	return failures != 0;
}
