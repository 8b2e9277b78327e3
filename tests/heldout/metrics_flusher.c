/* metrics_flusher.c -- stop flag polled by a background flusher.
 *
 * A metrics flusher thread wakes every 2 ms and copies the live counters
 * into the "exported" snapshot.  Shutdown is requested through a plain int.
 *
 * RACE: metrics_flusher.c:65 (write, main: `flusher_stop = 1;`)
 *   vs  metrics_flusher.c:39 (read, flusher: `while (!flusher_stop)`)
 * Everything else is protected by metrics.lock or ordered by create/join.
 */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

struct metrics {
    pthread_mutex_t lock;
    unsigned long requests;
    unsigned long bytes_out;
    unsigned long exported_requests;
    unsigned long exported_bytes;
    unsigned flushes;
};

static struct metrics metrics = { .lock = PTHREAD_MUTEX_INITIALIZER };
static int flusher_stop;

static void flush_metrics(void)
{
    pthread_mutex_lock(&metrics.lock);
    metrics.exported_requests = metrics.requests;
    metrics.exported_bytes = metrics.bytes_out;
    metrics.flushes++;
    pthread_mutex_unlock(&metrics.lock);
}

static void *flusher_main(void *arg)
{
    (void)arg;
    while (!flusher_stop) {
        usleep(2000);
        flush_metrics();
    }
    return NULL;
}

static void handle_request(int id)
{
    usleep(400);                      /* pretend to parse and answer */
    pthread_mutex_lock(&metrics.lock);
    metrics.requests++;
    metrics.bytes_out += 512 + 16 * id;
    pthread_mutex_unlock(&metrics.lock);
}

int main(void)
{
    pthread_t flusher;

    if (pthread_create(&flusher, NULL, flusher_main, NULL) != 0)
        return 1;

    for (int i = 0; i < 12; i++)
        handle_request(i);

    flusher_stop = 1;
    pthread_join(flusher, NULL);

    flush_metrics();
    printf("served %lu requests, %lu bytes exported\n",
           metrics.exported_requests, metrics.exported_bytes);
    return 0;
}
