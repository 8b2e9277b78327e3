// SPDX-License-Identifier: Apache-2.0
/*
 * Weak memory (weak_memory=1), as the kernel's KCSAN_WEAK_MEMORY: the
 * thread's last watched plain access is kept as if the CPU had not yet
 * performed it, and is checked again on every later runtime entry in the
 * same function -- a racing access then is a race that exists only
 * because no barrier ordered the two -- until a barrier that orders it
 * retires it or its function returns.
 */
#include <limits.h>

#include "internal.h"

/* weak_memory needs __tsan_func_entry/exit; set by the first entry seen. */
bool func_hooks_seen;
static bool warned_no_func_hooks;

void ucsan_reorder_set(struct ucsan_ctx *ctx, const volatile void *ptr, size_t size, int type, uintptr_t ip)
{
	if (!ip) {
		/* The entry points pass no pc: find the access's frame. */
		uintptr_t pc;
		if (ucsan_stack_capture(&pc, 1) != 1)
			return;
		ip = pc;
	}
	if (!warned_no_func_hooks && !func_hooks_seen) {
		warned_no_func_hooks = true;
		static const char msg[] = "UCSAN: weak_memory=1 needs function entry/exit instrumentation, "
					  "which this program lacks: rebuild it with ucsan-cc --ucsan-weak-memory\n";
		ucsan_log_write(msg, sizeof(msg) - 1);
	}
	ctx->reorder.ptr = ptr;
	ctx->reorder.size = size;
	ctx->reorder.type = type | UCSAN_ACCESS_SCOPED;
	ctx->reorder.ip = ip;
	ctx->reorder.depth = ctx->func_depth;
	ucsan_ctx_update_special(ctx);
}

void ucsan_reorder_check(struct ucsan_ctx *ctx)
{
	if (ctx->reorder.size)
		ucsan_check_range(ctx->reorder.ptr, ctx->reorder.size, ctx->reorder.type, ctx->reorder.ip);
}

/*
 * The pending access leaves flight: a barrier orders it, or its function
 * returns. This is the last moment another thread can meet it out of
 * order, and the likeliest: whatever the function did after it -- the
 * publication a missing release should have ordered it before -- has
 * happened by now. So it is watched here once more, whatever the sample
 * count says (the count then restarts, charged with this watch's cost).
 * A pending access is one that was watched already, so this at most
 * doubles the watches weak_memory=1 makes.
 */
static void final_check_reorder(struct ucsan_ctx *ctx)
{
	if (!ctx->reorder.size || ctx->disable_count)
		return;
	const long countdown = ctx->saved_skip;
	ctx->saved_skip = 0;
	ucsan_reorder_check(ctx);
	/* No watch after all (a racing watchpoint was found instead, say):
	 * the thread's count goes on where it was. */
	if (ctx->saved_skip == 0)
		ctx->saved_skip = countdown;
}

static void retire_reorder(struct ucsan_ctx *ctx)
{
	ctx->reorder.size = 0;
	ucsan_ctx_update_special(ctx);
}

void ucsan_barrier(enum ucsan_barrier kind)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	/* Orders earlier stores: none is left to a relaxed store to publish. */
	if (kind != BARRIER_RMB)
		ctx->unpublished.ptr = NULL;
	if (!ctx->reorder.size)
		return;
	const int t = ctx->reorder.type;
	const bool is_write = (t & UCSAN_ACCESS_WRITE) != 0, is_rmw = (t & UCSAN_ACCESS_COMPOUND) != 0;
	bool retire = true;
	if (kind == BARRIER_WMB)
		retire = is_write || is_rmw;
	else if (kind == BARRIER_RMB)
		retire = !is_write || is_rmw;
	if (retire) {
		final_check_reorder(ctx);
		retire_reorder(ctx);
	}
}

/*
 * The function that made the pending access returns: check it one last
 * time (the instrumentation runs before an access, so a write that was
 * the function's last act is only caught by an access after it), then
 * forget it.
 */
NOINLINE void ucsan_reorder_func_exit(struct ucsan_ctx *ctx)
{
	final_check_reorder(ctx);
	ctx->reorder.depth = INT_MIN;
	retire_reorder(ctx);
}
