// SPDX-License-Identifier: Apache-2.0
/*
 * Unit tests: the sampling countdown kept in lanes (core.c). Whatever
 * lanes the accesses fall in, the sample must land on the access a single
 * counter would pick: the one after the countdown's n skipped accesses.
 * Only stores count (check.h), and only out of line, where a thread's
 * accesses go while its stores count (its first few countdowns); then
 * the inlined check counts nothing and the time floor samples alone.
 * A read leaves the countdown alone.
 * A thread whose accesses move to other lanes late in the period (its
 * main loop ends, its exit path runs) must not have the sample taken
 * early, by the first access of the new lanes. And the time floor: a
 * thread nudged by the sampler thread samples once its period has run
 * its CPU time.
 */
#include "check.h"

#define UNIT_NAME "countdown"
#include "unit_check.h"
#include "unit_counters.h"

void __tsan_read4(void *p);

static int data[64];

/* A code site in the given lane (site_lane() hashes the pc). */
static uintptr_t ip_in_lane(unsigned lane, unsigned k)
{
	return 0x40000 + ((uintptr_t)k * UCSAN_LANES + lane) * 4;
}

/*
 * Starts a period of n skipped accesses, then runs accesses whose code
 * sites leave lanes 0..5 for lanes 6 and 7 after `switch_at` of them.
 * Returns the index of the access that was sampled (the countdown, which
 * the lone thread's sample restarts from far away, jumps up), or -1.
 */
static long sampled_access(long n, long switch_at)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	ucsan_ctx_set_countdown(ctx, n);
	ctx->period_skip = n;
	for (long i = 0; i < 4 * n + 64; i++) {
		const unsigned lane = i < switch_at ? (unsigned)(i % 6) : 6 + (unsigned)(i % 2);
		const long before = ucsan_ctx_countdown(ctx);
		count_access(ctx, &data[i % 64], 4, UCSAN_ACCESS_WRITE, ip_in_lane(lane, (unsigned)(i / 8) % 16), true);
		if (ucsan_ctx_countdown(ctx) > before)
			return i;
	}
	return -1;
}

/* Every store counts once: the countdown goes down by one per store. */
static int counts_one_each(void)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	ucsan_ctx_set_countdown(ctx, 100000);
	ctx->period_skip = 100000;
	for (long i = 0; i < 5000; i++) {
		const long before = ucsan_ctx_countdown(ctx);
		count_access(ctx, &data[i % 64], 4, UCSAN_ACCESS_WRITE, ip_in_lane((unsigned)(i * 7 % 8), 0),
			     true);
		if (ucsan_ctx_countdown(ctx) != before - 1)
			return 0;
	}
	return 1;
}

/* Plain reads, however many, neither count nor sample. */
static int reads_not_counted(void)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	ucsan_ctx_set_countdown(ctx, 10);
	ctx->period_skip = 10;
	for (long i = 0; i < 5000; i++) {
		count_access(ctx, &data[i % 64], 4, 0, ip_in_lane((unsigned)(i % 8), 0), false);
		if (ucsan_ctx_countdown(ctx) != 10)
			return 0;
	}
	return 1;
}

/* With skip_watch=0 and fixed sampling the gate sends every access out
 * of line, where reads count too. */
static int reads_counted_out_of_line(void)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	ucsan_count_reads = true;
	ucsan_ctx_set_countdown(ctx, 100000);
	ctx->period_skip = 100000;
	int ok = 1;
	for (long i = 0; i < 100 && ok; i++) {
		const long before = ucsan_ctx_countdown(ctx);
		count_access(ctx, &data[i % 64], 4, 0, ip_in_lane((unsigned)(i % 8), 0), true);
		ok = ucsan_ctx_countdown(ctx) == before - 1;
	}
	ucsan_count_reads = false;
	return ok;
}

/* A store the countdown runs out at; whether it started a pick (1 in
 * 256 times it is sampled itself). */
static bool store_starts_pick(struct ucsan_ctx *ctx)
{
	ucsan_ctx_set_countdown(ctx, 0);
	ctx->period_skip = 4000;
	count_access(ctx, &data[0], 4, UCSAN_ACCESS_WRITE, ip_in_lane(0, 0), true);
	return ctx->picking;
}

