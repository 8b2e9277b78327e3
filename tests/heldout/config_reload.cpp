/* RACE: config_reload.cpp:30 (write, reloader thread: `cfg_.timeout_ms = next.timeout_ms`) vs config_reload.cpp:41 (read, request handler thread: `int timeout = cfg_.timeout_ms`) */
// An HTTP gateway with hot config reload.  A reloader thread sleeps until
// it is poked (like a SIGHUP handler would), then swaps in the new
// settings under cfg_m_.  Handlers read the upstream name under the lock
// but treat the int timeout as "safe to read" and skip it.
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

struct Config {
    int timeout_ms;
    std::string upstream;
};

class Gateway {
public:
    Gateway() { cfg_.timeout_ms = 1000; cfg_.upstream = "api-v1.internal"; }

    void reloader() {
        std::unique_lock<std::mutex> lk(poke_m_);
        poke_cv_.wait(lk, [this] { return poked_; });
        lk.unlock();

        Config next{2500, "api-v2.internal"};   // "re-read gateway.conf"
        std::lock_guard<std::mutex> g(cfg_m_);
        cfg_.timeout_ms = next.timeout_ms;
        cfg_.upstream = next.upstream;
    }

    void poke() {
        std::lock_guard<std::mutex> g(poke_m_);
        poked_ = true;
        poke_cv_.notify_one();
    }

    long handle(int req) {
        int timeout = cfg_.timeout_ms;
        std::this_thread::sleep_for(std::chrono::microseconds(100));  // proxy
        std::string up;
        {
            std::lock_guard<std::mutex> g(cfg_m_);
            up = cfg_.upstream;
        }
        return static_cast<long>(up.size()) * req + (timeout > 0 ? 1 : 0);
    }

    std::string upstream() {
        std::lock_guard<std::mutex> g(cfg_m_);
        return cfg_.upstream;
    }

private:
    std::mutex cfg_m_;
    Config cfg_;                            // guarded by cfg_m_
    std::mutex poke_m_;
    std::condition_variable poke_cv_;
    bool poked_ = false;                    // guarded by poke_m_
};

int main() {
    Gateway gw;
    std::vector<long> served(2, 0);
    std::thread reload([&gw] { gw.reloader(); });
    std::vector<std::thread> handlers;
    for (int h = 0; h < 2; ++h)
        handlers.emplace_back([&gw, &served, h] {
            for (int req = 0; req < 40; ++req)
                served[h] += gw.handle(req) > 0;
        });

    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    gw.poke();                              // operator edited the config

    for (auto& t : handlers)
        t.join();
    reload.join();
    std::printf("served %ld requests, now routing to %s\n", served[0] + served[1],
                gw.upstream().c_str());
    return 0;
}
