// SPDX-License-Identifier: Apache-2.0
/*
 * libFuzzer target: the UCSAN_OPTIONS parser. The input, NUL-terminated, is
 * parsed on top of the defaults, as the runtime does at start-up. Besides
 * memory errors (ASan) and undefined behaviour (UBSan), it checks what the
 * engine relies on: a rejected string leaves one NUL-terminated message
 * starting with "UCSAN: ", and an accepted one leaves every option in its
 * documented range. Built with src/options.c, src/suppressions.c and
 * tests/fuzz/stubs.c by tests/fuzz/run.sh.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define FUZZ_CHECK(cond)                                                         \
	do {                                                                     \
		if (!(cond)) {                                                   \
			fprintf(stderr, "fuzz_options: check failed: %s\n", #cond); \
			abort();                                                 \
		}                                                                \
	} while (0)

static void check_ranges(void)
{
	FUZZ_CHECK(ucsan_opts.num_watchpoints >= 1 && ucsan_opts.num_watchpoints <= UCSAN_MAX_WATCHPOINTS);
	FUZZ_CHECK(ucsan_opts.exitcode >= 0 && ucsan_opts.exitcode <= 255);
	FUZZ_CHECK(ucsan_opts.udelay_task >= 0 && ucsan_opts.udelay_task <= 1000000);
	FUZZ_CHECK(ucsan_opts.udelay_interrupt >= 0 && ucsan_opts.udelay_interrupt <= 1000000);
	FUZZ_CHECK(ucsan_opts.overhead_budget >= 0 && ucsan_opts.overhead_budget <= 100);
	FUZZ_CHECK(ucsan_opts.skip_watch >= 0);
	FUZZ_CHECK(ucsan_opts.report_once_in_ms >= 0);
	FUZZ_CHECK(ucsan_opts.suppressions && ucsan_opts.log_path && ucsan_opts.strip_path_prefix);
	FUZZ_CHECK(ucsan_opts.filter_mode &&
		   (!strcmp(ucsan_opts.filter_mode, "blacklist") || !strcmp(ucsan_opts.filter_mode, "whitelist")));
	/* The strings are usable. */
	FUZZ_CHECK(strlen(ucsan_opts.log_path) < 1u << 20);
	FUZZ_CHECK(strlen(ucsan_opts.suppressions) < 1u << 20);
	FUZZ_CHECK(strlen(ucsan_opts.strip_path_prefix) < 1u << 20);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *str = malloc(size + 1);
	char err[512], small[8];
	bool ok;

	if (!str)
		return 0;
	memcpy(str, data, size);
	str[size] = '\0';

	ucsan_options_set_defaults();
	memset(err, 0x55, sizeof(err));
	ok = ucsan_options_parse(str, err, sizeof(err));
	if (ok) {
		ucsan_options_apply_modes();
		check_ranges();
	} else {
		FUZZ_CHECK(memchr(err, '\0', sizeof(err)) != NULL);
		FUZZ_CHECK(!strncmp(err, "UCSAN: ", 7));
	}

	/* A tiny error buffer must be enough not to overflow. */
	ucsan_options_set_defaults();
	memset(small, 0x55, sizeof(small));
	FUZZ_CHECK(ucsan_options_parse(str, small, sizeof(small)) == ok);
	if (!ok)
		FUZZ_CHECK(memchr(small, '\0', sizeof(small)) != NULL);

	free(str);
	return 0;
}