/* The store the countdown runs out at hands the sample on to one of the
 * next PICK_SPAN (256) accesses, reads counted too (out of line), after
 * which the thread is no longer special. Returns how many reads it took,
 * or -1. */
static long pick_takes_reads(void)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	for (int tries = 0; tries < 64; tries++) {
		if (!store_starts_pick(ctx))
			continue;
		if (!ctx->special)
			return -1;
		for (long i = 0; i < 256; i++) {
			count_access(ctx, &data[i % 64], 4, 0, ip_in_lane((unsigned)(i % 8), 1), true);
			if (!ctx->picking)
				return ctx->special ? -1 : i;
		}
		return -1;
	}
	return -1;
}

/* A pick that falls on `p`: whether it was sampled there (the pick is
 * over) rather than passed on (up to 16 accesses on). -1: no pick. */
static int pick_sampled_at(struct ucsan_ctx *ctx, const volatile void *p)
{
	for (int tries = 0; tries < 64; tries++) {
		if (!store_starts_pick(ctx))
			continue;
		ctx->saved_skip = 0;
		count_access(ctx, p, 4, 0, ip_in_lane(1, 2), true);
		if (!ctx->picking)
			return 1;
		if (ctx->saved_skip >= 16)
			return -1;
		return 0; /* passed on: the pick goes on */
	}
	return -1;
}

/*
 * A pick that falls on the thread's own frames passes the sample on to one
 * of the next 16 accesses, sample_repicks (8) times in a row at most; one
 * that falls on shared data samples it. Returns whether both held.
 */
static int pick_passes_over_private(void)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	volatile int local = 0;
	/* Falls on a local: still picking, up to 16 accesses on. */
	if (pick_sampled_at(ctx, &local) != 0)
		return 0;
	/* Then on shared data: sampled there. */
	for (int i = 0; i < 16 && ctx->picking; i++)
		count_access(ctx, &data[1], 4, 0, ip_in_lane(2, 2), true);
	if (ctx->picking)
		return 0;
	/* Only locals: the ninth fall is sampled, the pick is over. */
	for (int tries = 0; tries < 64; tries++) {
		if (!store_starts_pick(ctx))
			continue;
		int falls = 0;
		for (; falls < 20 && ctx->picking; falls++) {
			ctx->saved_skip = 0;
			count_access(ctx, (const volatile void *)&local, 4, 0, ip_in_lane(1, 2), true);
		}
		return falls == 9;
	}
	return 0;
}

/*
 * sample_locked=0: a pick that falls on shared data while the thread holds
 * a pthread lock passes the sample on like one on private data, and one
 * still under the lock after sample_repicks moves is let go unwatched; the
 * same pick with no lock held watches. The process counts two threads
 * here, so that a sample really sets a watchpoint.
 */
static int locked_pick_let_go(void)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	atomic_store(&ucsan_live_threads, 2);
	int ok = 0;
	for (int tries = 0; tries < 64; tries++) {
		if (!store_starts_pick(ctx))
			continue;
		const long watched = counter(CTR_SETUP_WATCHPOINTS);
		ctx->locks_held = 1;
		int falls = 0;
		for (; falls < 20 && ctx->picking; falls++) {
			ctx->saved_skip = 0;
			count_access(ctx, &data[1], 4, 0, ip_in_lane(1, 3), true);
		}
		ctx->locks_held = 0;
		ok = falls == 9 && counter(CTR_SETUP_WATCHPOINTS) == watched;
		/* The lock released: the same fall is watched. */
		ok = ok && pick_sampled_at(ctx, &data[1]) == 1 && counter(CTR_SETUP_WATCHPOINTS) == watched + 1;
		break;
	}
	atomic_store(&ucsan_live_threads, 1);
	return ok;
}

/* Pages of their own, for the picks of the next case only. */
static char own_pages[2][4096] __attribute__((aligned(4096)));

/*
 * sample_page_owners: a pick that falls on a page first seen is sampled;
 * on a page the picks have seen this thread only, passed on; once
 * another thread's pick fell there, sampled again. With the option off,
 * a page of the thread's own is sampled.
 */
