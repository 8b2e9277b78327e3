/* RACE: lazy_config.c:40 (write, listener thread: `g_config = load_config()`) vs lazy_config.c:36 (read, metrics thread: `struct config *c = g_config`) */
/*
 * Two subsystems of a proxy start together and both call get_config(),
 * which lazily parses the configuration the first time.  The fast path
 * is a classic "double-checked" test of a plain pointer.
 */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct config {
    int  port;
    int  max_conns;
    char upstream[32];
};

static struct config *g_config;            /* lazily created */
static pthread_mutex_t g_config_lock = PTHREAD_MUTEX_INITIALIZER;

static struct config *load_config(void)
{
    struct config *c = malloc(sizeof *c);
    if (!c)
        abort();
    c->port = 8443;
    c->max_conns = 512;
    snprintf(c->upstream, sizeof c->upstream, "backend-%d.internal", 3);
    usleep(4000);                           /* "parsing" /etc/proxy.conf */
    return c;
}

static const struct config *get_config(void)
{
    struct config *c = g_config;
    if (c == NULL) {
        pthread_mutex_lock(&g_config_lock);
        if (g_config == NULL)
            g_config = load_config();
        c = g_config;
        pthread_mutex_unlock(&g_config_lock);
    }
    return c;
}

struct subsys {
    const char *name;
    unsigned    startup_delay_us;
    int         port_seen;
    int         conns_seen;
};

static void *subsys_main(void *arg)
{
    struct subsys *s = arg;
    if (s->startup_delay_us)
        usleep(s->startup_delay_us);        /* register metric families */
    const struct config *c = get_config();
    s->port_seen = c->port;
    s->conns_seen = c->max_conns;
    return NULL;
}

int main(void)
{
    struct subsys subs[2] = {
        { "listener", 0, 0, 0 },
        { "metrics", 1000, 0, 0 },
    };
    pthread_t tids[2];

    for (int i = 0; i < 2; i++)
        pthread_create(&tids[i], NULL, subsys_main, &subs[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(tids[i], NULL);

    printf("%s and %s agree on port %d (max_conns %d)\n", subs[0].name,
           subs[1].name, subs[1].port_seen, subs[0].conns_seen);
    free(g_config);
    return 0;
}
