/* RACE: conn_flags.c:32 (write, responder thread: `c->want_write = 1`) vs conn_flags.c:42 (write, idle reaper thread: `c->closing = 1`) */
/*
 * Connection state in an event-driven server.  want_write is guarded by
 * the connection's output lock; the idle reaper marks the connection as
 * closing without taking it, but both flags live in the same bitfield word.
 */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct conn {
    int             fd;
    unsigned        want_write : 1;         /* guarded by out_lock */
    unsigned        closing    : 1;         /* set by the reaper */
    unsigned        tls        : 1;
    pthread_mutex_t out_lock;
    char            outbuf[256];
    size_t          outlen;                 /* guarded by out_lock */
};

static void *responder(void *arg)
{
    struct conn *c = arg;
    static const char resp[] = "HTTP/1.1 204 No Content\r\n\r\n";

    usleep(200);                            /* backend round trip */
    pthread_mutex_lock(&c->out_lock);
    memcpy(c->outbuf + c->outlen, resp, sizeof resp - 1);
    c->outlen += sizeof resp - 1;
    c->want_write = 1;
    pthread_mutex_unlock(&c->out_lock);
    return NULL;
}

static void *idle_reaper(void *arg)
{
    struct conn *c = arg;

    usleep(300);                            /* keep-alive timer fires */
    c->closing = 1;
    return NULL;
}

int main(void)
{
    struct conn c = { .fd = 7, .tls = 1, .out_lock = PTHREAD_MUTEX_INITIALIZER };
    pthread_t t1, t2;

    pthread_create(&t1, NULL, responder, &c);
    pthread_create(&t2, NULL, idle_reaper, &c);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);

    printf("conn fd=%d: %zu bytes queued, want_write=%u closing=%u\n",
           c.fd, c.outlen, (unsigned)c.want_write, (unsigned)c.closing);
    return 0;
}
