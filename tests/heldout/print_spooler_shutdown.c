/*
 * print_spooler_shutdown.c - background spooler of a print/render service.
 *
 * The spooler thread sleeps on a condition variable until a job is queued
 * or the service shuts down.  spooler_stop() sets `stopping` and broadcasts
 * without taking the queue lock, so the flag write is unordered with the
 * check the spooler makes after each (timed) condition wait.
 *
 * Racing pair:
 *   W :89 sp->stopping = 1 in spooler_stop() /
 *   R :48 !sp->stopping check after pthread_cond_timedwait() in spooler_main()
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#define QCAP 8

struct spooler {
    pthread_mutex_t lock;
    pthread_cond_t work;
    int jobs[QCAP];
    int head, tail;          /* guarded by lock */
    int printed;             /* guarded by lock */
    int stopping;
    pthread_t thread;
};

static void sleep_us(long us)
{
    struct timespec ts = { us / 1000000L, (us % 1000000L) * 1000L };
    nanosleep(&ts, NULL);
}

static void render_page(int job)
{
    (void)job;
    sleep_us(300);           /* rasterise and push to the device */
}

static void *spooler_main(void *arg)
{
    struct spooler *sp = arg;

    pthread_mutex_lock(&sp->lock);
    for (;;) {
        while (sp->head == sp->tail && !sp->stopping) {
            struct timespec dl;
            clock_gettime(CLOCK_REALTIME, &dl);
            dl.tv_nsec += 2000000L;
            if (dl.tv_nsec >= 1000000000L) {
                dl.tv_sec++;
                dl.tv_nsec -= 1000000000L;
            }
            pthread_cond_timedwait(&sp->work, &sp->lock, &dl);
        }
        if (sp->head == sp->tail)
            break;                       /* stopping and drained */
        int job = sp->jobs[sp->head++ % QCAP];
        pthread_mutex_unlock(&sp->lock);
        render_page(job);
        pthread_mutex_lock(&sp->lock);
        sp->printed++;
    }
    pthread_mutex_unlock(&sp->lock);
    return NULL;
}

static int spooler_start(struct spooler *sp)
{
    pthread_mutex_init(&sp->lock, NULL);
    pthread_cond_init(&sp->work, NULL);
    sp->head = sp->tail = sp->printed = 0;
    sp->stopping = 0;
    return pthread_create(&sp->thread, NULL, spooler_main, sp);
}

static void spooler_submit(struct spooler *sp, int job)
{
    pthread_mutex_lock(&sp->lock);
    sp->jobs[sp->tail++ % QCAP] = job;
    pthread_cond_signal(&sp->work);
    pthread_mutex_unlock(&sp->lock);
}

static void spooler_stop(struct spooler *sp)
{
    sp->stopping = 1;
    pthread_cond_broadcast(&sp->work);
    pthread_join(sp->thread, NULL);
}

int main(void)
{
    static struct spooler sp;

    if (spooler_start(&sp) != 0)
        return 1;
    for (int j = 101; j <= 103; j++)
        spooler_submit(&sp, j);
    sleep_us(1500);                      /* the UI does other work */
    spooler_stop(&sp);
    printf("spooler stopped, %d job(s) printed\n", sp.printed);
    pthread_mutex_destroy(&sp.lock);
    pthread_cond_destroy(&sp.work);
    return 0;
}
