/* Connection I/O buffers: each connection thread sends through the
 * shared socket under the send lock, then returns its buffer to the
 * recycle list, which the event loop frees (or reuses) later. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct iobuf {
    struct iobuf *next;
    size_t len;
    char data[512];
};

static struct iobuf *recycle_list;      /* returned buffers */
static pthread_mutex_t send_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long wire_bytes;        /* under send_lock */
static unsigned wire_sum;

static void iobuf_recycle(struct iobuf *b)
{
    b->len = 0;
    b->next = recycle_list;
    recycle_list = b;
}

static void send_frame(const char *payload)
{
    struct iobuf *b = malloc(sizeof *b);
    b->len = (size_t)snprintf(b->data, sizeof b->data, "FRAME %s\r\n", payload);

    pthread_mutex_lock(&send_lock);
    for (size_t i = 0; i < b->len; i++)  /* "write(2)" */
        wire_sum = wire_sum * 33 + (unsigned char)b->data[i];
    wire_bytes += b->len;
    pthread_mutex_unlock(&send_lock);

    iobuf_recycle(b);
}

static void *conn_thread(void *arg)
{
    const char *who = arg;
    char msg[64];
    for (int i = 0; i < 2; i++) {
        snprintf(msg, sizeof msg, "%s seq=%d", who, i);
        send_frame(msg);
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, conn_thread, "alice");
    pthread_create(&b, NULL, conn_thread, "bob");
    pthread_join(a, NULL);
    pthread_join(b, NULL);

    int n = 0;
    while (recycle_list) {              /* event loop: release the buffers */
        struct iobuf *next = recycle_list->next;
        free(recycle_list);
        recycle_list = next;
        n++;
    }
    printf("sent %lu bytes\n", wire_bytes);
    return n == 0;
}
