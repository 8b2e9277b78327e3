/*
 * d03_log_reduce.c -- an access-log analyser splits the parsed request log
 * into one shard per worker.  Each worker tallies status classes and response
 * bytes for its shard into a private result, and at the very end folds its
 * byte count into the global g_bytes_served with a plain "+=".  Four workers
 * finish at about the same time, so the read-modify-writes of the shared total
 * race with each other.  Everything else is per-worker and read by main after
 * pthread_join().
 *
 * RACE: d03_log_reduce.c:60 (read-modify-write, worker thread: `g_bytes_served += res->bytes;`) vs d03_log_reduce.c:60 (read-modify-write, another worker thread: `g_bytes_served += res->bytes;`)
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#define NWORKERS 4
#define NRECORDS 24000

struct log_record {
    uint32_t client_ip;
    uint16_t status;
    uint16_t method;
    uint32_t bytes;
};

struct shard_result {
    unsigned long ok, redirect, client_err, server_err;
    unsigned long long bytes;
};

struct shard {
    const struct log_record *recs;
    size_t nrecs;
    struct shard_result res;
};

static struct log_record access_log[NRECORDS];
static unsigned long long g_bytes_served;

static void tally(const struct log_record *r, struct shard_result *res)
{
    switch (r->status / 100) {
    case 2: res->ok++; break;
    case 3: res->redirect++; break;
    case 4: res->client_err++; break;
    default: res->server_err++; break;
    }
    if (r->status < 400)
        res->bytes += r->bytes;
}

static void *scan_shard(void *arg)
{
    struct shard *sh = arg;
    struct shard_result *res = &sh->res;

    for (size_t i = 0; i < sh->nrecs; i++)
        tally(&sh->recs[i], res);
    g_bytes_served += res->bytes;
    return NULL;
}

static void synth_log(void)
{
    static const uint16_t codes[] = { 200, 200, 200, 304, 200, 404, 200, 500, 301, 200, 403 };
    uint32_t x = 12345;

    for (size_t i = 0; i < NRECORDS; i++) {
        x = x * 1103515245u + 12345u;
        access_log[i].client_ip = 0x0a000000u | (x >> 12);
        access_log[i].status = codes[(x >> 16) % (sizeof(codes) / sizeof(codes[0]))];
        access_log[i].method = (uint16_t)((x >> 8) & 3);
        access_log[i].bytes = 200 + ((x >> 4) & 0xfff);
    }
}

int main(void)
{
    pthread_t tids[NWORKERS];
    struct shard shards[NWORKERS] = { 0 };
    struct shard_result all = { 0 };
    size_t per = NRECORDS / NWORKERS;

    synth_log();
    for (int i = 0; i < NWORKERS; i++) {
        shards[i].recs = &access_log[i * per];
        shards[i].nrecs = per;
        pthread_create(&tids[i], NULL, scan_shard, &shards[i]);
    }
    for (int i = 0; i < NWORKERS; i++) {
        pthread_join(tids[i], NULL);
        all.ok += shards[i].res.ok;
        all.redirect += shards[i].res.redirect;
        all.client_err += shards[i].res.client_err;
        all.server_err += shards[i].res.server_err;
    }
    printf("2xx=%lu 3xx=%lu 4xx=%lu 5xx=%lu bytes=%llu\n", all.ok, all.redirect,
           all.client_err, all.server_err, g_bytes_served);
    return 0;
}
