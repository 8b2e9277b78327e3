// SPDX-License-Identifier: Apache-2.0
/*
 * Reports, one at a time: the racing thread hands its access and stack to
 * the watcher through other_infos[slot]; the watcher filters, rate-limits,
 * symbolizes and prints the whole report with one write(2). Cold path.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "internal.h"
#include "report.h"
#include "symbolize.h"

/* === Data === */

static struct other_info other_infos[UCSAN_MAX_WATCHPOINTS + UCSAN_NUM_SLOTS - 1];

/* Recently reported pairs of top frames, for report_once_in_ms. */
struct report_time {
	uint64_t time_ms;
	uintptr_t frame1, frame2;
	uintptr_t addr, size; /* the reporting thread's access */
};
#define REPORT_TIMES 64
static struct report_time report_times[REPORT_TIMES]; /* under report_owner */

/* The report lock: the tid of the thread printing, or 0. A spinlock with
 * yield rather than a mutex, so that a thread's own signal handler can see
 * that it already holds it (and give up instead of deadlocking). */
static _Atomic int report_owner;

static char report_buf[65536]; /* under report_owner: a text and a JSON report */

/* === Locking === */

static bool report_lock(struct ucsan_ctx *ctx, uint64_t timeout_ms)
{
	const uint64_t deadline = ucsan_now_ns() + timeout_ms * 1000000ULL;
	/* A thread that was alone until now (exiting, forking) may never
	 * have been set up: its context has no tid yet, and 0 is "free". */
	const int me = ctx->tid ? ctx->tid : ucsan_gettid();
	for (unsigned spins = 0;; spins++) {
		int expect = 0;
		if (atomic_compare_exchange_weak_explicit(&report_owner, &expect, me, memory_order_acquire,
							  memory_order_relaxed))
			return true;
		if (expect == me)
			return false; /* re-entered from a signal handler */
		if (spins > 64)
			ucsan_yield();
		else
			ucsan_cpu_relax();
		if ((spins & 63) == 0 && ucsan_now_ns() > deadline)
			return false;
	}
}

static void report_unlock(void)
{
	atomic_store_explicit(&report_owner, 0, memory_order_release);
}

/* === Formatting into report_buf === */

