/* RACE: blob_refcount.c:75 (write, rejecting handler thread: `body->refs--`) vs blob_refcount.c:43 (write, accepting handler thread: `last = (--b->refs == 0)`) */
/*
 * An upload body is shared between the handlers that validate it.  The
 * normal path drops the reference with blob_put(), which takes the blob
 * lock; the early-reject path decrements the count by hand.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct blob {
    pthread_mutex_t lock;
    int             refs;                   /* guarded by lock */
    size_t          len;
    unsigned char  *data;
};

static struct blob *blob_new(size_t len)
{
    struct blob *b = calloc(1, sizeof *b);
    if (!b || !(b->data = malloc(len)))
        abort();
    pthread_mutex_init(&b->lock, NULL);
    b->refs = 1;
    b->len = len;
    for (size_t i = 0; i < len; i++)
        b->data[i] = (unsigned char)(i * 7 + 3);
    return b;
}

static void blob_get(struct blob *b)
{
    pthread_mutex_lock(&b->lock);
    b->refs++;
    pthread_mutex_unlock(&b->lock);
}

static int blob_put(struct blob *b)
{
    int last;
    pthread_mutex_lock(&b->lock);
    last = (--b->refs == 0);
    pthread_mutex_unlock(&b->lock);
    if (last) {
        pthread_mutex_destroy(&b->lock);
        free(b->data);
        free(b);
    }
    return last;
}

struct request {
    int          id;
    unsigned     claimed_crc;
    struct blob *body;
    int          accepted;
};

static unsigned crc_of(const struct blob *b)
{
    unsigned h = 2166136261u;
    for (size_t i = 0; i < b->len; i++)
        h = (h ^ b->data[i]) * 16777619u;
    return h;
}

static void *handle_upload(void *p)
{
    struct request *r = p;
    struct blob *body = r->body;

    if (crc_of(body) != r->claimed_crc) {
        /* reject early: drop our reference and bail out */
        body->refs--;
        r->accepted = 0;
        return NULL;
    }
    r->accepted = 1;
    blob_put(body);
    return NULL;
}

int main(void)
{
    struct blob *b = blob_new(64 * 1024);
    unsigned good = crc_of(b);
    struct request reqs[2] = {
        { 1, good, b, -1 },
        { 2, good ^ 0x5a5a, b, -1 },
    };
    pthread_t tids[2];

    for (int i = 0; i < 2; i++) {
        blob_get(b);
        pthread_create(&tids[i], NULL, handle_upload, &reqs[i]);
    }
    for (int i = 0; i < 2; i++)
        pthread_join(tids[i], NULL);

    int freed = blob_put(b);
    printf("req %d %s, req %d %s, body %s\n",
           reqs[0].id, reqs[0].accepted ? "accepted" : "rejected",
           reqs[1].id, reqs[1].accepted ? "accepted" : "rejected",
           freed ? "released" : "leaked");
    return 0;
}
