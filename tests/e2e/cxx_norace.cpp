// C++ without races: shared_ptr copies across threads (atomic reference
// counts in inlined library code), a function-local static initialized
// concurrently, std::call_once, a mutex-protected vector and string, a
// condition_variable hand-off and std::atomic flags, all under skip_watch=0.
//
// OPTIONS: skip_watch=0 udelay_task=5 print_stats=1
// EXPECT: ^UCSAN: stats: setup_watchpoints: [1-9][0-9]{3,}$
// NOT: BUG|UCSAN: reported

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

struct Config {
	int value = 42;
	std::string name = "config";
};

static std::shared_ptr<Config> global_config = std::make_shared<Config>();
static std::mutex mu;
static std::vector<int> items;
static std::string log_text;
static std::once_flag once;
static int once_count;
static std::atomic<bool> stop{false};

static std::condition_variable cv;
static std::mutex cv_mu;
static int mailbox;          // guarded by cv_mu
static bool full;            // guarded by cv_mu

static const Config &instance()
{
	static Config config;    // thread-safe initialization
	return config;
}

static void check(bool ok, const char *what)
{
	if (!ok) {
		std::fprintf(stderr, "e2e: check failed: %s\n", what);
		std::exit(2);
	}
}

static void worker(int id, long *rounds)
{
	long n = 0;

	while (!stop.load(std::memory_order_relaxed) || n < 1000) {
		std::shared_ptr<Config> copy = global_config;   // refcount++
		check(copy->value == 42, "shared config");
		check(instance().value == 42, "static local");
		std::call_once(once, [] { once_count++; });
		{
			std::lock_guard<std::mutex> guard(mu);
			items.push_back(id);
			log_text += static_cast<char>('a' + id);
			if (items.size() > 1000) {
				items.clear();
				log_text.clear();
			}
		}
		n++;
	}
	*rounds = n;
}

static void producer(int count)
{
	for (int i = 1; i <= count; i++) {
		std::unique_lock<std::mutex> lock(cv_mu);
		cv.wait(lock, [] { return !full; });
		mailbox = i;
		full = true;
		cv.notify_one();
	}
}

static void consumer(int count)
{
	for (int i = 1; i <= count; i++) {
		std::unique_lock<std::mutex> lock(cv_mu);
		cv.wait(lock, [] { return full; });
		check(mailbox == i, "mailbox order");
		full = false;
		cv.notify_one();
	}
}

int main()
{
	long ra = 0, rb = 0;
	std::thread a(worker, 0, &ra), b(worker, 1, &rb);
	std::thread p(producer, 20000), c(consumer, 20000);

	std::this_thread::sleep_for(std::chrono::milliseconds(1000));
	stop = true;
	a.join();
	b.join();
	p.join();
	c.join();
	check(once_count == 1, "call_once ran once");
	check(global_config.use_count() == 1, "reference count back to 1");
	std::fprintf(stderr, "rounds: %ld + %ld\n", ra, rb);
	return 0;
}
