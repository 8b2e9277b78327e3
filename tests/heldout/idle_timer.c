/* Keep-alive for a client session: every message received pushes the
 * idle deadline out; a timer thread closes the session when the deadline
 * passes without traffic. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

struct idle_timer {
    pthread_mutex_t lock;
    pthread_cond_t cv;
    uint64_t deadline_ns;        /* CLOCK_REALTIME */
    int armed, cancelled, expired;
    unsigned rearms;             /* under lock */
};

static struct idle_timer kt = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .cv = PTHREAD_COND_INITIALIZER,
};

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void timer_rearm(struct idle_timer *t, unsigned ms)
{
    t->deadline_ns = now_ns() + ms * 1000000ull;
    pthread_mutex_lock(&t->lock);
    t->armed = 1;
    t->rearms++;
    pthread_cond_signal(&t->cv);
    pthread_mutex_unlock(&t->lock);
}

static void *timer_thread(void *arg)
{
    struct idle_timer *t = arg;
    pthread_mutex_lock(&t->lock);
    while (!t->cancelled) {
        if (!t->armed) {
            pthread_cond_wait(&t->cv, &t->lock);
            continue;
        }
        uint64_t d = t->deadline_ns;
        struct timespec ts = { (time_t)(d / 1000000000u), (long)(d % 1000000000u) };
        if (pthread_cond_timedwait(&t->cv, &t->lock, &ts) == ETIMEDOUT && now_ns() >= d) {
            t->expired = 1;
            t->armed = 0;
        }
    }
    pthread_mutex_unlock(&t->lock);
    return NULL;
}

static void *session(void *arg)
{
    (void)arg;
    for (int msg = 0; msg < 3; msg++) {
        usleep(500);             /* a message arrives */
        timer_rearm(&kt, 50);
    }
    return NULL;
}

int main(void)
{
    pthread_t tt, st;

    timer_rearm(&kt, 50);
    pthread_create(&tt, NULL, timer_thread, &kt);
    pthread_create(&st, NULL, session, NULL);
    pthread_join(st, NULL);

    pthread_mutex_lock(&kt.lock);
    kt.cancelled = 1;
    pthread_cond_signal(&kt.cv);
    pthread_mutex_unlock(&kt.lock);
    pthread_join(tt, NULL);
    printf("rearmed %u times, expired %d\n", kt.rearms, kt.expired);
    return 0;
}
