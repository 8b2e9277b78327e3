/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The platform room: what the runtime asks of the operating system and the
 * CPU -- time, thread and process ids, the current cpu, a spin hint, reading
 * memory that may be gone, masking signals. Everything above calls down into
 * it; it calls nothing of the runtime's. All of it is async-signal-safe.
 */
#ifndef UCSAN_PLATFORM_H
#define UCSAN_PLATFORM_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The kernel's id of the calling thread. */
int ucsan_gettid(void);
/* The cpu the thread runs on now (0 if unknown). */
int ucsan_getcpu(void);
/* Monotonic clock in nanoseconds (vDSO). */
uint64_t ucsan_now_ns(void);
/* A spin-wait hint to the CPU. */
void ucsan_cpu_relax(void);
/* Sleeps about us microseconds: the system call itself, not an
 * interposed sleep; errno kept. */
void ucsan_sleep_us(unsigned us);
/* Gives the CPU up: the system call itself, not the interposed
 * sched_yield(), which would take the runtime's own wait for a wake-up;
 * errno kept. */
void ucsan_yield(void);

/* This process's pid, cached: set at start-up and in a fork child by
 * ucsan_platform_pid_changed(). */
extern int ucsan_pid;
void ucsan_platform_pid_changed(void);

/* Copies size bytes at ptr, which another thread may have unmapped, into
 * dst without faulting, and without touching errno (the bytes may be errno
 * itself). False if the memory is gone. */
bool ucsan_read_memory(const volatile void *ptr, void *dst, size_t size);
/* As much of it as is mapped, up to size (the bytes read; 0 also where the
 * safe read is not allowed): never a plain read. */
size_t ucsan_read_memory_upto(const volatile void *ptr, void *dst, size_t size);

/* Blocks every signal (or only `sig`, if non-zero) in the calling thread;
 * *old receives the mask to restore with ucsan_signals_restore(). */
void ucsan_signals_block(int sig, sigset_t *old);
void ucsan_signals_restore(const sigset_t *old);

#endif
