// latency_analyzer.cpp -- lambda captures a local by reference.
//
// The request-latency analyzer is started on a std::thread with a [&]
// lambda so it can see the samples and the SLO threshold.  The creator
// then goes on to tune the threshold from the samples' median -- the
// lambda reads the same local through its reference capture.
//
// RACE: latency_analyzer.cpp:39 (write, main: `slo_ms = ...;` after the
//       thread was started) vs latency_analyzer.cpp:27 (read, lambda:
//       `const int limit_ms = slo_ms;`)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

int main()
{
    std::vector<int> samples;
    for (int i = 0; i < 2000; i++)
        samples.push_back(5 + (i * 7919) % 97);

    int slo_ms = 50;
    int slow_requests = 0;

    std::thread analyzer([&] {
        const int limit_ms = slo_ms;
        int slow = 0;
        for (int ms : samples) {
            if (ms > limit_ms)
                slow++;
        }
        std::this_thread::sleep_for(std::chrono::microseconds(300));
        slow_requests = slow;
    });

    std::vector<int> sorted(samples);
    std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
    slo_ms = sorted[sorted.size() / 2] * 2;

    analyzer.join();
    std::printf("%d of %zu requests slower than the SLO\n", slow_requests, samples.size());
    return 0;
}
