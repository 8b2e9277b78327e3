/* A small client library that reports failures errno-style through
 * lib_errno(); the program loads its index and opens its upstream link
 * in parallel at start-up. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int lib_status;                 /* last failure, 0 if none */

static void lib_set_error(int err)
{
    lib_status = err;
}

static int lib_errno(void)
{
    return lib_status;
}

struct index { int entries; unsigned checksum; };

static int index_load(struct index *ix, const char *text)
{
    ix->entries = 0;
    ix->checksum = 0;
    for (const char *p = text; *p; p++) {
        if (*p == '\n')
            ix->entries++;
        ix->checksum = ix->checksum * 31 + (unsigned char)*p;
    }
    if (ix->entries == 0) {
        lib_set_error(EINVAL);
        return -1;
    }
    return 0;
}

static int upstream_connect(const char *host, int attempts)
{
    for (int i = 0; i < attempts; i++) {
        usleep(300);                   /* connect() times out */
        if (strcmp(host, "localhost") == 0)
            return 0;
    }
    lib_set_error(ECONNREFUSED);
    return -1;
}

static struct index idx;

static void *load_thread(void *arg)
{
    return (void *)(long)index_load(&idx, arg);
}

static void *link_thread(void *arg)
{
    return (void *)(long)upstream_connect(arg, 3);
}

int main(void)
{
    static const char text[] = "alpha 1\nbeta 2\ngamma 3\ndelta 4\n";
    pthread_t lt, ut;
    void *lrc, *urc;

    pthread_create(&ut, NULL, link_thread, "upstream.example");
    pthread_create(&lt, NULL, load_thread, (void *)text);
    pthread_join(lt, &lrc);
    int err = lib_errno();             /* save it before anything clobbers it */
    pthread_join(ut, &urc);
    if (lrc != NULL)
        fprintf(stderr, "index: %s\n", strerror(err));

    printf("index %d entries, upstream %s\n", idx.entries,
           urc == NULL ? "up" : "down (degraded mode)");
    return 0;
}
