/* backend_probe_args.c -- thread argument struct reused by the creator.
 *
 * The health checker starts one probe thread per backend.  To avoid a
 * malloc per probe it allocates a single argument struct, fills it with the
 * backend's address, passes it to pthread_create, and immediately refills
 * it for the next backend.  Each probe copies the struct on entry -- but
 * that copy can see the next backend's data.  Probe results are recorded
 * under results_lock.
 *
 * RACE: backend_probe_args.c:57 (write, main refills `*arg = ...` for the
 *       next backend) vs backend_probe_args.c:40 (read, probe thread
 *       copies `struct probe_arg a = *(struct probe_arg *)p;`)
 */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define NBACKENDS 3

struct probe_arg {
    int backend_id;
    unsigned short port;
    int timeout_ms;
};

static pthread_mutex_t results_lock = PTHREAD_MUTEX_INITIALIZER;
static int healthy;
static int probed_mask;

static int connect_probe(unsigned short port, int timeout_ms)
{
    usleep(500 + (port % 3) * 300);    /* simulated TCP handshake */
    return timeout_ms > 0 && port != 8082;
}

static void *probe_backend(void *p)
{
    struct probe_arg a = *(struct probe_arg *)p;
    int ok = connect_probe(a.port, a.timeout_ms);

    pthread_mutex_lock(&results_lock);
    healthy += ok;
    probed_mask |= 1 << a.backend_id;
    pthread_mutex_unlock(&results_lock);
    return NULL;
}

int main(void)
{
    static const unsigned short ports[NBACKENDS] = { 8080, 8081, 8082 };
    pthread_t th[NBACKENDS];
    struct probe_arg *arg = malloc(sizeof *arg);

    for (int i = 0; i < NBACKENDS; i++) {
        *arg = (struct probe_arg){ .backend_id = i, .port = ports[i], .timeout_ms = 250 };
        if (pthread_create(&th[i], NULL, probe_backend, arg) != 0)
            return 1;
    }
    for (int i = 0; i < NBACKENDS; i++)
        pthread_join(th[i], NULL);
    free(arg);

    printf("%d/%d backends healthy (probed mask 0x%x)\n", healthy, NBACKENDS, probed_mask);
    return 0;
}
