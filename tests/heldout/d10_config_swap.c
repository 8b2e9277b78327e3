/*
 * d10_config_swap.c -- an API gateway keeps two preloaded limit profiles and a
 * pointer to the active one.  A config-watcher thread notices that the
 * profile file changed and switches the active pointer to the "peak" profile
 * with a plain store; request workers load the pointer without any lock or
 * atomic at the start of each request.  The profiles themselves are
 * immutable static data, so only the pointer races.
 *
 * RACE: d10_config_swap.c:62 (write, config-watcher thread: `g_active_limits = next;`) vs d10_config_swap.c:70 (read, request worker thread: `const struct limits *lim = g_active_limits;`)
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#define NREQ 12

struct limits {
    const char *profile;
    unsigned max_body_kb;
    unsigned max_headers;
    unsigned rate_per_s;
};

static const struct limits profiles[2] = {
    { "default", 1024, 64, 200 },
    { "peak", 2048, 64, 100 },
};

static const struct limits *g_active_limits = &profiles[0];

struct request {
    unsigned body_kb;
    unsigned headers;
};

struct worker {
    const struct request *reqs;
    int nreqs;
    int accepted, rejected;
};

static void nap_us(long us)
{
    struct timespec ts = { 0, us * 1000L };
    nanosleep(&ts, NULL);
}

/* Stand-in for stat()ing the profile file: it changes on the 3rd poll. */
static int profile_file_changed(int poll)
{
    return poll == 3;
}

static void *config_watch_main(void *arg)
{
    (void)arg;
    for (int poll = 1; poll <= 3; poll++) {
        nap_us(300);
        if (profile_file_changed(poll)) {
            const struct limits *next = &profiles[1];
            g_active_limits = next;
        }
    }
    return NULL;
}

static int admit(const struct request *r)
{
    const struct limits *lim = g_active_limits;

    return r->body_kb <= lim->max_body_kb && r->headers <= lim->max_headers;
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;

    for (int i = 0; i < w->nreqs; i++) {
        if (admit(&w->reqs[i]))
            w->accepted++;
        else
            w->rejected++;
        nap_us(100);
    }
    return NULL;
}

int main(void)
{
    static const struct request reqs_a[NREQ] = {
        { 12, 10 }, { 900, 12 }, { 3, 80 }, { 64, 20 }, { 1, 9 }, { 512, 30 },
        { 700, 11 }, { 2, 70 }, { 8, 8 }, { 1000, 40 }, { 5, 5 }, { 16, 16 },
    };
    static const struct request reqs_b[NREQ] = {
        { 4, 4 }, { 40, 99 }, { 800, 14 }, { 1, 1 }, { 256, 60 }, { 9, 9 },
        { 30, 30 }, { 2, 65 }, { 100, 10 }, { 1020, 20 }, { 6, 6 }, { 77, 7 },
    };
    struct worker w[2] = { { reqs_a, NREQ, 0, 0 }, { reqs_b, NREQ, 0, 0 } };
    pthread_t watcher, tids[2];

    pthread_create(&watcher, NULL, config_watch_main, NULL);
    for (int i = 0; i < 2; i++)
        pthread_create(&tids[i], NULL, worker_main, &w[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(tids[i], NULL);
    pthread_join(watcher, NULL);
    printf("accepted %d, rejected %d (active profile now: %s)\n",
           w[0].accepted + w[1].accepted, w[0].rejected + w[1].rejected,
           g_active_limits->profile);
    return 0;
}
