/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared bits of the benchmark workloads: a deterministic generator and
 * error checks. Every workload is race-free and prints a result that
 * depends on all of its work, so that nothing is optimized away and the
 * runner can check that every build computed the same thing.
 */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* xorshift64*: one state word per user, no shared state. */
static inline uint64_t rng_next(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dULL;
}

static inline uint64_t rng_seed(uint64_t n)
{
	return (n + 1) * 0x9e3779b97f4a7c15ULL | 1;
}

#define CHECK(cond)                                                                  \
	do {                                                                         \
		if (!(cond)) {                                                       \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__,       \
				__LINE__, #cond);                                    \
			exit(1);                                                     \
		}                                                                    \
	} while (0)

/* Scale from the command line (for calibration): argv[1] or 1. */
static inline long scale_arg(int argc, char **argv)
{
	long s = argc > 1 ? atol(argv[1]) : 1;
	return s > 0 ? s : 1;
}

#endif
