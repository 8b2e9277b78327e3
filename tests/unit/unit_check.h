/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CHECK() for the unit tests: one PASS/FAIL line per case
 * (tests/PROTOCOL.md), named unit/UNIT_NAME/<case>.  A test defines
 * UNIT_NAME, includes this, and returns failures != 0 from main().
 */
#ifndef UCSAN_UNIT_CHECK_H
#define UCSAN_UNIT_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(name, cond)                                                      \
	do {                                                                   \
		if (cond) {                                                    \
			printf("PASS: unit/" UNIT_NAME "/%s\n", name);         \
		} else {                                                       \
			printf("FAIL: unit/" UNIT_NAME "/%s\n  %s:%d: %s\n",   \
			       name, __FILE__, __LINE__, #cond);               \
			failures++;                                            \
		}                                                              \
	} while (0)

#endif /* UCSAN_UNIT_CHECK_H */
