/*
 * archive_codec_default.c - parallel archiver picking its default codec lazily.
 *
 * Each worker compresses one input file and needs the default codec to size
 * its output buffer.  The codec is looked up on first use and cached in a
 * plain static pointer; both workers are started together and nobody
 * initialises it up front.
 *
 * Racing pair:
 *   W :46 default_codec = c in get_default_codec() (first worker) /
 *   R :38 c = default_codec check in get_default_codec() (second worker)
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct codec {
    const char *name;
    int level;
    size_t (*bound)(size_t n);
};

static size_t lz_bound(size_t n) { return n + n / 255 + 16; }
static size_t raw_bound(size_t n) { return n; }

static const struct codec codecs[] = {
    { "lz4", 1, lz_bound },
    { "store", 0, raw_bound },
};

static const struct codec *default_codec;

static const struct codec *get_default_codec(void)
{
    const struct codec *c = default_codec;

    if (c == NULL) {
        const char *want = getenv("ARCHIVER_CODEC");
        c = &codecs[0];
        for (size_t i = 0; want && i < sizeof codecs / sizeof codecs[0]; i++)
            if (strcmp(codecs[i].name, want) == 0)
                c = &codecs[i];
        default_codec = c;
    }
    return c;
}

struct input {
    const char *path;
    size_t size;
    long read_us;            /* how long reading the file takes */
    size_t out_cap;          /* result, read by main after join */
};

static void sleep_us(long us)
{
    struct timespec ts = { us / 1000000L, (us % 1000000L) * 1000L };
    nanosleep(&ts, NULL);
}

static void *compress_file(void *arg)
{
    struct input *in = arg;

    sleep_us(in->read_us);   /* open + read the input */
    const struct codec *c = get_default_codec();
    in->out_cap = c->bound(in->size);
    return NULL;
}

int main(void)
{
    struct input inputs[2] = {
        { "notes.txt", 4096, 100, 0 },
        { "photo.raw", 1 << 20, 1200, 0 },
    };
    pthread_t tid[2];

    for (int i = 0; i < 2; i++)
        if (pthread_create(&tid[i], NULL, compress_file, &inputs[i]) != 0)
            return 1;
    for (int i = 0; i < 2; i++)
        pthread_join(tid[i], NULL);

    printf("archive buffers: %zu + %zu bytes\n", inputs[0].out_cap, inputs[1].out_cap);
    return 0;
}
