// SPDX-License-Identifier: Apache-2.0
/*
 * ThreadSanitizer's public interface (<sanitizer/tsan_interface.h> of gcc 12
 * and clang 14) and the classic dynamic annotations (Annotate*, as exported
 * by libtsan), so that code written for TSan links and runs under ucsan
 * unchanged. docs/coming-from-tsan.md has the table of meanings.
 *
 * A watchpoint detector only reports accesses that really overlap in time,
 * so everything TSan needs to learn happens-before from (acquire/release,
 * condition variables, queues, mutex annotations) costs nothing here. What
 * does carry over:
 *   - ignore regions: checking off for the calling thread (disable_count),
 *     like ucsan_disable_current(); TSan ignores reads and writes together
 *     even for AnnotateIgnoreReadsBegin(), and so do we;
 *   - the inside of an annotated lock operation (__tsan_mutex_pre_* to
 *     post_*) is an ignore region too, left while "diverted";
 *   - benign-race ranges: reports on them are dropped (a small table,
 *     consulted by the report path through ucsan_benign_range());
 *   - fibers: the per-thread annotation state moves with the fiber;
 *   - external (library-level) accesses: checked as one-byte assertions.
 * Nothing here is on the hot path.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "internal.h"
#include "symbolize.h"

/* The compiler's header, where there is one: checks our signatures. */
#if defined(__has_include)
#if __has_include(<sanitizer/tsan_interface.h>)
#include <sanitizer/tsan_interface.h>
#endif
#endif

/* Used by the report path (report.c) and init.c; see internal.h. */
bool ucsan_benign_range(uintptr_t addr, size_t size);
void ucsan_tsan_on_initialize(void);
bool ucsan_tsan_on_finalize(bool failed);
const char *ucsan_fiber_name(void);

/* === Per-thread (per-fiber) state of this file === */

struct tsan_state {
	int ignores;       /* open ignore regions: Annotate*Ignore*, __tsan_ignore_thread_* */
	int mutex_ignores; /* open __tsan_mutex_pre_* .. post_* regions */
	int diverts;       /* of those, left by __tsan_mutex_pre_divert() */
	struct ucsan_fiber *fiber; /* running fiber; NULL: the thread's own */
};

static __thread struct tsan_state tsan_tls __attribute__((tls_model("initial-exec")));


/* Said once per process and kind: the program has a bug, not the runtime.
 * Names "FILE:LINE" when the annotation passes them, else the caller. */
static void warn_once(_Atomic int *once, const char *what, const char *file, int line, uintptr_t pc)
{
	if (atomic_exchange(once, 1))
		return;
	struct ucsan_ctx *ctx = ucsan_api_ctx();
	char name[256], msg[640];
	int n;
	ctx->disable_count++;
	if (file) {
		n = snprintf(msg, sizeof(msg), "UCSAN: warning: %s at %s:%d (thread %d)\n", what, file, line,
			     ctx->tid);
	} else {
		const char *fn = pc ? ucsan_symbol_name(pc - 1, name, sizeof(name)) : NULL;
		n = snprintf(msg, sizeof(msg), "UCSAN: warning: %s in %s (thread %d)\n", what, fn ? fn : "??",
			     ctx->tid);
	}
	if (n > 0)
		ucsan_log_write(msg, (size_t)n < sizeof(msg) ? (size_t)n : sizeof(msg) - 1);
	ctx->disable_count--;
}

/* === Ignore regions === */

static void ignore_begin(int *counter)
{
	struct ucsan_ctx *ctx = ucsan_api_ctx();
	(*counter)++;
	ctx->disable_count++;
}

/* False if no region of this kind is open (nothing changes). */
static bool ignore_end(int *counter)
{
	struct ucsan_ctx *ctx = ucsan_api_ctx();
	if (*counter <= 0 || ctx->disable_count <= 0)
		return false;
	(*counter)--;
	ctx->disable_count--;
	return true;
}

/* Each kind of end warns once. */
static void user_ignore_end(_Atomic int *once, const char *what, const char *file, int line, uintptr_t pc)
{
	if (!ignore_end(&tsan_tls.ignores)) {
		char msg[128];
		snprintf(msg, sizeof(msg), "unbalanced %s()", what);
		warn_once(once, msg, file, line, pc);
	}
}

UCSAN_EXPORT void __tsan_ignore_thread_begin(void)
{
	ignore_begin(&tsan_tls.ignores);
}

