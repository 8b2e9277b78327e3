// RACE: cpp14_lambda_ref.cpp:55 (write) vs cpp14_lambda_ref.cpp:43 (read)
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

struct LogRecord {
    unsigned ts;
    int level;
    std::string msg;
};

static size_t parse_size(const char *s, size_t dflt)
{
    char *end = nullptr;
    unsigned long v = std::strtoul(s, &end, 10);
    if (end == s || *end != '\0' || v == 0 || v > 4096)
        return dflt;
    return v;
}

int main(int argc, char **argv)
{
    static const char *lv[] = { "DEBUG", "INFO", "WARN", "ERROR" };
    std::vector<LogRecord> records;
    for (unsigned i = 0; i < 300; i++)
        records.push_back({ 1700000000u + i, (int)(i * 7 % 4), "request " + std::to_string(i * 31 % 997) + " served" });

    size_t flush_every = 64; // default batch size
    std::vector<std::string> shipped;

    // Shipper: formats records and cuts them into batches.
    std::thread shipper([&] {
        std::string batch;
        size_t pending = 0;
        for (const auto &r : records) {
            char head[48];
            std::snprintf(head, sizeof head, "%u %-5s ", r.ts, lv[r.level]);
            batch += head;
            batch += r.msg;
            batch += '\n';
            if (++pending >= flush_every) {
                shipped.push_back(std::move(batch));
                batch.clear();
                pending = 0;
            }
        }
        if (!batch.empty())
            shipped.push_back(std::move(batch));
    });

    // Meanwhile, finish reading options.
    const char *opt = argc > 1 ? argv[1] : std::getenv("SHIP_BATCH");
    flush_every = parse_size(opt ? opt : "100", 64);

    shipper.join();
    size_t bytes = 0;
    for (const auto &b : shipped)
        bytes += b.size();
    std::printf("shipped %zu records in %zu batches, %zu bytes\n", records.size(), shipped.size(), bytes);
    return 0;
}
