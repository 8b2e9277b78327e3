// C++: the raced-on block comes from new[], so its allocation stack starts
// at the caller of operator new (the C++ runtime's frames are left out), and
// the threads come from std::thread, so their creation stacks run through the
// C++ runtime down to the line in main that constructed them.
//
// OPTIONS: halt_on_error=1 skip_watch=0
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in reader\(\) / writer\(\)$
// EXPECT: ^location: heap block of size 64 at \+0x10, allocated by thread [0-9]+ at:$
// EXPECT-FRAME: ^location: heap block => ^ main\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*location_heap_new\.cpp:42$
// EXPECT-FRAME: ^thread [0-9]+ "writer-1" \((running|finished)\) created by thread [0-9]+ at:$ => ^ std::thread::_M_start_thread
// EXPECT: ^ main\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*location_heap_new\.cpp:43$
// NOT: operator new

#include <atomic>
#include <chrono>
#include <pthread.h>
#include <thread>

static std::atomic<bool> stop{false};
static long *volatile target; /* reloaded each time: the loops stay loops */
std::atomic<long> sink; /* external: keeps the reader's loads alive */

__attribute__((noinline)) static void writer()
{
	pthread_setname_np(pthread_self(), "writer-1");
	while (!stop.load(std::memory_order_relaxed))
		(*target)++;
}

__attribute__((noinline)) static void reader()
{
	long sum = 0;
	while (!stop.load(std::memory_order_relaxed))
		sum += *target;
	sink.store(sum, std::memory_order_relaxed);
}

int main()
{
	target = new long[8] + 2;
	std::thread a(writer), b(reader);
	const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
	while (std::chrono::steady_clock::now() < end)
		std::this_thread::sleep_for(std::chrono::milliseconds(10));
	stop = true;
	a.join();
	b.join();
	delete[] (target - 2);
	return 0;
}
