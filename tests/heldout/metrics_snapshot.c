/* Service metrics: request handlers account into a shared block with one
 * hit counter per configured route; the stats endpoint copies a
 * consistent snapshot of the block under the metrics lock. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct metrics {
    unsigned long requests;
    unsigned long errors;
    double latency_ms_sum;
    unsigned nroutes;
    unsigned long route_hits[];      /* nroutes entries */
};

static struct metrics *g_metrics;
static size_t g_metrics_size;
static pthread_mutex_t metrics_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t start;

static struct metrics *metrics_snapshot(void)
{
    struct metrics *out = malloc(g_metrics_size);
    pthread_mutex_lock(&metrics_lock);
    memcpy(out, g_metrics, g_metrics_size);
    pthread_mutex_unlock(&metrics_lock);
    return out;
}

static void handle_request(unsigned route, int status)
{
    g_metrics->route_hits[route]++;     /* hot path: "just a counter" */
    usleep(100);                        /* parse, query, render */
    pthread_mutex_lock(&metrics_lock);
    g_metrics->requests++;
    if (status >= 500)
        g_metrics->errors++;
    g_metrics->latency_ms_sum += 0.1;
    pthread_mutex_unlock(&metrics_lock);
}

static void *handler(void *arg)
{
    (void)arg;
    static const unsigned routes[] = { 0, 2, 0 };
    pthread_barrier_wait(&start);
    for (int i = 0; i < 3; i++)
        handle_request(routes[i], i == 2 ? 503 : 200);
    return NULL;
}

static void *stats_endpoint(void *arg)
{
    struct metrics **scraped = arg;
    pthread_barrier_wait(&start);
    *scraped = metrics_snapshot();      /* first scrape as the service starts */
    return NULL;
}

int main(int argc, char **argv)
{
    pthread_t h, s;
    struct metrics *scraped, *final;
    unsigned nroutes = argc > 1 ? (unsigned)atoi(argv[1]) : 4;   /* from the config */

    g_metrics_size = sizeof *g_metrics + nroutes * sizeof g_metrics->route_hits[0];
    g_metrics = calloc(1, g_metrics_size);
    g_metrics->nroutes = nroutes;

    pthread_barrier_init(&start, NULL, 2);
    pthread_create(&h, NULL, handler, NULL);
    pthread_create(&s, NULL, stats_endpoint, &scraped);
    pthread_join(h, NULL);
    pthread_join(s, NULL);
    pthread_barrier_destroy(&start);

    final = metrics_snapshot();
    printf("requests %lu errors %lu\n", final->requests, final->errors);
    int rc = scraped->requests > final->requests;
    free(scraped);
    free(final);
    free(g_metrics);
    return rc;
}
