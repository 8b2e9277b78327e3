/*
 * io_fread_journal.c - journal replay at startup with a progress thread.
 *
 * The recovery thread fread()s journal records one at a time from the
 * spool file into the shared "current record" g_cur and applies them.
 * A progress thread reports which record is being replayed by reading
 * g_cur.id every millisecond, without a lock, while fread() keeps
 * overwriting g_cur with the next record.
 *
 * RACE: io_fread_journal.c:53 (write, inside fread()) vs io_fread_journal.c:66 (read, progress)
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define JOURNAL_MAX 1024

struct journal_rec {
    uint32_t id;
    uint32_t op;            /* 1 = put, 2 = delete */
    char key[24];
};

static FILE *g_spool;
static struct journal_rec g_cur;        /* record being replayed */
static atomic_int g_done;
static int g_live_keys;                 /* recovery-private, read after join */
static char g_progress[48];             /* progress thread's last line */

static void sleep_us(long us)
{
    struct timespec ts = { 0, us * 1000L };
    nanosleep(&ts, NULL);
}

static void apply(const struct journal_rec *r)
{
    if (r->op == 1)
        g_live_keys++;
    else if (r->op == 2 && g_live_keys > 0)
        g_live_keys--;
    sleep_us(400);                      /* write-through to the store */
}

static void *recovery(void *arg)
{
    (void)arg;
    for (int n = 0; n < JOURNAL_MAX; n++) {
        if (fread(&g_cur, sizeof g_cur, 1, g_spool) != 1)
            break;                      /* end of journal */
        apply(&g_cur);
    }
    atomic_store(&g_done, 1);
    return NULL;
}

static void *progress(void *arg)
{
    (void)arg;
    while (!atomic_load_explicit(&g_done, memory_order_relaxed)) {
        sleep_us(1000);
        uint32_t id = g_cur.id;
        snprintf(g_progress, sizeof g_progress, "replaying record #%u", id);
    }
    return NULL;
}

int main(void)
{
    static const struct journal_rec recs[] = {
        { 1, 1, "user:17" }, { 2, 1, "user:18" },
        { 3, 2, "user:17" }, { 4, 1, "session:9" },
        { 5, 1, "session:10" }, { 6, 2, "session:9" },
    };
    pthread_t rec, prog;

    g_spool = tmpfile();
    if (!g_spool)
        return 1;
    fwrite(recs, sizeof recs[0], sizeof recs / sizeof recs[0], g_spool);
    rewind(g_spool);

    pthread_create(&rec, NULL, recovery, NULL);
    pthread_create(&prog, NULL, progress, NULL);
    pthread_join(rec, NULL);
    pthread_join(prog, NULL);
    fclose(g_spool);
    printf("recovered: %d live keys (%s)\n", g_live_keys, g_progress);
    return 0;
}