void ucsan_sb_printf(struct sbuf *sb, const char *fmt, ...)
{
	if (sb->len >= sb->cap)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(sb->buf + sb->len, sb->cap - sb->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		sb->len = (size_t)n < sb->cap - sb->len ? sb->len + (size_t)n : sb->cap;
}

static const char *access_type_str(int type)
{
	if (type & UCSAN_ACCESS_ASSERT) {
		if (type & UCSAN_ACCESS_SCOPED)
			return (type & UCSAN_ACCESS_WRITE) ? "assert no accesses (scoped)"
							    : "assert no writes (scoped)";
		return (type & UCSAN_ACCESS_WRITE) ? "assert no accesses" : "assert no writes";
	}
	/* [scoped][compound][write][marked]. A scoped access that is no
	 * assertion is a weak_memory access checked as still in flight:
	 * "reordered", as the kernel says. */
	static const char *const names[2][2][2][2] = {
		{ { { "read", "read (marked)" }, { "write", "write (marked)" } },
		  { { "read", "read (marked)" }, { "read-write", "read-write (marked)" } } },
		{ { { "read (reordered)", "read (marked, reordered)" },
		    { "write (reordered)", "write (marked, reordered)" } },
		  { { "read (reordered)", "read (marked, reordered)" },
		    { "read-write (reordered)", "read-write (marked, reordered)" } } },
	};
	return names[!!(type & UCSAN_ACCESS_SCOPED)][!!(type & UCSAN_ACCESS_COMPOUND)][!!(type & UCSAN_ACCESS_WRITE)]
		    [!!(type & UCSAN_ACCESS_ATOMIC)];
}

static const char *bug_type_str(int type)
{
	return (type & UCSAN_ACCESS_ASSERT) ? "assert: race" : "data-race";
}

/* Paths as the user knows them: strip_path_prefix, else relative to the
 * directory the program started in when below it. */
static char start_cwd[1024];
static size_t start_cwd_len;

const char *ucsan_display_path(const char *file)
{
	const char *prefix = ucsan_opts.strip_path_prefix;
	size_t pl = prefix ? strlen(prefix) : 0;
	if (pl && !strncmp(file, prefix, pl))
		return file + pl;
	if (start_cwd_len && !strncmp(file, start_cwd, start_cwd_len) && file[start_cwd_len] == '/')
		return file + start_cwd_len + 1;
	return file;
}

/*
 * Frames below the program's own code (libc's thread start and
 * __libc_start_main, the loader, _start) add nothing to a report: trailing
 * frames from those are dropped. A libc frame in the middle of a stack
 * (qsort calling back into the program) stays.
 */
static bool is_system_frame(uintptr_t pc)
{
	Dl_info info;
	char name[64];
	if (!dladdr((void *)(pc - 1), &info))
		return true;
	/* _start is not a dynamic symbol: ask the symbolizer. */
	const char *fn = ucsan_symbol_name(pc - 1, name, sizeof(name));
	if (fn && !strcmp(fn, "_start"))
		return true;
	const char *base = info.dli_fname ? strrchr(info.dli_fname, '/') : NULL;
	base = base ? base + 1 : info.dli_fname;
	return base && (!strncmp(base, "libc.so", 7) || !strncmp(base, "ld-linux", 8));
}

int ucsan_shown_frames(const uintptr_t *pcs, int n)
{
	int last = n;
	while (last > 1 && is_system_frame(pcs[last - 1]))
		last--;
	return last;
}

static void print_frame_location(struct sbuf *sb, const struct ucsan_frame *f)
{
	if (f->file)
		ucsan_sb_printf(sb, " %s:%d", ucsan_display_path(f->file), f->line);
}

static void print_stack(struct sbuf *sb, const uintptr_t *pcs, int n)
{
	n = ucsan_shown_frames(pcs, n);
	for (int i = 0; i < n; i++) {
		struct ucsan_frame fr[16];
		char strbuf[4096];
		int k = ucsan_symbolize(pcs[i], 1, fr, 16, strbuf, sizeof(strbuf));
		if (k <= 0)
			continue;
		const struct ucsan_frame *real = &fr[k - 1];
		for (int j = 0; j < k - 1; j++) {
			ucsan_sb_printf(sb, " %s", fr[j].func ? fr[j].func : "??");
			print_frame_location(sb, &fr[j]);
			ucsan_sb_printf(sb, " [inline]\n");
		}
		if (real->func) {
			ucsan_sb_printf(sb, " %s+0x%lx/0x%lx", real->func, (unsigned long)real->offset,
				  (unsigned long)real->size);
			print_frame_location(sb, real);
		} else if (real->module) {
			const char *base = strrchr(real->module, '/');
			ucsan_sb_printf(sb, " 0x%lx (%s+0x%lx)", (unsigned long)pcs[i], base ? base + 1 : real->module,
				  (unsigned long)real->module_offset);
		} else {
			ucsan_sb_printf(sb, " 0x%lx", (unsigned long)pcs[i]);
		}
		ucsan_sb_printf(sb, "\n");
	}
}

/* Under a reordered access's stack: where the access was still in flight. */
static void print_reordered_to(struct sbuf *sb, uintptr_t pc)
{
	struct ucsan_frame fr[16];
	char strbuf[4096];
	if (!pc)
		return;
	int k = ucsan_symbolize(pc, 1, fr, 16, strbuf, sizeof(strbuf));
	const struct ucsan_frame *real = k > 0 ? &fr[k - 1] : NULL;
	ucsan_sb_printf(sb, "  |\n  +-> reordered to:");
	/* Inlined: the innermost line of the program's own (not a system
	 * header's, such as std::atomic's store) is the one that says where. */
	int j = 0;
	while (j < k - 1 && (!fr[j].file || !strncmp(fr[j].file, "/usr/include/", 13)))
		j++;
	if (j < k - 1 && fr[j].func) {
		ucsan_sb_printf(sb, " %s", fr[j].func);
		print_frame_location(sb, &fr[j]);
		ucsan_sb_printf(sb, " [inline]");
	} else if (real && real->func) {
		ucsan_sb_printf(sb, " %s+0x%lx/0x%lx", real->func, (unsigned long)real->offset, (unsigned long)real->size);
		print_frame_location(sb, real);
	} else {
		ucsan_sb_printf(sb, " 0x%lx", (unsigned long)pc);
	}
	ucsan_sb_printf(sb, "\n");
}

static const char *func_name(uintptr_t pc, char *buf, size_t len)
{
	const char *name = ucsan_symbol_name(pc - 1, buf, len);
	if (!name) {
		snprintf(buf, len, "0x%lx", (unsigned long)pc);
		name = buf;
	}
	return name;
}

static void print_value_change(struct sbuf *sb, size_t size, struct ucsan_value old, struct ucsan_value new,
			       unsigned long mask)
{
	if (size == 16) {
		ucsan_sb_printf(sb, "value changed: 0x%016lx%016lx -> 0x%016lx%016lx\n\n", (unsigned long)old.hi,
			  (unsigned long)old.lo, (unsigned long)new.hi, (unsigned long)new.lo);
		return;
	}
	const int w = (int)size * 2;
	ucsan_sb_printf(sb, "value changed: 0x%0*lx -> 0x%0*lx\n", w, (unsigned long)old.lo, w, (unsigned long)new.lo);
	if (mask)
		ucsan_sb_printf(sb, " bits changed: 0x%0*lx with mask 0x%0*lx\n", w,
			  (unsigned long)((old.lo ^ new.lo) & mask), w, mask);
	ucsan_sb_printf(sb, "\n");
}

/*
 * A scoped check runs wherever the thread happens to enter the runtime;
 * the report is about the scope, so the stack is shown from the function
 * that opened it (its frame replaced by the opening call site), as the
 * kernel does. Returns the new number of entries.
 */
static uintptr_t func_start(uintptr_t pc)
{
	struct ucsan_frame fr[8];
	char strbuf[1024];
	int k = ucsan_symbolize(pc, 1, fr, 8, strbuf, sizeof(strbuf));
	if (k <= 0 || !fr[k - 1].func)
		return 0;
	return pc - fr[k - 1].offset;
}

static int show_from_ip(uintptr_t *pcs, int n, uintptr_t ip, uintptr_t *replaced)
{
	uintptr_t target = func_start(ip);
	*replaced = 0;
	for (int i = 0; target && i < n; i++) {
		if (func_start(pcs[i]) == target) {
			*replaced = pcs[i];
			pcs[i] = ip;
			memmove(pcs, pcs + i, (size_t)(n - i) * sizeof(pcs[0]));
			return n - i;
		}
	}
	/* Not on the stack (its function tail-called the runtime and is
	 * gone): put it on top; where the thread is now is on top below it. */
	*replaced = n > 0 ? pcs[0] : 0;
	if (n == UCSAN_MAX_STACK)
		n--;
	memmove(pcs + 1, pcs, (size_t)n * sizeof(pcs[0]));
	pcs[0] = ip;
	return n + 1;
}

/* For a reordered access, *reordered_to is where its function is now. A
 * held access (held_watches.c) was made before its thread's blocking
 * call: shown where it was made. */
static int adjust_stack(const struct access_info *ai, uintptr_t *pcs, int n, uintptr_t *reordered_to)
{
	uintptr_t replaced = 0;
	*reordered_to = 0;
	if ((ai->type & UCSAN_ACCESS_HELD) && ai->ip)
		return show_from_ip(pcs, n, ai->ip, &replaced);
	if (!(ai->type & UCSAN_ACCESS_SCOPED) || !ai->ip)
		return n;
	n = show_from_ip(pcs, n, ai->ip, &replaced);
	if (!(ai->type & UCSAN_ACCESS_ASSERT) && replaced != ai->ip)
		*reordered_to = replaced;
	return n;
}

static void print_access_line(struct sbuf *sb, const char *prefix, const struct report_access *a)
{
	char omp[40] = "";
	if (a->omp_thread >= 0)
		snprintf(omp, sizeof(omp), " (OpenMP thread %d)", a->omp_thread);
	ucsan_sb_printf(sb, "%s%s to 0x%lx of %zu bytes by %sthread %d%s on cpu %d:\n", prefix, a->type,
			(unsigned long)a->addr, a->size, a->in_signal ? "signal handler in " : "", a->tid, omp, a->cpu);
}

static void fill_access(struct report_access *r, const struct access_info *ai, const uintptr_t *pcs, int npcs,
			uintptr_t reordered_to)
{
	r->type = access_type_str(ai->type);
	r->raw_type = ai->type;
	r->size = ai->size;
	r->addr = (uintptr_t)ai->ptr;
	r->tid = ai->tid;
	r->cpu = ai->cpu;
	r->in_signal = ai->in_signal;
	r->omp_thread = ai->omp_thread;
	r->pcs = pcs;
	r->npcs = npcs;
	r->reordered_to = reordered_to;
}

/* === Filtering === */

static uint64_t now_ms(void)
{
	return ucsan_now_ns() / 1000000ULL;
}

/* True if this pair of frames was reported within report_once_in_ms. A
 * change of unknown origin (frame2 0) at a frame and on memory reported
 * there with both stacks is that race again, its writer preempted between
 * its check and its store: the report with both stacks said all it could. */
static bool rate_limited(uintptr_t frame1, uintptr_t frame2, const struct access_info *ai)
{
	if (ucsan_opts.report_once_in_ms <= 0)
		return false;
	const uint64_t now = now_ms();
	struct report_time *use = &report_times[0];
	for (int i = 0; i < REPORT_TIMES; i++) {
		struct report_time *rt = &report_times[i];
		if (rt->time_ms < use->time_ms)
			use = rt; /* the oldest entry is recycled */
		if (rt->time_ms == 0)
			break;
		if (now - rt->time_ms >= (uint64_t)ucsan_opts.report_once_in_ms)
			continue;
		if ((rt->frame1 == frame1 && rt->frame2 == frame2) ||
		    (rt->frame1 == frame2 && rt->frame2 == frame1))
			return true;
		if (!frame2 && rt->frame2 && (rt->frame1 == frame1 || rt->frame2 == frame1) &&
		    (uintptr_t)ai->ptr < rt->addr + rt->size && rt->addr < (uintptr_t)ai->ptr + ai->size)
			return true;
	}
	use->time_ms = now ? now : 1;
	use->frame1 = frame1;
	use->frame2 = frame2;
	use->addr = (uintptr_t)ai->ptr;
	use->size = ai->size;
	return false;
}

/*
 * With report_value_change_only, a race whose write may have stored the
 * value already there is not reported (the kernel's cases 2, 4 and 5);
 * RCU-style publication functions are exempt, as in the kernel.
 */
static bool skip_for_value(enum ucsan_value_change vc, uintptr_t top_frame)
{
	if (!ucsan_opts.report_value_change_only || vc != VALUE_CHANGE_MAYBE)
		return false;
	char buf[256];
	const char *name = func_name(top_frame, buf, sizeof(buf));
	return !strstr(name, "rcu_") && !strstr(name, "_rcu") && !strstr(name, "_srcu");
}

/* === Printing === */

static void fill_access_info(struct access_info *ai, const volatile void *ptr, size_t size, int type,
			     uintptr_t ip)
{
	ai->ptr = ptr;
	ai->size = size;
	ai->type = type;
	ai->ip = ip;
	ai->in_signal = false;
	ai->omp_thread = ucsan_omp_thread();
	ai->frame_pc = ai->frame_cfa = 0;
	const struct ucsan_thread_info *t = ucsan_ctx_tls.thread_info;
	if (t && (uintptr_t)ptr >= t->stack_lo && (uintptr_t)ptr < t->stack_hi)
		ucsan_stack_frame_of((uintptr_t)ptr, &ai->frame_pc, &ai->frame_cfa);
	ai->tid = ucsan_ctx_tls.tid;
	ai->cpu = ucsan_getcpu();
}

/* The report for TSan's inspection API (and the location line). */
static struct ucsan_report_desc desc; /* under report_owner */

static void fill_mop(struct ucsan_report_mop *m, const struct access_info *ai, const uintptr_t *pcs, int npcs)
{
	m->tid = ai->tid;
	m->addr = (uintptr_t)ai->ptr;
	m->size = (int)ai->size;
	m->write = (ai->type & UCSAN_ACCESS_WRITE) != 0;
	m->atomic = (ai->type & UCSAN_ACCESS_ATOMIC) != 0;
	m->npcs = npcs < (int)(sizeof(m->pcs) / sizeof(m->pcs[0])) ? npcs : (int)(sizeof(m->pcs) / sizeof(m->pcs[0]));
	memcpy(m->pcs, pcs, (size_t)m->npcs * sizeof(*pcs));
}

static void fill_thread(struct ucsan_report_thread *r, int tid)
{
	const struct ucsan_thread_info *t = ucsan_thread_info_find(tid);
	memset(r, 0, sizeof(*r));
	r->tid = tid;
	r->running = 1;
	r->known = t != NULL;
	if (!t)
		return;
	r->running = atomic_load(&t->state) == THREAD_RUNNING;
	r->parent = t->creator;
	ucsan_thread_name(t, r->name, sizeof(r->name));
	r->npcs = t->npcs;
	memcpy(r->pcs, t->pcs, (size_t)t->npcs * sizeof(t->pcs[0]));
}

/* A stack location made by its owner: which local variable, in which
 * frame, from DWARF and the frame the owning access found. */
static void name_stack_var(struct ucsan_location *loc, uintptr_t addr, const struct access_info *ai,
			   const struct access_info *oai)
{
	const struct access_info *own = ai->tid == loc->tid && ai->frame_cfa ? ai
				      : oai && oai->tid == loc->tid && oai->frame_cfa ? oai
											: NULL;
	struct ucsan_stack_var v;
	if (!own || !ucsan_stack_var(own->frame_pc, own->frame_cfa, addr, &v))
		return;
	snprintf(loc->name, sizeof(loc->name), "%s", v.name);
	snprintf(loc->frame, sizeof(loc->frame), "%s", v.function);
	snprintf(loc->decl_file, sizeof(loc->decl_file), "%s", v.decl_file);
	loc->decl_line = v.decl_line;
	loc->start = v.start;
	loc->size = v.size;
}

static void fill_desc(const struct access_info *ai, const struct access_info *oai, const uintptr_t *pcs, int npcs,
		      const uintptr_t *opcs, int onpcs)
{
	desc.description = bug_type_str(ai->type | (oai ? oai->type : 0));
	desc.nmops = 0;
	if (oai)
		fill_mop(&desc.mops[desc.nmops++], oai, opcs, onpcs);
	fill_mop(&desc.mops[desc.nmops++], ai, pcs, npcs);
	ucsan_locate((uintptr_t)ai->ptr, &desc.loc);
	if (desc.loc.kind == LOC_STACK)
		name_stack_var(&desc.loc, (uintptr_t)ai->ptr, ai, oai);
	desc.nthreads = 0;
	if (oai)
		fill_thread(&desc.threads[desc.nthreads++], oai->tid);
	if (!oai || oai->tid != ai->tid)
		fill_thread(&desc.threads[desc.nthreads++], ai->tid);
}

/* "thread N "name" (running) created by thread M at:" and where. */
static void print_thread(struct sbuf *sb, const struct ucsan_report_thread *t)
{
	if (!t->known) {
		ucsan_sb_printf(sb, "thread %d (not started through pthread_create)\n", t->tid);
		return;
	}
	const char *state = t->running ? "running" : "finished";
	if (!t->parent) {
		ucsan_sb_printf(sb, "thread %d \"%s\" (%s) is the main thread\n", t->tid, t->name, state);
		return;
	}
	ucsan_sb_printf(sb, "thread %d \"%s\" (%s) created by thread %d at:\n", t->tid, t->name, state, t->parent);
	print_stack(sb, t->pcs, t->npcs);
}

static void print_footer(struct sbuf *sb)
{
	char comm[17] = "";
	prctl(PR_GET_NAME, comm, 0, 0, 0);
	ucsan_sb_printf(sb, "Reported by User-space Concurrency Sanitizer on:\n");
	ucsan_sb_printf(sb, "CPU: %d PID: %d Comm: %s\n", ucsan_getcpu(), (int)getpid(), comm);
	ucsan_sb_printf(sb, "==================================================================\n");
}

/* The report as the formats see it; title and where are its buffers. */
static void fill_view(struct report_view *v, char *title, size_t tlen, char *where, size_t wlen,
		      const struct access_info *ai, const struct access_info *oai, const uintptr_t *pcs, int npcs,
		      const uintptr_t *opcs, int onpcs, uintptr_t this_reordered, uintptr_t other_reordered)
{
	char name1[256], name2[256];
	memset(v, 0, sizeof(*v));
	v->kind = bug_type_str(ai->type | (oai ? oai->type : 0));
	v->unknown_origin = !oai;
	if (oai) {
		/* Sorted, so the same race always gets the same title. */
		const char *a = func_name(pcs[0], name1, sizeof(name1));
		const char *b = func_name(onpcs > 0 ? opcs[0] : 0, name2, sizeof(name2));
		if (strcmp(a, b) > 0) {
			const char *t = a;
			a = b;
			b = t;
		}
		snprintf(title, tlen, "%s in %s / %s", v->kind, a, b);
		fill_access(&v->acc[v->naccesses++], oai, opcs, onpcs, other_reordered);
	} else {
		snprintf(title, tlen, "%s in %s", v->kind, func_name(pcs[0], name1, sizeof(name1)));
	}
	fill_access(&v->acc[v->naccesses++], ai, pcs, npcs, this_reordered);
	v->title = title;
	ucsan_format_location(where, wlen, (uintptr_t)ai->ptr, &desc.loc);
	v->location = where;
	v->desc = &desc;
}

static void print_text(struct sbuf *sb, const struct report_view *v)
{
	ucsan_sb_printf(sb, "==================================================================\n");
	ucsan_sb_printf(sb, "BUG: UCSAN: %s\n\n", v->title);
	for (int i = 0; i < v->naccesses; i++) {
		const struct report_access *a = &v->acc[i];
		if (i > 0)
			ucsan_sb_printf(sb, "\n");
		print_access_line(sb, v->unknown_origin ? "race at unknown origin, with " : "", a);
		print_stack(sb, a->pcs, a->npcs);
		print_reordered_to(sb, a->reordered_to);
	}
	ucsan_sb_printf(sb, "\n");
	if (v->value_changed)
		print_value_change(sb, v->acc[v->naccesses - 1].size, v->old, v->new, v->mask);
	ucsan_sb_printf(sb, "location: %s\n", v->location);
	if (desc.loc.heap_block && desc.loc.block.npcs)
		print_stack(sb, desc.loc.block.pcs, desc.loc.block.npcs);
	for (int i = 0; i < desc.nthreads; i++)
		print_thread(sb, &desc.threads[i]);
	ucsan_sb_printf(sb, "\n");
	print_footer(sb);
}

void (*_Atomic ucsan_death_callback)(void);

static void after_report(void)
{
	ucsan_counter_add(CTR_REPORTS_PRINTED, 1);
	if (ucsan_opts.halt_on_error) {
		ucsan_report_at_exit();
		void (*cb)(void) = atomic_load(&ucsan_death_callback);
		if (cb)
			cb();
		_exit((int)ucsan_opts.exitcode);
	}
}

bool ucsan_report_locked(void (*fn)(void *), void *arg)
{
	if (!report_lock(&ucsan_ctx_tls, 10000))
		return false;
	fn(arg);
	report_unlock();
	return true;
}

struct stack_to_print {
	const uintptr_t *pcs;
	int n;
};

static void print_stack_locked(void *arg)
{
	const struct stack_to_print *st = arg;
	struct sbuf sb = { report_buf, 0, sizeof(report_buf) };
	print_stack(&sb, st->pcs, st->n);
	ucsan_log_write(sb.buf, sb.len);
}

void ucsan_report_print_stack(const uintptr_t *pcs, int n)
{
	struct stack_to_print st = { pcs, n };
	ucsan_report_locked(print_stack_locked, &st);
}

/*
 * A report from inside a signal handler cannot be symbolized there (libdw
 * allocates; the handler may have interrupted malloc). Its raw material is
 * parked here and printed by the next runtime entry outside a handler, or
 * at exit.
 */
struct deferred_report {
	_Atomic int state; /* INFO_EMPTY, INFO_FILLING, INFO_READY */
	bool has_other;
	struct access_info ai, oai;
	int npcs, onpcs;
	uintptr_t pcs[UCSAN_MAX_STACK], opcs[UCSAN_MAX_STACK];
	enum ucsan_value_change vc;
	struct ucsan_value old, new;
	unsigned long mask;
};
#define MAX_DEFERRED 4
static struct deferred_report deferred[MAX_DEFERRED];
_Atomic int ucsan_deferred_reports;

/* Filters and prints a report whose stacks are captured. Returns false if
 * filtered. Takes the report lock. */
bool ucsan_emit_report(const struct access_info *ai, const struct access_info *oai, uintptr_t *pcs, int npcs,
		       uintptr_t *opcs, int onpcs, enum ucsan_value_change vc, struct ucsan_value old,
		       struct ucsan_value new, unsigned long mask)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	/* A data race on memory annotated with AnnotateBenignRace[Sized]():
	 * dropped, as under TSan. Assertions are deliberate and stay. */
	if (!((ai->type | (oai ? oai->type : 0)) & UCSAN_ACCESS_ASSERT) &&
	    (ucsan_benign_range((uintptr_t)ai->ptr, ai->size) ||
	     (oai && ucsan_benign_range((uintptr_t)oai->ptr, oai->size)))) {
		ucsan_counter_add(CTR_RACES_SUPPRESSED, 1);
		return false;
	}
	if (!report_lock(ctx, 10000))
		return false;
	uintptr_t this_reordered = 0, other_reordered = 0;
	npcs = adjust_stack(ai, pcs, npcs, &this_reordered);
	if (oai)
		onpcs = adjust_stack(oai, opcs, onpcs, &other_reordered);
	const uintptr_t this_frame = pcs[0];
	const uintptr_t other_frame = oai && onpcs > 0 ? opcs[0] : 0;
	if (ucsan_race_suppressed(this_frame, other_frame)) {
		report_unlock();
		ucsan_counter_add(CTR_RACES_SUPPRESSED, 1);
		return false;
	}
	if ((oai && skip_for_value(vc, other_frame)) || rate_limited(this_frame, other_frame, ai)) {
		report_unlock();
		ucsan_counter_add(CTR_REPORTS_SUPPRESSED, 1);
		return false;
	}

	fill_desc(ai, oai, pcs, npcs, opcs, onpcs);
	struct report_view v;
	char title[600], where[512];
	fill_view(&v, title, sizeof(title), where, sizeof(where), ai, oai, pcs, npcs, opcs, onpcs,
		  this_reordered, other_reordered);
	if (vc == VALUE_CHANGE_TRUE && (old.lo != new.lo || old.hi != new.hi)) {
		v.value_changed = true;
		v.old = old;
		v.new = new;
		v.mask = mask;
	}
	struct sbuf sb = { report_buf, 0, sizeof(report_buf) };
	if (strcmp(ucsan_opts.report_format, "json"))
		print_text(&sb, &v);
	if (strcmp(ucsan_opts.report_format, "text"))
		ucsan_report_json(&sb, &v);
	ucsan_log_write(sb.buf, sb.len);
	ucsan_tsan_on_report(&desc);
	report_unlock();
	after_report();
	return true;
}

