/* A routing table: an updater inserts routes under the write lock and
 * doubles the bucket array when it gets crowded; lookups take the read
 * lock. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct route { unsigned prefix; int port; struct route *next; };

struct rtable {
    pthread_rwlock_t lock;
    struct route **buckets;
    unsigned mask;              /* nbuckets - 1 */
    unsigned count;
};

static struct rtable rt = { .lock = PTHREAD_RWLOCK_INITIALIZER };

static unsigned hash_prefix(unsigned p) { return (p * 2654435761u) >> 7; }

static void rt_grow(struct rtable *t)
{
    unsigned nmask = t->mask * 2 + 1;
    struct route **nb = calloc(nmask + 1, sizeof *nb);
    for (unsigned i = 0; i <= t->mask; i++)
        for (struct route *r = t->buckets[i], *next; r; r = next) {
            next = r->next;
            r->next = nb[hash_prefix(r->prefix) & nmask];
            nb[hash_prefix(r->prefix) & nmask] = r;
        }
    free(t->buckets);
    t->buckets = nb;
    t->mask = nmask;
}

static void rt_insert(struct rtable *t, unsigned prefix, int port)
{
    struct route *r = malloc(sizeof *r);
    r->prefix = prefix;
    r->port = port;
    pthread_rwlock_wrlock(&t->lock);
    if (++t->count > 2 * (t->mask + 1))
        rt_grow(t);
    unsigned b = hash_prefix(prefix) & t->mask;
    r->next = t->buckets[b];
    t->buckets[b] = r;
    pthread_rwlock_unlock(&t->lock);
}

static int rt_lookup(struct rtable *t, unsigned prefix)
{
    unsigned b = hash_prefix(prefix) & t->mask;
    int port = -1;
    pthread_rwlock_rdlock(&t->lock);
    for (struct route *r = t->buckets[b]; r; r = r->next)
        if (r->prefix == prefix)
            port = r->port;
    pthread_rwlock_unlock(&t->lock);
    return port;
}

static void *updater(void *arg)
{
    (void)arg;
    for (unsigned i = 0; i < 24; i++) {
        rt_insert(&rt, 0x0a000000u + (i << 8), (int)i % 4);
        if (i % 6 == 5)
            usleep(200);        /* next batch of route announcements */
    }
    return NULL;
}

static void *forwarder(void *arg)
{
    static const unsigned dst[] = { 0, 1, 2, 5, 9, 23 };
    int *found = arg;
    for (unsigned i = 0; i < 6; i++) {
        /* a packet with no route yet is held and retried */
        for (int tries = 0; tries < 100; tries++) {
            usleep(150);        /* next packet / retry */
            if (rt_lookup(&rt, 0x0a000000u + (dst[i] << 8)) >= 0) {
                (*found)++;
                break;
            }
        }
    }
    return NULL;
}

int main(void)
{
    pthread_t u, f;
    int found = 0;

    rt.mask = 7;
    rt.buckets = calloc(rt.mask + 1, sizeof *rt.buckets);
    pthread_create(&u, NULL, updater, NULL);
    pthread_create(&f, NULL, forwarder, &found);
    pthread_join(u, NULL);
    pthread_join(f, NULL);

    for (unsigned i = 0; i <= rt.mask; i++)
        for (struct route *r = rt.buckets[i], *next; r; r = next) {
            next = r->next;
            free(r);
        }
    free(rt.buckets);
    printf("routes %u, forwarded %d\n", rt.count, found);
    return 0;
}
