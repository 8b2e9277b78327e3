/* RACE: c02_reduce_total.c:62 (write) vs c02_reduce_total.c:62 (write) */
#define _GNU_SOURCE
#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *vocab[] = {
    "request", "timeout", "cache", "miss", "hit", "upstream", "retry",
    "backend", "latency", "client", "socket", "closed", "reset", "tls",
    "handshake", "header", "body", "chunk", "gzip", "proxy",
};
#define NVOCAB (sizeof vocab / sizeof vocab[0])

unsigned long total_tokens; /* summed over all slices */

struct slice {
    const char *begin, *end;
    unsigned distinct;
    unsigned longest;
};

static uint32_t fnv1a(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    while (n--) {
        h ^= (unsigned char)*s++;
        h *= 16777619u;
    }
    return h;
}

static void *count_slice(void *arg)
{
    struct slice *s = arg;
    unsigned char seen[1024];
    unsigned long ntok = 0;
    const char *p = s->begin;

    memset(seen, 0, sizeof seen);
    s->distinct = 0;
    s->longest = 0;
    while (p < s->end) {
        while (p < s->end && !isalnum((unsigned char)*p))
            p++;
        const char *w = p;
        while (p < s->end && isalnum((unsigned char)*p))
            p++;
        if (p == w)
            continue;
        ntok++;
        if ((unsigned)(p - w) > s->longest)
            s->longest = (unsigned)(p - w);
        uint32_t h = fnv1a(w, (size_t)(p - w)) & 8191;
        if (!(seen[h >> 3] & (1u << (h & 7)))) {
            seen[h >> 3] |= (unsigned char)(1u << (h & 7));
            s->distinct++;
        }
    }
    total_tokens += ntok;
    return NULL;
}

int main(void)
{
    size_t cap = 64 * 1024, len = 0;
    char *text = malloc(cap);
    unsigned seed = 12345;

    if (!text)
        return 1;
    while (len + 64 < cap) {
        seed = seed * 1103515245u + 12345u;
        const char *w = vocab[(seed >> 16) % NVOCAB];
        len += (size_t)snprintf(text + len, cap - len, "%s%s", w,
                                ((seed >> 8) & 7) == 0 ? ".\n" : " ");
    }

    /* split 60/40 on a word boundary */
    size_t cut = len * 6 / 10;
    while (cut < len && text[cut] != ' ' && text[cut] != '\n')
        cut++;
    struct slice sl[2] = {
        { text, text + cut, 0, 0 },
        { text + cut, text + len, 0, 0 },
    };
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&th[i], NULL, count_slice, &sl[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);

    printf("bytes=%zu tokens=%lu\n", len, total_tokens);
    for (int i = 0; i < 2; i++)
        printf("slice %d: distinct=%u longest=%u\n", i, sl[i].distinct, sl[i].longest);
    free(text);
    return 0;
}
