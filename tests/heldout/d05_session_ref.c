/*
 * d05_session_ref.c -- a client session object is shared by an upload thread
 * and an inbound-message thread; each holds a reference taken (under
 * s->lock) by the code that started it, and main keeps its own.  The normal
 * way to drop a reference is session_put(), which takes s->lock.  The
 * uploader's quota-rejection path, however, releases its reference with a
 * bare decrement, racing with the inbound thread's locked session_put().
 *
 * RACE: d05_session_ref.c:94 (read-modify-write, uploader thread on the quota error path: `s->refs--;`) vs d05_session_ref.c:78 (read-modify-write, inbound thread in session_put: `if (--s->refs == 0) {`)
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct message {
    uint32_t seq;
    char body[48];
};

struct session {
    pthread_mutex_t lock;
    int refs;
    int id;
    size_t max_upload;
    const struct message *inbox;
    size_t inbox_len;
};

struct upload {
    const char *name;
    size_t size;
};

struct uploader_args {
    struct session *s;
    const struct upload *up;
    int result;
};

struct inbound_args {
    struct session *s;
    uint32_t digest;
};

static int sessions_freed;

static struct session *session_new(int id, size_t max_upload,
                                   const struct message *inbox, size_t n)
{
    struct session *s = calloc(1, sizeof(*s));

    if (s == NULL)
        return NULL;
    pthread_mutex_init(&s->lock, NULL);
    s->refs = 1;
    s->id = id;
    s->max_upload = max_upload;
    s->inbox = inbox;
    s->inbox_len = n;
    return s;
}

static void session_get(struct session *s)
{
    pthread_mutex_lock(&s->lock);
    s->refs++;
    pthread_mutex_unlock(&s->lock);
}

static void session_put(struct session *s)
{
    int last = 0;

    pthread_mutex_lock(&s->lock);
    if (--s->refs == 0) {
        last = 1;
    }
    pthread_mutex_unlock(&s->lock);
    if (last) {
        pthread_mutex_destroy(&s->lock);
        free(s);
        sessions_freed++;
    }
}

/* Consumes the caller's reference on s. */
static int upload_file(struct session *s, const struct upload *up)
{
    if (up->size > s->max_upload) {
        /* over quota: reject and drop our reference */
        s->refs--;
        return -1;
    }
    /* ... stream the file ... */
    session_put(s);
    return 0;
}

static void *uploader_main(void *arg)
{
    struct uploader_args *ua = arg;

    ua->result = upload_file(ua->s, ua->up);
    return NULL;
}

static void *inbound_main(void *arg)
{
    struct inbound_args *ia = arg;
    struct session *s = ia->s;
    uint32_t h = 2166136261u;

    for (size_t i = 0; i < s->inbox_len; i++) {
        const struct message *m = &s->inbox[i];
        h = (h ^ m->seq) * 16777619u;
        for (size_t j = 0; j < strlen(m->body); j++)
            h = (h ^ (unsigned char)m->body[j]) * 16777619u;
    }
    ia->digest = h;
    session_put(s);
    return NULL;
}

int main(void)
{
    static const struct message inbox[] = {
        { 1, "HELLO v2" }, { 2, "AUTH token=5f3a" }, { 3, "LIST /photos" },
        { 4, "PING" }, { 5, "QUIT" },
    };
    static const struct upload big = { "holiday.mov", 900u << 20 };
    pthread_t up_tid, in_tid;
    struct session *s = session_new(42, 64u << 20, inbox, sizeof(inbox) / sizeof(inbox[0]));

    if (s == NULL)
        return 1;
    struct uploader_args ua = { s, &big, 0 };
    struct inbound_args ia = { s, 0 };

    session_get(s);                 /* for the uploader */
    session_get(s);                 /* for the inbound thread */
    pthread_create(&up_tid, NULL, uploader_main, &ua);
    pthread_create(&in_tid, NULL, inbound_main, &ia);

    pthread_join(up_tid, NULL);
    pthread_join(in_tid, NULL);
    printf("upload of %s: %s; inbox digest %08x\n", big.name,
           ua.result == 0 ? "ok" : "rejected (over quota)", (unsigned)ia.digest);
    session_put(s);
    printf("sessions freed: %d\n", sessions_freed);
    return 0;
}
