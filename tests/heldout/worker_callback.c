/* A background indexer: worker_start() launches a thread that indexes a
 * document and then calls the owner's completion callback, if any. */
#define _GNU_SOURCE
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct worker;
typedef void (*done_fn)(struct worker *, int);

struct worker {
    pthread_t tid;
    const char *name;
    const char *doc;
    int words;
    done_fn on_done;             /* optional completion callback */
    void *ctx;
};

struct totals {
    pthread_mutex_t lock;
    int finished, words;
};

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    int in_word = 0;
    for (const char *p = w->doc; *p; p++) {
        if (isalnum((unsigned char)*p)) {
            if (!in_word)
                w->words++;
            in_word = 1;
        } else {
            in_word = 0;
        }
    }
    done_fn cb = w->on_done;
    if (cb)
        cb(w, 0);
    return NULL;
}

static int worker_start(struct worker *w, const char *name, const char *doc, void *ctx)
{
    w->name = name;
    w->doc = doc;
    w->words = 0;
    w->ctx = ctx;
    return pthread_create(&w->tid, NULL, worker_main, w);
}

static void indexing_done(struct worker *w, int status)
{
    struct totals *t = w->ctx;
    pthread_mutex_lock(&t->lock);
    t->finished += status == 0;
    t->words += w->words;
    pthread_mutex_unlock(&t->lock);
}

int main(void)
{
    static const char doc[] =
        "The quick brown fox jumps over the lazy dog. Pack my box with "
        "five dozen liquor jugs. How vexingly quick daft zebras jump!";
    struct totals totals = { .lock = PTHREAD_MUTEX_INITIALIZER };
    struct worker *w = calloc(1, sizeof *w);

    if (!w || worker_start(w, "indexer", doc, &totals) != 0)
        return 1;
    w->on_done = indexing_done;
    pthread_join(w->tid, NULL);

    printf("%s: %d words\n", w->name, w->words);
    free(w);
    return 0;
}
