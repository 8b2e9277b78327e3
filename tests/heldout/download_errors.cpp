/* RACE: download_errors.cpp:30 (write, download worker thread: `last_error_ = code`) vs download_errors.cpp:38 (read, health monitor thread: `return last_error_`) */
// A mirror-sync tool: download workers pull URLs from a locked queue and
// record the most recent failure code in last_error_ so a health monitor
// can surface it.  The monitor polls it every millisecond.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

class Downloader {
public:
    explicit Downloader(std::vector<std::string> urls) : queue_(urls.begin(), urls.end()) {}

    void worker() {
        for (;;) {
            std::string url;
            {
                std::lock_guard<std::mutex> g(m_);
                if (queue_.empty())
                    return;
                url = queue_.front();
                queue_.pop_front();
            }
            int code = fetch(url);
            if (code != 200) {
                last_error_ = code;
            } else {
                std::lock_guard<std::mutex> g(m_);
                ++ok_;
            }
        }
    }

    int last_error() const { return last_error_; }
    int ok() {
        std::lock_guard<std::mutex> g(m_);
        return ok_;
    }

private:
    static int fetch(const std::string& url) {
        std::this_thread::sleep_for(std::chrono::microseconds(300));  // network
        return url.find("/missing/") != std::string::npos ? 404 : 200;
    }

    std::mutex m_;
    std::deque<std::string> queue_;         // guarded by m_
    int ok_ = 0;                            // guarded by m_
    int last_error_ = 0;                    // most recent HTTP failure
};

int main() {
    std::vector<std::string> urls;
    for (int i = 0; i < 24; ++i)
        urls.push_back("https://mirror.example.org/pkgs/pkg-" + std::to_string(i) + ".tar.gz");
    urls[13] = "https://mirror.example.org/missing/pkg-13.tar.gz";

    Downloader dl(std::move(urls));
    std::atomic<bool> done{false};
    int alerts = 0;

    std::thread monitor([&] {
        int reported = 0;
        while (!done.load()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
            int err = dl.last_error();
            if (err != 0 && err != reported) {
                reported = err;             // would page someone
                ++alerts;
            }
        }
    });

    std::vector<std::thread> workers;
    for (int i = 0; i < 3; ++i)
        workers.emplace_back([&dl] { dl.worker(); });
    for (auto& w : workers)
        w.join();
    done.store(true);
    monitor.join();

    std::printf("downloaded %d/24 packages, last error %d\n", dl.ok(), dl.last_error());
    return 0;
}
