/* link_stats_snapshot.c -- struct snapshot vs. a field updated off-lock.
 *
 * The receive thread bumps the packet/byte counters under stats_lock, but
 * stamps last_rx_usec after releasing it ("it's just a timestamp").  The
 * reporter thread periodically takes stats_lock and copies the whole struct
 * to compute a rate.
 *
 * RACE: link_stats_snapshot.c:49 (write, rx thread:
 *       `stats.last_rx_usec = now_usec();`) vs link_stats_snapshot.c:62
 *       (read, reporter: struct copy `struct link_stats snap = stats;`)
 */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

struct link_stats {
    unsigned long rx_packets;
    unsigned long rx_bytes;
    unsigned long rx_dropped;
    long long last_rx_usec;
};

static struct link_stats stats;
static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int link_down;

static long long now_usec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static void *rx_thread(void *arg)
{
    (void)arg;
    for (int pkt = 0; pkt < 25; pkt++) {
        usleep(250);                   /* wait for the NIC */
        unsigned len = 60 + (pkt * 37) % 1400;
        pthread_mutex_lock(&stats_lock);
        stats.rx_packets++;
        stats.rx_bytes += len;
        if (len > 900)
            stats.rx_dropped++;
        pthread_mutex_unlock(&stats_lock);
        stats.last_rx_usec = now_usec();
    }
    atomic_store(&link_down, 1);
    return NULL;
}

static void *reporter_thread(void *arg)
{
    double *best_rate = arg;
    long long t0 = now_usec();
    while (!atomic_load(&link_down)) {
        usleep(2000);
        pthread_mutex_lock(&stats_lock);
        struct link_stats snap = stats;
        pthread_mutex_unlock(&stats_lock);
        long long span = snap.last_rx_usec - t0;
        if (span > 0) {
            double rate = snap.rx_bytes * 1e6 / (double)span;
            if (rate > *best_rate)
                *best_rate = rate;
        }
    }
    return NULL;
}

int main(void)
{
    pthread_t rx, rep;
    double best_rate = 0;

    pthread_create(&rx, NULL, rx_thread, NULL);
    pthread_create(&rep, NULL, reporter_thread, &best_rate);
    pthread_join(rx, NULL);
    pthread_join(rep, NULL);

    printf("rx %lu packets, %lu dropped, peak rate %s\n", stats.rx_packets,
           stats.rx_dropped, best_rate > 0 ? "measured" : "n/a");
    return 0;
}
