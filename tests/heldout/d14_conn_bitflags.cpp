/*
 * d14_conn_bitflags.cpp -- a proxied connection is serviced by a reader thread
 * (drains the inbound stream) and a writer thread (pushes the outbound queue),
 * each with its own mutex: rx_mu_ guards the receive side, tx_mu_ the send
 * side.  The two end-of-stream flags are packed as adjacent bit-fields, so
 * they share one memory location: setting rx_eof_ under rx_mu_ and tx_done_
 * under tx_mu_ are two unsynchronised read-modify-writes of the same byte.
 *
 * RACE: d14_conn_bitflags.cpp:53 (read-modify-write, reader thread under rx_mu_: `rx_eof_ = 1;`) vs d14_conn_bitflags.cpp:59 (read-modify-write, writer thread under tx_mu_: `tx_done_ = 1;`)
 */
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

class ProxyConnection {
public:
    ProxyConnection(std::vector<std::string> inbound, std::vector<std::string> outbound)
        : inbound_(std::move(inbound)), outbound_(std::move(outbound)),
          rx_eof_(0), tx_done_(0) {}

    void pump_rx()
    {
        for (const std::string &chunk : inbound_) {
            std::lock_guard<std::mutex> g(rx_mu_);
            rx_bytes_ += chunk.size();
        }
        std::this_thread::sleep_for(std::chrono::microseconds(200));  // peer FIN
        mark_rx_eof();
    }

    void pump_tx()
    {
        for (const std::string &chunk : outbound_) {
            std::lock_guard<std::mutex> g(tx_mu_);
            tx_bytes_ += chunk.size();
            std::this_thread::sleep_for(std::chrono::microseconds(50));  // socket write
        }
        mark_tx_done();
    }

    bool fully_closed() const { return rx_eof_ && tx_done_; }
    std::size_t rx_bytes() const { return rx_bytes_; }
    std::size_t tx_bytes() const { return tx_bytes_; }

private:
    void mark_rx_eof()
    {
        std::lock_guard<std::mutex> g(rx_mu_);
        rx_eof_ = 1;
    }

    void mark_tx_done()
    {
        std::lock_guard<std::mutex> g(tx_mu_);
        tx_done_ = 1;
    }

    std::vector<std::string> inbound_;
    std::vector<std::string> outbound_;
    std::mutex rx_mu_;              // guards rx_bytes_, rx_eof_
    std::mutex tx_mu_;              // guards tx_bytes_, tx_done_
    std::size_t rx_bytes_ = 0;
    std::size_t tx_bytes_ = 0;
    unsigned rx_eof_ : 1;
    unsigned tx_done_ : 1;
};

int main()
{
    std::vector<std::string> in, out;
    for (int i = 0; i < 6; i++) {
        in.push_back("GET /chunk/" + std::to_string(i) + " HTTP/1.1\r\nHost: backend\r\n\r\n");
        out.push_back("HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(100 * i) + "\r\n\r\n");
    }
    ProxyConnection conn(std::move(in), std::move(out));

    std::thread reader([&conn] { conn.pump_rx(); });
    std::thread writer([&conn] { conn.pump_tx(); });
    reader.join();
    writer.join();
    std::printf("proxied %zu bytes in, %zu bytes out, fully closed: %s\n", conn.rx_bytes(),
                conn.tx_bytes(), conn.fully_closed() ? "yes" : "no");
    return 0;
}
