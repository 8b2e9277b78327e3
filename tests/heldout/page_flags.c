/* A page cache for a storage engine: writeback marks pages dirty under
 * the I/O lock, readers pin pages under the pin lock. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct page {
    unsigned long index;
    unsigned dirty : 1;          /* under io_lock */
    unsigned pinned : 1;         /* under pin_lock */
    unsigned uptodate : 1;
    int pin_count;               /* under pin_lock */
    char data[64];
};

struct page_cache {
    pthread_mutex_t io_lock;
    pthread_mutex_t pin_lock;
    struct page pages[4];
    int writebacks;
};

static struct page_cache pc = {
    .io_lock = PTHREAD_MUTEX_INITIALIZER,
    .pin_lock = PTHREAD_MUTEX_INITIALIZER,
};
static pthread_barrier_t phase;

static void page_write(struct page *pg, const char *s)
{
    pthread_mutex_lock(&pc.io_lock);
    strncpy(pg->data, s, sizeof pg->data - 1);
    pg->dirty = 1;
    pc.writebacks++;
    pthread_mutex_unlock(&pc.io_lock);
}

static struct page *page_pin(unsigned long index)
{
    struct page *pg = &pc.pages[index];
    pthread_mutex_lock(&pc.pin_lock);
    pg->pinned = 1;
    pg->pin_count++;
    pthread_mutex_unlock(&pc.pin_lock);
    return pg;
}

static void *writer(void *arg)
{
    (void)arg;
    pthread_barrier_wait(&phase);          /* cache populated */
    page_write(&pc.pages[2], "journal record 17");
    return NULL;
}

static void *reader(void *arg)
{
    int *pins = arg;
    pthread_barrier_wait(&phase);
    struct page *pg = page_pin(2);
    *pins = pg->pin_count;
    return NULL;
}

int main(void)
{
    pthread_t w, r;
    int pins = 0;

    for (unsigned long i = 0; i < 4; i++) {
        pc.pages[i].index = i;
        pc.pages[i].uptodate = 1;
    }
    pthread_barrier_init(&phase, NULL, 2);
    pthread_create(&w, NULL, writer, NULL);
    pthread_create(&r, NULL, reader, &pins);
    pthread_join(w, NULL);
    pthread_join(r, NULL);
    pthread_barrier_destroy(&phase);
    printf("writebacks %d pins %d\n", pc.writebacks, pins);
    return 0;
}
