/*
 * d12_conn_mailbox.c -- an acceptor thread takes a connection object from a
 * preallocated pool, fills in the socket fd it just accepted, and hands the
 * object to the I/O worker through a one-slot mailbox.  The mailbox is an
 * atomic pointer, but both sides use memory_order_relaxed, so the hand-off
 * creates no happens-before edge: the worker's read of conn->fd races with
 * the acceptor's store.  Everything else in the connection object is set up
 * by main before the threads start.
 *
 * RACE: d12_conn_mailbox.c:83 (write, acceptor thread: `c->fd = fd;`) vs d12_conn_mailbox.c:105 (read, I/O worker thread after the relaxed hand-off: `int fd = c->fd;`)
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

#define POOL_SIZE 4
#define NCONN 3

struct conn {
    int fd;
    int slot;
    unsigned short peer_port;
    size_t bytes_served;
    struct conn *next_free;
};

static struct conn conn_pool[POOL_SIZE];
static _Atomic(struct conn *) mailbox;

static void spin_pause(void)
{
    struct timespec ts = { 0, 100 * 1000L };
    nanosleep(&ts, NULL);
}

static void handoff(struct conn *c)
{
    struct conn *expected = NULL;

    while (!atomic_compare_exchange_weak_explicit(&mailbox, &expected, c,
                                                  memory_order_relaxed,
                                                  memory_order_relaxed)) {
        expected = NULL;
        spin_pause();
    }
}

/* Stand-in for accept(): returns the next pending client socket, -1 when
 * the listen backlog is drained. */
static int accept_next(const int *backlog, int *cursor)
{
    int fd = backlog[*cursor];

    if (fd >= 0)
        (*cursor)++;
    return fd;
}

/* Free list of pooled connection objects; only the acceptor pops from it. */
static struct conn *conn_free_list;

static struct conn *conn_alloc(void)
{
    struct conn *c = conn_free_list;

    if (c != NULL)
        conn_free_list = c->next_free;
    return c;
}

static void *acceptor_main(void *arg)
{
    const int *backlog = arg;
    int cursor = 0, fd;

    while ((fd = accept_next(backlog, &cursor)) >= 0) {
        struct conn *c = conn_alloc();
        if (c == NULL)
            break;
        c->fd = fd;
        handoff(c);
        spin_pause();
    }
    return NULL;
}

static size_t serve(int fd, unsigned short port)
{
    return (size_t)fd * 100u + port % 1000u;
}

static void *io_worker_main(void *arg)
{
    size_t *total = arg;

    for (int served = 0; served < NCONN;) {
        struct conn *c = atomic_exchange_explicit(&mailbox, NULL, memory_order_relaxed);
        if (c == NULL) {
            spin_pause();
            continue;
        }
        int fd = c->fd;
        c->bytes_served = serve(fd, c->peer_port);
        *total += c->bytes_served;
        served++;
    }
    return NULL;
}

int main(void)
{
    static const int backlog[] = { 40, 41, 42, -1 };
    pthread_t acceptor, worker;
    size_t total = 0;

    for (int i = 0; i < POOL_SIZE; i++) {
        conn_pool[i].fd = -1;
        conn_pool[i].slot = i;
        conn_pool[i].peer_port = (unsigned short)(50000 + 17 * i);
        conn_pool[i].next_free = i + 1 < POOL_SIZE ? &conn_pool[i + 1] : NULL;
    }
    conn_free_list = &conn_pool[0];
    pthread_create(&worker, NULL, io_worker_main, &total);
    pthread_create(&acceptor, NULL, acceptor_main, (void *)backlog);
    pthread_join(acceptor, NULL);
    pthread_join(worker, NULL);
    for (int i = 0; i < NCONN; i++)
        printf("conn slot %d: fd %d, %zu bytes\n", conn_pool[i].slot, conn_pool[i].fd,
               conn_pool[i].bytes_served);
    printf("total %zu bytes\n", total);
    return 0;
}
