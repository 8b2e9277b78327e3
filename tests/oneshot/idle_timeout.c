// Bug: a "last activity" timestamp shared without synchronization.  The I/O
// thread stamps a connection every time data arrives; the idle reaper in
// main() reads the stamp, without the I/O thread's lock, to find connections
// that have been quiet too long:
//
//     c->last_active_us = now_us();      ...      now - c->last_active_us
//
// The reaper's load races with the I/O thread's store (on a 32-bit machine
// it can even see half of each).
//
// TRIES: 12
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in conn_idle_us / conn_touch$
// EXPECT: ^read to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT: ^write to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^write to 0x => ^ conn_touch\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*idle_timeout\.c:44$
// EXPECT-FRAME: ^read to 0x => ^ conn_idle_us\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*idle_timeout\.c:53$

#include <pthread.h>
#include <stdio.h>

#include "oneshot.h"

#define NCONNS 4
#define IDLE_LIMIT_US 1500

struct conn {
	int fd;
	long long last_active_us;
	unsigned long rx_bytes;		/* queued bytes, under io_loop.lock */
};

struct io_loop {
	pthread_mutex_t lock;		/* the receive queues (for the app threads) */
	struct conn conns[NCONNS];
	int packets;
};

NOINLINE void conn_touch(struct conn *c)
{
#ifdef FIXED
	__atomic_store_n(&c->last_active_us, now_us(), __ATOMIC_RELAXED);
#else
	c->last_active_us = now_us();	/* racy write */
#endif
}

NOINLINE long long conn_idle_us(const struct conn *c, long long now)
{
#ifdef FIXED
	return now - __atomic_load_n(&c->last_active_us, __ATOMIC_RELAXED);
#else
	return now - c->last_active_us;	/* racy read: no lock */
#endif
}

/* The I/O thread: connection 3 goes quiet half-way through. */
static void *io_main(void *arg)
{
	struct io_loop *io = arg;
	int i;

	for (i = 0; i < io->packets; i++) {
		struct conn *c = &io->conns[i % NCONNS];

		if (c->fd == 103 && i > io->packets / 2)
			continue;
		spin_for_us(20);	/* read and decode the packet */
		pthread_mutex_lock(&io->lock);
		c->rx_bytes += 512;
		pthread_mutex_unlock(&io->lock);
		conn_touch(c);
	}
	return NULL;
}

int main(void)
{
	static struct io_loop io = { .lock = PTHREAD_MUTEX_INITIALIZER,
				     .packets = 400 };
	pthread_t t;
	int i, round;

	for (i = 0; i < NCONNS; i++) {
		io.conns[i].fd = 100 + i;
		io.conns[i].last_active_us = now_us();
	}
	pthread_create(&t, NULL, io_main, &io);
	for (round = 0; round < 8; round++) {
		long long now;

		sleep_us(1000);
		now = now_us();
		for (i = 0; i < NCONNS; i++)
			if (conn_idle_us(&io.conns[i], now) > IDLE_LIMIT_US)
				printf("round %d: fd %d idle, closing\n", round,
				       io.conns[i].fd);
	}
	pthread_join(t, NULL);
	for (i = 0; i < NCONNS; i++)
		printf("fd %d: %lu bytes\n", io.conns[i].fd, io.conns[i].rx_bytes);
	return 0;
}
