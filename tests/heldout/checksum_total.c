/* RACE: checksum_total.c:31 (write, checksum worker: `g_total += local`) vs checksum_total.c:31 (write, another checksum worker: `g_total += local`) */
/*
 * Parallel integrity check of an in-memory image: workers grab 4 KiB
 * blocks through an atomic cursor, sum them locally and fold their
 * partial sum into the global total when they run out of blocks.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#define NBLOCKS   64
#define BLOCKSZ   4096
#define NWORKERS  4

static unsigned char g_image[NBLOCKS * BLOCKSZ];
static atomic_int g_next_block;
static unsigned long g_total;               /* sum of all bytes */

static void *checksum_worker(void *arg)
{
    (void)arg;
    unsigned long local = 0;
    int b;

    while ((b = atomic_fetch_add_explicit(&g_next_block, 1,
                                          memory_order_relaxed)) < NBLOCKS) {
        const unsigned char *p = g_image + (size_t)b * BLOCKSZ;
        for (int i = 0; i < BLOCKSZ; i++)
            local += p[i];
    }
    g_total += local;
    return NULL;
}

int main(void)
{
    pthread_t tids[NWORKERS];
    unsigned long expect = 0;

    for (size_t i = 0; i < sizeof g_image; i++) {
        g_image[i] = (unsigned char)((i * 131u) ^ (i >> 7));
        expect += g_image[i];
    }

    for (int i = 0; i < NWORKERS; i++)
        pthread_create(&tids[i], NULL, checksum_worker, NULL);
    for (int i = 0; i < NWORKERS; i++)
        pthread_join(tids[i], NULL);

    printf("image checksum %lu (%s)\n", g_total,
           g_total == expect ? "ok" : "MISMATCH");
    return 0;
}
