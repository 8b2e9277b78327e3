/* resolver_done_status.c -- status written after "done" was published.
 *
 * A resolver thread looks up a host name and hands the answer back to the
 * caller through a small completion struct (mutex + condvar).  A later edit
 * moved the error-code assignment below the completion block, so the caller
 * can wake up and read lk->status while the resolver is still writing it.
 *
 * RACE: resolver_done_status.c:55 (write, resolver: `lk->status = ...;`
 *       after unlocking) vs resolver_done_status.c:90 (read, main:
 *       `int status = lk->status;` after waking up, before join)
 */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct lookup {
    pthread_mutex_t lock;
    pthread_cond_t cv;
    int done;
    char host[64];
    uint32_t addr;
    int status;
};

static const struct { const char *name; uint32_t addr; } hosts_db[] = {
    { "db.internal", 0x0a000005 },
    { "cache.internal", 0x0a000007 },
    { "api.internal", 0x0a00000c },
};

static uint32_t resolve(const char *name)
{
    usleep(800);                       /* round trip to the DNS server */
    for (size_t i = 0; i < sizeof hosts_db / sizeof hosts_db[0]; i++)
        if (strcmp(hosts_db[i].name, name) == 0)
            return hosts_db[i].addr;
    return 0;
}

static void *resolver_main(void *arg)
{
    struct lookup *lk = arg;
    uint32_t addr = resolve(lk->host);

    pthread_mutex_lock(&lk->lock);
    lk->addr = addr;
    lk->done = 1;
    pthread_cond_signal(&lk->cv);
    pthread_mutex_unlock(&lk->lock);

    lk->status = addr ? 0 : -2;        /* EAI_NONAME */
    return NULL;
}

static struct lookup *lookup_start(const char *host, pthread_t *th)
{
    struct lookup *lk = calloc(1, sizeof *lk);
    pthread_mutex_init(&lk->lock, NULL);
    pthread_cond_init(&lk->cv, NULL);
    snprintf(lk->host, sizeof lk->host, "%s", host);
    if (pthread_create(th, NULL, resolver_main, lk) != 0) {
        free(lk);
        return NULL;
    }
    return lk;
}

static uint32_t lookup_wait(struct lookup *lk)
{
    pthread_mutex_lock(&lk->lock);
    while (!lk->done)
        pthread_cond_wait(&lk->cv, &lk->lock);
    uint32_t addr = lk->addr;
    pthread_mutex_unlock(&lk->lock);
    return addr;
}

int main(void)
{
    pthread_t th;
    struct lookup *lk = lookup_start("cache.internal", &th);
    if (!lk)
        return 1;

    uint32_t addr = lookup_wait(lk);
    int status = lk->status;
    if (status != 0) {
        printf("lookup of %s failed (%d)\n", lk->host, status);
    } else {
        printf("%s is %u.%u.%u.%u\n", lk->host, addr >> 24, (addr >> 16) & 255,
               (addr >> 8) & 255, addr & 255);
    }
    pthread_join(th, NULL);
    pthread_cond_destroy(&lk->cv);
    pthread_mutex_destroy(&lk->lock);
    free(lk);
    return 0;
}
