/* upload_last_error.c -- plain "last error" global shared with a monitor.
 *
 * Three uploader threads push backup segments to different mirrors; an
 * uploader that fails records the errno in last_upload_error so that the
 * status monitor can show it.  Progress counters are atomic; the error
 * slot is a plain int.
 *
 * RACE: upload_last_error.c:42 (write, uploader error path:
 *       `last_upload_error = err;`) vs upload_last_error.c:57 (read,
 *       monitor: `int err = last_upload_error;`)
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define NMIRRORS 3
#define SEGMENTS 4

static atomic_int segments_done;
static atomic_int uploads_finished;
static atomic_int mirrors_failed;
static int last_upload_error;

static int send_segment(int mirror, int seg)
{
    usleep(400);                       /* network transfer */
    if (mirror == 2 && seg == 1)
        return -ECONNRESET;
    return 0;
}

static void *uploader_main(void *arg)
{
    int mirror = (int)(long)arg;
    for (int seg = 0; seg < SEGMENTS; seg++) {
        int err = send_segment(mirror, seg);
        if (err < 0) {
            last_upload_error = err;
            atomic_fetch_add(&mirrors_failed, 1);
            break;
        }
        atomic_fetch_add(&segments_done, 1);
    }
    atomic_fetch_add(&uploads_finished, 1);
    return NULL;
}

static void *monitor_main(void *arg)
{
    char *status = arg;
    do {
        int done = atomic_load(&segments_done);
        int err = last_upload_error;
        snprintf(status, 64, "%d/%d segments%s%s", done, NMIRRORS * SEGMENTS,
                 err ? ", last error: " : "", err ? strerror(-err) : "");
        usleep(1000);
    } while (atomic_load(&uploads_finished) < NMIRRORS);
    return NULL;
}

int main(void)
{
    pthread_t mon, up[NMIRRORS];
    char status[64] = "";             /* status line shown in the UI */

    pthread_create(&mon, NULL, monitor_main, status);
    for (long m = 0; m < NMIRRORS; m++)
        pthread_create(&up[m], NULL, uploader_main, (void *)m);
    for (int m = 0; m < NMIRRORS; m++)
        pthread_join(up[m], NULL);
    pthread_join(mon, NULL);

    printf("backup: %d/%d segments uploaded, %d mirror(s) failed\n",
           atomic_load(&segments_done), NMIRRORS * SEGMENTS, atomic_load(&mirrors_failed));
    return 0;
}