static int pick_passes_over_own_page(void)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	static struct ucsan_ctx other;
	other.tid = ctx->tid + 1;
	ucsan_opts.sample_page_owners = true;
	int ok = pick_sampled_at(ctx, &own_pages[0][64]) == 1;
	ok = ok && pick_sampled_at(ctx, &own_pages[0][128]) == 0;
	/* End the pick that was passed on, on the other page (first seen). */
	for (int i = 0; i < 16 && ctx->picking; i++)
		count_access(ctx, &own_pages[1][i * 4], 4, 0, ip_in_lane(2, 2), true);
	ok = ok && !ctx->picking;
	/* Another thread's pick fell on it: shared from then on. */
	ok = ok && ucsan_page_seen(&other, &own_pages[0][0]) == PAGE_SHARED;
	ok = ok && pick_sampled_at(ctx, &own_pages[0][192]) == 1;
	/* Off (as for the other cases): the second page, seen by this
	 * thread only, is sampled. */
	ucsan_opts.sample_page_owners = false;
	ok = ok && pick_sampled_at(ctx, &own_pages[1][64]) == 1;
	return ok;
}

/* Some CPU time for the thread's clock to show. */
static unsigned long burn_cpu(void)
{
	unsigned long x = 0;
	for (long i = 0; i < 2000000; i++)
		__asm__ __volatile__("" : "+r"(x) : "r"(i));
	return x;
}

/*
 * The time floor (core.c): a nudge whose period has run its CPU time
 * starts a pick among the next accesses; one whose period has not starts
 * none and puts the sampler's next visit later. A pick from a nudge is
 * given up at marked accesses, and the store count goes on where it was.
 */
static int nudge_picks_when_due(void)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	if (!ucsan_time_floor_on())
		return 0;
	/* Not alone: a thread alone samples nothing. */
	atomic_store(&ucsan_live_threads, 2);
	ucsan_ctx_set_countdown(ctx, 100000);
	(void)burn_cpu();
	ctx->period_start_ns = 0;
	ctx->period_wall_ns = ucsan_now_ns();
	ctx->time_gap_ns = 1000000000000ULL;
	ucsan_sample_nudged(ctx);
	int ok = !ctx->picking && atomic_load(&ctx->nudge_after_ns) > ucsan_now_ns();
	ctx->time_gap_ns = 1000;
	ucsan_sample_nudged(ctx);
	ok = ok && ctx->picking && ctx->time_pick && ctx->special;
	for (int i = 0; i < 300 && ctx->picking; i++)
		ucsan_special_marked();
	ok = ok && !ctx->picking && !ctx->special && ucsan_ctx_countdown(ctx) == 100000;
	atomic_store(&ucsan_live_threads, 1);
	return ok;
}

/* Starts a nudge's pick (the time floor) at once; false if none began. */
static bool nudge_starts_pick(struct ucsan_ctx *ctx)
{
	ctx->period_start_ns = 0;
	ctx->period_wall_ns = ucsan_now_ns();
	ctx->time_gap_ns = 1000;
	(void)burn_cpu();
	ucsan_sample_nudged(ctx);
	return ctx->picking && ctx->time_pick;
}

/*
 * A nudge's pick that has spent its sample_repicks moves on the thread's
 * own frames looks on access by access: it samples the first access
 * another thread can reach, however far on (a poller's loop of clock
 * reads between two reads of the shared variable). One that finds none
 * in PICK_SEARCH_ACCESSES (65536) is given up, and watches nothing.
 */
static int time_pick_searches_past_private(void)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	volatile int local = 0;
	atomic_store(&ucsan_live_threads, 2);
	int ok = nudge_starts_pick(ctx);
	/* Far more than 8 moves of 16 and the pick's first offset. */
	for (int i = 0; i < 5000 && ok; i++) {
		count_access(ctx, (const volatile void *)&local, 4, 0, ip_in_lane(1, 4), true);
		ok = ctx->picking;
	}
	const long watched = counter(CTR_SETUP_WATCHPOINTS);
	count_access(ctx, &data[1], 4, 0, ip_in_lane(2, 4), true);
	ok = ok && !ctx->picking && counter(CTR_SETUP_WATCHPOINTS) == watched + 1;
	/* Only locals: given up after the search, nothing watched. */
	ok = ok && nudge_starts_pick(ctx);
	long n = 0;
	for (; n < 70000 + 512 && ctx->picking; n++)
		count_access(ctx, (const volatile void *)&local, 4, 0, ip_in_lane(1, 4), true);
	ok = ok && !ctx->picking && n > 65536 && counter(CTR_SETUP_WATCHPOINTS) == watched + 1;
	atomic_store(&ucsan_live_threads, 1);
	return ok;
}