static void defer_report(const struct access_info *ai, const struct other_info *oi, const uintptr_t *pcs, int npcs,
			 enum ucsan_value_change vc, struct ucsan_value old, struct ucsan_value new,
			 unsigned long mask)
{
	for (int i = 0; i < MAX_DEFERRED; i++) {
		struct deferred_report *d = &deferred[i];
		int expect = INFO_EMPTY;
		if (!atomic_compare_exchange_strong(&d->state, &expect, INFO_FILLING))
			continue;
		d->ai = *ai;
		d->ai.in_signal = true;
		d->has_other = oi != NULL;
		if (oi) {
			d->oai = oi->ai;
			d->onpcs = oi->npcs;
			memcpy(d->opcs, oi->pcs, (size_t)oi->npcs * sizeof(d->opcs[0]));
		}
		d->npcs = npcs;
		memcpy(d->pcs, pcs, (size_t)npcs * sizeof(d->pcs[0]));
		d->vc = vc;
		d->old = old;
		d->new = new;
		d->mask = mask;
		atomic_store_explicit(&d->state, INFO_READY, memory_order_release);
		atomic_fetch_add(&ucsan_deferred_reports, 1);
		return;
	}
	ucsan_counter_add(CTR_REPORTS_SUPPRESSED, 1); /* all parked slots busy */
}

