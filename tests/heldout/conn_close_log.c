/* Connection table of a small server. Each slot carries the protocol
 * module's private area after the common header. A handler serves a
 * connection, queues an access-log record for the log thread, lingers,
 * and closes (resets) the slot for reuse. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct conn {
    int fd;
    char peer[24];
    unsigned long bytes_in, bytes_out;
    int status;
    unsigned char priv[];           /* protocol private data */
};

#define MAX_CONNS 8
static unsigned char *conn_table;
static size_t slot_size;            /* header + the protocol's priv size */
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

struct log_rec { struct conn *c; int status; };
static struct log_rec log_q[MAX_CONNS];
static int log_head, log_tail, log_closed;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t log_cv = PTHREAD_COND_INITIALIZER;
static unsigned long logged_bytes;

static struct conn *conn_at(int i) { return (struct conn *)(conn_table + i * slot_size); }

static void access_log(struct conn *c, int status)
{
    pthread_mutex_lock(&log_lock);
    log_q[log_tail++ % MAX_CONNS] = (struct log_rec){ c, status };
    pthread_cond_signal(&log_cv);
    pthread_mutex_unlock(&log_lock);
}

static void conn_close(struct conn *c)
{
    pthread_mutex_lock(&table_lock);
    memset(c, 0, slot_size);
    c->fd = -1;
    pthread_mutex_unlock(&table_lock);
}

static void *log_thread(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&log_lock);
    for (;;) {
        while (log_head == log_tail && !log_closed)
            pthread_cond_wait(&log_cv, &log_lock);
        if (log_head == log_tail)
            break;
        struct log_rec r = log_q[log_head++ % MAX_CONNS];
        pthread_mutex_unlock(&log_lock);
        logged_bytes += r.c->bytes_out;        /* "write the log line" */
        pthread_mutex_lock(&log_lock);
    }
    pthread_mutex_unlock(&log_lock);
    return NULL;
}

static void *handler(void *arg)
{
    (void)arg;
    const struct timespec linger = { 0, 200 * 1000 };
    for (int i = 0; i < 3; i++) {
        struct conn *c = conn_at(i);
        pthread_mutex_lock(&table_lock);
        c->bytes_in += 120;                    /* request */
        c->bytes_out += 1000 + 100 * i;        /* response */
        c->status = 200;
        pthread_mutex_unlock(&table_lock);
        access_log(c, 200);
        nanosleep(&linger, NULL);              /* wait for the client's FIN */
        conn_close(c);
    }
    return NULL;
}

int main(void)
{
    pthread_t lt, ht;
    size_t priv_size = 200;                    /* registered by the protocol module */

    slot_size = (sizeof(struct conn) + priv_size + 15) & ~(size_t)15;
    conn_table = calloc(MAX_CONNS, slot_size);
    for (int i = 0; i < MAX_CONNS; i++) {
        conn_at(i)->fd = 10 + i;
        snprintf(conn_at(i)->peer, sizeof conn_at(i)->peer, "10.0.0.%d:5000", i + 1);
    }
    pthread_create(&lt, NULL, log_thread, NULL);
    pthread_create(&ht, NULL, handler, NULL);
    pthread_join(ht, NULL);
    pthread_mutex_lock(&log_lock);
    log_closed = 1;
    pthread_cond_signal(&log_cv);
    pthread_mutex_unlock(&log_lock);
    pthread_join(lt, NULL);
    printf("served 3 connections\n");
    free(conn_table);
    return logged_bytes > 3 * 2000;
}
