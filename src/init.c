// SPDX-License-Identifier: Apache-2.0
/*
 * Start-up, fork and exit: options, table size, the pieces of the runtime
 * that need one-time setup, and the exit status of a racy process.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

bool ucsan_initialized;

void ucsan_intercept_init(void);
void ucsan_stacktrace_init(void);
void ucsan_report_init(void);

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

static void atfork_child(void)
{
	ucsan_pid = (int)getpid();
	ucsan_reset_after_fork();
	ucsan_report_reset_after_fork();
	ucsan_threads_after_fork();
}

/*
 * Idempotent; runs from our constructor, which the dynamic loader calls
 * before the program's (libucsan is their dependency), or from the first
 * instrumented access if something runs earlier still.
 */
void ucsan_init(void)
{
	static _Atomic int state; /* 0: not started, 1: running, 2: done */
	int expect = 0;
	if (!atomic_compare_exchange_strong(&state, &expect, 1))
		return;

	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	ctx->disable_count++;
	ucsan_pid = (int)getpid();
	ucsan_output_init();
	ucsan_options_init();
	ucsan_nslots = wp_table_slots(ucsan_opts.num_watchpoints);
	ucsan_gate_init();
	atomic_store(&ucsan_enabled, ucsan_opts.enabled);
	ucsan_intercept_init();
	ucsan_signals_init();
	ucsan_stacktrace_init();
	ucsan_report_init();
	ucsan_suppressions_init();
	ucsan_thread_info_register(0, NULL, 0);
	pthread_atfork(ucsan_report_fork_prepare, ucsan_report_fork_parent, atfork_child);
	ctx->disable_count--;
	ucsan_initialized = true;
	atomic_store(&state, 2);
	/* ThreadSanitizer's start-up hook, if the program defines it. */
	ucsan_tsan_on_initialize();
}

/*
 * The executable's own entry points (ucsan-entry.o, src/entry/entry.c)
 * announce themselves. They read the state they were linked with; the
 * runtime reads what the dynamic linker bound its references to. If the two
 * differ -- the executable's copies not exported, or an entry object from
 * another ucsan version -- the process would have two contexts per thread,
 * and no report could be trusted: stop.
 */
static int entry_attached;

void ucsan_entry_attach(struct ucsan_ctx *ctx, _Atomic uint64_t *gate, const uint8_t *sites_cold,
			const void *text_start, const void *text_end, unsigned abi)
{
	if (abi == UCSAN_ENTRY_ABI && ctx == &ucsan_ctx_tls && gate == &ucsan_gate && sites_cold == ucsan_sites_cold) {
		ucsan_stacktrace_add_entry_text((uintptr_t)text_start, (uintptr_t)text_end);
		entry_attached++;
		return;
	}
	static const char msg[] =
		"UCSAN: error: the executable's ucsan entry points (ucsan-entry.o) do not share libucsan.so's state:\n"
		"UCSAN: they come from another ucsan version, or the executable does not export ucsan_ctx_tls,\n"
		"UCSAN: ucsan_gate and ucsan_sites_cold (a version script or --exclude-libs hiding them?).\n"
		"UCSAN: Link with the ucsan-cc of the runtime in use.\n";
	ucsan_write_fd(STDERR_FILENO, msg, sizeof(msg) - 1);
	_exit(1);
}

UCSAN_EXPORT int __ucsan_debug_entry_attached(void)
{
	return entry_attached;
}

__attribute__((constructor(101))) static void ucsan_constructor(void)
{
	ucsan_init();
}

/*
 * Runs after the program's own destructors and atexit handlers (the loader
 * finalizes libucsan after the objects that depend on it). A process that
 * reported a race exits with `exitcode`, as under ThreadSanitizer.
 */
__attribute__((destructor(101))) static void ucsan_destructor(void)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	if (!ucsan_initialized)
		return;
	ctx->disable_count++;
	ucsan_report_at_exit();
	/* ThreadSanitizer's exit hook may declare the run clean, or failed. */
	if (ucsan_tsan_on_finalize(ucsan_reports_printed() > 0)) {
		fflush(NULL); /* exit() would have; _exit() does not */
		_exit((int)ucsan_opts.exitcode);
	}
	/* Threads still running meet libraries being finalized from here on
	 * (libdw among them): stop checking rather than report from them. */
	atomic_store(&ucsan_enabled, false);
	ctx->disable_count--;
}
