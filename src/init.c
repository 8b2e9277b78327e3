// SPDX-License-Identifier: Apache-2.0
/*
 * Start-up, fork and exit: options, table size, the pieces of the runtime
 * that need one-time setup, and the exit status of a racy process. The top
 * of the runtime: it calls every room, and nothing calls into it except
 * through ucsan_init() (and the loader, through the constructor and
 * destructor).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#include "internal.h"

bool ucsan_initialized;

void ucsan_intercept_init(void);
void ucsan_intercept_string_init(void);
void ucsan_intercept_io_init(void);
void ucsan_wakeups_init(void);
void ucsan_stacktrace_init(void);
void ucsan_report_init(void);

static void atfork_child(void)
{
	ucsan_platform_pid_changed();
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
	ucsan_platform_pid_changed();
	ucsan_output_init();
	ucsan_options_init();
	ucsan_nslots = wp_table_slots(ucsan_opts.num_watchpoints);
	ucsan_gate_init();
	ucsan_threads_alone_update();
	atomic_store(&ucsan_enabled, ucsan_opts.enabled);
	ucsan_intercept_init();
	ucsan_intercept_string_init();
	ucsan_intercept_io_init();
	ucsan_wakeups_init();
	ucsan_malloc_init();
	ucsan_alloc_hooks_init();
	ucsan_output_hooks_init();
	ucsan_signals_init();
	ucsan_stacktrace_init();
	ucsan_report_init();
	ucsan_suppressions_init();
	ucsan_thread_info_register(0, NULL, 0);
	ucsan_segments_init();
	ucsan_omp_init();
	pthread_atfork(ucsan_report_fork_prepare, ucsan_report_fork_parent, atfork_child);
	ctx->disable_count--;
	ucsan_initialized = true;
	atomic_store(&state, 2);
	/* Set this thread up now: alone, its accesses never reach the slow
	 * path that would (threads.c, GATE_ALONE), and it keeps the first
	 * identity and seed. */
	if (!ctx->initialized)
		ucsan_thread_first_entry(ctx);
	/* ThreadSanitizer's start-up hook, if the program defines it. */
	ucsan_tsan_on_initialize();
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
	ucsan_report_await_consumed();
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
