/*
 * allocator_arena_count.c - per-thread arena selection in a small allocator.
 *
 * The number of arenas is derived from the CPU count the first time any
 * thread allocates.  arena_count() uses double-checked locking with a plain
 * int: the unlocked fast-path read is not ordered with the store made by
 * whichever thread initialises it under the lock.
 *
 * Racing pair:
 *   W :40 narenas = ... inside the locked slow path of arena_count() /
 *   R :33 n = narenas unlocked fast-path read in arena_count()
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define MAX_ARENAS 64

struct arena {
    pthread_mutex_t lock;
    size_t used;
    unsigned char mem[16384];
};

static struct arena arenas[MAX_ARENAS];
static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static int narenas;                      /* 0 = not computed yet */

static int arena_count(void)
{
    int n = narenas;

    if (n == 0) {
        pthread_mutex_lock(&init_lock);
        if (narenas == 0) {
            long cpus = sysconf(_SC_NPROCESSORS_ONLN);
            int want = cpus > 0 ? (int)cpus * 2 : 4;
            narenas = want > MAX_ARENAS ? MAX_ARENAS : want;
        }
        n = narenas;
        pthread_mutex_unlock(&init_lock);
    }
    return n;
}

static void *arena_alloc(unsigned hint, size_t sz)
{
    struct arena *a = &arenas[hint % (unsigned)arena_count()];
    void *p = NULL;

    pthread_mutex_lock(&a->lock);
    if (a->used + sz <= sizeof a->mem) {
        p = a->mem + a->used;
        a->used += (sz + 15) & ~(size_t)15;
    }
    pthread_mutex_unlock(&a->lock);
    return p;
}

struct worker {
    unsigned id;
    int ok;
};

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    char *buf = arena_alloc(w->id, 256);
    char *hdr = arena_alloc(w->id, 64);

    w->ok = buf != NULL && hdr != NULL;
    if (w->ok)
        snprintf(buf, 256, "worker %u scratch", w->id);
    return NULL;
}

int main(void)
{
    struct worker ws[2] = { { 1, 0 }, { 2, 0 } };
    pthread_t tid[2];

    for (int i = 0; i < MAX_ARENAS; i++)
        pthread_mutex_init(&arenas[i].lock, NULL);
    for (int i = 0; i < 2; i++)
        if (pthread_create(&tid[i], NULL, worker_main, &ws[i]) != 0)
            return 1;
    for (int i = 0; i < 2; i++)
        pthread_join(tid[i], NULL);

    printf("allocations %s\n", ws[0].ok && ws[1].ok ? "ok" : "failed");
    return 0;
}
