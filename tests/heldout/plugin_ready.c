/* RACE: plugin_ready.c:51 (write, plugin loader thread: `g_plugins_ready = 1`) vs plugin_ready.c:60 (read, request thread: `while (!g_plugins_ready && waited < 2000)`) */
/*
 * A media server loads its codec plugins in the background.  The codec
 * registry itself is mutex-protected, but the "all plugins loaded" flag
 * that request threads spin on before their first lookup is a plain int.
 */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MAX_CODECS 8

struct codec {
    const char *name;
    int         priority;
};

static pthread_mutex_t g_reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct codec    g_codecs[MAX_CODECS];  /* guarded by g_reg_lock */
static int             g_ncodecs;             /* guarded by g_reg_lock */
static int             g_plugins_ready;       /* set once by the loader */

static void register_codec(const char *name, int prio)
{
    pthread_mutex_lock(&g_reg_lock);
    g_codecs[g_ncodecs++] = (struct codec){ name, prio };
    pthread_mutex_unlock(&g_reg_lock);
}

static int lookup_codec(const char *name)
{
    int prio = -1;
    pthread_mutex_lock(&g_reg_lock);
    for (int i = 0; i < g_ncodecs; i++)
        if (strcmp(g_codecs[i].name, name) == 0)
            prio = g_codecs[i].priority;
    pthread_mutex_unlock(&g_reg_lock);
    return prio;
}

static void *plugin_loader(void *arg)
{
    static const char *const names[] = { "h264", "vp9", "opus", "aac", "flac" };
    (void)arg;
    for (int i = 0; i < 5; i++) {
        usleep(400);                        /* dlopen() + init */
        register_codec(names[i], 10 * (i + 1));
    }
    g_plugins_ready = 1;
    return NULL;
}

static void *request_thread(void *arg)
{
    const char *want = arg;
    int waited = 0;

    while (!g_plugins_ready && waited < 2000) {
        usleep(100);
        waited++;
    }
    int prio = lookup_codec(want);
    return (void *)(long)prio;
}

int main(void)
{
    pthread_t loader, req;
    void *res;

    pthread_create(&loader, NULL, plugin_loader, NULL);
    pthread_create(&req, NULL, request_thread, "opus");
    pthread_join(req, &res);
    pthread_join(loader, NULL);

    printf("stream uses codec opus (priority %ld)\n", (long)res);
    return 0;
}
