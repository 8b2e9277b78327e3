/* Two listener threads (HTTP and gRPC front ends) turn incoming
 * connections into requests for a shared dispatch queue. Each request
 * gets an id for tracing. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct request {
    unsigned id;
    char proto[8];
    int stream;
    struct request *next;
};

static unsigned last_request_id;
static struct request *dispatch_head, **dispatch_tail = &dispatch_head;
static pthread_mutex_t dispatch_lock = PTHREAD_MUTEX_INITIALIZER;
static int dispatched;

static struct request *request_new(const char *proto, int stream)
{
    struct request *r = calloc(1, sizeof *r);
    r->id = ++last_request_id;
    snprintf(r->proto, sizeof r->proto, "%s", proto);
    r->stream = stream;
    return r;
}

static void dispatch(struct request *r)
{
    pthread_mutex_lock(&dispatch_lock);
    *dispatch_tail = r;
    dispatch_tail = &r->next;
    dispatched++;
    pthread_mutex_unlock(&dispatch_lock);
}

static void *listener(void *arg)
{
    const char *proto = arg;
    for (int s = 1; s <= 2; s++)
        dispatch(request_new(proto, s));
    return NULL;
}

int main(void)
{
    pthread_t h, g;

    pthread_create(&h, NULL, listener, "http");
    pthread_create(&g, NULL, listener, "grpc");
    pthread_join(h, NULL);
    pthread_join(g, NULL);

    unsigned seen = 0;
    int n = 0;
    for (struct request *r = dispatch_head, *next; r; r = next) {
        next = r->next;
        if (r->id < 32)
            seen |= 1u << r->id;
        free(r);
        n++;
    }
    printf("dispatched %d requests\n", n);
    return seen == 0;
}