void ucsan_report_flush_deferred(void)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	if (ctx->signal_depth > 0)
		return;
	ctx->disable_count++;
	for (int i = 0; i < MAX_DEFERRED; i++) {
		struct deferred_report *d = &deferred[i];
		int expect = INFO_READY;
		if (!atomic_compare_exchange_strong(&d->state, &expect, INFO_FILLING))
			continue;
		atomic_fetch_sub(&ucsan_deferred_reports, 1);
		ucsan_emit_report(&d->ai, d->has_other ? &d->oai : NULL, d->pcs, d->npcs, d->opcs, d->onpcs, d->vc,
				  d->old, d->new, d->mask);
		atomic_store_explicit(&d->state, INFO_EMPTY, memory_order_release);
	}
	ctx->disable_count--;
}

/*
 * Prints one report. `oi` is NULL for a race at unknown origin. Returns
 * false if filtered. The caller holds no lock.
 */
static bool print_report(const struct access_info *ai, const struct other_info *oi, enum ucsan_value_change vc,
			 struct ucsan_value old, struct ucsan_value new, unsigned long mask)
{
	uintptr_t pcs[UCSAN_MAX_STACK], opcs[UCSAN_MAX_STACK];
	int npcs = (ai->type & UCSAN_ACCESS_HELD) ? ucsan_held_stack(pcs, UCSAN_MAX_STACK) : 0;
	if (npcs <= 0)
		npcs = ucsan_stack_capture(pcs, UCSAN_MAX_STACK);
	if (npcs <= 0)
		return false;
	if (ucsan_ctx_tls.signal_depth > 0) {
		defer_report(ai, oi, pcs, npcs, vc, old, new, mask);
		return true;
	}
	int onpcs = oi ? oi->npcs : 0;
	if (oi)
		memcpy(opcs, oi->pcs, (size_t)onpcs * sizeof(opcs[0]));
	return ucsan_emit_report(ai, oi ? &oi->ai : NULL, pcs, npcs, opcs, onpcs, vc, old, new, mask);
}

