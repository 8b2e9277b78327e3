/*
 * io_fgets_config.c - config reloader with a status reporter.
 *
 * On a reload request the reloader thread re-reads the config file line
 * by line with fgets() into g_reload.line, which is shared so that the
 * status thread can show which entry is being processed.  The status
 * thread reads that line buffer every millisecond without a lock while
 * fgets() overwrites it with the next line.
 *
 * RACE: io_fgets_config.c:54 (write, inside fgets()) vs io_fgets_config.c:86 (read, status_thread)
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_LINES 256

struct config {
    int workers;
    int port;
};

static struct {
    FILE *file;
    char line[128];                 /* line currently being processed */
} g_reload;

static pthread_mutex_t cfg_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t reload_cond = PTHREAD_COND_INITIALIZER;
static int reload_requested;        /* guarded by cfg_lock */
static struct config g_cfg;         /* guarded by cfg_lock */
static char g_status[64];           /* status thread's last line, read after join */

static void sleep_us(long us)
{
    struct timespec ts = { 0, us * 1000L };
    nanosleep(&ts, NULL);
}

static void *reloader(void *arg)
{
    struct config next = { 1, 80 };

    (void)arg;
    pthread_mutex_lock(&cfg_lock);
    while (!reload_requested)
        pthread_cond_wait(&reload_cond, &cfg_lock);
    pthread_mutex_unlock(&cfg_lock);
    rewind(g_reload.file);
    for (int lineno = 1; lineno <= MAX_LINES; lineno++) {
        if (!fgets(g_reload.line, sizeof g_reload.line, g_reload.file))
            break;
        const char *eq = strchr(g_reload.line, '=');
        if (!eq || g_reload.line[0] == '#')
            continue;
        int v = atoi(eq + 1);
        if (!strncmp(g_reload.line, "workers=", 8))
            next.workers = v;
        else if (!strncmp(g_reload.line, "port=", 5))
            next.port = v;
        sleep_us(300);              /* validate / resolve the entry */
    }
    pthread_mutex_lock(&cfg_lock);
    g_cfg = next;
    pthread_mutex_unlock(&cfg_lock);
    return NULL;
}

struct status_opts {
    int nticks;
    size_t width;                   /* chars of the entry to show */
};

static void *status_thread(void *arg)
{
    const struct status_opts *o = arg;
    char key[32];

    for (int tick = 0; tick < o->nticks; tick++) {
        sleep_us(1000);
        size_t k;
        for (k = 0; k < o->width; k++) {
            char c = g_reload.line[k];
            if (c == '\0' || c == '\n' || c == '=')
                break;
            key[k] = c;
        }
        key[k] = '\0';
        snprintf(g_status, sizeof g_status, "reloading at '%s'", key);
    }
    return NULL;
}

int main(void)
{
    pthread_t rl, st;
    struct status_opts opts = { 3, 16 };

    g_reload.file = tmpfile();
    if (!g_reload.file)
        return 1;
    fputs("# service config\nworkers=8\nport=8080\ntimeout_ms=250\n", g_reload.file);

    pthread_create(&rl, NULL, reloader, NULL);
    pthread_create(&st, NULL, status_thread, &opts);

    sleep_us(800);                  /* operator sends SIGHUP */
    pthread_mutex_lock(&cfg_lock);
    reload_requested = 1;
    pthread_cond_signal(&reload_cond);
    pthread_mutex_unlock(&cfg_lock);

    pthread_join(rl, NULL);
    pthread_join(st, NULL);
    fclose(g_reload.file);
    printf("config: workers=%d port=%d (%s)\n", g_cfg.workers, g_cfg.port, g_status);
    return 0;
}
