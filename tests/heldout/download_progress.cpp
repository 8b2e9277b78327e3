// A chunked download running on its own thread; the UI polls progress().
#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

class Download {
public:
    Download(std::string url, std::size_t chunks, std::size_t chunk_size)
        : url_(std::move(url)), chunks_(chunks), chunk_size_(chunk_size) {}

    ~Download() {
        if (thread_.joinable())
            thread_.join();
    }

    void start() { thread_ = std::thread(&Download::run, this); }
    void wait() { thread_.join(); }

    // Bytes received so far, for the progress bar.
    std::size_t progress() const { return received_; }

    std::size_t size() {
        std::lock_guard<std::mutex> g(lock_);
        return body_.size();
    }

private:
    void run() {
        for (std::size_t i = 0; i < chunks_; ++i) {
            std::this_thread::sleep_for(std::chrono::microseconds(400));  // network
            std::vector<char> chunk(chunk_size_, static_cast<char>('a' + i));
            std::lock_guard<std::mutex> g(lock_);
            body_.insert(body_.end(), chunk.begin(), chunk.end());
            received_ += chunk.size();
        }
    }

    std::string url_;
    std::size_t chunks_, chunk_size_;
    std::thread thread_;
    std::mutex lock_;
    std::vector<char> body_;
    std::size_t received_ = 0;
};

int main() {
    auto d = std::make_unique<Download>("https://example.org/pkg.tar", 4, 2048);
    d->start();

    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::size_t done = d->progress();
    int percent = static_cast<int>(done * 100 / (4 * 2048));
    if (percent > 100)
        return 1;

    d->wait();
    std::printf("downloaded %zu bytes\n", d->size());
    return 0;
}
