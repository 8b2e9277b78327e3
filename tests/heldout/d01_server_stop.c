/*
 * d01_server_stop.c -- a small TCP-style server whose acceptor thread drains a
 * backlog of pending connections and idles with short sleeps when there is
 * nothing to accept.  server_shutdown() asks it to stop by setting
 * srv->stopping, a plain int, and then joins it.  The backlog and counters are
 * protected by srv->lock, but the stop flag is written and polled without it.
 *
 * RACE: d01_server_stop.c:108 (write, main thread in server_shutdown: `srv->stopping = 1;`) vs d01_server_stop.c:58 (read, acceptor thread: `while (!srv->stopping) {`)
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define BACKLOG_MAX 16

struct pending_conn {
    int fd;
    unsigned short port;
};

struct server {
    pthread_mutex_t lock;
    pthread_cond_t accepted_cv;
    struct pending_conn backlog[BACKLOG_MAX];
    int backlog_len;
    int accepted;
    unsigned long port_sum;
    int stopping;
    pthread_t acceptor;
};

static void idle_wait(long usec)
{
    struct timespec ts = { 0, usec * 1000L };
    nanosleep(&ts, NULL);
}

static int take_pending(struct server *srv, struct pending_conn *out)
{
    int got = 0;

    pthread_mutex_lock(&srv->lock);
    if (srv->backlog_len > 0) {
        *out = srv->backlog[--srv->backlog_len];
        got = 1;
    }
    pthread_mutex_unlock(&srv->lock);
    return got;
}

static void *acceptor_main(void *arg)
{
    struct server *srv = arg;
    struct pending_conn pc;

    while (!srv->stopping) {
        if (!take_pending(srv, &pc)) {
            idle_wait(300);
            continue;
        }
        pthread_mutex_lock(&srv->lock);
        srv->accepted++;
        srv->port_sum += pc.port;
        pthread_cond_signal(&srv->accepted_cv);
        pthread_mutex_unlock(&srv->lock);
    }
    return NULL;
}

static struct server *server_start(void)
{
    struct server *srv = calloc(1, sizeof(*srv));

    if (srv == NULL)
        return NULL;
    pthread_mutex_init(&srv->lock, NULL);
    pthread_cond_init(&srv->accepted_cv, NULL);
    if (pthread_create(&srv->acceptor, NULL, acceptor_main, srv) != 0) {
        free(srv);
        return NULL;
    }
    return srv;
}

static void server_enqueue(struct server *srv, int fd, unsigned short port)
{
    pthread_mutex_lock(&srv->lock);
    if (srv->backlog_len < BACKLOG_MAX) {
        srv->backlog[srv->backlog_len].fd = fd;
        srv->backlog[srv->backlog_len].port = port;
        srv->backlog_len++;
    }
    pthread_mutex_unlock(&srv->lock);
}

static void server_wait_accepted(struct server *srv, int n)
{
    pthread_mutex_lock(&srv->lock);
    while (srv->accepted < n)
        pthread_cond_wait(&srv->accepted_cv, &srv->lock);
    pthread_mutex_unlock(&srv->lock);
}

static void server_shutdown(struct server *srv)
{
    srv->stopping = 1;
    pthread_join(srv->acceptor, NULL);
    pthread_cond_destroy(&srv->accepted_cv);
    pthread_mutex_destroy(&srv->lock);
}

int main(void)
{
    static const unsigned short ports[] = { 40112, 40113, 51820, 33001, 47000 };
    const int nconn = (int)(sizeof(ports) / sizeof(ports[0]));
    struct server *srv = server_start();

    if (srv == NULL) {
        fprintf(stderr, "server_start failed\n");
        return 1;
    }
    for (int i = 0; i < nconn; i++) {
        server_enqueue(srv, 10 + i, ports[i]);
        idle_wait(200);
    }
    server_wait_accepted(srv, nconn);
    server_shutdown(srv);
    printf("accepted %d connections, port sum %lu\n", srv->accepted, srv->port_sum);
    free(srv);
    return 0;
}
