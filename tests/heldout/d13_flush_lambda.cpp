/*
 * d13_flush_lambda.cpp -- a storage engine checkpoint: checkpoint() flushes the
 * write-ahead journal on a helper std::thread while it compacts the in-memory
 * index on the calling thread.  The helper is a lambda that captures the
 * local `flushed` by reference and stores the flush result into it.  The
 * caller checks `flushed` right after compaction, but only joins the helper
 * later, after updating its counters, so the check races with the store.
 *
 * RACE: d13_flush_lambda.cpp:72 (write, journal-flush std::thread running the lambda: `flushed = journal.flush();`) vs d13_flush_lambda.cpp:75 (read, main thread in checkpoint(), before join(): `if (!flushed) {`)
 */
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <thread>
#include <vector>

class Journal {
public:
    void append(std::string rec) { pending_.push_back(std::move(rec)); }

    bool flush()
    {
        for (const std::string &rec : pending_) {
            for (char ch : rec)
                crc_ = (crc_ >> 1) ^ (((crc_ ^ static_cast<unsigned char>(ch)) & 1u) ? 0xEDB88320u : 0u);
            durable_bytes_ += rec.size() + 1;
        }
        pending_.clear();
        return true;
    }

    std::size_t durable_bytes() const { return durable_bytes_; }
    std::uint32_t crc() const { return crc_; }

private:
    std::vector<std::string> pending_;
    std::size_t durable_bytes_ = 0;
    std::uint32_t crc_ = 0xFFFFFFFFu;
};

class Index {
public:
    void put(const std::string &k, int v) { map_[k] = v; }
    void erase(const std::string &k) { tombstones_.push_back(k); }

    std::size_t compact()
    {
        std::size_t removed = 0;
        for (const std::string &k : tombstones_)
            removed += map_.erase(k);
        tombstones_.clear();
        return removed;
    }

    std::size_t size() const { return map_.size(); }

private:
    std::map<std::string, int> map_;
    std::vector<std::string> tombstones_;
};

struct CheckpointStats {
    int checkpoints = 0;
    int failed_flushes = 0;
    std::size_t compacted = 0;
};

static void checkpoint(Journal &journal, Index &index, CheckpointStats &stats)
{
    bool flushed = true;
    std::thread flusher([&] { flushed = journal.flush(); });

    std::size_t removed = index.compact();
    if (!flushed) {
        // Retry on the next checkpoint; the journal keeps the records.
        stats.failed_flushes++;
    }
    stats.compacted += removed;
    stats.checkpoints++;
    flusher.join();
}

int main()
{
    Journal journal;
    Index index;
    CheckpointStats stats;

    for (int i = 0; i < 200; i++) {
        std::string key = "user:" + std::to_string(i);
        index.put(key, i * 7);
        journal.append("PUT " + key + " " + std::to_string(i * 7));
        if (i % 5 == 0) {
            index.erase(key);
            journal.append("DEL " + key);
        }
    }
    checkpoint(journal, index, stats);
    std::printf("checkpoints: %d (%d flush failures); %zu journal bytes durable (crc %08x), "
                "%zu keys live, %zu compacted\n",
                stats.checkpoints, stats.failed_flushes, journal.durable_bytes(),
                static_cast<unsigned>(journal.crc()), index.size(), stats.compacted);
    return 0;
}
