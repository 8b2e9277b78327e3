/*
 * heartbeat_sender_stop.c - keepalive thread of a small messaging client.
 *
 * While a session is open a background thread sends a PING every
 * millisecond.  session_close() just clears the plain `running` flag and
 * joins the thread; the flag is neither atomic nor protected by a lock.
 *
 * Racing pair:
 *   W :67 s->running = 0 in session_close() /
 *   R :43 while (s->running) poll in heartbeat_main()
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct session {
    char peer[32];
    int running;
    pthread_t hb_thread;
    unsigned pings_sent;     /* owned by the heartbeat thread until join */
    unsigned requests_done;  /* owned by the caller */
};

static void sleep_us(long us)
{
    struct timespec ts = { us / 1000000L, (us % 1000000L) * 1000L };
    nanosleep(&ts, NULL);
}

static void send_ping(struct session *s)
{
    /* a real client would write a PING frame to the socket here */
    s->pings_sent++;
}

static void *heartbeat_main(void *arg)
{
    struct session *s = arg;

    while (s->running) {
        send_ping(s);
        sleep_us(1000);
    }
    return NULL;
}

static struct session *session_open(const char *peer)
{
    struct session *s = calloc(1, sizeof *s);

    if (!s)
        return NULL;
    snprintf(s->peer, sizeof s->peer, "%s", peer);
    s->running = 1;
    if (pthread_create(&s->hb_thread, NULL, heartbeat_main, s) != 0) {
        free(s);
        return NULL;
    }
    return s;
}

static void session_close(struct session *s)
{
    s->running = 0;
    pthread_join(s->hb_thread, NULL);
}

static int do_request(struct session *s, int n)
{
    /* request/response round trip */
    sleep_us(700);
    s->requests_done++;
    return n * 2;
}

int main(void)
{
    struct session *s = session_open("10.0.0.7:4222");
    int sum = 0;

    if (!s)
        return 1;
    for (int i = 1; i <= 3; i++)
        sum += do_request(s, i);
    session_close(s);
    printf("session %s closed: %u requests, checksum %d\n",
           s->peer, s->requests_done, sum);
    free(s);
    return 0;
}
