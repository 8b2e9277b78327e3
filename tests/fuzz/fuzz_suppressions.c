// SPDX-License-Identifier: Apache-2.0
/*
 * libFuzzer target: the suppressions-file parser and the ThreadSanitizer
 * pattern matcher. The input is copied into a NUL-terminated buffer and
 * parsed as a suppressions file (after ucsan_suppressions_reset(), as on a
 * fresh start); the patterns it yields are then matched against a frame
 * (tests/fuzz/stubs.c symbolizes every address to one fixed function and
 * file) and against the module of a real code address, under both filter
 * modes. Last, ucsan_template_match() gets the first half of the input as
 * the pattern and the second half as the string. Built with src/options.c,
 * src/suppressions.c and tests/fuzz/stubs.c by tests/fuzz/run.sh.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	ucsan_options_set_defaults();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const size_t half = size / 2;
	char *buf = malloc(size + 1), *pattern = malloc(half + 1), *str = malloc(size - half + 1);
	/* A code address inside this executable, for called_from_lib. */
	const uintptr_t pc = (uintptr_t)&LLVMFuzzerTestOneInput + 1;
	char err[700];

	if (!buf || !pattern || !str)
		goto out;
	memcpy(buf, data, size);
	buf[size] = '\0';
	memcpy(pattern, data, half);
	pattern[half] = '\0';
	memcpy(str, data + half, size - half);
	str[size - half] = '\0';

	ucsan_suppressions_reset();
	memset(err, 0x55, sizeof(err));
	if (ucsan_suppressions_parse(buf, "fuzz.supp", err, sizeof(err))) {
		ucsan_opts.filter_mode = "blacklist";
		(void)ucsan_race_suppressed(pc, pc + 16);
		(void)ucsan_race_suppressed(pc, 0);
		ucsan_opts.filter_mode = "whitelist";
		(void)ucsan_race_suppressed(pc, pc + 16);
		ucsan_opts.filter_mode = "blacklist";
	} else if (memchr(err, '\0', sizeof(err)) == NULL || strncmp(err, "UCSAN: ", 7) != 0) {
		fprintf(stderr, "fuzz_suppressions: bad error message\n");
		abort();
	}
	/* The patterns point into buf: forget them before it goes. */
	ucsan_suppressions_reset();

	(void)ucsan_template_match(pattern, str);
out:
	free(buf);
	free(pattern);
	free(str);
	return 0;
}