UCSAN_EXPORT void __tsan_ignore_thread_end(void)
{
	static _Atomic int once;
	user_ignore_end(&once, "__tsan_ignore_thread_end", NULL, 0, CALLER_PC());
}

UCSAN_EXPORT void AnnotateIgnoreReadsBegin(const char *file, int line)
{
	(void)file, (void)line;
	ignore_begin(&tsan_tls.ignores);
}

UCSAN_EXPORT void AnnotateIgnoreReadsEnd(const char *file, int line)
{
	static _Atomic int once;
	user_ignore_end(&once, "AnnotateIgnoreReadsEnd", file, line, CALLER_PC());
}

UCSAN_EXPORT void AnnotateIgnoreWritesBegin(const char *file, int line)
{
	(void)file, (void)line;
	ignore_begin(&tsan_tls.ignores);
}

UCSAN_EXPORT void AnnotateIgnoreWritesEnd(const char *file, int line)
{
	static _Atomic int once;
	user_ignore_end(&once, "AnnotateIgnoreWritesEnd", file, line, CALLER_PC());
}

/* Synchronization is not tracked: nothing to ignore. */
UCSAN_EXPORT void AnnotateIgnoreSyncBegin(const char *file, int line)
{
	(void)file, (void)line;
}

UCSAN_EXPORT void AnnotateIgnoreSyncEnd(const char *file, int line)
{
	(void)file, (void)line;
}

/* === Benign races: address ranges whose reports are dropped === */

#define MAX_BENIGN 1024

struct benign_range {
	_Atomic uintptr_t start;
	_Atomic size_t size; /* 0: free slot */
};

static struct benign_range benign[MAX_BENIGN];
static _Atomic int benign_used;    /* slots [0, benign_used) may be in use */
static _Atomic int benign_lock;    /* serializes writers; readers never wait */

static void benign_add(uintptr_t start, size_t size, const char *what, const char *file, int line)
{
	static _Atomic int full_once;
	if (size == 0)
		return;
	while (atomic_exchange_explicit(&benign_lock, 1, memory_order_acquire))
		ucsan_cpu_relax();
	int n = atomic_load_explicit(&benign_used, memory_order_relaxed);
	int slot = -1;
	for (int i = 0; i < n; i++) {
		uintptr_t s = atomic_load_explicit(&benign[i].start, memory_order_relaxed);
		size_t sz = atomic_load_explicit(&benign[i].size, memory_order_relaxed);
		if (sz && s == start) {
			/* Annotated again (a re-created object): keep the larger. */
			if (size > sz)
				atomic_store_explicit(&benign[i].size, size, memory_order_release);
			atomic_store_explicit(&benign_lock, 0, memory_order_release);
			return;
		}
		if (!sz && slot < 0)
			slot = i;
	}
	if (slot < 0 && n < MAX_BENIGN)
		slot = n;
	if (slot >= 0) {
		/* Size last, with release: a reader that sees it sees start. */
		atomic_store_explicit(&benign[slot].start, start, memory_order_relaxed);
		atomic_store_explicit(&benign[slot].size, size, memory_order_release);
		if (slot == n)
			atomic_store_explicit(&benign_used, n + 1, memory_order_release);
	}
	atomic_store_explicit(&benign_lock, 0, memory_order_release);
	if (slot < 0) {
		char msg[128];
		snprintf(msg, sizeof(msg), "more than %d benign-race ranges, %s() ignored", MAX_BENIGN, what);
		warn_once(&full_once, msg, file, line, 0);
	}
}

/* The last byte of [start, start + size), size > 0; saturates (a size from
 * a negative long covers the rest of the address space, as in TSan). */
static uintptr_t last_byte(uintptr_t start, size_t size)
{
	return size - 1 > UINTPTR_MAX - start ? UINTPTR_MAX : start + (size - 1);
}

/*
 * Does [addr, addr + size) overlap a range annotated as a benign race?
 * TSan's rule: any overlap counts. Called by the report path; lock-free.
 */
bool ucsan_benign_range(uintptr_t addr, size_t size)
{
	int n = atomic_load_explicit(&benign_used, memory_order_acquire);
	if (size == 0)
		size = 1;
	const uintptr_t last = last_byte(addr, size);
	for (int i = 0; i < n; i++) {
		size_t sz = atomic_load_explicit(&benign[i].size, memory_order_acquire);
		if (!sz)
			continue;
		uintptr_t s = atomic_load_explicit(&benign[i].start, memory_order_relaxed);
		if (s <= last && addr <= last_byte(s, sz))
			return true;
	}
	return false;
}

