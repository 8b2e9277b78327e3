/* session_refcount.c -- reference dropped on an error path without the lock.
 *
 * A client session is shared by the reply sender and the replication
 * mirror; each holds a reference and drops it with session_put(), which
 * takes s->lock.  The sender's error path (write to a dead socket) drops
 * its reference by hand and forgets the lock.
 *
 * RACE: session_refcount.c:71 (read+write `s->refs--;` on the error path,
 *       one thread) vs session_refcount.c:54 (read+write `--s->refs` in
 *       session_put(), the other thread)
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct session {
    pthread_mutex_t lock;
    int refs;
    int closed;
    char user[32];
};

struct sender {
    struct session *s;
    int fd;
    const char *what;
    int err;
};

static struct session *session_new(const char *user)
{
    struct session *s = calloc(1, sizeof *s);
    pthread_mutex_init(&s->lock, NULL);
    s->refs = 1;
    snprintf(s->user, sizeof s->user, "%s", user);
    return s;
}

static void session_get(struct session *s)
{
    pthread_mutex_lock(&s->lock);
    s->refs++;
    pthread_mutex_unlock(&s->lock);
}

static int session_put(struct session *s)
{
    pthread_mutex_lock(&s->lock);
    int last = --s->refs == 0;
    if (last)
        s->closed = 1;
    pthread_mutex_unlock(&s->lock);
    return last;
}

static void *send_reply(void *arg)
{
    struct sender *snd = arg;
    struct session *s = snd->s;
    char msg[64];
    int n = snprintf(msg, sizeof msg, "%s: OK %s\n", snd->what, s->user);

    usleep(300);                       /* build the rest of the reply */
    if (write(snd->fd, msg, (size_t)n) < 0) {
        snd->err = errno;
        s->refs--;                     /* drop our reference and bail out */
        return NULL;
    }
    session_put(s);
    return NULL;
}

int main(void)
{
    struct session *s = session_new("alice");
    int devnull = open("/dev/null", O_WRONLY);
    struct sender reply = { s, devnull, "reply", 0 };
    struct sender mirror = { s, -1, "mirror", 0 };   /* replica went away */
    pthread_t t1, t2;

    session_get(s);                    /* one reference per sender */
    session_get(s);
    pthread_create(&t1, NULL, send_reply, &reply);
    pthread_create(&t2, NULL, send_reply, &mirror);

    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    int last = session_put(s);
    printf("session %s closed=%d (mirror error: %s)\n", s->user, last,
           strerror(mirror.err));
    close(devnull);
    pthread_mutex_destroy(&s->lock);
    free(s);
    return 0;
}
