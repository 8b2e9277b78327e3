/*
 * d04_handler_args.c -- a listener loop accepts connections one at a time and
 * spawns a handler thread per connection.  To avoid a malloc per connection it
 * passes the address of the one struct handler_args embedded in the (heap
 * allocated) listener object and simply refills args.fd before every
 * pthread_create().  The shared
 * context pointer is set once before the loop; only the fd changes, so the
 * handler's load of a->fd races with the listener's store for the next
 * connection.  Handlers report into the context under its lock.
 *
 * RACE: d04_handler_args.c:88 (write, main thread in run_listener, refilling for the next connection: `args->fd = fd;`) vs d04_handler_args.c:55 (read, handler thread: `int fd = a->fd;`)
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_CONNS 3
#define FD_BASE 7

struct request {
    const char *path;
    size_t body_len;
};

struct server_ctx {
    const struct request *by_fd[FD_BASE + MAX_CONNS];
    pthread_mutex_t lock;
    size_t bytes_out;
    int served;
};

struct handler_args {
    struct server_ctx *ctx;
    int fd;
};

static const struct request incoming[MAX_CONNS] = {
    { "/index.html", 512 },
    { "/api/v1/items?page=2", 2048 },
    { "/static/app.css", 7300 },
};

static size_t render_response(const struct request *req)
{
    return strlen("HTTP/1.1 200 OK\r\n\r\n") + strlen(req->path) + req->body_len;
}

static void *handle_connection(void *arg)
{
    struct handler_args *a = arg;
    struct server_ctx *ctx = a->ctx;
    int fd = a->fd;
    size_t n = render_response(ctx->by_fd[fd]);

    pthread_mutex_lock(&ctx->lock);
    ctx->bytes_out += n;
    ctx->served++;
    pthread_mutex_unlock(&ctx->lock);
    return NULL;
}

/* Stand-in for accept(): the next client shows up a little later. */
static int wait_for_client(int i)
{
    struct timespec ts = { 0, 400 * 1000L };

    nanosleep(&ts, NULL);
    return FD_BASE + i;
}

struct listener {
    struct server_ctx *ctx;
    pthread_t handlers[MAX_CONNS];
    int nhandlers;
    struct handler_args args;
};

static int run_listener(struct listener *l, int nconn)
{
    struct handler_args *args = &l->args;

    args->ctx = l->ctx;
    for (int i = 0; i < nconn; i++) {
        int fd = wait_for_client(i);
        args->fd = fd;
        if (pthread_create(&l->handlers[l->nhandlers], NULL, handle_connection, args) != 0)
            break;
        l->nhandlers++;
    }
    for (int i = 0; i < l->nhandlers; i++)
        pthread_join(l->handlers[i], NULL);
    return l->nhandlers;
}

int main(void)
{
    static struct server_ctx ctx;
    struct listener *l = calloc(1, sizeof(*l));

    if (l == NULL)
        return 1;
    pthread_mutex_init(&ctx.lock, NULL);
    for (int i = 0; i < MAX_CONNS; i++)
        ctx.by_fd[FD_BASE + i] = &incoming[i];
    l->ctx = &ctx;
    int n = run_listener(l, MAX_CONNS);
    printf("listener handled %d connections: served=%d bytes_out=%zu\n", n, ctx.served, ctx.bytes_out);
    pthread_mutex_destroy(&ctx.lock);
    free(l);
    return 0;
}
