/*
 * d02_lazy_cksum.c -- a block store verifies the checksum of each block it
 * loads.  The checksum implementation is picked on first use (it can be
 * overridden with CKSUM_IMPL) and cached in a plain static pointer.  Three
 * loader threads are released together by a barrier and each verifies its own
 * blocks, so the first calls to active_impl() overlap: the unsynchronised
 * check of g_impl races with the store made by whichever thread initialises
 * it.  The implementations themselves are immutable tables, so only the
 * pointer races.
 *
 * RACE: d02_lazy_cksum.c:77 (write, loader thread initialising: `g_impl = impl;`) vs d02_lazy_cksum.c:73 (read, other loader thread: `const struct cksum_impl *impl = g_impl;`)
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NLOADERS 3
#define BLOCKS_PER_LOADER 4
#define BLOCK_SIZE 2048

struct cksum_impl {
    const char *name;
    uint32_t (*run)(const unsigned char *p, size_t n);
};

static uint32_t adler32(const unsigned char *p, size_t n)
{
    uint32_t a = 1, b = 0;

    for (size_t i = 0; i < n; i++) {
        a = (a + p[i]) % 65521u;
        b = (b + a) % 65521u;
    }
    return (b << 16) | a;
}

static uint32_t fletcher32(const unsigned char *p, size_t n)
{
    uint32_t s1 = 0xffff, s2 = 0xffff;

    for (size_t i = 0; i + 1 < n; i += 2) {
        s1 = (s1 + (uint32_t)(p[i] | (p[i + 1] << 8))) % 65535u;
        s2 = (s2 + s1) % 65535u;
    }
    return (s2 << 16) | s1;
}

static const struct cksum_impl impls[] = {
    { "adler32", adler32 },
    { "fletcher32", fletcher32 },
};

static const struct cksum_impl *g_impl;

static const struct cksum_impl *pick_impl(void)
{
    const char *want = getenv("CKSUM_IMPL");

    if (want != NULL) {
        for (size_t i = 0; i < sizeof(impls) / sizeof(impls[0]); i++)
            if (strcmp(want, impls[i].name) == 0)
                return &impls[i];
    }
    return &impls[0];
}

static const struct cksum_impl *active_impl(void)
{
    const struct cksum_impl *impl = g_impl;

    if (impl == NULL) {
        impl = pick_impl();
        g_impl = impl;
    }
    return impl;
}

struct block {
    unsigned char data[BLOCK_SIZE];
    uint32_t stored_sum;
};

struct loader {
    int id;
    struct block *blocks;
    pthread_barrier_t *start;
    int bad;
};

static struct block store[NLOADERS * BLOCKS_PER_LOADER];

static void *loader_main(void *arg)
{
    struct loader *ld = arg;

    pthread_barrier_wait(ld->start);
    for (int i = 0; i < BLOCKS_PER_LOADER; i++) {
        const struct block *b = &ld->blocks[i];
        if (active_impl()->run(b->data, sizeof(b->data)) != b->stored_sum)
            ld->bad++;
    }
    return NULL;
}

static void fill_store(void)
{
    uint32_t x = 2463534242u;

    for (size_t i = 0; i < sizeof(store) / sizeof(store[0]); i++) {
        for (size_t j = 0; j < BLOCK_SIZE; j++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            store[i].data[j] = (unsigned char)x;
        }
        store[i].stored_sum = pick_impl()->run(store[i].data, BLOCK_SIZE);
    }
    store[5].stored_sum ^= 1u;  /* one corrupted block */
}

int main(void)
{
    pthread_t tids[NLOADERS];
    struct loader loaders[NLOADERS];
    pthread_barrier_t start;
    int bad = 0;

    fill_store();
    pthread_barrier_init(&start, NULL, NLOADERS);
    for (int i = 0; i < NLOADERS; i++) {
        loaders[i].id = i;
        loaders[i].blocks = &store[i * BLOCKS_PER_LOADER];
        loaders[i].start = &start;
        loaders[i].bad = 0;
        pthread_create(&tids[i], NULL, loader_main, &loaders[i]);
    }
    for (int i = 0; i < NLOADERS; i++) {
        pthread_join(tids[i], NULL);
        bad += loaders[i].bad;
    }
    pthread_barrier_destroy(&start);
    printf("verified %d blocks with %s, %d bad\n",
           NLOADERS * BLOCKS_PER_LOADER, g_impl->name, bad);
    return 0;
}