UCSAN_EXPORT void AnnotateBenignRaceSized(const char *file, int line, const volatile void *mem, unsigned long size,
					  const char *desc)
{
	(void)desc;
	benign_add((uintptr_t)mem, (size_t)size, "AnnotateBenignRaceSized", file, line);
}

UCSAN_EXPORT void AnnotateBenignRace(const char *file, int line, const volatile void *mem, const char *desc)
{
	(void)desc;
	benign_add((uintptr_t)mem, 1, "AnnotateBenignRace", file, line);
}

UCSAN_EXPORT void WTFAnnotateBenignRaceSized(const char *file, int line, const volatile void *mem,
					     unsigned long size, const char *desc)
{
	(void)desc;
	benign_add((uintptr_t)mem, (size_t)size, "WTFAnnotateBenignRaceSized", file, line);
}

/*
 * Expected races (a test-harness feature of TSan v1): TSan 2 -- gcc 12's
 * libtsan and clang 14's runtime -- still reports them, and so do we.
 */
UCSAN_EXPORT void AnnotateExpectRace(const char *file, int line, const volatile void *mem, const char *desc)
{
	(void)file, (void)line, (void)mem, (void)desc;
}

UCSAN_EXPORT void AnnotateFlushExpectedRaces(const char *file, int line)
{
	(void)file, (void)line;
}

/* === Happens-before: nothing to record ===
 * A release is still one for the thread's own bookkeeping: the plain store
 * it publishes is not handed over by a relaxed store after it. */

UCSAN_EXPORT void __tsan_acquire(void *addr)
{
	(void)addr;
}

UCSAN_EXPORT void __tsan_release(void *addr)
{
	(void)addr;
	ucsan_release_point();
}

UCSAN_EXPORT void AnnotateHappensBefore(const char *file, int line, const volatile void *obj)
{
	(void)file, (void)line, (void)obj;
	ucsan_release_point();
}

UCSAN_EXPORT void AnnotateHappensAfter(const char *file, int line, const volatile void *obj)
{
	(void)file, (void)line, (void)obj;
}

UCSAN_EXPORT void WTFAnnotateHappensBefore(const char *file, int line, const volatile void *obj)
{
	(void)file, (void)line, (void)obj;
	ucsan_release_point();
}

UCSAN_EXPORT void WTFAnnotateHappensAfter(const char *file, int line, const volatile void *obj)
{
	(void)file, (void)line, (void)obj;
}

UCSAN_EXPORT void AnnotateCondVarSignal(const char *file, int line, const volatile void *cv)
{
	(void)file, (void)line, (void)cv;
	ucsan_release_point();
}

UCSAN_EXPORT void AnnotateCondVarSignalAll(const char *file, int line, const volatile void *cv)
{
	(void)file, (void)line, (void)cv;
	ucsan_release_point();
}

UCSAN_EXPORT void AnnotateCondVarWait(const char *file, int line, const volatile void *cv,
				      const volatile void *lock)
{
	(void)file, (void)line, (void)cv, (void)lock;
}

UCSAN_EXPORT void AnnotatePublishMemoryRange(const char *file, int line, const volatile void *mem, long size)
{
	(void)file, (void)line, (void)mem, (void)size;
	ucsan_release_point();
}

UCSAN_EXPORT void AnnotateUnpublishMemoryRange(const char *file, int line, const volatile void *mem, long size)
{
	(void)file, (void)line, (void)mem, (void)size;
}

UCSAN_EXPORT void AnnotatePCQCreate(const char *file, int line, const volatile void *pcq)
{
	(void)file, (void)line, (void)pcq;
}

UCSAN_EXPORT void AnnotatePCQDestroy(const char *file, int line, const volatile void *pcq)
{
	(void)file, (void)line, (void)pcq;
}

UCSAN_EXPORT void AnnotatePCQPut(const char *file, int line, const volatile void *pcq)
{
	(void)file, (void)line, (void)pcq;
}

UCSAN_EXPORT void AnnotatePCQGet(const char *file, int line, const volatile void *pcq)
{
	(void)file, (void)line, (void)pcq;
}

/* === Locks: no lockset, no lock-order graph === */

UCSAN_EXPORT void AnnotateRWLockCreate(const char *file, int line, const volatile void *lock)
{
	(void)file, (void)line, (void)lock;
}

