/*
 * mirror_sync_last_error.c - file mirroring tool with a live status line.
 *
 * The uploader thread pushes files to the mirror and keeps progress in
 * relaxed atomic counters; when a transfer fails it records the errno in a
 * plain int `last_errno`.  The status thread redraws the status line every
 * half millisecond and shows that error, reading the int with no lock.
 *
 * Racing pair:
 *   W :60 st->last_errno = err in upload_main() (failed transfer) /
 *   R :78 err = st->last_errno in status_main() (status redraw)
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

struct sync_state {
    atomic_long bytes_sent;
    atomic_int files_done;
    atomic_int finished;
    int last_errno;
    char status[96];         /* owned by the status thread */
};

struct file_item {
    const char *name;
    long size;
    int fail_with;           /* simulated transfer outcome */
};

static const struct file_item files[] = {
    { "site/index.html", 18000, 0 },
    { "site/assets/app.js", 240000, ETIMEDOUT },
    { "site/assets/logo.svg", 9000, 0 },
};

static void sleep_us(long us)
{
    struct timespec ts = { us / 1000000L, (us % 1000000L) * 1000L };
    nanosleep(&ts, NULL);
}

static int put_file(const struct file_item *f)
{
    sleep_us(400);                       /* PUT to the mirror */
    return f->fail_with;
}

static void *upload_main(void *arg)
{
    struct sync_state *st = arg;

    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        int err = put_file(&files[i]);
        if (err) {
            st->last_errno = err;
            continue;
        }
        atomic_fetch_add_explicit(&st->bytes_sent, files[i].size, memory_order_relaxed);
        atomic_fetch_add_explicit(&st->files_done, 1, memory_order_relaxed);
    }
    atomic_store_explicit(&st->finished, 1, memory_order_release);
    return NULL;
}

static void *status_main(void *arg)
{
    struct sync_state *st = arg;

    for (;;) {
        int fin = atomic_load_explicit(&st->finished, memory_order_acquire);
        long sent = atomic_load_explicit(&st->bytes_sent, memory_order_relaxed);
        int done = atomic_load_explicit(&st->files_done, memory_order_relaxed);
        int err = st->last_errno;
        snprintf(st->status, sizeof st->status, "%d files, %ld KB%s%s", done,
                 sent / 1000, err ? ", last error: " : "", err ? strerror(err) : "");
        if (fin)
            break;
        sleep_us(500);
    }
    return NULL;
}

int main(void)
{
    static struct sync_state st;
    pthread_t up, status;

    if (pthread_create(&status, NULL, status_main, &st) != 0)
        return 1;
    if (pthread_create(&up, NULL, upload_main, &st) != 0)
        return 1;
    pthread_join(up, NULL);
    pthread_join(status, NULL);
    printf("mirror sync: %d/3 files, last error %d\n",
           atomic_load(&st.files_done), st.last_errno);
    return 0;
}
