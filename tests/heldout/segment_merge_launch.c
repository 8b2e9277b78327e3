/*
 * segment_merge_launch.c - search index compaction launcher.
 *
 * The launcher allocates one `struct merge_arg` and hands the same pointer
 * to every merge thread, only changing the segment number before each
 * pthread_create().  A thread that has not yet copied its segment
 * number out of the shared struct races with the next iteration's store.
 *
 * Racing pair:
 *   W :62 arg->segment = i in launch_merges() (next iteration) /
 *   R :40 seg = a->segment in merge_segment() (earlier thread)
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NSEG 3

struct merge_arg {
    int segment;
    int level;
    const char *index_dir;
};

static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
static int segments_merged;      /* guarded by stats_lock */
static unsigned merged_mask;     /* guarded by stats_lock */

static void sleep_us(long us)
{
    struct timespec ts = { us / 1000000L, (us % 1000000L) * 1000L };
    nanosleep(&ts, NULL);
}

static void *merge_segment(void *p)
{
    const struct merge_arg *a = p;
    int seg = a->segment;
    char path[128];

    snprintf(path, sizeof path, "%s/L%d/seg_%04d.post", a->index_dir, a->level, seg);
    sleep_us(400);               /* read the segment files, merge postings */
    pthread_mutex_lock(&stats_lock);
    segments_merged++;
    merged_mask |= 1u << seg;
    pthread_mutex_unlock(&stats_lock);
    return NULL;
}

static int launch_merges(const char *dir, pthread_t *tids)
{
    struct merge_arg *arg = malloc(sizeof *arg);
    int started = 0;

    if (!arg)
        return -1;
    arg->level = 2;
    arg->index_dir = dir;
    for (int i = 0; i < NSEG; i++) {
        arg->segment = i;
        if (pthread_create(&tids[i], NULL, merge_segment, arg) != 0)
            break;
        started++;
    }
    /* wait for the merges before releasing the launch parameters */
    for (int i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    free(arg);
    return started == NSEG ? 0 : -1;
}

int main(void)
{
    pthread_t tids[NSEG];

    if (launch_merges("/var/lib/search/idx0", tids) != 0)
        return 1;
    printf("merged %d segments\n", segments_merged);
    return 0;
}