UCSAN_EXPORT void AnnotateRWLockCreateStatic(const char *file, int line, const volatile void *lock)
{
	(void)file, (void)line, (void)lock;
}

UCSAN_EXPORT void AnnotateRWLockDestroy(const char *file, int line, const volatile void *lock)
{
	(void)file, (void)line, (void)lock;
}

UCSAN_EXPORT void AnnotateRWLockAcquired(const char *file, int line, const volatile void *lock, long is_w)
{
	(void)file, (void)line, (void)lock, (void)is_w;
}

UCSAN_EXPORT void AnnotateRWLockReleased(const char *file, int line, const volatile void *lock, long is_w)
{
	(void)file, (void)line, (void)lock, (void)is_w;
	ucsan_release_point();
}

UCSAN_EXPORT void AnnotateMutexIsNotPHB(const char *file, int line, const volatile void *mu)
{
	(void)file, (void)line, (void)mu;
}

UCSAN_EXPORT void AnnotateMutexIsUsedAsCondVar(const char *file, int line, const volatile void *mu)
{
	(void)file, (void)line, (void)mu;
}

/*
 * <sanitizer/tsan_interface.h> mutex annotations. Like TSan, the lock
 * operation itself (pre_lock .. post_lock and the unlock and signal pairs)
 * is an ignore region, so a custom lock's own racy bookkeeping is not
 * reported; a "divert" (a call into a scheduler or a contention profiler
 * from inside the operation) leaves that region until post_divert. The
 * critical section between post_lock and pre_unlock is ordinary code.
 * Unbalanced post_* calls change nothing.
 */
static void mutex_op_begin(void)
{
	ignore_begin(&tsan_tls.mutex_ignores);
}

static void mutex_op_end(void)
{
	ignore_end(&tsan_tls.mutex_ignores);
}

UCSAN_EXPORT void __tsan_mutex_create(void *addr, unsigned flags)
{
	(void)addr, (void)flags;
}

UCSAN_EXPORT void __tsan_mutex_destroy(void *addr, unsigned flags)
{
	(void)addr, (void)flags;
}

UCSAN_EXPORT void __tsan_mutex_pre_lock(void *addr, unsigned flags)
{
	(void)addr, (void)flags;
	mutex_op_begin();
}

UCSAN_EXPORT void __tsan_mutex_post_lock(void *addr, unsigned flags, int recursion)
{
	(void)addr, (void)flags, (void)recursion;
	mutex_op_end();
}

UCSAN_EXPORT int __tsan_mutex_pre_unlock(void *addr, unsigned flags)
{
	(void)addr, (void)flags;
	ucsan_release_point();
	mutex_op_begin();
	return 0; /* recursion levels released: we count none */
}

UCSAN_EXPORT void __tsan_mutex_post_unlock(void *addr, unsigned flags)
{
	(void)addr, (void)flags;
	mutex_op_end();
}

UCSAN_EXPORT void __tsan_mutex_pre_signal(void *addr, unsigned flags)
{
	(void)addr, (void)flags;
	ucsan_release_point();
	mutex_op_begin();
}

UCSAN_EXPORT void __tsan_mutex_post_signal(void *addr, unsigned flags)
{
	(void)addr, (void)flags;
	mutex_op_end();
}

UCSAN_EXPORT void __tsan_mutex_pre_divert(void *addr, unsigned flags)
{
	(void)addr, (void)flags;
	if (ignore_end(&tsan_tls.mutex_ignores))
		tsan_tls.diverts++;
}

UCSAN_EXPORT void __tsan_mutex_post_divert(void *addr, unsigned flags)
{
	(void)addr, (void)flags;
	if (tsan_tls.diverts > 0) {
		tsan_tls.diverts--;
		ignore_begin(&tsan_tls.mutex_ignores);
	}
}

/* === External (library-level) accesses ===
 * A library says "the object at addr was read / written" on behalf of its
 * caller. No value changes that a watchpoint could see, so the access is
 * checked as an assertion on the object's first byte, like
 * UCSAN_ASSERT_EXCLUSIVE_WRITER (read) and _ACCESS (write): a concurrent
 * external write, or a plain write of that byte, is reported as
 * "assert: race". Tags only name object types in TSan's reports: counted,
 * not used. */

static _Atomic unsigned long external_tags = 1; /* 0 is "no tag" */