/* === Entry points from the engine === */

void ucsan_report_set_info(const volatile void *ptr, size_t size, int type, uintptr_t ip, size_t slot,
			   bool in_signal)
{
	struct other_info *oi = &other_infos[slot];
	atomic_store_explicit(&oi->state, INFO_FILLING, memory_order_relaxed);
	fill_access_info(&oi->ai, ptr, size, type, ip);
	oi->ai.in_signal = in_signal || ucsan_ctx_tls.signal_depth > 0;
	oi->ai.took_flag = ucsan_cold_took_flag();
	oi->npcs = ucsan_stack_capture(oi->pcs, UCSAN_MAX_STACK);
	atomic_store_explicit(&oi->state, INFO_READY, memory_order_release);
}

void ucsan_report_known_origin(const volatile void *ptr, size_t size, int type, uintptr_t ip,
			       enum ucsan_value_change vc, size_t slot, struct ucsan_value old,
			       struct ucsan_value new, unsigned long mask)
{
	struct other_info *oi = &other_infos[slot];
	struct access_info ai;
	fill_access_info(&ai, ptr, size, type, ip);

	/* The consumer is between winning the slot and publishing its stack:
	 * a few microseconds, unless it was descheduled. */
	const uint64_t deadline = ucsan_now_ns() + 1000000000ULL;
	while (atomic_load_explicit(&oi->state, memory_order_acquire) != INFO_READY) {
		if (ucsan_now_ns() > deadline)
			return;
		ucsan_yield();
	}

