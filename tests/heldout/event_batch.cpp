// Audit events are appended by the request path and shipped in batches by
// a shipper thread, which wakes up on the first event and then decides
// whether a batch is worth sending yet.
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

struct Event {
    int user;
    std::string action;
};

class EventLog {
public:
    void append(int user, const char *action) {
        std::lock_guard<std::mutex> g(mu_);
        events_.push_back(Event{user, action});
        cv_.notify_one();
    }

    void wait_nonempty() {
        std::unique_lock<std::mutex> lk(mu_);
        cv_.wait(lk, [this] { return !events_.empty(); });
    }

    std::size_t pending() const { return events_.size(); }

    std::vector<Event> take() {
        std::lock_guard<std::mutex> g(mu_);
        std::vector<Event> out;
        out.swap(events_);
        return out;
    }

private:
    std::mutex mu_;
    std::condition_variable cv_;
    std::vector<Event> events_;
};

int main() {
    EventLog log;
    std::size_t shipped = 0;

    std::thread shipper([&] {
        log.wait_nonempty();
        for (int tries = 0; tries < 5; ++tries) {
            if (log.pending() >= 4)
                break;
            std::this_thread::sleep_for(std::chrono::microseconds(300));
        }
        shipped += log.take().size();
    });

    std::thread requests([&] {
        static const char *actions[] = {"login", "read", "write", "read", "write", "logout"};
        for (int i = 0; i < 6; ++i) {
            log.append(1000 + i % 2, actions[i]);
            std::this_thread::sleep_for(std::chrono::microseconds(250));
        }
    });

    requests.join();
    shipper.join();
    shipped += log.take().size();
    std::printf("shipped %zu events\n", shipped);
    return 0;
}