UCSAN_EXPORT void *__tsan_external_register_tag(const char *object_type)
{
	(void)object_type;
	return (void *)(uintptr_t)atomic_fetch_add(&external_tags, 1);
}

UCSAN_EXPORT void __tsan_external_register_header(void *tag, const char *header)
{
	(void)tag, (void)header;
}

UCSAN_EXPORT void __tsan_external_assign_tag(void *addr, void *tag)
{
	(void)addr, (void)tag;
}

UCSAN_EXPORT void __tsan_external_read(void *addr, void *caller_pc, void *tag)
{
	(void)tag;
	if (!addr)
		return;
	ucsan_api_ctx();
	ucsan_check_range(addr, 1, UCSAN_ACCESS_ASSERT, caller_pc ? (uintptr_t)caller_pc : CALLER_PC());
}

UCSAN_EXPORT void __tsan_external_write(void *addr, void *caller_pc, void *tag)
{
	(void)tag;
	if (!addr)
		return;
	ucsan_api_ctx();
	ucsan_check_range(addr, 1, UCSAN_ACCESS_WRITE | UCSAN_ACCESS_ASSERT,
			  caller_pc ? (uintptr_t)caller_pc : CALLER_PC());
}

/* === Fibers ===
 * A fiber carries what TSan keeps per ThreadState and ucsan per thread for
 * the code running on one stack: the annotation state of struct ucsan_ctx
 * (checking disabled, atomic regions, access mask, scoped checks, which
 * live on the fiber's stack), weak_memory's pending access and the call
 * depth it is scoped to, and this file's ignore counters. Switching saves
 * the running fiber's share of the context and loads the target's. The
 * sampling countdown, thread id, random state and watch bookkeeping stay
 * with the thread: they describe the CPU time it spends, not a stack.
 * Report stacks are unwound from wherever the access happens, so they are
 * the fiber's.
 */

#define FIBER_MAGIC 0x75466962u /* "uFib" */
#define FIBER_NAME_MAX 64

struct ucsan_fiber {
	uint32_t magic;
	bool is_thread; /* a thread's own context (never freed) */
	/* Saved while not running. */
	int disable_count;
	bool in_flat_atomic;
	int atomic_nest_count, atomic_next;
	unsigned long access_mask;
	struct ucsan_scoped_access *scoped;
	__typeof__(((struct ucsan_ctx *)0)->reorder) reorder;
	int func_depth;
	struct tsan_state tsan; /* .fiber unused */
	char name[FIBER_NAME_MAX];
};

static __thread struct ucsan_fiber thread_fiber __attribute__((tls_model("initial-exec")));

static struct ucsan_fiber *current_fiber(void)
{
	if (!tsan_tls.fiber) {
		thread_fiber.magic = FIBER_MAGIC;
		thread_fiber.is_thread = true;
		tsan_tls.fiber = &thread_fiber;
	}
	return tsan_tls.fiber;
}

static void fiber_save(struct ucsan_fiber *f, const struct ucsan_ctx *ctx)
{
	f->disable_count = ctx->disable_count;
	f->in_flat_atomic = ctx->in_flat_atomic;
	f->atomic_nest_count = ctx->atomic_nest_count;
	f->atomic_next = ctx->atomic_next;
	f->access_mask = ctx->access_mask;
	f->scoped = ctx->scoped;
	f->reorder = ctx->reorder;
	f->func_depth = ctx->func_depth;
	f->tsan = tsan_tls;
}

static void fiber_load(const struct ucsan_fiber *f, struct ucsan_ctx *ctx)
{
	/* The countdown goes on where the thread left it; whether the new
	 * state is "special" (every access to the slow path) is recomputed. */
	const long countdown = ucsan_ctx_countdown(ctx);
	ctx->disable_count = f->disable_count;
	ctx->in_flat_atomic = f->in_flat_atomic;
	ctx->atomic_nest_count = f->atomic_nest_count;
	ctx->atomic_next = f->atomic_next;
	ctx->access_mask = f->access_mask;
	ctx->scoped = f->scoped;
	ctx->reorder = f->reorder;
	ctx->func_depth = f->func_depth;
	ctx->unpublished.ptr = NULL; /* another fiber's stores are not its to publish */
	ctx->special = false;
	ucsan_ctx_set_sites(ctx, ctx->sites); /* the hot path's table follows */
	ucsan_ctx_set_countdown(ctx, countdown);
	ucsan_ctx_update_special(ctx);
	struct ucsan_fiber *self = tsan_tls.fiber;
	tsan_tls = f->tsan;
	tsan_tls.fiber = self;
}

