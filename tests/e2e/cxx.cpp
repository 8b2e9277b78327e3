// C++: std::thread, std::mutex, std::atomic.  Only the counter bumped outside
// the mutex races; the mutex-protected and the atomic counters must not
// appear in any report and must be exact.  Not halting: every report is
// checked against the NOT lines, and the runtime sets the exit status at exit.
// racy++ is a read and a write with gcc, one read-write access with clang
// (the wrapper passes -tsan-compound-read-before-write).
//
// OPTIONS: skip_watch=0
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in [^ ]*bump_racy[^ ]* / [^ ]*bump_racy
// EXPECT-FRAME: ^(read|read-write) to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ [^ ]*bump_racy[^ ]*\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*cxx\.cpp:[0-9]+$
// EXPECT-FRAME: ^(write|read-write) to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ [^ ]*bump_racy[^ ]*\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*cxx\.cpp:[0-9]+$
// EXPECT: ^UCSAN: reported [0-9]+ data races?$
// NOT: locked_inc|atomic_inc|atomic_count
// NOT: \(marked\)

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>

#if defined(__clang__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE __attribute__((noinline, noipa))
#endif

namespace counters {
int racy;
long locked;
std::mutex lock;
std::atomic<long> atomic_count{0};
std::atomic<bool> stop{false};

NOINLINE void bump_racy()
{
	racy++;
}

NOINLINE void locked_inc()
{
	std::lock_guard<std::mutex> guard(lock);
	locked++;
}

NOINLINE void atomic_inc()
{
	atomic_count.fetch_add(1, std::memory_order_relaxed);
}
} // namespace counters

static void worker(long *iterations)
{
	long n = 0;

	while (!counters::stop.load(std::memory_order_relaxed)) {
		counters::bump_racy();
		counters::locked_inc();
		counters::atomic_inc();
		n++;
	}
	*iterations = n;
}

int main()
{
	long na = 0, nb = 0;
	std::thread a(worker, &na);
	std::thread b(worker, &nb);

	std::this_thread::sleep_for(std::chrono::milliseconds(1500));
	counters::stop = true;
	a.join();
	b.join();
	std::fprintf(stderr, "iterations: %ld + %ld\n", na, nb);
	if (counters::locked != na + nb || counters::atomic_count != na + nb) {
		std::fprintf(stderr, "e2e: locked=%ld atomic=%ld expected %ld\n",
			     counters::locked, counters::atomic_count.load(),
			     na + nb);
		return 2;
	}
	return 0;
}