/* The sampler thread's round (nudge_list.c): a pool owner whose nudge is due
 * gets its hot path pointed at the all-cold table, one whose nudge is not
 * due is left alone; its next cold-site visit takes the nudge and puts
 * its own table back. */
static int sampler_nudges_due_owner(void)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	const uint8_t *own = ctx->sites;
	if (own == ucsan_sites_warm || own == ucsan_sites_cold)
		return 0;
	/* As a thread past its first countdowns: on its own table. */
	ctx->time_sampled = true;
	ucsan_ctx_set_sites(ctx, own);
	atomic_store(&ctx->nudge_after_ns, ucsan_now_ns() + 1000000000ULL);
	ucsan_nudge_listed_due(ucsan_now_ns());
	int ok = !atomic_load(&ctx->nudged) && ctx->hot_sites == own;
	atomic_store(&ctx->nudge_after_ns, 1);
	ucsan_nudge_listed_due(ucsan_now_ns());
	ok = ok && atomic_load(&ctx->nudged) && ctx->hot_sites == ucsan_sites_cold;
	ucsan_cold_site(&data[0], 4, 0, ip_in_lane(3, 7));
	ok = ok && !atomic_load(&ctx->nudged) && ctx->hot_sites == own;
	ctx->time_sampled = false;
	ucsan_ctx_set_sites(ctx, own);
	return ok;
}

/*
 * A thread counts its stores (out of line: its hot path reads the
 * all-cold table) until its first FIXED_START_PERIODS (4) countdowns have
 * run out, the sample of the last one taken; with the sampler thread
 * running, its samples are then the time floor's: its hot path reads its
 * own table, and the inlined check counts no store. A sample here also
 * starts the sampler thread (the first thread the process makes, as for
 * a program's first pthread_create()).
 */
static int hands_over_to_time_floor(void)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	const uint8_t *own = ctx->sites;
	/* Three countdowns behind it, whatever the cases before ran out. */
	ctx->countdowns_run = 3;
	if (ctx->time_sampled || ctx->hot_sites != ucsan_sites_cold)
		return 0;
	ucsan_sampler_start();
	for (int i = 0; i < 1000 && !ucsan_sampler_running(); i++)
		ucsan_yield();
	for (int tries = 0; tries < 8 && !ctx->time_sampled; tries++) {
		if (sampled_access(10, 1L << 30) < 0)
			return 0;
		/* The sample handed on (a pick): taken among the next reads. */
		for (long i = 0; i < 256 && ctx->picking; i++)
			count_access(ctx, &data[i % 64], 4, 0, ip_in_lane((unsigned)(i % 8), 1), true);
	}
	int ok = ctx->time_sampled && ctx->hot_sites == own;
	ucsan_ctx_set_countdown(ctx, 100);
	for (long i = 0; i < 1000 && ok; i++)
		count_access(ctx, &data[i % 64], 4, UCSAN_ACCESS_WRITE, ip_in_lane((unsigned)(i % 8), 0), false);
	return ok && ucsan_ctx_countdown(ctx) == 100;
}

/*
 * A thread that only reads never runs out a countdown of stores: it is
 * handed to the time floor after 65536 accesses out of line (at sites it
 * is done with), not one more. Runs after hands_over_to_time_floor(),
 * with the sampler thread running.
 */
static int reader_hands_over_after_accesses(void)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	uint8_t *own = ucsan_ctx_sites(ctx);
	const uintptr_t ip = ip_in_lane(5, 9);
	own[site_index(ip)] = SITE_WARM;
	ctx->time_sampled = false;
	ctx->countdowns_run = 0;
	ctx->youth_accesses = 0;
	ucsan_ctx_set_sites(ctx, own);
	ucsan_ctx_set_countdown(ctx, 100);
	int ok = ctx->hot_sites == ucsan_sites_cold;
	for (long i = 0; i < 65536 && ok; i++) {
		ucsan_cold_site(&data[i % 64], 4, 0, ip);
		ok = !ctx->time_sampled;
	}
	ucsan_cold_site(&data[0], 4, 0, ip);
	return ok && ctx->time_sampled && ctx->hot_sites == own && ucsan_ctx_countdown(ctx) == 100;
}