static bool is_fiber(const struct ucsan_fiber *f)
{
	return f && f->magic == FIBER_MAGIC;
}

UCSAN_EXPORT void *__tsan_get_current_fiber(void)
{
	return current_fiber();
}

UCSAN_EXPORT void *__tsan_create_fiber(unsigned flags)
{
	(void)flags;
	struct ucsan_ctx *ctx = ucsan_api_ctx();
	ctx->disable_count++; /* in case malloc is instrumented */
	struct ucsan_fiber *f = calloc(1, sizeof(*f));
	ctx->disable_count--;
	if (!f)
		return NULL;
	f->magic = FIBER_MAGIC; /* all else zero: checking on, nothing pending */
	return f;
}

UCSAN_EXPORT void __tsan_destroy_fiber(void *fiber)
{
	static _Atomic int bad_once, running_once;
	struct ucsan_fiber *f = fiber;
	if (!f)
		return;
	if (!is_fiber(f)) {
		warn_once(&bad_once, "__tsan_destroy_fiber() of something that is not a fiber, ignored", NULL, 0,
			  CALLER_PC());
		return;
	}
	if (f == tsan_tls.fiber) {
		warn_once(&running_once, "__tsan_destroy_fiber() of the running fiber, ignored", NULL, 0,
			  CALLER_PC());
		return;
	}
	if (f->is_thread)
		return; /* a thread's own context: it lives as long as the thread */
	struct ucsan_ctx *ctx = ucsan_api_ctx();
	f->magic = 0;
	ctx->disable_count++;
	free(f);
	ctx->disable_count--;
}

UCSAN_EXPORT void __tsan_switch_to_fiber(void *fiber, unsigned flags)
{
	static _Atomic int bad_once;
	(void)flags; /* __tsan_switch_to_fiber_no_sync: there is no sync to skip */
	struct ucsan_fiber *to = fiber;
	if (!is_fiber(to)) {
		warn_once(&bad_once, "__tsan_switch_to_fiber() to something that is not a fiber, ignored", NULL, 0,
			  CALLER_PC());
		return;
	}
	struct ucsan_ctx *ctx = ucsan_api_ctx();
	struct ucsan_fiber *from = current_fiber();
	if (to == from)
		return;
	fiber_save(from, ctx);
	fiber_load(to, ctx);
	tsan_tls.fiber = to;
}

UCSAN_EXPORT void __tsan_set_fiber_name(void *fiber, const char *name)
{
	struct ucsan_fiber *f = fiber;
	if (!is_fiber(f) || !name)
		return;
	size_t n = strnlen(name, FIBER_NAME_MAX - 1);
	memcpy(f->name, name, n);
	f->name[n] = '\0';
}

/* The running fiber's name, NULL if none was set (for reports). */
const char *ucsan_fiber_name(void)
{
	const struct ucsan_fiber *f = tsan_tls.fiber;
	return f && f->name[0] ? f->name : NULL;
}

/* === Start-up and exit hooks ===
 * TSan calls the program's __tsan_on_initialize() once it is initialized
 * and __tsan_on_finalize(failed) at exit, where the return value decides
 * whether the exit counts as failed. It finds them with dlsym, so TSan
 * needs -rdynamic; ucsan exports weak defaults, which makes the linker
 * export the program's own definitions without it. init.c calls the
 * helpers below. */

UCSAN_EXPORT __attribute__((weak)) void __tsan_on_initialize(void)
{
}

UCSAN_EXPORT __attribute__((weak)) int __tsan_on_finalize(int failed)
{
	return failed;
}

/* The program's definition if it has one (and exports it), else ours. */
static void *hook(const char *name, void *fallback)
{
	void *p = dlsym(RTLD_DEFAULT, name);
	return p ? p : fallback;
}

void ucsan_tsan_on_initialize(void)
{
	void (*fn)(void) = (void (*)(void))hook("__tsan_on_initialize", (void *)__tsan_on_initialize);
	fn();
}

/* Returns whether the process should exit as failed. */
bool ucsan_tsan_on_finalize(bool failed)
{
	int (*fn)(int) = (int (*)(int))hook("__tsan_on_finalize", (void *)__tsan_on_finalize);
	return fn(failed ? 1 : 0) != 0;
}

