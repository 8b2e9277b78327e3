/*
 * request_hooks_teardown.c - embedded HTTP server unloading its plugin hooks.
 *
 * A worker thread drains the request queue and, after each request, calls
 * the plugin's completion hook.  server_shutdown() tells the worker to stop
 * (properly, under the queue lock) but then detaches the hooks right away,
 * before joining the worker, which may still be finishing a request.
 *
 * Racing pair:
 *   W :96 srv->hooks = NULL in server_shutdown() /
 *   R :71 h = srv->hooks after a request in worker_main()
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#define QCAP 16

struct hooks {
    void (*on_complete)(int req, int status);
};

struct server {
    pthread_mutex_t lock;
    pthread_cond_t cv;
    int queue[QCAP];
    int head, tail;          /* guarded by lock */
    int stopping;            /* guarded by lock */
    const struct hooks *hooks;
    pthread_t worker;
};

static unsigned long access_log_lines;   /* only touched by the worker */

static void log_completion(int req, int status)
{
    (void)req;
    if (status == 200)
        access_log_lines++;
}

static const struct hooks access_log_plugin = { log_completion };

static void sleep_us(long us)
{
    struct timespec ts = { us / 1000000L, (us % 1000000L) * 1000L };
    nanosleep(&ts, NULL);
}

static int handle_request(int req)
{
    sleep_us(600);                       /* parse, route, write response */
    return req % 5 ? 200 : 404;
}

static void *worker_main(void *arg)
{
    struct server *srv = arg;

    pthread_mutex_lock(&srv->lock);
    for (;;) {
        while (srv->head == srv->tail && !srv->stopping)
            pthread_cond_wait(&srv->cv, &srv->lock);
        if (srv->head == srv->tail)
            break;
        int req = srv->queue[srv->head++ % QCAP];
        pthread_mutex_unlock(&srv->lock);

        int status = handle_request(req);
        const struct hooks *h = srv->hooks;
        if (h && h->on_complete)
            h->on_complete(req, status);

        pthread_mutex_lock(&srv->lock);
    }
    pthread_mutex_unlock(&srv->lock);
    return NULL;
}

static void server_submit(struct server *srv, int req)
{
    pthread_mutex_lock(&srv->lock);
    srv->queue[srv->tail++ % QCAP] = req;
    pthread_cond_signal(&srv->cv);
    pthread_mutex_unlock(&srv->lock);
}

static void server_shutdown(struct server *srv)
{
    pthread_mutex_lock(&srv->lock);
    srv->stopping = 1;
    pthread_cond_broadcast(&srv->cv);
    pthread_mutex_unlock(&srv->lock);

    srv->hooks = NULL;                   /* plugin is being unloaded */
    pthread_join(srv->worker, NULL);
}

int main(void)
{
    static struct server srv = {
        .lock = PTHREAD_MUTEX_INITIALIZER,
        .cv = PTHREAD_COND_INITIALIZER,
        .hooks = &access_log_plugin,
    };

    if (pthread_create(&srv.worker, NULL, worker_main, &srv) != 0)
        return 1;
    for (int req = 1; req <= 4; req++)
        server_submit(&srv, req);
    sleep_us(1000);
    server_shutdown(&srv);
    printf("server stopped\n");
    return 0;
}
