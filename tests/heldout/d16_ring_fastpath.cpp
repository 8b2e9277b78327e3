/*
 * d16_ring_fastpath.cpp -- a telemetry pipeline: a sampler thread pushes
 * events into a bounded ring buffer and an exporter thread drains it.  Both
 * push() and the slow path of try_pop() run under the ring's mutex, but
 * try_pop() starts with an "is it empty?" check on head_ without the lock to
 * avoid contention while idle.  The sampler's locked store to head_ races
 * with that unlocked load.  (tail_ is only ever written by the exporter, so
 * its unlocked read is not a race.)
 *
 * RACE: d16_ring_fastpath.cpp:35 (write, sampler thread in push() under mu_: `head_ = next;`) vs d16_ring_fastpath.cpp:41 (read, exporter thread in try_pop() without the lock: `if (head_ == tail_)  // cheap idle check`)
 */
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <thread>

struct Event {
    std::uint32_t source;
    std::uint32_t seq;
    std::int64_t value;
};

template <std::size_t N>
class EventRing {
public:
    bool push(const Event &e)
    {
        std::lock_guard<std::mutex> g(mu_);
        std::size_t next = (head_ + 1) % N;
        if (next == tail_)
            return false;  // full
        buf_[head_] = e;
        head_ = next;
        return true;
    }

    bool try_pop(Event &out)
    {
        if (head_ == tail_)  // cheap idle check
            return false;
        std::lock_guard<std::mutex> g(mu_);
        if (head_ == tail_)
            return false;
        out = buf_[tail_];
        tail_ = (tail_ + 1) % N;
        return true;
    }

private:
    std::mutex mu_;
    Event buf_[N];
    std::size_t head_ = 0;  // next slot to fill (producer)
    std::size_t tail_ = 0;  // next slot to drain (consumer)
};

static constexpr int kEvents = 48;

static void sampler(EventRing<16> &ring)
{
    for (int i = 0; i < kEvents; i++) {
        Event e{ static_cast<std::uint32_t>(i % 3), static_cast<std::uint32_t>(i), 1000 + 7 * i };
        while (!ring.push(e))
            std::this_thread::sleep_for(std::chrono::microseconds(50));
        if (i % 8 == 7)
            std::this_thread::sleep_for(std::chrono::microseconds(150));  // next sampling period
    }
}

struct ExportStats {
    int exported = 0;
    std::int64_t sum = 0;
    bool in_order = true;
};

static void exporter(EventRing<16> &ring, ExportStats &st)
{
    std::uint32_t expect = 0;
    Event e;
    while (st.exported < kEvents) {
        if (!ring.try_pop(e)) {
            std::this_thread::sleep_for(std::chrono::microseconds(100));
            continue;
        }
        if (e.seq != expect)
            st.in_order = false;
        expect = e.seq + 1;
        st.sum += e.value;
        st.exported++;
    }
}

int main()
{
    EventRing<16> ring;
    ExportStats st;
    std::thread exp([&] { exporter(ring, st); });
    std::thread smp([&] { sampler(ring); });
    smp.join();
    exp.join();
    std::printf("exported %d events, sum %lld, %s\n", st.exported, static_cast<long long>(st.sum),
                st.in_order ? "in order" : "OUT OF ORDER");
    return 0;
}
