/* RACE: c10_bitfield.c:41 (write) vs c10_bitfield.c:67 (write) */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NSLOTS 4

struct slot {
    unsigned in_use : 1;     /* protected by pool_lock */
    unsigned want_flush : 1; /* set by the flusher thread */
    unsigned gen : 6;        /* protected by pool_lock */
    int id;
    char buf[512];
    size_t len;
};

static struct slot slots[NSLOTS];
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;

static struct slot *slot_alloc(void)
{
    pthread_mutex_lock(&pool_lock);
    for (int i = 0; i < NSLOTS; i++) {
        if (!slots[i].in_use) {
            slots[i].in_use = 1;
            slots[i].gen++;
            pthread_mutex_unlock(&pool_lock);
            return &slots[i];
        }
    }
    pthread_mutex_unlock(&pool_lock);
    return NULL;
}

static void slot_release(struct slot *s)
{
    pthread_mutex_lock(&pool_lock);
    s->in_use = 0;
    pthread_mutex_unlock(&pool_lock);
}

/* Handler: builds a reply in its slot, then gives the slot back. */
static void *handler(void *arg)
{
    struct slot *s = arg;
    static const char *hdr[] = { "Content-Type: text/plain", "Cache-Control: no-store",
                                 "Connection: keep-alive" };
    s->len = (size_t)snprintf(s->buf, sizeof s->buf, "HTTP/1.1 200 OK\r\n");
    for (int i = 0; i < 3; i++)
        s->len += (size_t)snprintf(s->buf + s->len, sizeof s->buf - s->len, "%s\r\n", hdr[i]);
    s->len += (size_t)snprintf(s->buf + s->len, sizeof s->buf - s->len, "\r\nslot %d\n", s->id);
    slot_release(s);
    return NULL;
}

/* Flusher: marks slots named in the pending-output list. */
static void *flusher(void *arg)
{
    const int *pending = arg;
    unsigned sum = 0;
    for (int i = 0; pending[i] >= 0; i++) {
        for (int k = 0; k < 200; k++)
            sum = sum * 31 + (unsigned)(pending[i] + k);
        slots[pending[i]].want_flush = 1;
    }
    return (void *)(uintptr_t)sum;
}

int main(void)
{
    static const int pending[] = { 1, -1 };
    pthread_t th, tf;
    void *r;

    for (int i = 0; i < NSLOTS; i++)
        slots[i].id = i;
    struct slot *a = slot_alloc();
    struct slot *b = slot_alloc();
    if (!a || !b)
        return 1;
    memcpy(a->buf, "keepalive\n", 10);
    a->len = 10;

    pthread_create(&th, NULL, handler, b);
    pthread_create(&tf, NULL, flusher, (void *)pending);
    pthread_join(th, NULL);
    pthread_join(tf, &r);

    for (int i = 0; i < NSLOTS; i++)
        printf("slot %d: in_use=%u flush=%u gen=%u len=%zu\n", i, slots[i].in_use,
               slots[i].want_flush, slots[i].gen, slots[i].len);
    printf("flusher cookie %08x\n", (unsigned)(uintptr_t)r);
    return 0;
}
