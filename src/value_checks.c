// SPDX-License-Identifier: Apache-2.0
/*
 * Deferred value checks. A race whose watched value did not change during
 * the stall may still be one that report_value_change_only should report:
 * when the watcher was a write, its store happens only after the stall,
 * and when the racing access was a write, it lands just after that
 * thread's check. KCSAN gives up here; we keep the two stacks and judge at the watcher's next runtime
 * entry (it is made "special" until then), when both stores have landed:
 * a value that differs from the one before the race is reported.
 */
#include <string.h>

#include "internal.h"
#include "report.h"

struct ucsan_value_check {
	_Atomic int state; /* INFO_EMPTY, INFO_FILLING (owned), INFO_READY */
	struct ucsan_ctx *owner;
	struct access_info ai, oai;
	int npcs, onpcs;
	uintptr_t pcs[UCSAN_MAX_STACK], opcs[UCSAN_MAX_STACK];
	struct ucsan_value old;
	uint64_t since_ns;
};
#define MAX_VALUE_CHECKS 16
static struct ucsan_value_check value_checks[MAX_VALUE_CHECKS];

/* How long a check that keeps seeing the old value may wait for a store. */
#define VALUE_CHECK_NS 2000000ULL

bool ucsan_value_check_defer(const struct access_info *ai, const struct other_info *oi, struct ucsan_value old)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	if (ctx->value_check || ctx->signal_depth > 0)
		return false;
	for (int i = 0; i < MAX_VALUE_CHECKS; i++) {
		struct ucsan_value_check *vc = &value_checks[i];
		int expect = INFO_EMPTY;
		if (!atomic_compare_exchange_strong(&vc->state, &expect, INFO_FILLING))
			continue;
		vc->owner = ctx;
		vc->ai = *ai;
		vc->oai = oi->ai;
		vc->onpcs = oi->npcs;
		memcpy(vc->opcs, oi->pcs, (size_t)oi->npcs * sizeof(vc->opcs[0]));
		vc->npcs = ucsan_stack_capture(vc->pcs, UCSAN_MAX_STACK);
		vc->old = old;
		vc->since_ns = ucsan_now_ns();
		atomic_store_explicit(&vc->state, INFO_READY, memory_order_release);
		ctx->value_check = vc;
		ucsan_ctx_update_special(ctx);
		return true;
	}
	return false;
}

/* Judges one ready check; false if it has to wait longer. */
static bool judge_value_check(struct ucsan_value_check *vc, bool final)
{
	struct ucsan_value now;
	const bool have = ucsan_read_value(vc->ai.ptr, vc->ai.size, &now);
	const uint64_t diff = have ? (now.lo ^ vc->old.lo) | (now.hi ^ vc->old.hi) : 0;
	if (diff && !ucsan_ignore_value_change(vc->ai.size, vc->ai.type, vc->old, now, diff)) {
		ucsan_emit_report(&vc->ai, &vc->oai, vc->pcs, vc->npcs, vc->opcs, vc->onpcs, VALUE_CHANGE_TRUE, vc->old,
				  now, 0);
		return true;
	}
	if (!final && have && ucsan_now_ns() - vc->since_ns < VALUE_CHECK_NS)
		return false;
	ucsan_counter_add(CTR_REPORTS_SUPPRESSED, 1);
	return true;
}

static void value_check_run(struct ucsan_ctx *ctx, bool final);

void ucsan_value_check_run(struct ucsan_ctx *ctx, bool final)
{
	UCSAN_KEEP_ERRNO(value_check_run(ctx, final));
}

static void value_check_run(struct ucsan_ctx *ctx, bool final)
{
	struct ucsan_value_check *vc = ctx->value_check;
	if (!vc || ctx->signal_depth > 0 || ctx->disable_count)
		return;
	int expect = INFO_READY;
	const bool mine = vc->owner == ctx &&
			  atomic_compare_exchange_strong(&vc->state, &expect, INFO_FILLING);
	if (mine) {
		ctx->disable_count++;
		const bool done = judge_value_check(vc, final);
		ctx->disable_count--;
		if (!done) {
			atomic_store_explicit(&vc->state, INFO_READY, memory_order_release);
			return;
		}
		vc->owner = NULL;
		atomic_store_explicit(&vc->state, INFO_EMPTY, memory_order_release);
	}
	/* Done, or judged at exit by another thread. */
	ctx->value_check = NULL;
	ucsan_ctx_update_special(ctx);
}

/* At exit: every thread's pending checks, final. */
void ucsan_value_checks_at_exit(void)
{
	for (int i = 0; i < MAX_VALUE_CHECKS; i++) {
		struct ucsan_value_check *vc = &value_checks[i];
		int expect = INFO_READY;
		if (!atomic_compare_exchange_strong(&vc->state, &expect, INFO_FILLING))
			continue;
		judge_value_check(vc, true);
		vc->owner = NULL;
		atomic_store_explicit(&vc->state, INFO_EMPTY, memory_order_release);
	}
}

/* After fork: only the forking thread's own check is still to be judged. */
void ucsan_value_checks_after_fork(void)
{
	for (int i = 0; i < MAX_VALUE_CHECKS; i++) {
		struct ucsan_value_check *vc = &value_checks[i];
		if (vc->owner != &ucsan_ctx_tls) {
			vc->owner = NULL;
			atomic_store_explicit(&vc->state, INFO_EMPTY, memory_order_relaxed);
		}
	}
}
