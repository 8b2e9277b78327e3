/* wordcount_total.c -- parallel word count, unsynchronised reduction.
 *
 * The log file is split into three chunks on whitespace boundaries; each
 * worker counts words and lines in its chunk locally and then folds its
 * result into the global totals.  The line total is merged under a mutex,
 * the word total is not.
 *
 * RACE: wordcount_total.c:48 (read+write `total_words += words;` in one
 *       worker) vs the same line wordcount_total.c:48 in another worker.
 */
#define _DEFAULT_SOURCE
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NWORKERS 3

struct chunk {
    const char *begin, *end;
};

static unsigned long total_words;
static unsigned long total_lines;
static pthread_mutex_t lines_lock = PTHREAD_MUTEX_INITIALIZER;

static void *count_chunk(void *arg)
{
    const struct chunk *c = arg;
    unsigned long words = 0, lines = 0;
    int in_word = 0;

    for (const char *p = c->begin; p < c->end; p++) {
        if (*p == '\n')
            lines++;
        if (isspace((unsigned char)*p)) {
            in_word = 0;
        } else if (!in_word) {
            in_word = 1;
            words++;
        }
    }

    pthread_mutex_lock(&lines_lock);
    total_lines += lines;
    pthread_mutex_unlock(&lines_lock);
    total_words += words;
    return NULL;
}

static char *make_log(size_t *len)
{
    static const char *msgs[] = {
        "GET /index.html 200 512\n",
        "POST /api/v1/login 302 0\n",
        "GET /static/app.js 304 0\n",
        "GET /favicon.ico 404 209 not found\n",
    };
    size_t cap = 40000, n = 0;
    char *buf = malloc(cap);
    for (int i = 0; n + 64 < cap; i++) {
        n += (size_t)snprintf(buf + n, cap - n, "%06d %s", i, msgs[i % 4]);
    }
    *len = n;
    return buf;
}

int main(void)
{
    size_t len;
    char *log = make_log(&len);
    struct chunk chunks[NWORKERS];
    pthread_t th[NWORKERS];

    const char *start = log;
    for (int i = 0; i < NWORKERS; i++) {
        const char *end = (i == NWORKERS - 1) ? log + len : log + len * (i + 1) / NWORKERS;
        while (end < log + len && !isspace((unsigned char)*end))
            end++;
        chunks[i].begin = start;
        chunks[i].end = end;
        start = end;
    }
    for (int i = 0; i < NWORKERS; i++)
        pthread_create(&th[i], NULL, count_chunk, &chunks[i]);
    for (int i = 0; i < NWORKERS; i++)
        pthread_join(th[i], NULL);

    printf("%lu lines, %lu words\n", total_lines, total_words);
    free(log);
    return 0;
}
