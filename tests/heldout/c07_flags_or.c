/* RACE: c07_flags_or.c:42 (write) vs c07_flags_or.c:64 (write) */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONN_OPEN    0x01u
#define CONN_RD_EOF  0x02u
#define CONN_WR_DONE 0x04u

struct conn {
    int fd;
    unsigned flags;
    /* read side */
    const char *rx;
    size_t rx_len;
    int commands;
    int unknown;
    /* write side */
    char tx[2048];
    size_t tx_len;
    size_t tx_sent;
    uint32_t tx_crc;
};

static void *conn_reader(void *arg)
{
    struct conn *c = arg;
    const char *p = c->rx, *end = c->rx + c->rx_len;

    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (n >= 4 && (!memcmp(p, "PING", 4) || !memcmp(p, "STAT", 4) || !memcmp(p, "QUIT", 4)))
            c->commands++;
        else if (n > 0)
            c->unknown++;
        p += n + 1;
    }
    c->flags |= CONN_RD_EOF;
    return NULL;
}

static void *conn_writer(void *arg)
{
    struct conn *c = arg;
    uint32_t crc = 0xffffffffu;

    /* "send" in 512-byte chunks, checksumming what goes out */
    while (c->tx_sent < c->tx_len) {
        size_t chunk = c->tx_len - c->tx_sent;
        if (chunk > 512)
            chunk = 512;
        for (size_t i = 0; i < chunk; i++) {
            crc ^= (unsigned char)c->tx[c->tx_sent + i];
            for (int k = 0; k < 8; k++)
                crc = (crc >> 1) ^ (0xEDB88320u & -(crc & 1));
        }
        c->tx_sent += chunk;
    }
    c->tx_crc = ~crc;
    c->flags |= CONN_WR_DONE;
    return NULL;
}

int main(void)
{
    static struct conn c;
    static const char rx[] = "PING\nSTAT items\nGETX foo\nPING\nSTAT slabs\nQUIT\n";
    pthread_t rd, wr;

    c.fd = 7;
    c.flags = CONN_OPEN;
    c.rx = rx;
    c.rx_len = sizeof rx - 1;
    for (int i = 0; i < 40 && c.tx_len + 64 < sizeof c.tx; i++)
        c.tx_len += (size_t)snprintf(c.tx + c.tx_len, sizeof c.tx - c.tx_len,
                                     "STAT item_%02d %d\r\n", i, i * 37 % 101);

    pthread_create(&rd, NULL, conn_reader, &c);
    pthread_create(&wr, NULL, conn_writer, &c);
    pthread_join(rd, NULL);
    pthread_join(wr, NULL);

    printf("fd %d: %d commands, %d unknown, sent %zu bytes crc=%08x\n", c.fd, c.commands,
           c.unknown, c.tx_sent, c.tx_crc);
    if ((c.flags & (CONN_RD_EOF | CONN_WR_DONE)) == (CONN_RD_EOF | CONN_WR_DONE))
        printf("fd %d: both halves done, closing\n", c.fd);
    else
        printf("fd %d: flags=%#x, lingering\n", c.fd, c.flags);
    return 0;
}
