/*
 * d15_lru_touch.cpp -- a read-mostly blob cache guarded by a std::shared_mutex.
 * Lookups take only a shared (reader) lock, which is fine for the map itself,
 * but get() also "touches" the entry by storing the current logical clock in
 * entry.last_used for the LRU evictor.  Several reader threads holding the
 * shared lock at once therefore write the same field concurrently (every page
 * view fetches the shared stylesheet entry).
 * Insertions and eviction take the exclusive lock and happen before and after
 * the readers run.
 *
 * RACE: d15_lru_touch.cpp:40 (write, reader thread holding the shared lock: `it->second.last_used = tick;`) vs d15_lru_touch.cpp:40 (write, another reader thread holding the shared lock: `it->second.last_used = tick;`)
 */
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

class BlobCache {
public:
    void put(const std::string &key, std::string blob)
    {
        std::unique_lock<std::shared_mutex> lk(mu_);
        Entry &e = map_[key];
        e.blob = std::move(blob);
        e.last_used = clock_.fetch_add(1, std::memory_order_relaxed);
    }

    bool get(const std::string &key, std::string &out)
    {
        std::shared_lock<std::shared_mutex> lk(mu_);
        auto it = map_.find(key);
        if (it == map_.end())
            return false;
        std::uint64_t tick = clock_.fetch_add(1, std::memory_order_relaxed);
        it->second.last_used = tick;
        out = it->second.blob;
        return true;
    }

    std::string evict_lru()
    {
        std::unique_lock<std::shared_mutex> lk(mu_);
        auto victim = map_.end();
        for (auto it = map_.begin(); it != map_.end(); ++it)
            if (victim == map_.end() || it->second.last_used < victim->second.last_used)
                victim = it;
        if (victim == map_.end())
            return std::string();
        std::string key = victim->first;
        map_.erase(victim);
        return key;
    }

private:
    struct Entry {
        std::string blob;
        std::uint64_t last_used = 0;
    };
    std::shared_mutex mu_;
    std::unordered_map<std::string, Entry> map_;
    std::atomic<std::uint64_t> clock_{1};
};

struct ReaderResult {
    int hits = 0;
    int misses = 0;
    std::size_t bytes = 0;
};

static void serve_reads(BlobCache &cache, const std::vector<std::string> &keys, ReaderResult &res)
{
    std::string blob;
    for (int round = 0; round < 3; round++) {
        for (const std::string &k : keys) {
            if (cache.get(k, blob)) {
                res.hits++;
                res.bytes += blob.size();
            } else {
                res.misses++;
            }
        }
        std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
}

int main()
{
    BlobCache cache;
    cache.put("avatar/old-logo.png", std::string(300, 'o'));
    cache.put("css/site.css", std::string(1200, 'c'));
    cache.put("js/app.js", std::string(4000, 'j'));
    cache.put("img/hero.jpg", std::string(9000, 'h'));
    cache.put("js/vendor.js", std::string(15000, 'v'));

    // Every page pulls the stylesheet; the other assets differ per page.
    const std::vector<std::string> keys_a = { "css/site.css", "js/app.js" };
    const std::vector<std::string> keys_b = { "img/hero.jpg", "css/site.css", "fonts/inter.woff2" };
    const std::vector<std::string> keys_c = { "css/site.css", "js/vendor.js" };
    ReaderResult ra, rb, rc;

    std::thread ta(serve_reads, std::ref(cache), std::cref(keys_a), std::ref(ra));
    std::thread tb(serve_reads, std::ref(cache), std::cref(keys_b), std::ref(rb));
    std::thread tc(serve_reads, std::ref(cache), std::cref(keys_c), std::ref(rc));
    ta.join();
    tb.join();
    tc.join();

    std::string evicted = cache.evict_lru();
    std::printf("hits %d, misses %d, bytes %zu; evicted %s\n", ra.hits + rb.hits + rc.hits,
                ra.misses + rb.misses + rc.misses, ra.bytes + rb.bytes + rc.bytes,
                evicted.c_str());
    return 0;
}
