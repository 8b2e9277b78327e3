/* RACE: heartbeat_shutdown.c:52 (write, main thread: `g_shutdown = 1`) vs heartbeat_shutdown.c:21 (read, heartbeat thread: `if (g_shutdown)`) */
/*
 * A small request-serving loop with a heartbeat thread that publishes
 * liveness ticks.  When the batch is drained, main asks the heartbeat
 * thread to stop by setting g_shutdown and joins it.
 */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static int g_shutdown;                      /* set once by main on exit */

static pthread_mutex_t g_stats_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned g_heartbeats;               /* guarded by g_stats_lock */

static void *heartbeat_main(void *arg)
{
    (void)arg;
    for (int tick = 0; tick < 2000; tick++) {
        if (g_shutdown)
            break;
        pthread_mutex_lock(&g_stats_lock);
        g_heartbeats++;
        pthread_mutex_unlock(&g_stats_lock);
        usleep(500);
    }
    return NULL;
}

static unsigned handle_request(unsigned id)
{
    unsigned h = id * 2654435761u;
    for (unsigned i = 0; i < 2000; i++)
        h = (h ^ (h >> 13)) * 31u + i;
    return h;
}

int main(void)
{
    pthread_t hb;
    unsigned digest = 0;

    if (pthread_create(&hb, NULL, heartbeat_main, NULL) != 0)
        return 1;

    for (unsigned id = 0; id < 64; id++) {
        digest ^= handle_request(id);
        usleep(100);
    }

    g_shutdown = 1;
    pthread_join(hb, NULL);

    pthread_mutex_lock(&g_stats_lock);
    int alive = g_heartbeats > 0;
    pthread_mutex_unlock(&g_stats_lock);
    printf("served 64 requests (digest %08x), heartbeat %s\n",
           digest, alive ? "stopped" : "never ran");
    return 0;
}
