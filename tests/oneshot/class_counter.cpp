// Bug: a member counter incremented outside the class's mutex.  Cache::get()
// looks the key up under mu_, then leaves the critical section before
// counting the hit:
//
//     { std::lock_guard<std::mutex> g(mu_); ... }   hits_++;
//
// Two std::thread workers sharing the cache race on hits_ (and the hit
// rate printed at the end is off).
//
// TRIES: 40
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in Cache::get.* / Cache::get.*$
// EXPECT-FRAME: ^(read|read-write) to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ Cache::get.*\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*class_counter\.cpp:72$
// EXPECT-FRAME: ^(write|read-write) to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ Cache::get.*\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*class_counter\.cpp:72$

#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

#include "oneshot.h"

class Cache {
public:
	bool get(int key, std::string *value);
	void put(int key, const std::string &value);
#ifdef FIXED
	unsigned long hits()
	{
		std::lock_guard<std::mutex> g(mu_);
		return hits_;
	}
	unsigned long misses()
	{
		std::lock_guard<std::mutex> g(mu_);
		return misses_;
	}
#else
	unsigned long hits() const { return hits_; }
	unsigned long misses() const { return misses_; }
#endif

private:
	std::mutex mu_;
	std::unordered_map<int, std::string> map_;
	unsigned long hits_ = 0;
	unsigned long misses_ = 0;
};

void Cache::put(int key, const std::string &value)
{
	std::lock_guard<std::mutex> g(mu_);
	map_[key] = value;
}

NOINLINE bool Cache::get(int key, std::string *value)
{
	{
		std::lock_guard<std::mutex> g(mu_);
		auto it = map_.find(key);
		if (it == map_.end()) {
			misses_++;
			return false;
		}
		*value = it->second;
#ifdef FIXED
		hits_++;
	}
#else
	}
	hits_++;			// racy: outside the lock
#endif
	return true;
}

// Render a user's page, fetching the profile from the cache if possible.
static size_t render_page(Cache &cache, int user)
{
	std::string profile;

	if (!cache.get(user, &profile)) {
		spin_for_us(40);	// load it from the database
		profile = "user-" + std::to_string(user) + ": profile";
		cache.put(user, profile);
	}
	spin_for_us(10);		// render
	return profile.size();
}

int main()
{
	Cache cache;
	size_t bytes[2] = { 0, 0 };
	std::thread workers[2];

	for (int w = 0; w < 2; w++)
		workers[w] = std::thread([&cache, &bytes, w] {
			for (int i = 0; i < 300; i++)
				bytes[w] += render_page(cache, (i * 7 + w) % 50);
		});
	for (auto &t : workers)
		t.join();
	std::printf("%zu bytes, %lu hits, %lu misses\n", bytes[0] + bytes[1],
		    cache.hits(), cache.misses());
	return 0;
}
