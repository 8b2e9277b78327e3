/* RACE: c12_detached.c:49 (write) vs c12_detached.c:73 (read) */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char hosts_db[] =
    "# static host table\n"
    "127.0.0.1 localhost\n"
    "10.0.3.17 db-primary db\n"
    "10.0.3.18 db-replica\n"
    "10.0.7.2 cache-01 memcache\n"
    "192.168.40.9 metrics\n";

uint32_t resolved_addr; /* 0 = not resolved yet */

static int parse_ipv4(const char *s, uint32_t *out)
{
    unsigned a, b, c, d;
    if (sscanf(s, "%u.%u.%u.%u", &a, &b, &c, &d) != 4 || a > 255 || b > 255 || c > 255 || d > 255)
        return -1;
    *out = (a << 24) | (b << 16) | (c << 8) | d;
    return 0;
}

/* Background lookup; the caller does not wait for it. */
static void *resolver(void *arg)
{
    const char *name = arg;
    size_t nlen = strlen(name);
    const char *line = hosts_db;

    while (*line) {
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        if (line[0] != '#') {
            const char *sp = memchr(line, ' ', n);
            while (sp && sp < line + n) {
                const char *tok = sp + 1;
                const char *te = memchr(tok, ' ', (size_t)(line + n - tok));
                if (!te)
                    te = line + n;
                uint32_t a;
                if ((size_t)(te - tok) == nlen && !memcmp(tok, name, nlen) &&
                    parse_ipv4(line, &a) == 0) {
                    resolved_addr = a;
                    return NULL;
                }
                sp = te < line + n ? te : NULL;
            }
        }
        line += n + (nl ? 1 : 0);
    }
    return NULL;
}

int main(void)
{
    pthread_t th;
    pthread_attr_t at;
    static char name[] = "memcache";

    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&th, &at, resolver, name) != 0)
        return 1;
    pthread_attr_destroy(&at);

    usleep(2000); /* give the lookup a head start */
    uint32_t a = resolved_addr;
    if (a)
        printf("%s -> %u.%u.%u.%u\n", name, a >> 24, (a >> 16) & 255, (a >> 8) & 255, a & 255);
    else
        printf("%s: lookup pending, using fallback 127.0.0.1\n", name);
    return 0;
}
