/* RACE: prefetch_lambda.cpp:57 (write, main thread: `window = 8`) vs prefetch_lambda.cpp:50 (read, prefetcher thread: `for (int i = 0; i < window; ++i)`) */
// A block reader for a columnar file: a prefetcher thread is started to
// warm the block cache while the caller begins scanning.  The lambda
// captures `window` by reference, and the caller widens the window right
// after it discovers the scan is sequential.
#include <cstdio>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

class BlockCache {
public:
    void put(int id, std::vector<unsigned char> data) {
        std::lock_guard<std::mutex> g(m_);
        blocks_.emplace(id, std::move(data));
    }
    unsigned checksum_of(int id) {
        std::vector<unsigned char> copy;
        {
            std::lock_guard<std::mutex> g(m_);
            auto it = blocks_.find(id);
            if (it != blocks_.end())
                copy = it->second;
        }
        if (copy.empty())
            copy = load(id);
        unsigned h = 0;
        for (unsigned char c : copy)
            h = h * 131 + c;
        return h;
    }
    static std::vector<unsigned char> load(int id) {
        std::vector<unsigned char> v(8192);
        for (size_t i = 0; i < v.size(); ++i)
            v[i] = static_cast<unsigned char>(id * 17 + i);
        return v;
    }

private:
    std::mutex m_;
    std::map<int, std::vector<unsigned char>> blocks_;
};

int main() {
    BlockCache cache;
    int window = 4;                         // blocks to read ahead

    std::thread prefetcher([&] {
        for (int i = 0; i < window; ++i)
            cache.put(i, BlockCache::load(i));
    });

    // The first two reads hit consecutive blocks: switch to "sequential"
    // mode and read further ahead.
    unsigned total = cache.checksum_of(0) ^ cache.checksum_of(1);
    window = 8;
    for (int id = 2; id < 16; ++id)
        total ^= cache.checksum_of(id);

    prefetcher.join();
    std::printf("scanned 16 blocks, digest %08x\n", total);
    return 0;
}
