/*
 * io_recv_conn.c - per-connection I/O thread + worker of a tiny server.
 *
 * The I/O thread recv()s a request into conn->rbuf, queues a job that
 * points at that buffer, and immediately goes back to recv() for the next
 * request on the same connection - into the same buffer.  The worker is
 * still scanning the previous request in conn->rbuf (zero-copy handling),
 * so the second recv() overwrites bytes the worker reads, with nothing
 * ordering the two.
 *
 * RACE: io_recv_conn.c:73 (write, inside recv()) vs io_recv_conn.c:57 (read, handle_request)
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct conn { int fd; char rbuf[256]; };
struct job { struct conn *c; int len; };     /* c == NULL: shut down */

static pthread_mutex_t q_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t q_cond = PTHREAD_COND_INITIALIZER;
static struct job q[8];
static int q_head, q_tail;

static char routes[4][32];      /* written by the worker, read after join */
static int nroutes;

static void enqueue(struct job j)
{
    pthread_mutex_lock(&q_lock);
    q[q_tail++ % 8] = j;
    pthread_cond_signal(&q_cond);
    pthread_mutex_unlock(&q_lock);
}

static struct job dequeue(void)
{
    pthread_mutex_lock(&q_lock);
    while (q_head == q_tail)
        pthread_cond_wait(&q_cond, &q_lock);
    struct job j = q[q_head++ % 8];
    pthread_mutex_unlock(&q_lock);
    return j;
}

/* "GET /path HTTP/1.0\r\n..." -> copy of the path */
static void handle_request(const char *req, int len, char *path, size_t cap)
{
    size_t k = 0;
    int field = 0;

    for (int i = 0; i < len; i++) {
        char c = req[i];
        if (c == ' ' || c == '\r') {
            if (++field == 2)
                break;
        } else if (field == 1 && k + 1 < cap) {
            path[k++] = c;
        }
    }
    path[k] = '\0';
}

static void *io_thread(void *arg)
{
    struct conn *c = arg;
    ssize_t n;

    while ((n = recv(c->fd, c->rbuf, sizeof c->rbuf, 0)) > 0)
        enqueue((struct job){ c, (int)n });
    enqueue((struct job){ NULL, 0 });
    return NULL;
}

static void *worker(void *arg)
{
    (void)arg;
    for (;;) {
        struct job j = dequeue();
        if (!j.c)
            break;
        handle_request(j.c->rbuf, j.len, routes[nroutes], sizeof routes[0]);
        nroutes++;
        struct timespec backend = { 0, 1000000 };   /* upstream call */
        nanosleep(&backend, NULL);
    }
    return NULL;
}

int main(void)
{
    static const char *reqs[] = { "GET /index.html HTTP/1.0\r\n\r\n",
                                  "GET /api/status HTTP/1.0\r\n\r\n" };
    static struct conn conn;
    int sv[2];
    pthread_t io, wk;

    if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) != 0)
        return 1;
    conn.fd = sv[0];
    pthread_create(&wk, NULL, worker, NULL);
    pthread_create(&io, NULL, io_thread, &conn);

    for (int i = 0; i < 2; i++) {               /* client: two pipelined requests */
        send(sv[1], reqs[i], strlen(reqs[i]), 0);
        struct timespec gap = { 0, 200000 };
        nanosleep(&gap, NULL);
    }
    shutdown(sv[1], SHUT_WR);

    pthread_join(io, NULL);
    pthread_join(wk, NULL);
    close(sv[0]), close(sv[1]);
    printf("handled %d requests: %s %s\n", nroutes, routes[0], routes[1]);
    return 0;
}
