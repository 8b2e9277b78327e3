/*
 * io_readv_frame.c - framed telemetry receiver with a progress reporter.
 *
 * The receiver thread scatters each fixed-size frame with readv(): the
 * header into a local struct, the payload straight into g_rx.payload,
 * which is kept as "last frame" for diagnostics.  A reporter thread
 * prints a hex preview of the last payload every millisecond without
 * any lock, so readv() stores into bytes the reporter is reading.
 *
 * RACE: io_readv_frame.c:53 (write, inside readv()) vs io_readv_frame.c:72 (read, reporter)
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define PAYLOAD 32
#define MAX_FRAMES 4096

struct frame_hdr {
    uint32_t type;
    uint32_t seq;
};

static struct {
    unsigned char payload[PAYLOAD];     /* last frame's payload */
    atomic_uint frames;
    uint32_t last_seq;                  /* receiver-private */
} g_rx;

static int data_pipe[2];
static char g_report[64];               /* reporter's last line, read after join */

static void sleep_us(long us)
{
    struct timespec ts = { 0, us * 1000L };
    nanosleep(&ts, NULL);
}

static void *receiver(void *arg)
{
    struct frame_hdr hdr;
    struct iovec iov[2] = { { &hdr, sizeof hdr }, { g_rx.payload, PAYLOAD } };
    ssize_t n;

    (void)arg;
    for (unsigned i = 0; i < MAX_FRAMES; i++) {
        n = readv(data_pipe[0], iov, 2);
        if (n != (ssize_t)(sizeof hdr + PAYLOAD))
            break;                      /* EOF or short frame */
        g_rx.last_seq = hdr.seq;
        atomic_fetch_add_explicit(&g_rx.frames, 1, memory_order_relaxed);
    }
    return NULL;
}

static void *reporter(void *arg)
{
    static const char hex[] = "0123456789abcdef";
    int nticks = *(const int *)arg;

    for (int tick = 0; tick < nticks; tick++) {
        sleep_us(1000);
        unsigned nf = atomic_load_explicit(&g_rx.frames, memory_order_relaxed);
        int k = snprintf(g_report, sizeof g_report, "frames=%u last=", nf);
        for (int i = 0; i < 8 && k + 2 < (int)sizeof g_report; i++) {
            unsigned char b = g_rx.payload[i];
            g_report[k++] = hex[b >> 4];
            g_report[k++] = hex[b & 15];
        }
        g_report[k] = '\0';
    }
    return NULL;
}

int main(void)
{
    pthread_t rx, rep;
    int nticks = 3;

    if (pipe(data_pipe) != 0)
        return 1;
    pthread_create(&rx, NULL, receiver, NULL);
    pthread_create(&rep, NULL, reporter, &nticks);

    for (uint32_t seq = 1; seq <= 2; seq++) {     /* sensor sends two frames */
        unsigned char frame[sizeof(struct frame_hdr) + PAYLOAD];
        struct frame_hdr h = { 7, seq };
        memcpy(frame, &h, sizeof h);
        for (int i = 0; i < PAYLOAD; i++)
            frame[sizeof h + i] = (unsigned char)(seq * 16 + i);
        if (write(data_pipe[1], frame, sizeof frame) != (ssize_t)sizeof frame)
            return 1;
        sleep_us(800);
    }
    close(data_pipe[1]);

    pthread_join(rx, NULL);
    pthread_join(rep, NULL);
    close(data_pipe[0]);
    printf("received %u frames (last seq %u), report: %s\n",
           atomic_load(&g_rx.frames), g_rx.last_seq, g_report);
    return 0;
}
