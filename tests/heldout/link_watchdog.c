/* RACE: link_watchdog.c:47 (write, rx thread: `g_last_rx_us = now_us()`) vs link_watchdog.c:58 (read, watchdog thread: `long last = g_last_rx_us`) */
/*
 * A serial-link daemon: the rx thread stamps the time of every frame it
 * receives; a watchdog wakes up every millisecond and declares the link
 * stalled if nothing arrived for too long.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#define NFRAMES      40
#define STALL_US  50000

static long g_last_rx_us;                   /* time of the last good frame */
static atomic_bool g_rx_exited;

static long now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000L + ts.tv_nsec / 1000;
}

static void sleep_us(long us)
{
    struct timespec ts = { 0, us * 1000 };
    nanosleep(&ts, NULL);
}

static int read_frame(unsigned char *buf, int n, int seq)
{
    sleep_us(250);                          /* waiting on the UART */
    for (int i = 0; i < n; i++)
        buf[i] = (unsigned char)(seq + i);
    return n;
}

static void *rx_thread(void *arg)
{
    unsigned *bytes = arg;
    unsigned char frame[64];

    for (int seq = 0; seq < NFRAMES; seq++) {
        *bytes += (unsigned)read_frame(frame, sizeof frame, seq);
        g_last_rx_us = now_us();
    }
    atomic_store(&g_rx_exited, 1);
    return NULL;
}

static void *watchdog_thread(void *arg)
{
    int *stalls = arg;
    while (!atomic_load(&g_rx_exited)) {
        sleep_us(1000);
        long last = g_last_rx_us;
        if (now_us() - last > STALL_US)
            (*stalls)++;
    }
    return NULL;
}

int main(void)
{
    pthread_t rx, wd;
    unsigned bytes = 0;
    int stalls = 0;

    g_last_rx_us = now_us();
    pthread_create(&wd, NULL, watchdog_thread, &stalls);
    pthread_create(&rx, NULL, rx_thread, &bytes);
    pthread_join(rx, NULL);
    pthread_join(wd, NULL);

    printf("link: %u bytes in %d frames, %s\n", bytes, NFRAMES,
           stalls ? "stalled" : "healthy");
    return 0;
}
