/* RACE: c06_config_swap.c:73 (write) vs c06_config_swap.c:55 (read) */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct config {
    char name[16];
    size_t max_body;
    int keepalive_ms;
    int log_level;
};

/* slot 0: running config, slot 1: staged by "reload" */
static struct config cfg_slots[2];
struct config *active_cfg = &cfg_slots[0];

static int parse_config(const char *text, struct config *c)
{
    char key[32];
    long val;
    const char *p = text;
    int n;

    memset(c, 0, sizeof *c);
    while (sscanf(p, " %31[a-z_] = %ld%n", key, &val, &n) == 2) {
        if (strcmp(key, "max_body") == 0)
            c->max_body = (size_t)val;
        else if (strcmp(key, "keepalive_ms") == 0)
            c->keepalive_ms = (int)val;
        else if (strcmp(key, "log_level") == 0)
            c->log_level = (int)val;
        else
            return -1;
        p += n;
    }
    return 0;
}

struct worker {
    int id;
    const size_t *bodies;
    int nreq;
    int accepted, rejected;
};

static void *serve(void *arg)
{
    struct worker *w = arg;

    for (int i = 0; i < w->nreq; i++) {
        const struct config *cfg = active_cfg;
        if (w->bodies[i] > cfg->max_body)
            w->rejected++;
        else
            w->accepted++;
        usleep(200);
    }
    return NULL;
}

static void *reloader(void *arg)
{
    (void)arg;
    struct timespec ts = { 0, 1000 * 1000 }; /* wait for SIGHUP */
    nanosleep(&ts, NULL);
    const struct config *staged = &cfg_slots[1];
    if (staged->max_body == 0 || staged->keepalive_ms < 0)
        return NULL;
    active_cfg = &cfg_slots[1];
    return NULL;
}

int main(void)
{
    static const size_t bodies[2][8] = {
        { 512, 9000, 70000, 1200, 300000, 64, 4096, 80000 },
        { 100, 2000, 65536, 65537, 128, 999999, 30000, 70000 },
    };
    struct worker w[2] = {
        { 0, bodies[0], 8, 0, 0 },
        { 1, bodies[1], 8, 0, 0 },
    };
    pthread_t th[3];

    if (parse_config("max_body = 65536 keepalive_ms = 5000 log_level = 2", &cfg_slots[0]) ||
        parse_config("max_body = 262144 keepalive_ms = 15000 log_level = 1", &cfg_slots[1])) {
        fprintf(stderr, "bad config\n");
        return 1;
    }
    strcpy(cfg_slots[0].name, "initial");
    strcpy(cfg_slots[1].name, "reloaded");

    for (int i = 0; i < 2; i++)
        pthread_create(&th[i], NULL, serve, &w[i]);
    pthread_create(&th[2], NULL, reloader, NULL);
    for (int i = 0; i < 3; i++)
        pthread_join(th[i], NULL);

    for (int i = 0; i < 2; i++)
        printf("worker %d: %d accepted, %d rejected\n", w[i].id, w[i].accepted, w[i].rejected);
    printf("active config: %s\n", active_cfg->name);
    return 0;
}
