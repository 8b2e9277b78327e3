/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the example programs share: the kernel's names for integer types,
 * __noinline, and run_on_cpu().  Each example includes it as
 * "../kernel_user.h", so it still builds from its one .c file with the
 * command in its header comment.
 */
#ifndef EXAMPLES_KERNEL_USER_H
#define EXAMPLES_KERNEL_USER_H

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <ucsan/kernel.h>

/* === Kernel vocabulary === */

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef int32_t s32;
typedef uint64_t u64;
typedef int64_t s64;

#define __noinline __attribute__((noinline))

/*
 * Runs the calling thread on the n-th of the CPUs the process may use (the
 * last one if there are fewer).  A watch only catches an access made while
 * it lasts; left alone, the scheduler may put the racing threads on one
 * CPU, where they never overlap.
 */
static inline void run_on_cpu(int n)
{
	cpu_set_t allowed, one;
	int count, cpu;

	if (sched_getaffinity(0, sizeof(allowed), &allowed) || (count = CPU_COUNT(&allowed)) < 2)
		return;
	if (n >= count)
		n = count - 1;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &allowed) && n-- == 0)
			break;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	pthread_setaffinity_np(pthread_self(), sizeof(one), &one);
}

#endif /* EXAMPLES_KERNEL_USER_H */
