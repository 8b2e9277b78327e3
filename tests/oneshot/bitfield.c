// Bug: two bit-fields of one word written by different threads.  The
// receive thread owns `rx_busy`, the transmit thread owns `tx_busy`, and
// each only ever touches its own flag, so the author saw no sharing.  But
// bit-fields are updated with a read-modify-write of the whole storage unit:
//
//     s->rx_busy = 1;     /* loads the word, sets a bit, stores it back */
//
// so the two updates race and one thread can undo the other's change.
//
// TRIES: 12
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in set_rx_busy / set_tx_busy$
// EXPECT-FRAME: ^(read|write|read-write) to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ set_rx_busy\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*bitfield\.c:38$
// EXPECT-FRAME: ^(read|write|read-write) to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ set_tx_busy\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*bitfield\.c:43$

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

#include "oneshot.h"

struct session {
#ifdef FIXED
	bool rx_busy;			/* owned by the receive thread */
	bool tx_busy;			/* owned by the transmit thread */
#else
	unsigned int rx_busy : 1;	/* owned by the receive thread */
	unsigned int tx_busy : 1;	/* owned by the transmit thread */
#endif
	unsigned int encrypted : 1;
	unsigned int proto : 5;
	unsigned long rx_bytes;		/* receive thread only */
	unsigned long tx_bytes;		/* transmit thread only */
};

NOINLINE void set_rx_busy(struct session *s, int busy)
{
	s->rx_busy = busy;		/* racy read-modify-write */
}

NOINLINE void set_tx_busy(struct session *s, int busy)
{
	s->tx_busy = busy;		/* racy read-modify-write */
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