	/* Encoding keeps only the low address bits: the full addresses decide. */
	if (!((uintptr_t)oi->ai.ptr + oi->ai.size > (uintptr_t)ptr &&
	      (uintptr_t)ptr + size > (uintptr_t)oi->ai.ptr)) {
		ucsan_counter_add(CTR_ENCODING_FALSE_POSITIVES, 1);
		goto out;
	}
	/* A relaxed publication's store: only the flag's taker counts. */
	if (!ucsan_cold_report_allowed(oi->ai.took_flag))
		goto out;
	/* An assertion holds whatever the values, and a reordered access
	 * (weak_memory) was performed long before: no value change to wait
	 * for. Always report. */
	if (vc == VALUE_CHANGE_MAYBE && (oi->ai.type & (UCSAN_ACCESS_ASSERT | UCSAN_ACCESS_SCOPED)))
		vc = VALUE_CHANGE_TRUE;
	/* The racing write usually lands right after its thread handed over
	 * its stack: look once more before concluding nothing changed. */
	if (vc == VALUE_CHANGE_MAYBE && !mask) {
		struct ucsan_value now;
		if (ucsan_read_value(ptr, size, &now) && (now.lo != old.lo || now.hi != old.hi) &&
		    !ucsan_ignore_value_change(size, type, old, now, (now.lo ^ old.lo) | (now.hi ^ old.hi))) {
			new = now;
			vc = VALUE_CHANGE_TRUE;
		}
	}
	/* Still unchanged: a store in flight (the watcher's own write, which
	 * happens only after its stall, or the racing write, just after its
	 * check) may yet change it. Judged later, where it must have landed. */
	if (vc == VALUE_CHANGE_MAYBE && !mask && ucsan_opts.report_value_change_only &&
	    ucsan_value_check_defer(&ai, oi, old))
		goto out;
	if (vc != VALUE_CHANGE_FALSE)
		print_report(&ai, oi, vc, old, new, mask);
out:
	atomic_store_explicit(&oi->state, INFO_EMPTY, memory_order_relaxed);
}

