// SPDX-License-Identifier: Apache-2.0
/* Unit tests: ThreadSanitizer-style suppression patterns. */
#include <string.h>

#include "internal.h"

#define UNIT_NAME "suppressions"
#include "unit_check.h"

int main(void)
{
	CHECK("exact", ucsan_template_match("foo", "foo"));
	CHECK("substring", ucsan_template_match("oo", "foobar"));
	CHECK("no_match", !ucsan_template_match("baz", "foobar"));
	CHECK("anchor_start", ucsan_template_match("^foo", "foobar") && !ucsan_template_match("^bar", "foobar"));
	CHECK("anchor_end", ucsan_template_match("bar$", "foobar") && !ucsan_template_match("foo$", "foobar"));
	CHECK("anchor_both", ucsan_template_match("^foobar$", "foobar") && !ucsan_template_match("^foo$", "foobar"));
	CHECK("glob", ucsan_template_match("f*r", "foobar") && ucsan_template_match("^f*r$", "foobar"));
	CHECK("glob_no_match", !ucsan_template_match("^f*z$", "foobar"));
	CHECK("glob_only", ucsan_template_match("*", "") && ucsan_template_match("*", "x"));
	CHECK("glob_path", ucsan_template_match("src/net/*.c", "/home/u/src/net/tcp.c") &&
				   !ucsan_template_match("src/net/*.h$", "/home/u/src/net/tcp.c"));
	CHECK("double_glob", ucsan_template_match("a**b", "axxb"));
	CHECK("cxx_name", ucsan_template_match("Queue::push", "ns::Queue::push(int)"));
	CHECK("empty_string", !ucsan_template_match("a", ""));

	char err[256];
	char ok_text[] = "# comment\n\nrace:foo\n  race_top:^bar$  \r\ncalled_from_lib:libz.so\nmutex:m\n";
	CHECK("parse_ok", ucsan_suppressions_parse(ok_text, "s.txt", err, sizeof(err)));
	ucsan_suppressions_reset();
	char bad_type[] = "race:foo\nbogus:bar\n";
	CHECK("parse_bad_type", !ucsan_suppressions_parse(bad_type, "s.txt", err, sizeof(err)) &&
					strstr(err, "s.txt:2"));
	ucsan_suppressions_reset();
	char no_pattern[] = "race:\n";
	CHECK("parse_empty_pattern", !ucsan_suppressions_parse(no_pattern, "s.txt", err, sizeof(err)));
	ucsan_suppressions_reset();
	char no_colon[] = "just_a_function\n";
	CHECK("parse_no_colon", !ucsan_suppressions_parse(no_colon, "s.txt", err, sizeof(err)));
	ucsan_suppressions_reset();
	return failures != 0;
}
