// SPDX-License-Identifier: Apache-2.0
/*
 * The platform room (platform.h): thin wrappers over the system calls and
 * instructions the engine, the report path and the lifecycle share, so that
 * none of them has to reach into another for them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "platform.h"

int ucsan_pid;

int ucsan_gettid(void)
{
	return (int)syscall(SYS_gettid);
}

int ucsan_getcpu(void)
{
	int cpu = sched_getcpu();
	return cpu < 0 ? 0 : cpu;
}

uint64_t ucsan_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* tests/kcsan/kcsan_test.h has the same lines: its programs do not link
 * the runtime's internals. */
void ucsan_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

/* getpid() is a system call; reading memory needs it on every watch. */
void ucsan_platform_pid_changed(void)
{
	ucsan_pid = (int)getpid();
}

/* process_vm_readv() on ourselves reads memory that another thread may have
 * unmapped without faulting. Where it is forbidden (seccomp), fall back to
 * a plain read: the callers only read memory the program just touched. */
static _Atomic int safe_read_broken;

/* One process_vm_readv() of ourselves: the bytes read, or -1 with *err
 * set; errno is kept. */
static ssize_t read_self(const volatile void *ptr, void *dst, size_t size, int *err)
{
	struct iovec local = { dst, size };
	struct iovec remote = { (void *)(uintptr_t)ptr, size };
	const int saved_errno = errno;
	const ssize_t n = process_vm_readv(ucsan_pid, &local, 1, &remote, 1, 0);
	*err = errno;
	errno = saved_errno;
	return n;
}

size_t ucsan_read_memory_upto(const volatile void *ptr, void *dst, size_t size)
{
	int err;
	if (atomic_load_explicit(&safe_read_broken, memory_order_relaxed))
		return 0;
	const ssize_t n = read_self(ptr, dst, size, &err);
	return n > 0 ? (size_t)n : 0;
}

bool ucsan_read_memory(const volatile void *ptr, void *dst, size_t size)
{
	if (!atomic_load_explicit(&safe_read_broken, memory_order_relaxed)) {
		int err;
		const ssize_t n = read_self(ptr, dst, size, &err);
		if (n == (ssize_t)size)
			return true;
		if (n < 0 && err != ENOSYS && err != EPERM)
			return false; /* unmapped: no value */
		atomic_store_explicit(&safe_read_broken, 1, memory_order_relaxed);
	}
	const volatile unsigned char *s = ptr;
	unsigned char *d = dst;
	for (size_t i = 0; i < size; i++)
		d[i] = s[i];
	return true;
}

void ucsan_signals_block(int sig, sigset_t *old)
{
	sigset_t set;
	if (sig) {
		sigemptyset(&set);
		sigaddset(&set, sig);
	} else {
		sigfillset(&set);
	}
	pthread_sigmask(SIG_BLOCK, &set, old);
}

void ucsan_signals_restore(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

void ucsan_sleep_us(unsigned us)
{
	const int saved = errno;
	struct timespec ts = { (time_t)(us / 1000000), (long)(us % 1000000) * 1000 };
	syscall(SYS_nanosleep, &ts, NULL);
	errno = saved;
}

void ucsan_yield(void)
{
	const int saved = errno;
	syscall(SYS_sched_yield);
	errno = saved;
}
