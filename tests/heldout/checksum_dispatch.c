/* checksum_dispatch.c -- double-checked lazy selection of an implementation.
 *
 * Four block-verifier threads start together and each asks get_ops() for
 * the checksum implementation.  The first caller picks one (under ops_lock)
 * and caches the pointer in a plain global; later callers read it without
 * the lock.  The ops tables themselves are static const, so only the
 * pointer is shared mutable state.
 *
 * RACE: checksum_dispatch.c:64 (write, `g_ops = select_ops();` under lock)
 *   vs  checksum_dispatch.c:60 (read, unlocked fast path `ops = g_ops;`)
 */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct checksum_ops {
    const char *name;
    uint32_t (*sum)(const uint8_t *p, size_t n);
};

static uint32_t adler32(const uint8_t *p, size_t n)
{
    uint32_t a = 1, b = 0;
    for (size_t i = 0; i < n; i++) {
        a = (a + p[i]) % 65521;
        b = (b + a) % 65521;
    }
    return (b << 16) | a;
}

static uint32_t fletcher32(const uint8_t *p, size_t n)
{
    uint32_t a = 0, b = 0;
    for (size_t i = 0; i < n; i++) {
        a = (a + p[i]) % 65535;
        b = (b + a) % 65535;
    }
    return (b << 16) | a;
}

static const struct checksum_ops adler_ops = { "adler32", adler32 };
static const struct checksum_ops fletcher_ops = { "fletcher32", fletcher32 };

static const struct checksum_ops *g_ops;
static pthread_mutex_t ops_lock = PTHREAD_MUTEX_INITIALIZER;

static const struct checksum_ops *select_ops(void)
{
    const char *want = getenv("BLOCK_CHECKSUM");
    if (want && strcmp(want, "fletcher32") == 0)
        return &fletcher_ops;
    return &adler_ops;
}

static const struct checksum_ops *get_ops(void)
{
    const struct checksum_ops *ops = g_ops;
    if (ops == NULL) {
        pthread_mutex_lock(&ops_lock);
        if (g_ops == NULL)
            g_ops = select_ops();
        ops = g_ops;
        pthread_mutex_unlock(&ops_lock);
    }
    return ops;
}

#define NBLOCKS 4
#define BLOCK_SIZE 4096

static uint8_t disk[NBLOCKS][BLOCK_SIZE];
static uint32_t stored_sum[NBLOCKS];

struct verify_job {
    int block;
    int ok;
};

static void *verify_block(void *arg)
{
    struct verify_job *job = arg;
    const struct checksum_ops *ops = get_ops();
    job->ok = ops->sum(disk[job->block], BLOCK_SIZE) == stored_sum[job->block];
    return NULL;
}

int main(void)
{
    pthread_t th[NBLOCKS];
    struct verify_job jobs[NBLOCKS];

    for (int b = 0; b < NBLOCKS; b++) {
        for (int i = 0; i < BLOCK_SIZE; i++)
            disk[b][i] = (uint8_t)(i * 31 + b);
        stored_sum[b] = adler32(disk[b], BLOCK_SIZE);
    }
    disk[2][100] ^= 0x40;              /* one corrupted block */

    for (int b = 0; b < NBLOCKS; b++) {
        jobs[b].block = b;
        pthread_create(&th[b], NULL, verify_block, &jobs[b]);
    }
    int bad = 0;
    for (int b = 0; b < NBLOCKS; b++) {
        pthread_join(th[b], NULL);
        bad += !jobs[b].ok;
    }
    printf("verified %d blocks, %d corrupted\n", NBLOCKS, bad);
    return 0;
}
