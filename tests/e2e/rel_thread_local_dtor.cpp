// C++ thread_local objects whose destructors run instrumented code as 32
// std::threads leave at once, 10 times over, plus the main thread's own
// thread_local and a static object destroyed at exit: private updates,
// locked updates and one unlocked shared counter (the race, reported with
// the destructor's frame). No crash, no hang, every destructor ran, and the
// output is well-formed.
//
// OPTIONS: skip_watch=0 udelay_task=50 report_once_in_ms=100
// TRIES: 3
// TIMEOUT: 120
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in tl_dtor_count / tl_dtor_count$
// EXPECT: ^rel: 320 thread_local destructors ran$
// EXPECT: ^rel: main's thread_local destroyed$
// EXPECT: ^rel: static object destroyed$
// EXPECT: ^rel: output of the run checked$
// NOT: ^BUG: UCSAN: .*(tl_private|tl_locked)

#include <mutex>
#include <thread>
#include <vector>

#include "rel_support.h"

static long racy_count;  /* updated without the lock: the race */
static long locked_count;
static std::mutex lock;
static pthread_barrier_t leave_together;

extern "C" NOINLINE void tl_dtor_count(void)
{
	racy_count++;
}

extern "C" NOINLINE void tl_private(long *p, long id)
{
	for (int i = 0; i < 8; i++)
		p[i] += id + i;
}

extern "C" NOINLINE void tl_locked(void)
{
	std::lock_guard<std::mutex> g(lock);
	locked_count++;
}

struct Tracker {
	long data[8] = {};
	long id = -1;
	bool is_main = false;

	~Tracker()
	{
		tl_private(data, id);
		if (is_main) {
			fprintf(stderr, "rel: main's thread_local destroyed\n");
			return;
		}
		tl_dtor_count();
		tl_locked();
	}
};

static thread_local Tracker tracker;

struct AtExit {
	long data[4] = {};

	~AtExit()
	{
		/* Static destructor: instrumented, after main returned. */
		tl_private(data, 1);
		if (rel_in_run)
			fprintf(stderr, "rel: static object destroyed\n");
	}
};

static AtExit at_exit_object;

int main(int argc, char **argv)
{
	const int threads = 32, rounds = 10;

	rel_supervise(argc, argv);
	e2e_require_runtime();
	tracker.is_main = true;
	pthread_barrier_init(&leave_together, NULL, threads);
	for (int r = 0; r < rounds; r++) {
		std::vector<std::thread> ts;

		for (int i = 0; i < threads; i++)
			ts.emplace_back([i] {
				tracker.id = i;
				pthread_barrier_wait(&leave_together);
			});
		for (auto &t : ts)
			t.join();
	}
	E2E_CHECK(locked_count == (long)threads * rounds);
	fprintf(stderr, "rel: %ld thread_local destructors ran\n", locked_count);
	at_exit_object.data[0] = 1;
	return 0;
}
