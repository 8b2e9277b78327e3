/* Asynchronous logger: producers format lines into a ring under the
 * logger lock; a background thread drains the ring to the sink. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define LOG_SLOTS 32
#define LOG_LINE 80

struct logger {
    pthread_mutex_t lock;
    pthread_cond_t nonempty;
    pthread_t thread;
    char ring[LOG_SLOTS][LOG_LINE];
    unsigned head, tail;
    int stop;                   /* set by logger_stop() */
    unsigned long lines;        /* owned by the logger thread */
    size_t bytes;
};

static struct logger lg = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .nonempty = PTHREAD_COND_INITIALIZER,
};

static void log_int(const char *what, int v)
{
    pthread_mutex_lock(&lg.lock);
    if (lg.head - lg.tail < LOG_SLOTS) {
        snprintf(lg.ring[lg.head % LOG_SLOTS], LOG_LINE, "%s=%d", what, v);
        lg.head++;
        pthread_cond_signal(&lg.nonempty);
    }
    pthread_mutex_unlock(&lg.lock);
}

static void *logger_main(void *arg)
{
    char line[LOG_LINE];
    (void)arg;
    pthread_mutex_lock(&lg.lock);
    for (;;) {
        while (lg.tail != lg.head) {
            memcpy(line, lg.ring[lg.tail % LOG_SLOTS], LOG_LINE);
            lg.tail++;
            pthread_mutex_unlock(&lg.lock);
            lg.bytes += strlen(line) + 1;       /* the "sink" */
            lg.lines++;
            pthread_mutex_lock(&lg.lock);
        }
        if (lg.stop)
            break;
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 2 * 1000 * 1000;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&lg.nonempty, &lg.lock, &ts);
    }
    pthread_mutex_unlock(&lg.lock);
    return NULL;
}

static void logger_start(void)
{
    pthread_create(&lg.thread, NULL, logger_main, NULL);
}

static void logger_stop(void)
{
    lg.stop = 1;
    pthread_cond_signal(&lg.nonempty);
    pthread_join(lg.thread, NULL);
}

static void *request_worker(void *arg)
{
    int id = *(int *)arg;
    for (int i = 0; i < 4; i++)
        log_int(id ? "req_b" : "req_a", i * 10 + id);
    return NULL;
}

int main(void)
{
    pthread_t w[2];
    int ids[2] = { 0, 1 };

    logger_start();
    for (int i = 0; i < 2; i++)
        pthread_create(&w[i], NULL, request_worker, &ids[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(w[i], NULL);
    log_int("shutdown", 0);
    logger_stop();
    printf("logged %lu lines\n", lg.lines);
    return 0;
}
