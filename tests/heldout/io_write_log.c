/*
 * io_write_log.c - asynchronous logger with a background flusher.
 *
 * Writers reserve space in the log buffer with an atomic fetch_add and
 * then copy (and sanitize) their message into the reserved slot.  The
 * flusher thread wakes every millisecond and write()s everything up to
 * the *reservation* offset - it has no way to know whether the writer
 * has finished filling the slot.  write() reads bytes that the writer
 * thread is still storing, with nothing ordering the two.
 *
 * RACE: io_write_log.c:56 (read, inside write()) vs io_write_log.c:46 (write, log_msg)
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define LOG_CAP 8192

static char g_logbuf[LOG_CAP];
static atomic_size_t g_reserved;     /* bytes handed out to writers */
static size_t g_flushed;             /* flusher-private */
static int g_logfd;
static atomic_int g_stop;
static int g_nwrites;                /* flusher-private, read after join */

static void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

static void log_msg(const char *msg)
{
    size_t len = strlen(msg);
    size_t off = atomic_fetch_add_explicit(&g_reserved, len, memory_order_acq_rel);

    if (off + len > LOG_CAP)
        return;                       /* buffer full: drop */
    char *p = g_logbuf + off;
    for (const char *s = msg; *s; s++, p++)   /* copy, masking control chars */
        *p = (*s == '\n' || (*s >= 0x20 && *s != 0x7f)) ? *s : '?';
}

static void flush_pending(void)
{
    size_t end = atomic_load_explicit(&g_reserved, memory_order_acquire);

    if (end > LOG_CAP)
        end = LOG_CAP;
    if (end > g_flushed) {
        ssize_t n = write(g_logfd, g_logbuf + g_flushed, end - g_flushed);
        if (n > 0) {
            g_flushed += (size_t)n;
            g_nwrites++;
        }
    }
}

static void *flusher(void *arg)
{
    (void)arg;
    for (;;) {
        int stopping = atomic_load(&g_stop);
        flush_pending();
        if (stopping)
            break;
        sleep_ms(1);
    }
    return NULL;
}

struct worker_cfg {
    int id;
    int nconn;
};

static void *request_worker(void *arg)
{
    const struct worker_cfg *cfg = arg;
    char line[96];

    for (int conn = 1; conn <= cfg->nconn; conn++) {
        sleep_ms(1);                  /* wait for / serve a connection */
        snprintf(line, sizeof line, "worker %d: served conn %d\tstatus=200\n",
                 cfg->id, conn);
        log_msg(line);
    }
    return NULL;
}

int main(void)
{
    pthread_t fl, wk[2];
    struct worker_cfg cfg[2] = { { 1, 3 }, { 2, 3 } };

    g_logfd = open("/dev/null", O_WRONLY);
    if (g_logfd < 0)
        return 1;
    pthread_create(&fl, NULL, flusher, NULL);
    for (int i = 0; i < 2; i++)
        pthread_create(&wk[i], NULL, request_worker, &cfg[i]);

    for (int i = 0; i < 2; i++)
        pthread_join(wk[i], NULL);
    atomic_store(&g_stop, 1);
    pthread_join(fl, NULL);
    close(g_logfd);
    printf("logged %zu bytes in %d writes\n", g_flushed, g_nwrites);
    return 0;
}