/*
 * The sampler thread's list (src/nudge_list.c), for a thread without a
 * table of the pool as for one with: nudged when due, not while it waits
 * for another thread, nudged again while it has not taken the last nudge
 * (its own table put back meanwhile would keep it from ever coming out),
 * and left alone once unlisted.
 */
static int listed_thread_nudged(void)
{
	static struct ucsan_ctx other;
	other.sites = other.hot_sites = ucsan_sites_warm;
	ucsan_nudge_enlist(&other);
	int ok = other.nudge_entry > 0 && ucsan_nudge_listed(&other);
	atomic_store(&other.nudge_after_ns, ucsan_now_ns() + 1000000000ULL);
	ucsan_nudge_listed_due(ucsan_now_ns());
	ok = ok && !atomic_load(&other.nudged) && other.hot_sites == ucsan_sites_warm;
	/* Due, but blocked in a wait. */
	ucsan_nudge_waiting(&other, true);
	atomic_store(&other.nudge_after_ns, 1);
	ucsan_nudge_listed_due(ucsan_now_ns());
	ok = ok && !atomic_load(&other.nudged) && other.hot_sites == ucsan_sites_warm;
	ucsan_nudge_waiting(&other, false);
	ucsan_nudge_listed_due(ucsan_now_ns());
	ok = ok && atomic_load(&other.nudged) && other.hot_sites == ucsan_sites_cold;
	other.hot_sites = ucsan_sites_warm;
	ucsan_nudge_listed_due(ucsan_now_ns());
	ok = ok && other.hot_sites == ucsan_sites_cold; /* not taken yet: again */
	ucsan_nudge_delist(&other);
	atomic_store(&other.nudged, false);
	other.hot_sites = ucsan_sites_warm;
	ucsan_nudge_listed_due(ucsan_now_ns());
	return ok && other.nudge_entry == 0 && !ucsan_nudge_listed(&other) && !atomic_load(&other.nudged) &&
	       other.hot_sites == ucsan_sites_warm;
}

int main(void)
{
	/* Sets the thread up (it stays alone: a sample watches nothing and
	 * restarts the countdown from SKIP_MAX). An access would not: alone,
	 * it returns at once. */
	ucsan_api_ctx();
	/* Every case but pick_passes_over_own_page, which turns it on for
	 * itself, counts where samples fall on data[]'s page, which has seen
	 * this thread only: the page rule would pass them on. */
	ucsan_opts.sample_page_owners = false;

	CHECK("counts_one_each", counts_one_each());
	CHECK("reads_not_counted", reads_not_counted());
	CHECK("reads_counted_out_of_line", reads_counted_out_of_line());
	CHECK("pick_takes_reads", pick_takes_reads() >= 0);
	CHECK("pick_passes_over_private", pick_passes_over_private());
	CHECK("pick_passes_over_own_page", pick_passes_over_own_page());
	CHECK("locked_pick_let_go", locked_pick_let_go());
	CHECK("nudge_picks_when_due", nudge_picks_when_due());
	CHECK("time_pick_searches_past_private", time_pick_searches_past_private());
	CHECK("sampler_nudges_due_owner", sampler_nudges_due_owner());
	CHECK("one_lane_phase_exact", sampled_access(4000, 1L << 30) == 4000);
	CHECK("short_period_exact", sampled_access(40, 1L << 30) == 40);
	CHECK("new_lanes_late_exact", sampled_access(4000, 3900) == 4000);
	CHECK("new_lanes_midway_exact", sampled_access(4000, 2000) == 4000);
	CHECK("new_lanes_long_period_exact", sampled_access(100000, 99000) == 100000);
	CHECK("zero_period_first_access", sampled_access(0, 1L << 30) == 0);
	CHECK("hands_over_to_time_floor", hands_over_to_time_floor());
	CHECK("reader_hands_over_after_accesses", reader_hands_over_after_accesses());
	CHECK("listed_thread_nudged", listed_thread_nudged());
	return failures != 0;
}
