/*
 * io_pipe_parser.c - control channel of a small daemon.
 *
 * A reader thread pulls commands off the control pipe into the shared
 * command buffer g_cmd and publishes the byte count in g_cmd_len.  The
 * worker notices the count on its 1 ms housekeeping tick and parses the
 * buffer.  The count is stored/loaded with memory_order_relaxed, so
 * nothing orders the bytes that read() deposits in g_cmd with the
 * worker's parse of them.
 *
 * RACE: io_pipe_parser.c:70 (write, inside read()) vs io_pipe_parser.c:46 (read, parse_command)
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#define CMD_MAX 128

struct setting {
    char key[32];
    long value;
};

static int ctl_pipe[2];
static char g_cmd[CMD_MAX];     /* last command received on the control pipe */
static atomic_int g_cmd_len;    /* bytes valid in g_cmd, 0 = nothing pending */
static struct setting g_applied;

static void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* "SET key=value\n" -> setting.  Single pass; returns 0 on success. */
static int parse_command(const char *buf, int len, struct setting *out)
{
    enum { VERB, KEY, VALUE } st = VERB;
    int k = 0;

    out->value = 0;
    for (int i = 0; i < len; i++) {
        char c = buf[i];
        if (c == '\n')
            break;
        if (st == VERB) {
            if (c == ' ')
                st = KEY;
        } else if (st == KEY) {
            if (c == '=')
                st = VALUE;
            else if (k < (int)sizeof out->key - 1)
                out->key[k++] = c;
        } else if (c >= '0' && c <= '9') {
            out->value = out->value * 10 + (c - '0');
        }
    }
    out->key[k] = '\0';
    return (st == VALUE && k > 0) ? 0 : -1;
}

static void *ctl_reader(void *arg)
{
    ssize_t n;

    (void)arg;
    while ((n = read(ctl_pipe[0], g_cmd, sizeof g_cmd - 1)) > 0)
        atomic_store_explicit(&g_cmd_len, (int)n, memory_order_relaxed);
    return NULL;
}

static void *worker(void *arg)
{
    (void)arg;
    for (int tick = 0; tick < 200; tick++) {
        sleep_ms(1);                         /* housekeeping tick */
        int len = atomic_load_explicit(&g_cmd_len, memory_order_relaxed);
        if (len == 0)
            continue;
        struct setting s;
        if (parse_command(g_cmd, len, &s) == 0)
            g_applied = s;
        break;
    }
    return NULL;
}

int main(void)
{
    static const char cmd[] = "SET timeout=30\n";
    pthread_t rd, wk;

    if (pipe(ctl_pipe) != 0)
        return 1;
    pthread_create(&rd, NULL, ctl_reader, NULL);
    pthread_create(&wk, NULL, worker, NULL);

    sleep_ms(1);                             /* admin connects a moment later */
    if (write(ctl_pipe[1], cmd, sizeof cmd - 1) != (ssize_t)(sizeof cmd - 1))
        return 1;

    pthread_join(wk, NULL);
    close(ctl_pipe[1]);                      /* reader sees EOF */
    pthread_join(rd, NULL);
    close(ctl_pipe[0]);
    printf("applied %s=%ld\n", g_applied.key, g_applied.value);
    return 0;
}
