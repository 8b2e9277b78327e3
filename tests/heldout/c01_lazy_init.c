/* RACE: c01_lazy_init.c:64 (write) vs c01_lazy_init.c:54 (read) */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Checksum backend, resolved on first use (poor man's ifunc). */
struct cksum_impl {
    const char *name;
    uint32_t (*update)(uint32_t crc, const unsigned char *p, size_t n);
};

static uint32_t crc_tab[256];

static void crc_tab_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        crc_tab[i] = c;
    }
}

static uint32_t crc_bitwise(uint32_t crc, const unsigned char *p, size_t n)
{
    crc = ~crc;
    while (n--) {
        crc ^= *p++;
        for (int k = 0; k < 8; k++)
            crc = (crc & 1) ? 0xEDB88320u ^ (crc >> 1) : crc >> 1;
    }
    return ~crc;
}

static uint32_t crc_sliced(uint32_t crc, const unsigned char *p, size_t n)
{
    crc = ~crc;
    while (n--)
        crc = crc_tab[(crc ^ *p++) & 0xff] ^ (crc >> 8);
    return ~crc;
}

static const struct cksum_impl impl_bitwise = { "bitwise", crc_bitwise };
static const struct cksum_impl impl_table = { "table", crc_sliced };

const struct cksum_impl *cksum_active;
static pthread_mutex_t cksum_init_lock = PTHREAD_MUTEX_INITIALIZER;

static const struct cksum_impl *cksum_get(void)
{
    const struct cksum_impl *impl = cksum_active;
    if (impl == NULL) {
        pthread_mutex_lock(&cksum_init_lock);
        impl = cksum_active;
        if (impl == NULL) {
            const char *want = getenv("CKSUM_IMPL");
            if (want && strcmp(want, "bitwise") == 0)
                impl = &impl_bitwise;
            else
                impl = &impl_table;
            cksum_active = impl;
        }
        pthread_mutex_unlock(&cksum_init_lock);
    }
    return impl;
}

struct blob {
    char name[24];
    unsigned char data[3072];
    size_t len;
    uint32_t crc;
};

#define NBLOBS 3
static pthread_barrier_t start_gate;

static void *verify_blobs(void *arg)
{
    struct blob *blobs = arg;

    pthread_barrier_wait(&start_gate);
    for (int i = 0; i < NBLOBS; i++) {
        const struct cksum_impl *impl = cksum_get();
        blobs[i].crc = impl->update(0, blobs[i].data, blobs[i].len);
    }
    return NULL;
}

int main(void)
{
    static struct blob blobs[2][NBLOBS];
    pthread_t th[2];

    crc_tab_init();
    for (int t = 0; t < 2; t++) {
        for (int i = 0; i < NBLOBS; i++) {
            struct blob *b = &blobs[t][i];
            snprintf(b->name, sizeof b->name, "pack-%d-%d.idx", t, i);
            b->len = 1024 + 512 * (size_t)i + 100 * (size_t)t;
            for (size_t k = 0; k < b->len; k++)
                b->data[k] = (unsigned char)(k * 31 + (size_t)t * 7 + (size_t)i);
        }
    }

    pthread_barrier_init(&start_gate, NULL, 2);
    for (int t = 0; t < 2; t++)
        pthread_create(&th[t], NULL, verify_blobs, blobs[t]);
    for (int t = 0; t < 2; t++)
        pthread_join(th[t], NULL);
    pthread_barrier_destroy(&start_gate);

    for (int t = 0; t < 2; t++)
        for (int i = 0; i < NBLOBS; i++)
            printf("%-16s %5zu bytes crc32=%08x\n", blobs[t][i].name,
                   blobs[t][i].len, blobs[t][i].crc);
    printf("backend: %s\n", cksum_get()->name);
    return 0;
}
