// SPDX-License-Identifier: Apache-2.0
/*
 * __tsan_init and the function entry/exit hooks. They stay in libucsan.so
 * (not in the executable's entry points): the hooks are emitted only under
 * --ucsan-weak-memory, and __tsan_init runs once per module.
 */
#include "internal.h"

/*
 * Stacks come from unwinding; function entry/exit only keep the depth that
 * weak_memory scopes its pending access to. ucsan-cc emits them only with
 * --ucsan-weak-memory.
 */
UCSAN_EXPORT void __tsan_func_entry(void *call_pc)
{
	(void)call_pc;
	if (unlikely(!func_hooks_seen))
		func_hooks_seen = true;
	ucsan_ctx_tls.func_depth++;
}

UCSAN_EXPORT void __tsan_func_exit(void)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	if (unlikely(ctx->reorder.size != 0) && ctx->func_depth <= ctx->reorder.depth)
		ucsan_reorder_func_exit(ctx);
	ctx->func_depth--;
}

UCSAN_EXPORT void __tsan_init(void)
{
	if (unlikely(!ucsan_initialized))
		ucsan_init();
}
