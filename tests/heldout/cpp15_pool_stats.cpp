// RACE: cpp15_pool_stats.cpp:59 (write) vs cpp15_pool_stats.cpp:59 (write)
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

class ThreadPool {
public:
    explicit ThreadPool(int n)
    {
        for (int i = 0; i < n; i++)
            workers_.emplace_back([this] { loop(); });
    }

    void submit(std::function<size_t()> task)
    {
        {
            std::lock_guard<std::mutex> lk(mu_);
            queue_.push_back(std::move(task));
        }
        cv_.notify_one();
    }

    void shutdown()
    {
        {
            std::lock_guard<std::mutex> lk(mu_);
            stop_ = true;
        }
        cv_.notify_all();
        for (auto &t : workers_)
            t.join();
        workers_.clear();
    }

    uint64_t tasks_run() const { return tasks_run_; }
    uint64_t bytes_processed() const { return bytes_processed_; }

private:
    void loop()
    {
        for (;;) {
            std::function<size_t()> task;
            {
                std::unique_lock<std::mutex> lk(mu_);
                cv_.wait(lk, [this] { return stop_ || !queue_.empty(); });
                if (queue_.empty())
                    return;
                task = std::move(queue_.front());
                queue_.pop_front();
                tasks_run_++;
            }
            size_t n = task();
            bytes_processed_ += n; // stats only, no need for the lock
        }
    }

    std::mutex mu_;
    std::condition_variable cv_;
    std::deque<std::function<size_t()>> queue_;
    std::vector<std::thread> workers_;
    bool stop_ = false;
    uint64_t tasks_run_ = 0;       // guarded by mu_
    uint64_t bytes_processed_ = 0; // updated by workers
};

static uint64_t fnv64(const unsigned char *p, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

int main()
{
    const int nfiles = 8;
    std::vector<std::vector<unsigned char>> files(nfiles);
    std::vector<uint64_t> digests(nfiles);
    for (int f = 0; f < nfiles; f++) {
        files[f].resize(12000 + 1000 * (size_t)(f % 3));
        for (size_t i = 0; i < files[f].size(); i++)
            files[f][i] = (unsigned char)(i * 131 + (size_t)f * 17);
    }

    ThreadPool pool(2);
    for (int f = 0; f < nfiles; f++) {
        pool.submit([&, f] {
            std::this_thread::sleep_for(std::chrono::microseconds(300)); // fetch from object store
            digests[f] = fnv64(files[f].data(), files[f].size());
            return files[f].size();
        });
    }
    pool.shutdown();

    for (int f = 0; f < nfiles; f++)
        std::printf("chunk-%02d.bin %016llx\n", f, (unsigned long long)digests[f]);
    std::printf("%llu tasks, %llu bytes hashed\n", (unsigned long long)pool.tasks_run(),
                (unsigned long long)pool.bytes_processed());
    return 0;
}
