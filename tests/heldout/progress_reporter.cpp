/* RACE: progress_reporter.cpp:22 (write, indexer thread: `docs_done_ = i + 1`) vs progress_reporter.cpp:33 (read, progress reporter thread: `std::size_t n = docs_done_`) */
// A search-index builder with a progress reporter.  The reporter sleeps on
// a condition variable (timed wait) and wakes every couple of
// milliseconds to sample how many documents were indexed so far.  The
// counter itself is written by the indexer without taking the mutex.
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

class Indexer {
public:
    explicit Indexer(std::vector<std::string> docs) : docs_(std::move(docs)) {}

    void run() {
        for (std::size_t i = 0; i < docs_.size(); ++i) {
            index_one(docs_[i]);
            docs_done_ = i + 1;
        }
        std::lock_guard<std::mutex> g(m_);
        finished_ = true;
        cv_.notify_all();
    }

    void report() {
        std::unique_lock<std::mutex> lk(m_);
        while (!finished_) {
            cv_.wait_for(lk, std::chrono::milliseconds(2));
            std::size_t n = docs_done_;
            if (n > last_reported_)
                last_reported_ = n;         // would print "indexed n/N"
        }
    }

    std::size_t terms() const { return postings_.size(); }
    std::size_t total() const { return docs_.size(); }

private:
    void index_one(const std::string& doc) {
        std::string word;
        for (char c : doc + " ") {
            if (c == ' ') {
                if (!word.empty())
                    postings_[word]++;
                word.clear();
            } else {
                word += c;
            }
        }
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }

    std::vector<std::string> docs_;
    std::map<std::string, int> postings_;   // indexer thread only
    std::size_t docs_done_ = 0;
    std::size_t last_reported_ = 0;         // guarded by m_
    bool finished_ = false;                 // guarded by m_
    std::mutex m_;
    std::condition_variable cv_;
};

int main() {
    std::vector<std::string> docs;
    for (int i = 0; i < 50; ++i)
        docs.push_back("doc" + std::to_string(i % 7) + " the quick brown fox " +
                       std::to_string(i % 11));

    Indexer ix(std::move(docs));
    std::thread reporter([&ix] { ix.report(); });
    std::thread indexer([&ix] { ix.run(); });
    indexer.join();
    reporter.join();

    std::printf("indexed %zu documents, %zu distinct terms\n", ix.total(), ix.terms());
    return 0;
}
