/*
 * d06_nic_stats.c -- a user-space NIC driver keeps per-port counters in a
 * struct port_stats guarded by stats_lock.  The RX thread updates the packet
 * and byte counters under the lock; a reporter thread periodically copies the
 * whole struct under the lock to export a consistent snapshot.  The PHY
 * watcher thread, however, records the negotiated link speed into the same
 * struct without taking stats_lock ("it is just one aligned 32-bit store"),
 * so the reporter's struct copy races with that single-field update.
 *
 * RACE: d06_nic_stats.c:82 (write, PHY watcher thread: `nic->stats.link_mbps = mbps;`) vs d06_nic_stats.c:98 (read, reporter thread copying the struct: `snap = nic->stats;`)
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define RX_PACKETS 400
#define REPORTS 6

struct port_stats {
    uint64_t rx_packets;
    uint64_t rx_bytes;
    uint32_t rx_dropped;
    uint32_t link_mbps;
};

struct nic {
    pthread_mutex_t stats_lock;
    struct port_stats stats;
    unsigned mtu;
};

struct report_summary {
    int reports;
    uint64_t max_rx_seen;
};

static void sleep_us(long us)
{
    struct timespec ts = { 0, us * 1000L };
    nanosleep(&ts, NULL);
}

static unsigned frame_len(unsigned i, unsigned mtu)
{
    return 64 + (i * 37) % (mtu - 64 + 1);
}

static void *rx_main(void *arg)
{
    struct nic *nic = arg;

    for (unsigned i = 0; i < RX_PACKETS; i++) {
        unsigned len = frame_len(i, nic->mtu);
        pthread_mutex_lock(&nic->stats_lock);
        if (len > 1400)
            nic->stats.rx_dropped++;
        else {
            nic->stats.rx_packets++;
            nic->stats.rx_bytes += len;
        }
        pthread_mutex_unlock(&nic->stats_lock);
        if (i % 50 == 49)
            sleep_us(100);
    }
    return NULL;
}

static uint32_t negotiate_link(void)
{
    sleep_us(250);          /* autonegotiation takes a moment */
    return 1000;
}

static void *phy_watch_main(void *arg)
{
    struct nic *nic = arg;
    uint32_t mbps = negotiate_link();

    nic->stats.link_mbps = mbps;
    return NULL;
}

static void *reporter_main(void *arg)
{
    struct nic *nic = arg;
    struct report_summary *sum = malloc(sizeof(*sum));
    struct port_stats snap;

    if (sum == NULL)
        return NULL;
    sum->reports = 0;
    sum->max_rx_seen = 0;
    for (int i = 0; i < REPORTS; i++) {
        pthread_mutex_lock(&nic->stats_lock);
        snap = nic->stats;
        pthread_mutex_unlock(&nic->stats_lock);
        if (snap.rx_packets + snap.rx_dropped > sum->max_rx_seen)
            sum->max_rx_seen = snap.rx_packets + snap.rx_dropped;
        if (snap.link_mbps != 0 && snap.link_mbps != 10 && snap.link_mbps != 100 &&
            snap.link_mbps != 1000)
            fprintf(stderr, "bogus link speed %u\n", (unsigned)snap.link_mbps);
        sum->reports++;
        sleep_us(150);
    }
    return sum;
}

int main(void)
{
    struct nic *nic = calloc(1, sizeof(*nic));
    pthread_t rx, phy, rep;
    void *ret;

    if (nic == NULL)
        return 1;
    pthread_mutex_init(&nic->stats_lock, NULL);
    nic->mtu = 1500;
    pthread_create(&rx, NULL, rx_main, nic);
    pthread_create(&phy, NULL, phy_watch_main, nic);
    pthread_create(&rep, NULL, reporter_main, nic);
    pthread_join(rx, NULL);
    pthread_join(phy, NULL);
    pthread_join(rep, &ret);

    struct report_summary *sum = ret;
    printf("port0: link %u Mb/s, rx %llu pkts / %llu bytes, %u dropped; %d reports, %s\n",
           (unsigned)nic->stats.link_mbps, (unsigned long long)nic->stats.rx_packets,
           (unsigned long long)nic->stats.rx_bytes, (unsigned)nic->stats.rx_dropped,
           sum ? sum->reports : 0,
           sum && sum->max_rx_seen <= RX_PACKETS ? "snapshots consistent" : "snapshot error");
    free(sum);
    pthread_mutex_destroy(&nic->stats_lock);
    free(nic);
    return 0;
}
