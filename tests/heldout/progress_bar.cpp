// progress_bar.cpp -- progress bar thread reads a plain byte counter.
//
// Downloader::run() spawns a std::thread whose lambda captures `this` and
// redraws a progress bar every millisecond from received_ / total_, while
// the calling thread keeps receiving chunks and bumping received_.  The
// completion flag is a std::atomic<bool>; the byte counter is a plain
// size_t member.
//
// RACE: progress_bar.cpp:38 (read+write, main thread:
//       `received_ += n;`) vs progress_bar.cpp:27 (read, progress
//       lambda: `size_t got = received_;`)
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

class Downloader {
public:
    explicit Downloader(size_t total) : total_(total) {}

    int run()
    {
        std::thread progress([this] {
            do {
                size_t got = received_;
                int pct = static_cast<int>(got * 100 / total_);
                bar_ = std::string(static_cast<size_t>(pct / 5), '#');
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            } while (!finished_.load());
        });

        size_t chunk = 4096;
        while (received_ < total_) {
            std::this_thread::sleep_for(std::chrono::microseconds(400));  // recv()
            size_t n = std::min(chunk, total_ - received_);
            received_ += n;
            chunks_++;
        }
        finished_.store(true);
        progress.join();
        return chunks_;
    }

    size_t received() const { return received_; }

private:
    const size_t total_;
    size_t received_ = 0;
    int chunks_ = 0;
    std::string bar_;
    std::atomic<bool> finished_{false};
};

int main()
{
    Downloader dl(40000);
    int chunks = dl.run();
    std::printf("downloaded %zu bytes in %d chunks\n", dl.received(), chunks);
    return 0;
}
