/* Request limits come from one of several parsed profiles; an operator
 * command switches the active profile at run time (the "reloader"). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct limits {
    char name[16];
    int max_body;
    int timeout_ms;
};

static struct limits profiles[2];
static struct limits *active_limits;              /* current profile */
static pthread_mutex_t reload_lock = PTHREAD_MUTEX_INITIALIZER;
static int reloads;                               /* under reload_lock */

static void parse_profile(struct limits *l, const char *spec)
{
    char buf[64];
    strncpy(buf, spec, sizeof buf - 1);
    buf[sizeof buf - 1] = '\0';
    char *name = strtok(buf, ":");
    char *body = strtok(NULL, ":");
    char *tmo = strtok(NULL, ":");
    snprintf(l->name, sizeof l->name, "%s", name ? name : "?");
    l->max_body = body ? atoi(body) : 0;
    l->timeout_ms = tmo ? atoi(tmo) : 0;
}

static void *reloader(void *arg)
{
    int want = *(int *)arg;
    usleep(1000);                   /* debounce the operator's command */
    pthread_mutex_lock(&reload_lock);
    active_limits = &profiles[want];
    reloads++;
    pthread_mutex_unlock(&reload_lock);
    return NULL;
}

static int admit_request(int body_len)
{
    const struct limits *lim = active_limits;
    return body_len <= lim->max_body;
}

static void *handler(void *arg)
{
    int *accepted = arg;
    static const int sizes[] = { 900, 3000, 1200, 2500, 700, 4000 };
    for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        usleep(300);                /* wait for the next request */
        if (admit_request(sizes[i]))
            (*accepted)++;
    }
    return NULL;
}

int main(void)
{
    pthread_t h, r;
    int accepted = 0, degraded = 1;

    parse_profile(&profiles[0], "normal:4096:500");
    parse_profile(&profiles[1], "degraded:1024:100");
    active_limits = &profiles[0];

    pthread_create(&h, NULL, handler, &accepted);
    pthread_create(&r, NULL, reloader, &degraded);
    pthread_join(r, NULL);
    pthread_join(h, NULL);

    printf("accepted %s\n", accepted >= 2 ? "ok" : "too few");
    return 0;
}
