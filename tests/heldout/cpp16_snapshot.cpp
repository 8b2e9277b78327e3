// RACE: cpp16_snapshot.cpp:30 (write) vs cpp16_snapshot.cpp:38 (read)
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

struct LinkState {
    uint32_t speed_mbps;
    uint32_t mtu;
    uint16_t flags;
    uint16_t duplex;
    uint32_t ifindex;
};

class LinkMonitor {
public:
    // Called from the netlink thread.
    bool apply(const std::string &event)
    {
        if (event.compare(0, 6, "speed=") != 0)
            return false;
        uint32_t v = (uint32_t)std::strtoul(event.c_str() + 6, nullptr, 10);
        if (v == 0)
            return false;
        std::lock_guard<std::mutex> lk(mu_);
        state_.speed_mbps = v;
        events_++;
        return true;
    }

    // Small POD, copied without the lock.
    LinkState snapshot() const
    {
        return state_;
    }

    unsigned events() const
    {
        std::lock_guard<std::mutex> lk(mu_);
        return events_;
    }

private:
    mutable std::mutex mu_;
    LinkState state_{ 1000, 1500, 0x1043, 1, 3 };
    unsigned events_ = 0;
};

int main()
{
    LinkMonitor mon;
    std::vector<std::string> report;

    std::thread netlink([&mon] {
        static const char *script[] = { "carrier=down", "speed=2500", "speed=10000", "speed=25000" };
        for (const char *ev : script) {
            std::this_thread::sleep_for(std::chrono::microseconds(300));
            mon.apply(ev);
        }
    });

    std::thread reporter([&mon, &report] {
        for (int i = 0; i < 6; i++) {
            std::this_thread::sleep_for(std::chrono::microseconds(250));
            LinkState s = mon.snapshot();
            char line[96];
            std::snprintf(line, sizeof line, "if%u: %s mtu %u speed %uMb/s %s-duplex", s.ifindex,
                          (s.flags & 0x1) ? "UP" : "DOWN", s.mtu, s.speed_mbps,
                          s.duplex ? "full" : "half");
            report.push_back(line);
        }
    });

    netlink.join();
    reporter.join();
    for (const auto &l : report)
        std::puts(l.c_str());
    std::printf("%u link events applied\n", mon.events());
    return 0;
}