void ucsan_report_unknown_origin(const volatile void *ptr, size_t size, int type, uintptr_t ip,
				 struct ucsan_value old, struct ucsan_value new, unsigned long mask)
{
	struct access_info ai;
	fill_access_info(&ai, ptr, size, type, ip);
	print_report(&ai, NULL, VALUE_CHANGE_TRUE, old, new, mask);
}

/* === Process life cycle === */

void ucsan_report_init(void)
{
	if (getcwd(start_cwd, sizeof(start_cwd)))
		start_cwd_len = strlen(start_cwd);
	if (start_cwd_len == 1)
		start_cwd_len = 0; /* "/" : keep absolute paths */
}

/*
 * fork() waits for a report being printed in another thread (bounded):
 * forking in the middle of one would leave the child with the unwinder's
 * and symbolizer's internal locks held by a thread it does not have.
 */
static bool fork_locked;

void ucsan_report_fork_prepare(void)
{
	fork_locked = report_lock(&ucsan_ctx_tls, 2000);
}

void ucsan_report_fork_parent(void)
{
	if (fork_locked)
		report_unlock();
	fork_locked = false;
}

void ucsan_report_reset_after_fork(void)
{
	/* Threads holding the lock or filling infos do not exist in the child,
	 * and the parent's reports are not the child's: its rate limit and
	 * its exit status start afresh. */
	fork_locked = false;
	memset(report_times, 0, sizeof(report_times));
	/* Reports the parent parked in a signal handler are the parent's. */
	for (int i = 0; i < MAX_DEFERRED; i++)
		atomic_store_explicit(&deferred[i].state, INFO_EMPTY, memory_order_relaxed);
	atomic_store_explicit(&ucsan_deferred_reports, 0, memory_order_relaxed);
	for (int i = 0; i < CTR_COUNT; i++)
		atomic_store_explicit(&ucsan_counters[i], 0, memory_order_relaxed);
	atomic_store_explicit(&report_owner, 0, memory_order_relaxed);
	for (size_t i = 0; i < ucsan_slots_in_use(); i++)
		atomic_store_explicit(&other_infos[i].state, INFO_EMPTY, memory_order_relaxed);
	ucsan_value_checks_after_fork();
	ucsan_symbolize_reset();
}

