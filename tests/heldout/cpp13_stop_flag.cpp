// RACE: cpp13_stop_flag.cpp:19 (write) vs cpp13_stop_flag.cpp:39 (read)
#include <chrono>
#include <cstdio>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

// Aggregates "metric value" lines pushed by collectors.
class MetricsPoller {
public:
    void start() { th_ = std::thread([this] { run(); }); }

    void stop()
    {
        running_ = false;
        th_.join();
    }

    void push(std::string line)
    {
        std::lock_guard<std::mutex> lk(mu_);
        inbox_.push_back(std::move(line));
    }

    void dump() const
    {
        for (const auto &kv : sums_)
            std::printf("%-20s n=%-3u sum=%.2f\n", kv.first.c_str(), kv.second.first, kv.second.second);
        std::printf("%u malformed lines\n", malformed_);
    }

private:
    void run()
    {
        while (running_) {
            drain();
            std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
        drain();
    }

    void drain()
    {
        std::deque<std::string> batch;
        {
            std::lock_guard<std::mutex> lk(mu_);
            batch.swap(inbox_);
        }
        for (const auto &line : batch) {
            auto sp = line.find(' ');
            if (sp == std::string::npos || sp == 0) {
                malformed_++;
                continue;
            }
            char *end = nullptr;
            double v = std::strtod(line.c_str() + sp + 1, &end);
            if (end == line.c_str() + sp + 1) {
                malformed_++;
                continue;
            }
            auto &slot = sums_[line.substr(0, sp)];
            slot.first++;
            slot.second += v;
        }
    }

    bool running_ = true;
    std::thread th_;
    std::mutex mu_;
    std::deque<std::string> inbox_;
    std::map<std::string, std::pair<unsigned, double>> sums_;
    unsigned malformed_ = 0;
};

int main()
{
    static const char *names[] = { "cpu.user", "cpu.sys", "mem.rss_mb", "net.rx_kbps", "disk.iops" };
    auto poller = std::make_unique<MetricsPoller>();
    poller->start();

    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 5; i++) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%s %d.%d", names[i], (round + 1) * (i + 3), round * 7 % 10);
            poller->push(buf);
        }
        if (round == 1)
            poller->push("garbage-without-value");
        std::this_thread::sleep_for(std::chrono::microseconds(300));
    }
    poller->stop();
    poller->dump();
    return 0;
}
