/* RACE: shard_loader.c:52 (write, main thread: `arg.shard = i`) vs shard_loader.c:35 (read, shard loader thread: `int shard = a->shard`) */
/*
 * Warm-up of a sharded in-memory table: main spawns one loader per shard,
 * handing each the address of the same stack argument block, which it
 * rewrites for the next shard right after pthread_create().
 */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define NSHARDS 4

struct loader_arg {
    const char *table;
    int         shard;
};

static pthread_mutex_t g_load_lock = PTHREAD_MUTEX_INITIALIZER;
static long g_rows_loaded;                  /* guarded by g_load_lock */
static int  g_shards_done;                  /* guarded by g_load_lock */

static long read_shard_file(const char *table, int shard)
{
    long rows = 0;
    for (const char *p = table; *p; p++)
        rows += *p;
    usleep(300);                            /* pretend to hit the disk */
    return rows * 10 + shard;
}

static void *load_shard(void *p)
{
    const struct loader_arg *a = p;
    int shard = a->shard;
    long rows = read_shard_file(a->table, shard);

    pthread_mutex_lock(&g_load_lock);
    g_rows_loaded += rows;
    g_shards_done++;
    pthread_mutex_unlock(&g_load_lock);
    return NULL;
}

int main(void)
{
    pthread_t tids[NSHARDS];
    struct loader_arg arg;

    arg.table = "orders";
    for (int i = 0; i < NSHARDS; i++) {
        arg.shard = i;
        if (pthread_create(&tids[i], NULL, load_shard, &arg) != 0)
            return 1;
    }
    for (int i = 0; i < NSHARDS; i++)
        pthread_join(tids[i], NULL);

    printf("table %s: %d shards loaded\n", arg.table, g_shards_done);
    return g_rows_loaded > 0 ? 0 : 1;
}
