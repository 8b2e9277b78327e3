/*
 * rpc_channel_unref.c - reference-counted RPC channel shared by two calls.
 *
 * Every in-flight call holds a reference on the channel.  The normal
 * completion path drops it with channel_put(), under the channel lock; the
 * timeout path was written later and decrements the count directly,
 * without taking the lock.
 *
 * Racing pair:
 *   RW :79 ch->refs-- on the timeout path in call_with_deadline() /
 *   RW :62 left = --ch->refs in channel_put() (normal completion)
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct channel {
    pthread_mutex_t lock;
    int refs;
    char target[32];
};

struct call {
    struct channel *ch;
    int method;
    long deadline_us;
    long latency_us;
    int status;              /* read by main after join */
};

static void sleep_us(long us)
{
    struct timespec ts = { us / 1000000L, (us % 1000000L) * 1000L };
    nanosleep(&ts, NULL);
}

static struct channel *channel_new(const char *target)
{
    struct channel *ch = calloc(1, sizeof *ch);
    if (!ch)
        return NULL;
    pthread_mutex_init(&ch->lock, NULL);
    ch->refs = 1;
    snprintf(ch->target, sizeof ch->target, "%s", target);
    return ch;
}

static void channel_get(struct channel *ch)
{
    pthread_mutex_lock(&ch->lock);
    ch->refs++;
    pthread_mutex_unlock(&ch->lock);
}

static void channel_put(struct channel *ch)
{
    int left;

    pthread_mutex_lock(&ch->lock);
    left = --ch->refs;
    pthread_mutex_unlock(&ch->lock);
    if (left == 0) {
        pthread_mutex_destroy(&ch->lock);
        free(ch);
    }
}

static void *call_with_deadline(void *arg)
{
    struct call *c = arg;
    struct channel *ch = c->ch;

    sleep_us(c->latency_us);             /* send request, wait for reply */
    if (c->latency_us > c->deadline_us) {
        /* timed out: give up our reference and report the error */
        c->status = -1;
        ch->refs--;
        return NULL;
    }
    c->status = 0;
    channel_put(ch);
    return NULL;
}

int main(void)
{
    struct channel *ch = channel_new("billing.internal:7443");
    struct call calls[2] = {
        { ch, 3, 2000, 600, 0 },         /* GetInvoice: answers in time */
        { ch, 7, 500, 700, 0 },          /* ListPayments: deadline exceeded */
    };
    pthread_t tid[2];

    if (!ch)
        return 1;
    for (int i = 0; i < 2; i++) {
        channel_get(ch);
        if (pthread_create(&tid[i], NULL, call_with_deadline, &calls[i]) != 0)
            return 1;
    }
    for (int i = 0; i < 2; i++)
        pthread_join(tid[i], NULL);

    printf("calls done: status %d, %d\n", calls[0].status, calls[1].status);
    channel_put(ch);                     /* drop the creator's reference */
    return 0;
}
