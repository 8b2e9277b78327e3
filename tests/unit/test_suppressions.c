// SPDX-License-Identifier: Apache-2.0
/* Unit tests: ThreadSanitizer-style suppression patterns. */
#include <stdio.h>

#include "internal.h"

static int failures;

#define CHECK(name, cond)                                                         \
	do {                                                                      \
		if (cond) {                                                       \
			printf("PASS: unit/suppressions/%s\n", name);             \
		} else {                                                          \
			printf("FAIL: unit/suppressions/%s\n  %s:%d: %s\n", name, \
			       __FILE__, __LINE__, #cond);                        \
			failures++;                                               \
		}                                                                 \
	} while (0)

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
	return failures != 0;
}
