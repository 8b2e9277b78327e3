// __tsan_atomic_thread_fence and __tsan_atomic_signal_fence, which stand in
// for __atomic_thread_fence and __atomic_signal_fence (and gcc's
// __sync_synchronize): every memory order, valid or not, is accepted, errno
// is untouched and no memory is touched (traced, interpose.h).  A seq_cst
// thread fence must also still order a store before a later load, as the
// builtin's mfence does: the store-buffering litmus test (each thread stores
// its flag, fences, loads the other's) may never see both loads return 0.
// That outcome is checked for the entry point called directly, for the
// compilers' own calls to it, and for the uninstrumented builtin, over a
// bounded number of rounds; the same rounds without a fence show how often
// x86 reorders there (printed, not checked: it only shows the test can see
// reordering at all).
//
// CFLAGS: -O2 -g -std=gnu11 -Wall -Wextra -Werror
// TIMEOUT: 120
// EXPECT-STDOUT: ^atomic_fence: [0-9]+ checks, 0 failed$
// NOT: UCSAN

#include "interpose.h"

#include <sched.h>

void __tsan_atomic_thread_fence(int mo);
void __tsan_atomic_signal_fence(int mo);

/* gcc warns that TSan does not model fences; ucsan has nothing to model. */
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wtsan"
#endif

static void fence_direct(void)
{
	__tsan_atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static void fence_op(void *arg)
{
	(void)arg;
	fence_direct();
}

static void fence_compiled(void) /* instrumented: a call to the entry point */
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static void fence_sync(void)
{
	__sync_synchronize();
}

static IP_NOSAN void fence_builtin(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static IP_NOSAN void fence_none(void)
{
}

/* === Store buffering === */

#define ROUNDS 20000

static struct {
	void (*fence)(void);
	int x[ROUNDS], y[ROUNDS], r1[ROUNDS], r2[ROUNDS];
	int arrive[2]; /* rounds each thread has started */
} sb;

/* Start round i together with the other thread (spinning, then yielding:
 * two cores may be shared with other work). */
static IP_NOSAN void meet(int self, int i)
{
	__atomic_store_n(&sb.arrive[self], i, __ATOMIC_RELEASE);
	for (int spins = 0; __atomic_load_n(&sb.arrive[!self], __ATOMIC_ACQUIRE) < i; spins++) {
		if (spins > 2000)
			sched_yield();
		else
			__builtin_ia32_pause();
	}
}

/* Relaxed (plain) stores and loads, uninstrumented: only the fence is ucsan's. */
static IP_NOSAN void *side(void *arg)
{
	const int self = arg != NULL;
	int *mine = self ? sb.y : sb.x, *other = self ? sb.x : sb.y, *r = self ? sb.r2 : sb.r1;

	for (int i = 1; i < ROUNDS; i++) {
		meet(self, i);
		__atomic_store_n(&mine[i], 1, __ATOMIC_RELAXED);
		sb.fence();
		r[i] = __atomic_load_n(&other[i], __ATOMIC_RELAXED);
	}
	return NULL;
}

static int store_buffering(void (*fence)(void))
{
	int both_zero = 0;

	memset(&sb, 0, sizeof(sb));
	sb.fence = fence;
	pthread_t a = e2e_spawn(side, NULL), b = e2e_spawn(side, &sb);
	e2e_join(a);
	e2e_join(b);
	for (int i = 1; i < ROUNDS; i++)
		both_zero += sb.r1[i] == 0 && sb.r2[i] == 0;
	return both_zero;
}

int main(void)
{
	static const struct {
		const char *name;
		void (*fence)(void);
	} fences[] = {
		{ "__tsan_atomic_thread_fence(seq_cst)", fence_direct },
		{ "__atomic_thread_fence(seq_cst), instrumented", fence_compiled },
		{ "__sync_synchronize(), instrumented", fence_sync },
		{ "__atomic_thread_fence(seq_cst), uninstrumented", fence_builtin },
	};
	static struct ip_access acc[16];
	char *page = ip_pages(1);
	int n;

	e2e_require_runtime();
	e2e_keep_company();
	/* Every order: no effect on errno or memory. */
	for (int i = 0; i < IP_N_ORDERS; i++) {
		errno = IP_SENTINEL;
		__tsan_atomic_thread_fence(ip_orders[i]);
		IP_EXPECT(errno == IP_SENTINEL, "thread_fence(%#x) changed errno", ip_orders[i]);
		__tsan_atomic_signal_fence(ip_orders[i]);
		IP_EXPECT(errno == IP_SENTINEL, "signal_fence(%#x) changed errno", ip_orders[i]);
	}
	n = ip_trace(page, 4096, fence_op, NULL, acc, 16);
	IP_EXPECT(n == 0, "a fence touched memory");

	for (size_t f = 0; f < sizeof(fences) / sizeof(fences[0]); f++) {
		int bad = store_buffering(fences[f].fence);
		printf("store buffering, %s: both loads 0 in %d of %d rounds\n", fences[f].name, bad, ROUNDS - 1);
		IP_EXPECT(bad == 0, "%s let a load pass a store %d times", fences[f].name, bad);
	}
	printf("store buffering, no fence: both loads 0 in %d of %d rounds (x86 reorders)\n",
	       store_buffering(fence_none), ROUNDS - 1);
	return ip_finish("atomic_fence");
}
