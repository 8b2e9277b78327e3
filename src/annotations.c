// SPDX-License-Identifier: Apache-2.0
/*
 * The annotation API of include/ucsan.h: explicit checks, disabling,
 * atomic regions, access masks and scoped assertions. All of it only
 * changes the calling thread's context; the engine reads it in the slow
 * path (see "special" in struct ucsan_ctx).
 */
#include <stdio.h>
#include <unistd.h>

#include "check.h"
#include "internal.h"
#include "symbolize.h"


UCSAN_EXPORT void ucsan_check_access(const volatile void *ptr, size_t size, int type)
{
	if (size == 0)
		return;
	ucsan_api_ctx();
	/* The runtime's own type bits are not the caller's to set. */
	ucsan_check_range(ptr, size, type & ~UCSAN_ACCESS_NO_COLD, CALLER_PC());
}

UCSAN_EXPORT void ucsan_disable_current(void)
{
	ucsan_api_ctx()->disable_count++;
}

/* Said once per process: the program has a bug, not the runtime. */
static void warn_once(_Atomic int *once, const char *what, uintptr_t pc)
{
	if (atomic_exchange(once, 1))
		return;
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	char name[256], line[400];
	ctx->disable_count++;
	const char *fn = ucsan_symbol_name(pc - 1, name, sizeof(name));
	int n = snprintf(line, sizeof(line), "UCSAN: warning: unbalanced %s() in %s (thread %d)\n", what,
			 fn ? fn : "??", ctx->tid);
	ctx->disable_count--;
	ucsan_log_write(line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
}

UCSAN_EXPORT void ucsan_enable_current(void)
{
	static _Atomic int once;
	struct ucsan_ctx *ctx = ucsan_api_ctx();
	if (ctx->disable_count <= 0) {
		warn_once(&once, "ucsan_enable_current", CALLER_PC());
		return;
	}
	ctx->disable_count--;
}

UCSAN_EXPORT void ucsan_set_enabled(int on)
{
	ucsan_api_ctx();
	atomic_store(&ucsan_enabled, on != 0);
}

UCSAN_EXPORT void ucsan_nestable_atomic_begin(void)
{
	struct ucsan_ctx *ctx = ucsan_api_ctx();
	ctx->atomic_nest_count++;
	ucsan_ctx_update_special(ctx);
}

UCSAN_EXPORT void ucsan_nestable_atomic_end(void)
{
	static _Atomic int once;
	struct ucsan_ctx *ctx = ucsan_api_ctx();
	if (ctx->atomic_nest_count <= 0) {
		warn_once(&once, "ucsan_nestable_atomic_end", CALLER_PC());
		return;
	}
	ctx->atomic_nest_count--;
	ucsan_ctx_update_special(ctx);
}

UCSAN_EXPORT void ucsan_flat_atomic_begin(void)
{
	struct ucsan_ctx *ctx = ucsan_api_ctx();
	ctx->in_flat_atomic = true;
	ucsan_ctx_update_special(ctx);
}

UCSAN_EXPORT void ucsan_flat_atomic_end(void)
{
	struct ucsan_ctx *ctx = ucsan_api_ctx();
	ctx->in_flat_atomic = false;
	ucsan_ctx_update_special(ctx);
}

UCSAN_EXPORT void ucsan_atomic_next(int n)
{
	struct ucsan_ctx *ctx = ucsan_api_ctx();
	ctx->atomic_next = n > 0 ? n : 0;
	ucsan_ctx_update_special(ctx);
}

UCSAN_EXPORT void ucsan_set_access_mask(unsigned long mask)
{
	struct ucsan_ctx *ctx = ucsan_api_ctx();
	ctx->access_mask = mask;
	ucsan_ctx_update_special(ctx);
}

UCSAN_EXPORT struct ucsan_scoped_access *ucsan_begin_scoped_access(const volatile void *ptr, size_t size,
								    int type, struct ucsan_scoped_access *sa)
{
	struct ucsan_ctx *ctx = ucsan_api_ctx();
	sa->ptr = ptr;
	sa->size = size;
	sa->type = type;
	sa->ip = __builtin_return_address(0); /* reports name the opener */
	sa->next = ctx->scoped;
	ctx->scoped = sa;
	ucsan_ctx_update_special(ctx);
	/* Already racing when the scope opens? */
	if (size)
		ucsan_check_range(ptr, size, type | UCSAN_ACCESS_SCOPED, (uintptr_t)sa->ip);
	return sa;
}

UCSAN_EXPORT void ucsan_end_scoped_access(struct ucsan_scoped_access *sa)
{
	static _Atomic int once;
	struct ucsan_ctx *ctx = ucsan_api_ctx();
	struct ucsan_scoped_access **link = &ctx->scoped;
	while (*link && *link != sa)
		link = &(*link)->next;
	if (!*link) {
		warn_once(&once, "ucsan_end_scoped_access", CALLER_PC());
		return;
	}
	*link = sa->next;
	ucsan_ctx_update_special(ctx);
	if (sa->size)
		ucsan_check_range(sa->ptr, sa->size, sa->type | UCSAN_ACCESS_SCOPED, (uintptr_t)sa->ip);
}
