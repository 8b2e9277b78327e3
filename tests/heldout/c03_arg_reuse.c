/* RACE: c03_arg_reuse.c:71 (write) vs c03_arg_reuse.c:33 (read) */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NSHARDS 3

static const char *const shard_text[NSHARDS] = {
    "uid.alice=1001\nuid.bob=1002\nuid.carol=1003\n# comment\nuid.dave=1004\n",
    "grp.wheel=10\ngrp.staff=50\nbroken line\ngrp.users=100\ngrp.audio=29\n",
    "svc.http=80\nsvc.https=443\nsvc.ssh=22\nsvc.smtp=25\nsvc.dns=53\nsvc.ntp=123\n",
};

struct shard_arg {
    int shard;
    const char *const *texts;
};

struct shard_summary {
    int shard;
    int entries;
    int bad;
    long value_sum;
    uint32_t digest;
};

static void *load_shard(void *p)
{
    const struct shard_arg *a = p;
    int shard = a->shard;
    const char *s = a->texts[shard];
    struct shard_summary *sum = calloc(1, sizeof *sum);

    if (!sum)
        return NULL;
    sum->shard = shard;
    sum->digest = 2166136261u;
    while (*s) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        if (n > 0 && s[0] != '#') {
            const char *eq = memchr(s, '=', n);
            if (!eq) {
                sum->bad++;
            } else {
                sum->entries++;
                sum->value_sum += strtol(eq + 1, NULL, 10);
                for (const char *k = s; k < eq; k++) {
                    sum->digest ^= (unsigned char)*k;
                    sum->digest *= 16777619u;
                }
            }
        }
        s += n + (nl ? 1 : 0);
    }
    return sum;
}

int main(void)
{
    pthread_t tids[NSHARDS];
    struct shard_arg *arg = malloc(sizeof *arg);

    if (!arg)
        return 1;
    arg->texts = shard_text;
    for (int i = 0; i < NSHARDS; i++) {
        arg->shard = i;
        if (pthread_create(&tids[i], NULL, load_shard, arg) != 0) {
            perror("pthread_create");
            return 1;
        }
    }

    int total = 0;
    for (int i = 0; i < NSHARDS; i++) {
        struct shard_summary *sum;
        pthread_join(tids[i], (void **)&sum);
        if (!sum)
            continue;
        printf("shard %d: %d entries, %d bad, sum=%ld digest=%08x\n", sum->shard,
               sum->entries, sum->bad, sum->value_sum, sum->digest);
        total += sum->entries;
        free(sum);
    }
    printf("loaded %d entries\n", total);
    free(arg);
    return 0;
}
