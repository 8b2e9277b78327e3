// upstream_failover.cpp - API gateway switching to its backup upstream.
//
// Both upstream descriptions are built before any thread starts; failing
// over only swaps which one `active_` points at.  The pointer is a plain
// member: the health thread stores it while the request thread loads it
// for every request.
//
// Racing pair:
//   W :39 active_ = &backup_ in Router::fail_over() /
//   R :32 const Upstream* u = active_ in Router::route()
#include <chrono>
#include <cstdio>
#include <thread>

namespace {

struct Upstream {
    const char* host;
    int port;
    int timeout_ms;
};

class Router {
public:
    Router(const Upstream& primary, const Upstream& backup)
        : primary_(primary), backup_(backup), active_(&primary_) {}

    int route(int request_id) const
    {
        // parse headers, check the rate limit
        std::this_thread::sleep_for(std::chrono::microseconds(100));
        const Upstream* u = active_;
        const int timeout_ms = u->timeout_ms;
        // forward the request to u->host with the upstream's timeout
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        return (request_id % 7) + timeout_ms;
    }

    void fail_over() { active_ = &backup_; }

private:
    const Upstream primary_;
    const Upstream backup_;
    const Upstream* active_;
};

}  // namespace

int main()
{
    Router router({"10.1.0.10", 8080, 50}, {"10.1.0.20", 8080, 120});
    long budget = 0;
    int handled = 0;

    std::thread requests([&router, &budget, &handled] {
        for (int id = 1; id <= 5; id++) {
            budget += router.route(id);
            handled++;
        }
    });
    std::thread health([&router] {
        // third probe of the primary times out
        std::this_thread::sleep_for(std::chrono::microseconds(700));
        router.fail_over();
    });

    health.join();
    requests.join();
    std::printf("gateway handled %d requests\n", handled);
    return budget > 0 ? 0 : 1;
}