long ucsan_reports_printed(void)
{
	return atomic_load_explicit(&ucsan_counters[CTR_REPORTS_PRINTED], memory_order_relaxed);
}

/* "UCSAN: reported N data races", if any were. Async-signal-safe (digits
 * by hand, one write): SIGTERM's handler prints it too (signals.c). */
void ucsan_report_summary(void)
{
	const long printed = ucsan_reports_printed();
	if (printed <= 0)
		return;
	char line[64] = "UCSAN: reported ", digits[24];
	size_t n = strlen(line), d = 0;
	for (long v = printed; v > 0 && d < sizeof(digits); v /= 10)
		digits[d++] = (char)('0' + v % 10);
	while (d > 0)
		line[n++] = digits[--d];
	memcpy(line + n, " data races\n", 12);
	ucsan_log_write(line, n + 12);
}

/*
 * A watchpoint another thread's access consumed is reported by its
 * watcher when its stall ends: up to 250 us later for a cold stall. The
 * consuming access is often the exiting thread's last (main reads what a
 * thread it did not wait for stored, and returns), so exit waits for
 * those reports, EXIT_WAIT_MS at most, waking the stalls to look now.
 * (Not a halt_on_error exit: the report that halts is the one wanted.)
 */
#define EXIT_WAIT_MS 200
void ucsan_report_await_consumed(void)
{
	for (int ms = 0; ms < EXIT_WAIT_MS; ms++) {
		bool pending = false;
		for (size_t i = 0; i < ucsan_slots_in_use() && !pending; i++)
			pending = atomic_load_explicit(&other_infos[i].state, memory_order_acquire) != INFO_EMPTY;
		if (!pending)
			return;
		ucsan_cold_wake_stalls();
		ucsan_sleep_us(1000);
	}
}

void ucsan_report_at_exit(void)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	ucsan_report_flush_deferred();
	ucsan_value_checks_at_exit();
	char line[256];
	int n;
	/* Let a report in progress in another thread finish first. */
	bool locked = report_lock(ctx, 2000);

	if (ucsan_opts.print_stats) {
		for (int i = 0; i < CTR_COUNT; i++) {
			n = snprintf(line, sizeof(line), "UCSAN: stats: %s: %ld\n", ucsan_counter_names[i],
				     atomic_load_explicit(&ucsan_counters[i], memory_order_relaxed));
			ucsan_log_write(line, (size_t)n);
		}
	}
	ucsan_report_summary();
	/* Keep the lock: the process ends right after (exit or halt), and a
	 * report printed now would follow the summary and escape its count.
	 * Threads still racing give up on the lock and drop theirs. */
	(void)locked;
}
