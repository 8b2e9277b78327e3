// index_loader_lambda.cpp - search service loading its index in the background.
//
// main() starts a loader thread from a lambda that captures the local
// `total_docs` by reference, then answers an early health probe while the
// index is still loading.  The probe reads the local that the lambda writes,
// with nothing ordering the two.
//
// Racing pair:
//   W :42 total_docs = n inside the loader lambda /
//   R :47 total_docs > 0 check in the health probe in main()
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <thread>
#include <vector>

struct Probe {
    int status;
    const char* body;
};

// answered probes, exported for the admin endpoint
Probe probe_log[8];
std::size_t probes_answered;

static long load_shard(int shard_kb)
{
    // parse postings from disk
    std::this_thread::sleep_for(std::chrono::microseconds(250));
    return shard_kb * 12L;
}

int main()
{
    const std::vector<int> shard_sizes{40, 75, 20, 55};
    long total_docs = 0;

    std::thread loader([&] {
        long n = 0;
        for (int kb : shard_sizes)
            n += load_shard(kb);
        total_docs = n;
    });

    // the orchestrator probes us shortly after start-up
    std::this_thread::sleep_for(std::chrono::microseconds(900));
    if (total_docs > 0)
        probe_log[probes_answered++] = {200, "ready"};
    else
        probe_log[probes_answered++] = {503, "loading"};

    loader.join();
    std::printf("index loaded: %ld docs, %zu probe(s) answered\n", total_docs, probes_answered);
    return 0;
}
