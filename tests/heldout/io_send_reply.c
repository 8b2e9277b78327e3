/*
 * io_send_reply.c - status endpoint of a worker-pool server.
 *
 * A sampler thread refreshes the live status block g_status every
 * millisecond.  The control thread answers STATUS requests by sendmsg()ing
 * a reply header followed directly by g_status - without taking a
 * snapshot under a lock.  sendmsg() reads g_status while the sampler
 * stores into it, with nothing ordering the two.
 *
 * RACE: io_send_reply.c:67 (read, inside sendmsg()) vs io_send_reply.c:48 (write, stats_sampler)
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

struct status_block {
    uint32_t workers;
    uint32_t queue_depth;
    uint64_t started_ns;
};

struct reply_hdr {
    uint32_t magic;
    uint32_t len;
};

static struct status_block g_status;    /* live, refreshed by the sampler */
static int ctl_fd;                      /* server end of the control socket */

static void sleep_us(long us)
{
    struct timespec ts = { 0, us * 1000L };
    nanosleep(&ts, NULL);
}

static void *stats_sampler(void *arg)
{
    const unsigned *depths = arg;       /* pretend queue-length probe */

    for (int tick = 0; tick < 4; tick++) {
        sleep_us(1000);
        g_status.queue_depth = depths[tick];
    }
    return NULL;
}

static void *control_thread(void *arg)
{
    char req[32];
    ssize_t n;

    (void)arg;
    while ((n = recv(ctl_fd, req, sizeof req, 0)) > 0) {
        struct reply_hdr hdr = { 0x53544154u, sizeof g_status };
        struct iovec iov[2] = { { &hdr, sizeof hdr },
                                { &g_status, sizeof g_status } };
        struct msghdr msg;
        memset(&msg, 0, sizeof msg);
        msg.msg_iov = iov;
        msg.msg_iovlen = 2;
        if (sendmsg(ctl_fd, &msg, 0) < 0)
            break;
    }
    return NULL;
}

int main(void)
{
    static const unsigned depths[4] = { 3, 7, 2, 0 };
    struct { struct reply_hdr h; struct status_block s; } rep;
    pthread_t smp, ctl;
    int sv[2];

    if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) != 0)
        return 1;
    ctl_fd = sv[0];
    g_status.workers = 4;
    g_status.started_ns = 1000000000ull;
    pthread_create(&smp, NULL, stats_sampler, (void *)depths);
    pthread_create(&ctl, NULL, control_thread, NULL);

    /* monitoring client: poll STATUS twice */
    for (int i = 0; i < 2; i++) {
        sleep_us(700);
        send(sv[1], "STATUS", 6, 0);
        if (recv(sv[1], &rep, sizeof rep, 0) != (ssize_t)sizeof rep)
            return 1;
    }
    shutdown(sv[1], SHUT_WR);

    pthread_join(ctl, NULL);
    pthread_join(smp, NULL);
    close(sv[0]);
    close(sv[1]);
    printf("status: workers=%u queue_depth=%u\n", rep.s.workers, rep.s.queue_depth);
    return 0;
}
