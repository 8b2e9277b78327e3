/* config_reload_memcpy.c -- config snapshot taken with memcpy, no lock.
 *
 * The reload thread watches the config file and, when it changes, applies
 * the new log level under cfg_lock.  Request workers take a private copy of
 * the whole config at the start of every request with memcpy() -- without
 * the lock, on the theory that a copy is cheap and "good enough".
 *
 * RACE: config_reload_memcpy.c:44 (write, reloader:
 *       `g_cfg.log_level = lvl;`) vs config_reload_memcpy.c:54 (read,
 *       worker: `memcpy(&cfg, &g_cfg, sizeof cfg);`)
 */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum { LOG_ERROR, LOG_WARN, LOG_INFO, LOG_DEBUG };

struct config {
    int timeout_ms;
    int max_body;
    int log_level;
    char docroot[40];
};

static struct config g_cfg;
static pthread_mutex_t cfg_lock = PTHREAD_MUTEX_INITIALIZER;

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static int debug_lines, served;

static int read_level_from_file(int generation)
{
    return generation == 0 ? LOG_INFO : LOG_DEBUG;
}

static void *reload_thread(void *arg)
{
    (void)arg;
    usleep(1500);                      /* inotify: config file changed */
    int lvl = read_level_from_file(1);
    pthread_mutex_lock(&cfg_lock);
    g_cfg.log_level = lvl;
    pthread_mutex_unlock(&cfg_lock);
    return NULL;
}

static void *worker(void *arg)
{
    int id = (int)(long)arg;
    for (int req = 0; req < 8; req++) {
        struct config cfg;
        memcpy(&cfg, &g_cfg, sizeof cfg);

        usleep(150 + 50 * id);         /* serve the request from cfg.docroot */
        int debug = cfg.log_level >= LOG_DEBUG && strlen(cfg.docroot) < (size_t)cfg.max_body;

        pthread_mutex_lock(&out_lock);
        served++;
        debug_lines += debug;
        pthread_mutex_unlock(&out_lock);
    }
    return NULL;
}

int main(void)
{
    pthread_t rl, w[2];

    g_cfg = (struct config){ .timeout_ms = 3000, .max_body = 1 << 20,
                             .log_level = read_level_from_file(0) };
    strcpy(g_cfg.docroot, "/srv/www");

    pthread_create(&rl, NULL, reload_thread, NULL);
    for (long i = 0; i < 2; i++)
        pthread_create(&w[i], NULL, worker, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(w[i], NULL);
    pthread_join(rl, NULL);

    printf("served %d requests, %d with debug logging\n", served, debug_lines);
    return 0;
}
