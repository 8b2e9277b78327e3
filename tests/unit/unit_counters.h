/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The runtime's counters, for the unit tests that watch them move: read
 * one, or wait (5 s at most) for one to reach a value.
 */
#ifndef UCSAN_UNIT_COUNTERS_H
#define UCSAN_UNIT_COUNTERS_H

#include <stdbool.h>
#include <unistd.h>

#include "internal.h"

static inline long counter(enum ucsan_counter c)
{
	return atomic_load(&ucsan_counters[c]);
}

/* Until `c` reaches n (5 s at most); whether it did. */
static inline bool wait_counter(enum ucsan_counter c, long n)
{
	for (int i = 0; i < 5000 && counter(c) < n; i++)
		usleep(1000);
	return counter(c) >= n;
}

#endif /* UCSAN_UNIT_COUNTERS_H */
