/*
 * dedup_bytes_saved.c - backup tool estimating dedup savings in parallel.
 *
 * The chunk list is split between two scanner threads.  Each one looks its
 * chunks up in a read-only fingerprint index built beforehand, sums the
 * bytes a duplicate would save locally, and at the end folds its partial
 * sum into the global total without any lock.
 *
 * Racing pair:
 *   RW :66 saved_total += saved in scan_chunks() (scanner 0) /
 *   RW :66 saved_total += saved in scan_chunks() (scanner 1)
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define NCHUNKS   64
#define CHUNK_SZ  1024
#define INDEX_SZ  256

static unsigned char data[NCHUNKS * CHUNK_SZ];
static uint64_t index_tab[INDEX_SZ];      /* open addressing, 0 = empty */
static unsigned long long saved_total;

static uint64_t fnv1a(const unsigned char *p, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    return h | 1;
}

static int index_has(uint64_t h)
{
    for (size_t i = h % INDEX_SZ, n = 0; n < INDEX_SZ; i = (i + 1) % INDEX_SZ, n++) {
        if (index_tab[i] == h)
            return 1;
        if (index_tab[i] == 0)
            return 0;
    }
    return 0;
}

static void index_add(uint64_t h)
{
    size_t i = h % INDEX_SZ;
    while (index_tab[i] != 0 && index_tab[i] != h)
        i = (i + 1) % INDEX_SZ;
    index_tab[i] = h;
}

struct range { int first, last; };

static void *scan_chunks(void *arg)
{
    const struct range *r = arg;
    unsigned long long saved = 0;

    for (int c = r->first; c < r->last; c++)
        if (index_has(fnv1a(data + (size_t)c * CHUNK_SZ, CHUNK_SZ)))
            saved += CHUNK_SZ;
    saved_total += saved;
    return NULL;
}

int main(void)
{
    /* synthetic backup stream: every third chunk repeats an older one */
    for (int c = 0; c < NCHUNKS; c++) {
        int src = (c % 3 == 2) ? c - 2 : c;
        memset(data + (size_t)c * CHUNK_SZ, 'a' + src % 26, CHUNK_SZ);
        data[(size_t)c * CHUNK_SZ] = (unsigned char)src;
    }
    /* fingerprints already present in the previous backup */
    for (int c = 0; c < NCHUNKS; c += 4)
        index_add(fnv1a(data + (size_t)c * CHUNK_SZ, CHUNK_SZ));

    struct range ranges[2] = { { 0, NCHUNKS / 2 }, { NCHUNKS / 2, NCHUNKS } };
    pthread_t tid[2];
    for (int i = 0; i < 2; i++)
        if (pthread_create(&tid[i], NULL, scan_chunks, &ranges[i]) != 0)
            return 1;
    for (int i = 0; i < 2; i++)
        pthread_join(tid[i], NULL);

    printf("dedup would save %llu KiB\n", saved_total / 1024);
    return 0;
}
