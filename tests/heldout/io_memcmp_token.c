/*
 * io_memcmp_token.c - API token check with in-place key rotation.
 *
 * Request handlers authenticate each request by memcmp()ing the
 * presented token against the server token g_auth.token.  The rotation
 * thread regenerates that token in place (hex-encoding fresh bits into
 * the same array) without taking any lock, so memcmp() reads bytes that
 * the rotator is rewriting.
 *
 * RACE: io_memcmp_token.c:64 (read, inside memcmp()) vs io_memcmp_token.c:48 (write, rotate_token)
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TOKEN_LEN 32

struct auth {
    char token[TOKEN_LEN + 1];
    size_t len;
};

struct request {
    char token[TOKEN_LEN + 1];
    char op[15];
};

static struct auth g_auth;
static int req_pipe[2];
static int n_ok, n_denied;          /* handler-private, read after join */

static void sleep_us(long us)
{
    struct timespec ts = { 0, us * 1000L };
    nanosleep(&ts, NULL);
}

static void rotate_token(struct auth *a, uint64_t seed)
{
    static const char hex[] = "0123456789abcdef";

    for (size_t i = 0; i < a->len; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        a->token[i] = hex[seed >> 60];
    }
}

static void *rotator(void *arg)
{
    uint64_t seed = *(const uint64_t *)arg;

    sleep_us(1000);                 /* rotation timer fires */
    rotate_token(&g_auth, seed);
    return NULL;
}

static int authorized(const struct request *rq)
{
    return strlen(rq->token) == g_auth.len &&
           memcmp(rq->token, g_auth.token, g_auth.len) == 0;
}

static void *handler(void *arg)
{
    struct request rq;

    (void)arg;
    while (read(req_pipe[0], &rq, sizeof rq) == (ssize_t)sizeof rq) {
        if (authorized(&rq))
            n_ok++;
        else
            n_denied++;
    }
    return NULL;
}

int main(void)
{
    uint64_t seed = 0x5eed1234abcdull;
    struct request rq;
    pthread_t rot, hd;

    g_auth.len = TOKEN_LEN;
    rotate_token(&g_auth, 42);              /* initial token */
    memcpy(rq.token, g_auth.token, sizeof rq.token);   /* client got it at login */

    if (pipe(req_pipe) != 0)
        return 1;
    pthread_create(&hd, NULL, handler, NULL);
    pthread_create(&rot, NULL, rotator, &seed);

    static const char *ops[] = { "GET /v1/items", "PUT /v1/items", "GET /v1/stats" };
    for (int i = 0; i < 3; i++) {           /* client issues three calls */
        snprintf(rq.op, sizeof rq.op, "%s", ops[i]);
        if (write(req_pipe[1], &rq, sizeof rq) != (ssize_t)sizeof rq)
            return 1;
        sleep_us(600);
    }
    close(req_pipe[1]);

    pthread_join(hd, NULL);
    pthread_join(rot, NULL);
    close(req_pipe[0]);
    printf("auth: %d accepted, %d denied\n", n_ok, n_denied);
    return 0;
}
