/* RACE: c04_refcount.c:78 (write) vs c04_refcount.c:42 (read) */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct request {
    int refs; /* protected by req_lock */
    char *raw;
    size_t len;
    char method[8];
    char path[64];
    int nheaders;
};

static pthread_mutex_t req_lock = PTHREAD_MUTEX_INITIALIZER;

static struct request *req_new(const char *raw)
{
    struct request *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->raw = strdup(raw);
    r->len = strlen(raw);
    r->refs = 1;
    return r;
}

static void req_get(struct request *r)
{
    pthread_mutex_lock(&req_lock);
    r->refs++;
    pthread_mutex_unlock(&req_lock);
}

static void req_put(struct request *r)
{
    pthread_mutex_lock(&req_lock);
    int left = --r->refs;
    pthread_mutex_unlock(&req_lock);
    if (left == 0) {
        free(r->raw);
        free(r);
    }
}

/* Parse request line and headers; drops its reference when done. */
static void *parse_request(void *p)
{
    struct request *r = p;
    const char *s = r->raw;
    const char *sp = strchr(s, ' ');

    if (!sp || sp - s >= (long)sizeof r->method)
        goto bad;
    memcpy(r->method, s, (size_t)(sp - s));
    const char *sp2 = strchr(sp + 1, ' ');
    if (!sp2 || sp2 - sp - 1 >= (long)sizeof r->path)
        goto bad;
    memcpy(r->path, sp + 1, (size_t)(sp2 - sp - 1));
    s = strstr(sp2, "\r\n");
    while (s && s[2] != '\r' && s[2] != '\0') {
        const char *line = s + 2;
        const char *end = strstr(line, "\r\n");
        const char *colon = strchr(line, ':');
        if (!end || !colon || colon > end)
            goto bad;
        r->nheaders++;
        s = end;
    }
    req_put(r);
    return (void *)0;

bad:
    r->refs--; /* drop our reference */
    return (void *)(intptr_t)-1;
}

/* Access-log writer: fingerprints the raw request. */
static void *log_request(void *p)
{
    struct request *r = p;
    uint64_t h = 1469598103934665603ull;
    char line[128];

    for (size_t i = 0; i < r->len; i++) {
        h ^= (unsigned char)r->raw[i];
        h *= 1099511628211ull;
    }
    usleep(300); /* write(2) to the log file */
    snprintf(line, sizeof line, "req len=%zu fp=%016llx", r->len, (unsigned long long)h);
    puts(line);
    req_put(r);
    return NULL;
}

int main(void)
{
    const char *raw = "GET /api/v1/items?limit=20 HTTP/1.1\r\n"
                      "Host: api.example.net\r\n"
                      "Accept: application/json\r\n"
                      "X-Trace-Id 7f3a9c\r\n"
                      "\r\n";
    struct request *r = req_new(raw);
    pthread_t parser, logger;
    void *rc;

    if (!r)
        return 1;
    req_get(r); /* for parser */
    req_get(r); /* for logger */
    pthread_create(&parser, NULL, parse_request, r);
    pthread_create(&logger, NULL, log_request, r);
    pthread_join(parser, &rc);
    pthread_join(logger, NULL);
    printf("parse %s\n", rc ? "failed: 400 Bad Request" : "ok");
    req_put(r);
    return 0;
}
