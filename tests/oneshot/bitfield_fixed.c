// Fixed twin of bitfield.c: the two flags that different threads write are
// separate bool members, each its own memory location; the bit-fields left
// are only written before the threads start.
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

#include "oneshot.h"

struct session {
	bool rx_busy;			/* owned by the receive thread */
	bool tx_busy;			/* owned by the transmit thread */
	unsigned int encrypted : 1;
	unsigned int proto : 5;
	unsigned long rx_bytes;		/* receive thread only */
	unsigned long tx_bytes;		/* transmit thread only */
};

NOINLINE void set_rx_busy(struct session *s, int busy)
{
	s->rx_busy = busy;
}

NOINLINE void set_tx_busy(struct session *s, int busy)
{
	s->tx_busy = busy;
}

static void *rx_main(void *arg)
{
	struct session *s = arg;
	int i;

	for (i = 0; i < 100; i++) {
		set_rx_busy(s, 1);
		spin_for_us(20);	/* decode a packet */
		s->rx_bytes += 1500;
		set_rx_busy(s, 0);
		spin_for_us(20);	/* wait for the next one */
	}
	return NULL;
}

static void *tx_main(void *arg)
{
	struct session *s = arg;
	int i;

	for (i = 0; i < 80; i++) {
		set_tx_busy(s, 1);
		spin_for_us(30);	/* encode and send */
		s->tx_bytes += 1200;
		set_tx_busy(s, 0);
		spin_for_us(20);
	}
	return NULL;
}

int main(void)
{
	static struct session s = { .encrypted = 1, .proto = 6 };
	pthread_t rx, tx;

	pthread_create(&rx, NULL, rx_main, &s);
	pthread_create(&tx, NULL, tx_main, &s);
	pthread_join(rx, NULL);
	pthread_join(tx, NULL);
	printf("rx %lu bytes, tx %lu bytes, busy %d/%d\n", s.rx_bytes,
	       s.tx_bytes, s.rx_busy, s.tx_busy);
	return 0;
}