/* Nothing is cached that could be given back. */
UCSAN_EXPORT void __tsan_flush_memory(void)
{
}

/* === Everything else: no state to change === */

UCSAN_EXPORT void AnnotateNewMemory(const char *file, int line, const volatile void *mem, long size)
{
	/* No access history to forget. */
	(void)file, (void)line, (void)mem, (void)size;
}

UCSAN_EXPORT void AnnotateNoOp(const char *file, int line, const volatile void *arg)
{
	(void)file, (void)line, (void)arg;
}

UCSAN_EXPORT void AnnotateFlushState(const char *file, int line)
{
	(void)file, (void)line;
}

UCSAN_EXPORT void AnnotateTraceMemory(const char *file, int line, const volatile void *arg)
{
	(void)file, (void)line, (void)arg;
}

/* Reports identify threads by kernel tid; TSan's name is not shown. */
UCSAN_EXPORT void AnnotateThreadName(const char *file, int line, const char *name)
{
	(void)file, (void)line, (void)name;
}

/* A no-op in TSan 2 as well (checked against gcc 12's and clang 14's). */
UCSAN_EXPORT void AnnotateEnableRaceDetection(const char *file, int line, int enable)
{
	(void)file, (void)line, (void)enable;
}

/* MemorySanitizer's business. */
UCSAN_EXPORT void AnnotateMemoryIsInitialized(const char *file, int line, const volatile void *mem,
					      unsigned long size)
{
	(void)file, (void)line, (void)mem, (void)size;
}

UCSAN_EXPORT void AnnotateMemoryIsUninitialized(const char *file, int line, const volatile void *mem,
						unsigned long size)
{
	(void)file, (void)line, (void)mem, (void)size;
}

UCSAN_EXPORT int RunningOnValgrind(void)
{
	return 0;
}

/* TSan's answer, so that timeouts scaled by it keep TSan's margins. */
UCSAN_EXPORT __attribute__((weak)) double ValgrindSlowdown(void)
{
	return 10.0;
}

/* ucsan never reports a race that did not really happen, so it is at
 * least as "pure" as a happens-before detector. */
UCSAN_EXPORT const char *ThreadSanitizerQuery(const char *query)
{
	if (query && !strcmp(query, "pure_happens_before"))
		return "1";
	return "0";
}

/*
 * sanitizer_common's unaligned accessors: a plain access of that size,
 * checked as the compiler's instrumentation would check it, then done.
 */
#define UNALIGNED_ACCESSORS(bits)                                                         \
	UCSAN_EXPORT uint##bits##_t __sanitizer_unaligned_load##bits(const void *p)         \
	{                                                                                   \
		uint##bits##_t v;                                                           \
		check_access(p, sizeof(v), 0, CALLER_PC());                                 \
		__builtin_memcpy(&v, p, sizeof(v));                                         \
		return v;                                                                   \
	}                                                                                   \
	UCSAN_EXPORT void __sanitizer_unaligned_store##bits(void *p, uint##bits##_t v)      \
	{                                                                                   \
		check_access(p, sizeof(v), UCSAN_ACCESS_WRITE, CALLER_PC());                \
		__builtin_memcpy(p, &v, sizeof(v));                                         \
	}
UNALIGNED_ACCESSORS(16)
UNALIGNED_ACCESSORS(32)
UNALIGNED_ACCESSORS(64)

/*
 * What the memory at addr is, as the report's location line says it:
 * "global" (name: the variable), "tls", "stack", "heap" (the brk heap or an
 * anonymous mapping: blocks are not tracked, the region is the mapping), or
 * "other" (a mapped file, [vdso] and the like, or nothing).
 */
UCSAN_EXPORT const char *__tsan_locate_address(void *addr, char *name, size_t name_size, void **region_address,
					       size_t *region_size)
{
	struct ucsan_location loc;
	ucsan_ctx_tls.disable_count++;
	ucsan_locate((uintptr_t)addr, &loc);
	ucsan_ctx_tls.disable_count--;
	if (name && name_size)
		snprintf(name, name_size, "%s", loc.name);
	if (region_address)
		*region_address = (void *)loc.start;
	if (region_size)
		*region_size = loc.size;
	switch (loc.kind) {
	case LOC_GLOBAL: return "global";
	case LOC_TLS: return "tls";
	case LOC_STACK: return "stack";
	case LOC_HEAP:
	case LOC_ANON: return "heap";
	default: return "other";
	}
}
