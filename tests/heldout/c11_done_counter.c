/* RACE: c11_done_counter.c:41 (write) vs c11_done_counter.c:55 (read) */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NWORKERS 2
#define NROWS 12

static const char *rows[NROWS] = {
    "1001,alice,engineering,128000", "1002,bob,sales,91000",     "1003,carol,engineering,143500",
    "1004,dave,support,67000",       "1005,erin,legal,150250",   "1006,frank,sales,88000",
    "1007,grace,research,171000",    "1008,heidi,support,70500", "1009,ivan,engineering,99000",
    "1010,judy,research,162000",     "1011,mallory,legal,138000", "1012,oscar,sales,94500",
};

static char json[NROWS][200];
static pthread_mutex_t progress_lock = PTHREAD_MUTEX_INITIALIZER;
int rows_done; /* incremented under progress_lock */

static void *convert(void *arg)
{
    int w = (int)(long)arg;
    for (int i = w; i < NROWS; i += NWORKERS) {
        char f[4][40];
        const char *p = rows[i];
        for (int k = 0; k < 4; k++) {
            size_t n = strcspn(p, ",");
            if (n >= sizeof f[k])
                n = sizeof f[k] - 1;
            memcpy(f[k], p, n);
            f[k][n] = '\0';
            p += n + (p[n] == ',');
        }
        snprintf(json[i], sizeof json[i], "{\"id\":%s,\"name\":\"%s\",\"dept\":\"%s\",\"salary\":%s}",
                 f[0], f[1], f[2], f[3]);
        usleep(150); /* write to the output sink */
        pthread_mutex_lock(&progress_lock);
        rows_done++;
        pthread_mutex_unlock(&progress_lock);
    }
    return NULL;
}

int main(void)
{
    pthread_t th[NWORKERS];
    int polls = 0;

    for (long w = 0; w < NWORKERS; w++)
        pthread_create(&th[w], NULL, convert, (void *)w);

    while (rows_done < NROWS) {
        usleep(100);
        polls++;
    }
    for (int w = 0; w < NWORKERS; w++)
        pthread_join(th[w], NULL);

    for (int i = 0; i < NROWS; i++)
        puts(json[i]);
    fprintf(stderr, "converted %d rows (%d progress polls)\n", NROWS, polls);
    return 0;
}
