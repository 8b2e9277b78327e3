// SPDX-License-Identifier: Apache-2.0
/*
 * tcp_poll: tcp_poll() reads socket fields without the socket lock, while
 * the receive path, recvmsg, splice, sendmsg and setsockopt change them
 * under it.
 *
 * A user-space model of the code behind the first KCSAN report syzbot filed
 * against TCP,
 *
 *     BUG: KCSAN: data-race in tcp_poll / tcp_queue_rcv
 *
 * and of the eight fields that Eric Dumazet's series "tcp: address KCSAN
 * reports in tcp_poll() (part I)" annotated in patches 2-9 (seeds 003-010):
 * rcv_nxt, copied_seq, write_seq, snd_nxt, urg_seq, sk_rcvbuf, sk_sndbuf and
 * sk_wmem_queued. Functions, fields and locking follow Linux 5.3; what is
 * left out is said where it would have been. Threads stand in for the
 * kernel's contexts:
 *
 *   softirq  net_rx_action(): the peer's segments through tcp_v4_rcv(),
 *            carrying data, ACKs for our data, and urgent pointers
 *   app      the process owning the socket, an event loop: epoll_wait()
 *            (sock_poll() -> tcp_poll(), lockless too), then recvmsg() or
 *            splice(), send(), and setsockopt(SO_RCVBUF / SO_SNDBUF)
 *   epoll    another thread polling the socket: sock_poll() -> tcp_poll()
 *
 * Default build: the code as it was before the series (plain accesses).
 * -DFIXED: the series applied, READ_ONCE()/WRITE_ONCE() where it put them.
 *
 *     build/bin/ucsan-cc -O2 examples/tcp_poll/tcp_poll.c -o tcp_poll -pthread
 *     ./tcp_poll [seconds]
 *
 * The program prints the address of each of the eight fields first, so that
 * the address in a report ("read to 0x... of 4 bytes") names the field.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <string.h>
#include <sys/epoll.h>

#include "../kernel_user.h"

typedef unsigned int __poll_t;
/* The kernel's "static inline" helpers; forced, so that both compilers
 * inline them and reports show them as "[inline]" frames, as syzbot's do. */
#define __inline_helper static inline __attribute__((always_inline))

#define min_t(type, a, b) ((type)(a) < (type)(b) ? (type)(a) : (type)(b))
#define max_t(type, a, b) ((type)(a) > (type)(b) ? (type)(a) : (type)(b))

/* Sequence-number arithmetic (include/net/tcp.h). */
__inline_helper bool before(u32 seq1, u32 seq2)
{
	return (s32)(seq1 - seq2) < 0;
}
#define after(seq2, seq1) before(seq1, seq2)

/* atomic_t and bit operations: marked accesses, as in the kernel. */
typedef struct {
	int counter;
} atomic_t;
#define atomic_read(v) READ_ONCE((v)->counter)
#define atomic_add(i, v) ((void)__atomic_fetch_add(&(v)->counter, (i), __ATOMIC_RELAXED))
#define atomic_sub(i, v) ((void)__atomic_fetch_sub(&(v)->counter, (i), __ATOMIC_RELAXED))
#define set_bit(nr, addr) ((void)__atomic_fetch_or((addr), 1UL << (nr), __ATOMIC_RELAXED))
/* test_bit() reads through a volatile pointer: a marked access. */
#define test_bit(nr, addr) ((READ_ONCE(*(addr)) >> (nr)) & 1UL)
#define smp_mb__after_atomic() smp_mb()

/* lockdep's "the caller holds the socket lock": nothing to check here. */
#define sock_owned_by_me(sk) ((void)(sk))

/* === Socket buffers (include/linux/skbuff.h, reduced) === */

#define TCPHDR_FIN 0x01
#define TCPHDR_PSH 0x08
#define TCPHDR_ACK 0x10
#define TCPHDR_URG 0x20

struct tcp_skb_cb {
	u32 seq;     /* Starting sequence number */
	u32 end_seq; /* SEQ + FIN + SYN + datalen */
	u8 tcp_flags;
	u32 ack_seq; /* Sequence number ACK'd */
};

struct sock;

struct sk_buff {
	struct sk_buff *next, *prev;
	unsigned int len;      /* payload bytes (the payload itself is not modelled) */
	unsigned int truesize; /* what the buffer costs its socket */
	u16 urg_ptr;           /* the TCP header's urgent pointer */
	struct sock *sk;
	void (*destructor)(struct sk_buff *skb);
	struct tcp_skb_cb cb;
};
#define TCP_SKB_CB(skb) (&(skb)->cb)
#define SKB_TRUESIZE(x) ((x) + 512)

struct sk_buff_head {
	struct sk_buff *next, *prev; /* first members, as in struct sk_buff */
	u32 qlen;
};

static void skb_queue_head_init(struct sk_buff_head *list)
{
	list->prev = list->next = (struct sk_buff *)list;
	list->qlen = 0;
}

__inline_helper bool skb_queue_empty(const struct sk_buff_head *list)
{
	return list->next == (const struct sk_buff *)list;
}

__inline_helper struct sk_buff *skb_peek(const struct sk_buff_head *list)
{
	struct sk_buff *skb = list->next;

	return skb == (const struct sk_buff *)list ? NULL : skb;
}

__inline_helper struct sk_buff *skb_peek_tail(const struct sk_buff_head *list)
{
	struct sk_buff *skb = list->prev;

	return skb == (const struct sk_buff *)list ? NULL : skb;
}

__inline_helper void __skb_queue_tail(struct sk_buff_head *list, struct sk_buff *newsk)
{
	struct sk_buff *prev = list->prev;

	newsk->next = (struct sk_buff *)list;
	newsk->prev = prev;
	prev->next = newsk;
	list->prev = newsk;
	list->qlen++;
}

__inline_helper void __skb_unlink(struct sk_buff *skb, struct sk_buff_head *list)
{
	list->qlen--;
	skb->next->prev = skb->prev;
	skb->prev->next = skb->next;
	skb->next = skb->prev = NULL;
}

#define skb_queue_walk(queue, skb) \
	for (skb = (queue)->next; skb != (struct sk_buff *)(queue); skb = skb->next)

static struct sk_buff *alloc_skb(void)
{
	struct sk_buff *skb = calloc(1, sizeof(*skb));

	if (!skb)
		abort();
	skb->truesize = SKB_TRUESIZE(0);
	return skb;
}

static void __kfree_skb(struct sk_buff *skb)
{
	if (skb->destructor)
		skb->destructor(skb);
	free(skb);
}

/* === Sockets (include/net/sock.h, include/linux/tcp.h, reduced) === */

enum { TCP_ESTABLISHED = 1, TCP_SYN_SENT, TCP_SYN_RECV, TCP_CLOSE = 7, TCP_LISTEN = 10 };

#define RCV_SHUTDOWN 1
#define SEND_SHUTDOWN 2
#define SHUTDOWN_MASK 3

#define SOCK_SNDBUF_LOCK 1
#define SOCK_RCVBUF_LOCK 2

enum sock_flags { SOCK_DEAD, SOCK_DONE, SOCK_URGINLINE, SOCK_KEEPOPEN };
#define SOCK_NOSPACE 2          /* sk->sk_socket->flags */
#define SOCKWQ_ASYNC_NOSPACE 0  /* sk->sk_wq->flags */

#define SOCK_MIN_SNDBUF 4608
#define SOCK_MIN_RCVBUF 2304
#define SO_SNDBUF 7
#define SO_RCVBUF 8

#define TCP_URG_VALID 0x0100
#define TCP_URG_NOTYET 0x0200

/* net.core.{w,r}mem_max, net.ipv4.tcp_{w,r}mem: the defaults. */
static const u32 sysctl_wmem_max = 212992, sysctl_rmem_max = 212992;
static const int sysctl_tcp_wmem[3] = { 4096, 16384, 4194304 };
static const int sysctl_tcp_rmem[3] = { 4096, 131072, 6291456 };
static const unsigned int sysctl_tcp_notsent_lowat = UINT_MAX;
static const int sysctl_tcp_stdurg = 0;

struct socket {
	unsigned long flags;
	struct sock *sk;
};

struct proto {
	bool (*stream_memory_free)(const struct sock *sk, int wake);
	bool (*stream_memory_read)(const struct sock *sk);
};

struct sock {
	/* struct sock_common: skc_state is volatile in the kernel. */
	volatile unsigned char sk_state;
	/*
	 * socket_lock_t. The kernel has a spinlock for softirqs (bh_lock_sock)
	 * and an owner flag plus backlog for process context (lock_sock); that
	 * only moves work between contexts, so one mutex stands for both here:
	 * every write below is made holding the one or the other.
	 */
	pthread_mutex_t sk_lock;
	int sk_rcvlowat;
	int sk_rcvbuf;
	atomic_t sk_rmem_alloc;
	struct sk_buff_head sk_receive_queue;
	int sk_sndbuf;
	int sk_wmem_queued;
	int sk_forward_alloc;
	struct sk_buff_head sk_write_queue;
	struct sk_buff_head sk_error_queue;
	unsigned long sk_flags;
	unsigned long sk_wq_flags; /* sk->sk_wq->flags */
	int sk_err;
	u8 sk_shutdown;
	u8 sk_userlocks;
	struct socket *sk_socket;
	struct proto *sk_prot;
};

struct request_sock;

struct tcp_sock {
	struct sock sk; /* inet_connection_sock -> inet_sock -> sock */
	u32 rcv_nxt;    /* What we want to receive next */
	u32 copied_seq; /* Head of yet unread data */
	u32 rcv_wup;    /* rcv_nxt on last window update sent */
	u32 snd_nxt;    /* Next sequence we send */
	u32 snd_una;    /* First byte we want an ack for */
	u32 write_seq;  /* Tail(+1) of data held in tcp send buffer */
	u32 pushed_seq; /* Last pushed seq, required to talk to windows */
	u32 urg_seq;    /* Seq of received urgent pointer */
	u16 urg_data;   /* Saved octet of OOB data and control flags */
	u64 bytes_received;
	u64 bytes_acked;
	u32 rcv_wnd;    /* Current receiver window */
	u32 notsent_lowat;
	u32 pred_flags;
	u32 packets_out;
	struct sk_buff_head tcp_rtx_queue; /* sk->tcp_rtx_queue, an rbtree upstream */
	struct request_sock *fastopen_rsk; /* __rcu after patch 1 */
};

__inline_helper struct tcp_sock *tcp_sk(const struct sock *sk)
{
	return (struct tcp_sock *)sk;
}

__inline_helper bool sock_flag(const struct sock *sk, enum sock_flags flag)
{
	return test_bit(flag, &sk->sk_flags);
}

__inline_helper int inet_sk_state_load(const struct sock *sk)
{
	/* state change might impact lockless readers. */
	return smp_load_acquire(&sk->sk_state);
}

static void lock_sock(struct sock *sk)
{
	pthread_mutex_lock(&sk->sk_lock);
}

static void release_sock(struct sock *sk)
{
	pthread_mutex_unlock(&sk->sk_lock);
}

#define bh_lock_sock(sk) lock_sock(sk)
#define bh_unlock_sock(sk) release_sock(sk)
#define sock_owned_by_user(sk) false

__inline_helper int sock_rcvlowat(const struct sock *sk, int waitall, int len)
{
	int v = waitall ? len : min_t(int, READ_ONCE(sk->sk_rcvlowat), len);

	return v ?: 1;
}

/* Receive memory accounting: skb_set_owner_r() and its destructor. */
static void sock_rfree(struct sk_buff *skb)
{
	struct sock *sk = skb->sk;

	atomic_sub(skb->truesize, &sk->sk_rmem_alloc);
	sk->sk_forward_alloc += skb->truesize; /* sk_mem_uncharge() */
}

static void skb_set_owner_r(struct sk_buff *skb, struct sock *sk)
{
	skb->sk = sk;
	skb->destructor = sock_rfree;
	atomic_add(skb->truesize, &sk->sk_rmem_alloc);
	sk->sk_forward_alloc -= skb->truesize; /* sk_mem_charge() */
}

__inline_helper void sk_eat_skb(struct sock *sk, struct sk_buff *skb)
{
	__skb_unlink(skb, &sk->sk_receive_queue);
	__kfree_skb(skb);
}

/* === The eight fields' lockless readers (include/net/sock.h, tcp.h) === */

__inline_helper int sk_stream_min_wspace(const struct sock *sk)
{
#ifdef FIXED
	return READ_ONCE(sk->sk_wmem_queued) >> 1;
#else
	return sk->sk_wmem_queued >> 1;
#endif
}

__inline_helper int sk_stream_wspace(const struct sock *sk)
{
#ifdef FIXED
	return READ_ONCE(sk->sk_sndbuf) - READ_ONCE(sk->sk_wmem_queued);
#else
	return sk->sk_sndbuf - sk->sk_wmem_queued;
#endif
}

#ifdef FIXED
/* Patch 9: "so that we can in the future convert to ADD_ONCE()". */
__inline_helper void sk_wmem_queued_add(struct sock *sk, int val)
{
	WRITE_ONCE(sk->sk_wmem_queued, sk->sk_wmem_queued + val);
}
#endif

__inline_helper bool __sk_stream_memory_free(const struct sock *sk, int wake)
{
#ifdef FIXED
	if (READ_ONCE(sk->sk_wmem_queued) >= READ_ONCE(sk->sk_sndbuf))
#else
	if (sk->sk_wmem_queued >= sk->sk_sndbuf)
#endif
		return false;

	return sk->sk_prot->stream_memory_free ? sk->sk_prot->stream_memory_free(sk, wake) : true;
}

__inline_helper bool sk_stream_memory_free(const struct sock *sk)
{
	return __sk_stream_memory_free(sk, 0);
}

__inline_helper bool sk_stream_is_writeable(const struct sock *sk)
{
	return sk_stream_wspace(sk) >= sk_stream_min_wspace(sk) && sk_stream_memory_free(sk);
}

__inline_helper u32 tcp_notsent_lowat(const struct tcp_sock *tp)
{
	return tp->notsent_lowat ?: sysctl_tcp_notsent_lowat;
}

/* sk->sk_prot->stream_memory_free: reached from tcp_poll() by pointer. */
static bool tcp_stream_memory_free(const struct sock *sk, int wake)
{
	const struct tcp_sock *tp = tcp_sk(sk);
#ifdef FIXED
	u32 notsent_bytes = READ_ONCE(tp->write_seq) - READ_ONCE(tp->snd_nxt);
#else
	u32 notsent_bytes = tp->write_seq - tp->snd_nxt;
#endif

	return (notsent_bytes << wake) < tcp_notsent_lowat(tp);
}

static struct proto tcp_prot = {
	.stream_memory_free = tcp_stream_memory_free,
};

/*
 * From Linux 5.7 ("tcp: fix SO_RCVLOWAT hangs with fat skbs"): poll reports
 * a socket readable below SO_RCVLOWAT when its receive buffer is nearly
 * full. Linux 5.3's tcp_poll() itself left sk_rcvbuf to helpers such as
 * tcp_space(), which patch 7 annotates first; this is where the poll path
 * reads it later, written here as it would have been before patch 7.
 */
__inline_helper bool tcp_rmem_pressure(const struct sock *sk)
{
#ifdef FIXED
	int rcvbuf = READ_ONCE(sk->sk_rcvbuf);
#else
	int rcvbuf = sk->sk_rcvbuf;
#endif
	int threshold = rcvbuf - (rcvbuf >> 3);

	return atomic_read(&sk->sk_rmem_alloc) > threshold;
}

/* net/ipv4/tcp.c: the function in syzbot's report, inlined into tcp_poll(). */
__inline_helper bool tcp_stream_is_readable(const struct tcp_sock *tp, int target, struct sock *sk)
{
#ifdef FIXED
	return (READ_ONCE(tp->rcv_nxt) - READ_ONCE(tp->copied_seq) >= (u32)target) ||
#else
	return (tp->rcv_nxt - tp->copied_seq >= (u32)target) ||
#endif
	       tcp_rmem_pressure(sk) ||
	       (sk->sk_prot->stream_memory_read ? sk->sk_prot->stream_memory_read(sk) : false);
}

/*
 * Wait for a TCP event.
 *
 * Note that we don't need to lock the socket, as the upper poll layers take
 * care of normal races (between the test and the event) and we don't go
 * look at any of the socket buffers directly. (net/ipv4/tcp.c)
 *
 * sock_poll_wait() (queueing the poller on the socket's wait queue) and the
 * listening-socket and defer_connect branches are left out.
 */
static __noinline __poll_t tcp_poll(struct socket *sock)
{
	__poll_t mask;
	struct sock *sk = sock->sk;
	const struct tcp_sock *tp = tcp_sk(sk);
	int state;

	state = inet_sk_state_load(sk);

	/* Socket is not locked. We are protected from async events by poll
	 * logic and correct handling of state changes made by other threads
	 * is impossible in any case. */
	mask = 0;

	if (sk->sk_shutdown == SHUTDOWN_MASK || state == TCP_CLOSE)
		mask |= EPOLLHUP;
	if (sk->sk_shutdown & RCV_SHUTDOWN)
		mask |= EPOLLIN | EPOLLRDNORM | EPOLLRDHUP;

	/* Connected or passive Fast Open socket? */
	if (state != TCP_SYN_SENT &&
#ifdef FIXED
	    (state != TCP_SYN_RECV || rcu_access_pointer(tp->fastopen_rsk))) {
#else
	    (state != TCP_SYN_RECV || tp->fastopen_rsk)) {
#endif
		int target = sock_rcvlowat(sk, 0, INT_MAX);

#ifdef FIXED
		if (READ_ONCE(tp->urg_seq) == READ_ONCE(tp->copied_seq) &&
#else
		if (tp->urg_seq == tp->copied_seq &&
#endif
		    !sock_flag(sk, SOCK_URGINLINE) &&
		    tp->urg_data)
			target++;

		if (tcp_stream_is_readable(tp, target, sk))
			mask |= EPOLLIN | EPOLLRDNORM;

		if (!(sk->sk_shutdown & SEND_SHUTDOWN)) {
			if (sk_stream_is_writeable(sk)) {
				mask |= EPOLLOUT | EPOLLWRNORM;
			} else { /* send SIGIO later */
				set_bit(SOCKWQ_ASYNC_NOSPACE, &sk->sk_wq_flags);
				set_bit(SOCK_NOSPACE, &sk->sk_socket->flags);

				/* Race breaker. If space is freed after wspace
				 * test but before the flags are set, IO signal
				 * will be lost. Memory barrier pairs with the
				 * input side. */
				smp_mb__after_atomic();
				if (sk_stream_is_writeable(sk))
					mask |= EPOLLOUT | EPOLLWRNORM;
			}
		} else {
			mask |= EPOLLOUT | EPOLLWRNORM;
		}

		if (tp->urg_data & TCP_URG_VALID)
			mask |= EPOLLPRI;
	}
	/* This barrier is coupled with smp_wmb() in tcp_reset() */
	smp_rmb();
	if (sk->sk_err || !skb_queue_empty(&sk->sk_error_queue))
		mask |= EPOLLERR;

	return mask;
}

/* net/socket.c: sock->ops->poll is inet_stream_ops' tcp_poll. */
static __noinline __poll_t sock_poll(struct socket *sock, __poll_t events)
{
	return tcp_poll(sock) & (events | EPOLLERR | EPOLLHUP);
}

/* === The peer: the other end of the connection === */

/*
 * The TCP at the other end, reduced to what it has received from us (its
 * next ACK), the window we advertised, and what it sends next. The softirq
 * thread builds its segments; tcp_transmit_skb() tells it about ours. Its
 * own lock keeps the two apart.
 */
static struct peer {
	pthread_mutex_t lock;
	u32 snd_nxt;  /* next sequence number it sends us */
	u32 wnd_end;  /* right edge of the window we advertised */
	u32 rcv_nxt;  /* how far it has received our data: its ACK */
	u32 acked;    /* the ACK it last sent */
	u32 segs;     /* data segments sent */
} peer = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Every 8th data segment carries an urgent pointer further beyond its data
 * than the next 8 segments can reach: the next pointer always comes first,
 * so the urgent byte itself never arrives and urg_data stays TCP_URG_NOTYET
 * (patch 6 is about urg_seq). Segments carry at most 1448 bytes. */
#define PEER_URG_EVERY 8
#define PEER_URG_AHEAD (PEER_URG_EVERY * 1448 + 1)

static void peer_hear(u32 seq, u32 end_seq, u32 ack, u32 wnd)
{
	pthread_mutex_lock(&peer.lock);
	if (after(end_seq, peer.rcv_nxt) && !after(seq, peer.rcv_nxt))
		peer.rcv_nxt = end_seq;
	if (after(ack + wnd, peer.wnd_end))
		peer.wnd_end = ack + wnd;
	pthread_mutex_unlock(&peer.lock);
}

/* The peer's next segment for us, or NULL if it has nothing to say. */
static struct sk_buff *peer_next_segment(u32 *rng)
{
	struct sk_buff *skb;
	u32 len, room;

	*rng ^= *rng << 13, *rng ^= *rng >> 17, *rng ^= *rng << 5;
	len = 100 + *rng % 1349;

	pthread_mutex_lock(&peer.lock);
	room = peer.wnd_end - peer.snd_nxt;
	if ((s32)room < (s32)len)
		len = 0;
	if (!len && peer.acked == peer.rcv_nxt) {
		pthread_mutex_unlock(&peer.lock);
		return NULL;
	}
	skb = alloc_skb();
	skb->len = len;
	skb->truesize = SKB_TRUESIZE(len);
	TCP_SKB_CB(skb)->seq = peer.snd_nxt;
	TCP_SKB_CB(skb)->end_seq = peer.snd_nxt + len;
	TCP_SKB_CB(skb)->ack_seq = peer.rcv_nxt;
	TCP_SKB_CB(skb)->tcp_flags = TCPHDR_ACK | (len ? TCPHDR_PSH : 0);
	if (len && peer.segs++ % PEER_URG_EVERY == 0) {
		TCP_SKB_CB(skb)->tcp_flags |= TCPHDR_URG;
		skb->urg_ptr = len + PEER_URG_AHEAD;
	}
	peer.snd_nxt += len;
	peer.acked = peer.rcv_nxt;
	pthread_mutex_unlock(&peer.lock);
	return skb;
}

/* === Output (net/ipv4/tcp_output.c, reduced) === */

/* The window we advertise: what the application has not read yet counts
 * against rcv_wnd (tcp_select_window(), simplified). */
static u32 tcp_select_window(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 unread = tp->rcv_nxt - tp->copied_seq;

	tp->rcv_wup = tp->rcv_nxt;
	return unread < tp->rcv_wnd ? tp->rcv_wnd - unread : 0;
}

/* Hands a segment to the peer: data (if any) and our ACK and window. */
static int tcp_transmit_skb(struct sock *sk, struct sk_buff *skb)
{
	struct tcp_sock *tp = tcp_sk(sk);

	peer_hear(TCP_SKB_CB(skb)->seq, TCP_SKB_CB(skb)->end_seq, tp->rcv_nxt, tcp_select_window(sk));
	return 0;
}

static void tcp_send_ack(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);

	peer_hear(tp->snd_nxt, tp->snd_nxt, tp->rcv_nxt, tcp_select_window(sk));
}

static void tcp_event_new_data_sent(struct sock *sk, struct sk_buff *skb)
{
	struct tcp_sock *tp = tcp_sk(sk);

#ifdef FIXED
	WRITE_ONCE(tp->snd_nxt, TCP_SKB_CB(skb)->end_seq);
#else
	tp->snd_nxt = TCP_SKB_CB(skb)->end_seq;
#endif

	__skb_unlink(skb, &sk->sk_write_queue);
	__skb_queue_tail(&tp->tcp_rtx_queue, skb); /* tcp_rbtree_insert() */
	tp->packets_out++;
}

/* Sends what the write queue holds. The peer's window and congestion
 * control are not modelled: everything goes out at once. */
static __noinline bool tcp_write_xmit(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct sk_buff *skb;
	int sent_pkts = 0;

	while ((skb = skb_peek(&sk->sk_write_queue))) { /* tcp_send_head() */
		if (tcp_transmit_skb(sk, skb))
			break;
		tcp_event_new_data_sent(sk, skb);
		sent_pkts++;
	}
	return !tp->packets_out && !skb_queue_empty(&sk->sk_write_queue);
}

static void tcp_push(struct sock *sk)
{
	/* __tcp_push_pending_frames(): a true return would arm the probe
	 * timer, which the model's peer never needs. */
	(void)tcp_write_xmit(sk);
}

/* === Input (net/ipv4/tcp_input.c, reduced) === */

/* The write side of syzbot's report: inlined into tcp_queue_rcv(). */
__inline_helper void tcp_rcv_nxt_update(struct tcp_sock *tp, u32 seq)
{
	u32 delta = seq - tp->rcv_nxt;

	sock_owned_by_me((struct sock *)tp);
	tp->bytes_received += delta;
#ifdef FIXED
	WRITE_ONCE(tp->rcv_nxt, seq);
#else
	tp->rcv_nxt = seq;
#endif
}

/* Appends skb's data to the tail of the receive queue if it fits there
 * (GRO-sized buffers in the kernel; 4 KiB here). */
static bool tcp_try_coalesce(struct sock *sk, struct sk_buff *to, struct sk_buff *from, bool *fragstolen)
{
	int delta;

	*fragstolen = false;
	if (TCP_SKB_CB(from)->seq != TCP_SKB_CB(to)->end_seq || to->len + from->len > 4096)
		return false;
	delta = (int)from->truesize - (int)SKB_TRUESIZE(0);
	to->len += from->len;
	to->truesize += delta;
	atomic_add(delta, &sk->sk_rmem_alloc);
	sk->sk_forward_alloc -= delta;
	TCP_SKB_CB(to)->end_seq = TCP_SKB_CB(from)->end_seq;
	TCP_SKB_CB(to)->ack_seq = TCP_SKB_CB(from)->ack_seq;
	TCP_SKB_CB(to)->tcp_flags |= TCP_SKB_CB(from)->tcp_flags;
	return true;
}

static __noinline int tcp_queue_rcv(struct sock *sk, struct sk_buff *skb, bool *fragstolen)
{
	int eaten;
	struct sk_buff *tail = skb_peek_tail(&sk->sk_receive_queue);

	eaten = (tail && tcp_try_coalesce(sk, tail, skb, fragstolen)) ? 1 : 0;
	tcp_rcv_nxt_update(tcp_sk(sk), TCP_SKB_CB(skb)->end_seq);
	if (!eaten) {
		__skb_queue_tail(&sk->sk_receive_queue, skb);
		skb_set_owner_r(skb, sk);
	}
	return eaten;
}

static void tcp_snd_una_update(struct tcp_sock *tp, u32 ack)
{
	u32 delta = ack - tp->snd_una;

	tp->bytes_acked += delta;
	tp->snd_una = ack;
}

/* sk_wmem_free_skb() (include/net/sock.h). */
__inline_helper void sk_wmem_free_skb(struct sock *sk, struct sk_buff *skb)
{
#ifdef FIXED
	sk_wmem_queued_add(sk, -skb->truesize);
#else
	sk->sk_wmem_queued -= skb->truesize;
#endif
	sk->sk_forward_alloc += skb->truesize; /* sk_mem_uncharge() */
	__kfree_skb(skb);
}

/* Remove acknowledged frames from the retransmission queue. */
static void tcp_clean_rtx_queue(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct sk_buff *skb;

	while ((skb = skb_peek(&tp->tcp_rtx_queue))) {
		if (after(TCP_SKB_CB(skb)->end_seq, tp->snd_una))
			break;
		tp->packets_out--;
		__skb_unlink(skb, &tp->tcp_rtx_queue);
		sk_wmem_free_skb(sk, skb);
	}
}

/* This routine deals with incoming acks, but not outgoing ones. */
static __noinline int tcp_ack(struct sock *sk, const struct sk_buff *skb)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 prior_snd_una = tp->snd_una;
	u32 ack = TCP_SKB_CB(skb)->ack_seq;

	/* If the ack is older than previous acks then we can probably
	 * ignore it. */
	if (before(ack, prior_snd_una))
		return 0;

	/* If the ack includes data we haven't sent yet, discard this
	 * segment (RFC793 Section 3.9). */
	if (after(ack, tp->snd_nxt))
		return -1;

	if (after(ack, prior_snd_una))
		tcp_snd_una_update(tp, ack);

	/* See if we can take anything off of the retransmit queue. */
	tcp_clean_rtx_queue(sk);
	return 1;
}

/* Room freed by the ACK: send what sendmsg() queued but could not send. */
static void tcp_data_snd_check(struct sock *sk)
{
	tcp_push(sk);
}

/* This routine is only called when we have urgent data signaled. Its the
 * 'slow' part of tcp_urg. It could be moved inline now as tcp_urg is only
 * called on the slow path. */
static void tcp_check_urg(struct sock *sk, const struct sk_buff *skb)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 ptr = skb->urg_ptr;

	if (ptr && !sysctl_tcp_stdurg)
		ptr--;
	ptr += TCP_SKB_CB(skb)->seq;

	/* Ignore urgent data that we've already seen and read. */
	if (after(tp->copied_seq, ptr))
		return;

	/* Do not replay urg ptr. */
	if (before(ptr, tp->rcv_nxt))
		return;

	/* Do we already have a newer (or duplicate) urgent pointer? */
	if (tp->urg_data && !after(ptr, tp->urg_seq))
		return;

	/* Tell the world about our new urgent pointer: sk_send_sigurg() and
	 * the OOB-inline queue surgery are left out. */
	tp->urg_data = TCP_URG_NOTYET;
#ifdef FIXED
	WRITE_ONCE(tp->urg_seq, ptr);
#else
	tp->urg_seq = ptr;
#endif

	/* Disable header prediction. */
	tp->pred_flags = 0;
}

/* This is the 'fast' part of urgent handling. The urgent byte itself
 * (TCP_URG_VALID) never arrives from the model's peer. */
static void tcp_urg(struct sock *sk, struct sk_buff *skb)
{
	/* Check if we get a new urgent pointer - normally not. */
	if (TCP_SKB_CB(skb)->tcp_flags & TCPHDR_URG)
		tcp_check_urg(sk, skb);
}

/* Queues an in-sequence segment for the reader (out-of-order queue and
 * memory pressure left out: the model's peer sends in order, in window). */
static __noinline void tcp_data_queue(struct sock *sk, struct sk_buff *skb)
{
	struct tcp_sock *tp = tcp_sk(sk);
	bool fragstolen = false;
	int eaten;

	if (TCP_SKB_CB(skb)->seq == TCP_SKB_CB(skb)->end_seq || TCP_SKB_CB(skb)->seq != tp->rcv_nxt) {
		__kfree_skb(skb);
		return;
	}
	eaten = tcp_queue_rcv(sk, skb, &fragstolen);
	if (eaten > 0)
		__kfree_skb(skb); /* kfree_skb_partial() */
}

/*
 * TCP receive function for the ESTABLISHED state. The fast path (header
 * prediction) takes in-sequence segments without urgent pointer; the
 * rest goes the slow path, which processes the urgent pointer first.
 */
static __noinline void tcp_rcv_established(struct sock *sk, struct sk_buff *skb)
{
	struct tcp_sock *tp = tcp_sk(sk);
	unsigned int len = skb->len;

	if (!(TCP_SKB_CB(skb)->tcp_flags & TCPHDR_URG) && TCP_SKB_CB(skb)->seq == tp->rcv_nxt) {
		if (len == 0) {
			/* We know that such packets are checksummed on entry. */
			tcp_ack(sk, skb);
			__kfree_skb(skb);
			tcp_data_snd_check(sk);
			return;
		} else { /* Header too small */
			int eaten;
			bool fragstolen = false;

			/* Bulk data transfer: receiver */
			eaten = tcp_queue_rcv(sk, skb, &fragstolen);

			if (TCP_SKB_CB(skb)->ack_seq != tp->snd_una) {
				/* Well, only one small jumplet in fast path... */
				tcp_ack(sk, skb);
				tcp_data_snd_check(sk);
			}
			tcp_send_ack(sk); /* __tcp_ack_snd_check() */
			if (eaten)
				__kfree_skb(skb); /* kfree_skb_partial() */
			return;
		}
	}

	/* step 5: check the ACK field */
	if (tcp_ack(sk, skb) < 0) {
		__kfree_skb(skb);
		return;
	}
	/* Process urgent data. */
	tcp_urg(sk, skb);

	/* step 7: process the segment text */
	tcp_data_queue(sk, skb);

	tcp_data_snd_check(sk);
	tcp_send_ack(sk); /* tcp_ack_snd_check() */
}

/* net/ipv4/tcp_ipv4.c */
static __noinline int tcp_v4_do_rcv(struct sock *sk, struct sk_buff *skb)
{
	if (sk->sk_state == TCP_ESTABLISHED) { /* Fast path */
		tcp_rcv_established(sk, skb);
		return 0;
	}
	__kfree_skb(skb);
	return 0;
}

static struct tcp_sock the_tcp_sock; /* the one connection of the model */

static __noinline int tcp_v4_rcv(struct sk_buff *skb)
{
	struct sock *sk = &the_tcp_sock.sk; /* __inet_lookup_skb() */
	int ret = 0;

	bh_lock_sock(sk);
	if (!sock_owned_by_user(sk))
		ret = tcp_v4_do_rcv(sk, skb);
	bh_unlock_sock(sk);
	return ret;
}

/* === recvmsg, splice, sendmsg, setsockopt (net/ipv4/tcp.c, net/core/sock.c) === */

/* Clean up the receive buffer for full frames taken by the user, then send
 * an ACK if necessary (here: always, to update the peer's window). */
static void tcp_cleanup_rbuf(struct sock *sk, int copied)
{
	if (copied > 0)
		tcp_send_ack(sk);
}

/*
 * This routine copies from a sock struct into the user buffer. The socket
 * is non-blocking, MSG_PEEK and friends are not modelled, and neither is
 * the payload: "copying" moves copied_seq.
 */
static __noinline int tcp_recvmsg(struct sock *sk, size_t len)
{
	struct tcp_sock *tp = tcp_sk(sk);
	int copied = 0;
	u32 *seq;
	struct sk_buff *skb;
	u32 urg_hole = 0;

	lock_sock(sk);

	seq = &tp->copied_seq;

	do {
		u32 offset;
		size_t used;

		/* Are we at urgent data? Stop if we have read anything or
		 * have SIGURG pending. */
		if (tp->urg_data && tp->urg_seq == *seq)
			break;

		/* Next get a buffer. */
		skb_queue_walk(&sk->sk_receive_queue, skb) {
			offset = *seq - TCP_SKB_CB(skb)->seq;
			if (offset < skb->len)
				goto found_ok_skb;
			if (TCP_SKB_CB(skb)->tcp_flags & TCPHDR_FIN)
				goto found_fin_ok;
		}

		/* Nothing (more) to read: a non-blocking socket returns. */
		break;

found_ok_skb:
		/* Ok so how much can we use? */
		used = skb->len - offset;
		if (len < used)
			used = len;

		/* Do we have urgent data here? */
		if (tp->urg_data) {
			u32 urg_offset = tp->urg_seq - *seq;
			if (urg_offset < used) {
				if (!urg_offset) {
					if (!sock_flag(sk, SOCK_URGINLINE)) {
#ifdef FIXED
						WRITE_ONCE(*seq, *seq + 1);
#else
						++*seq;
#endif
						urg_hole++;
						offset++;
						used--;
						if (!used)
							goto skip_copy;
					}
				} else {
					used = urg_offset;
				}
			}
		}

		/* skb_copy_datagram_msg(skb, offset, msg, used) */
#ifdef FIXED
		WRITE_ONCE(*seq, *seq + used);
#else
		*seq += used;
#endif
		copied += used;
		len -= used;

skip_copy:
		if (tp->urg_data && after(tp->copied_seq, tp->urg_seq))
			tp->urg_data = 0;
		if (used + offset < skb->len)
			continue;

		if (TCP_SKB_CB(skb)->tcp_flags & TCPHDR_FIN)
			goto found_fin_ok;
		sk_eat_skb(sk, skb);
		continue;

found_fin_ok:
		/* Process the FIN. */
#ifdef FIXED
		WRITE_ONCE(*seq, *seq + 1);
#else
		++*seq;
#endif
		sk_eat_skb(sk, skb);
		break;
	} while (len > 0);

	/* Clean up data we have read: This will do ACK frames. */
	tcp_cleanup_rbuf(sk, copied);

	release_sock(sk);
	return copied;
}

typedef struct {
	size_t count;
} read_descriptor_t;

typedef int (*sk_read_actor_t)(read_descriptor_t *, struct sk_buff *, unsigned int, size_t);

static struct sk_buff *tcp_recv_skb(struct sock *sk, u32 seq, u32 *off)
{
	struct sk_buff *skb;
	u32 offset;

	while ((skb = skb_peek(&sk->sk_receive_queue)) != NULL) {
		offset = seq - TCP_SKB_CB(skb)->seq;
		if (offset < skb->len || (TCP_SKB_CB(skb)->tcp_flags & TCPHDR_FIN)) {
			*off = offset;
			return skb;
		}
		/* This looks weird, but this can happen if TCP collapsing
		 * splitted a fat GRO packet, while we released socket lock
		 * in skb_splice_bits() */
		sk_eat_skb(sk, skb);
	}
	return NULL;
}

/*
 * This routine provides an alternative to tcp_recvmsg() for routines that
 * would like to handle copying from skbuffs directly in 'sendfile' fashion.
 * Note:
 *	- It is assumed that the socket was locked by the caller.
 *	- The routine does not block.
 *	- At present, there is no support for reading OOB data or for
 *	  'pushing' data on the socket.
 */
static __noinline int tcp_read_sock(struct sock *sk, read_descriptor_t *desc, sk_read_actor_t recv_actor)
{
	struct sk_buff *skb;
	struct tcp_sock *tp = tcp_sk(sk);
	u32 seq = tp->copied_seq;
	u32 offset;
	int copied = 0;

	if (sk->sk_state == TCP_LISTEN)
		return -1; /* -ENOTCONN */
	while ((skb = tcp_recv_skb(sk, seq, &offset)) != NULL) {
		if (offset < skb->len) {
			int used;
			size_t len;

			len = skb->len - offset;
			/* Stop reading if we hit a patch of urgent data */
			if (tp->urg_data) {
				u32 urg_offset = tp->urg_seq - seq;
				if (urg_offset < len)
					len = urg_offset;
				if (!len)
					break;
			}
			used = recv_actor(desc, skb, offset, len);
			if (used <= 0) {
				if (!copied)
					copied = used;
				break;
			} else if ((size_t)used <= len) {
				seq += used;
				copied += used;
				offset += used;
			}
			if (offset != skb->len)
				break; /* the actor took less: desc->count is spent */
		}
		if (TCP_SKB_CB(skb)->tcp_flags & TCPHDR_FIN) {
			sk_eat_skb(sk, skb);
			++seq;
			break;
		}
		sk_eat_skb(sk, skb);
		if (!desc->count)
			break;
#ifdef FIXED
		WRITE_ONCE(tp->copied_seq, seq);
#else
		tp->copied_seq = seq;
#endif
	}
#ifdef FIXED
	WRITE_ONCE(tp->copied_seq, seq);
#else
	tp->copied_seq = seq;
#endif

	/* Clean up data we have read: This will do ACK frames. */
	if (copied > 0)
		tcp_cleanup_rbuf(sk, copied);
	return copied;
}

/* The splice actor: takes up to desc->count bytes (into a pipe). */
static int tcp_splice_data_recv(read_descriptor_t *desc, struct sk_buff *skb, unsigned int offset, size_t len)
{
	(void)skb, (void)offset;
	if (len > desc->count)
		len = desc->count;
	desc->count -= len;
	return (int)len;
}

static __noinline int tcp_splice_read(struct sock *sk, size_t len)
{
	read_descriptor_t rd = { .count = len };
	int ret;

	lock_sock(sk);
	ret = tcp_read_sock(sk, &rd, tcp_splice_data_recv);
	release_sock(sk);
	return ret;
}

static struct sk_buff *sk_stream_alloc_skb(struct sock *sk)
{
	(void)sk;
	return alloc_skb();
}

static void skb_entail(struct sock *sk, struct sk_buff *skb)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct tcp_skb_cb *tcb = TCP_SKB_CB(skb);

	tcb->seq = tcb->end_seq = tp->write_seq;
	tcb->tcp_flags = TCPHDR_ACK;
	__skb_queue_tail(&sk->sk_write_queue, skb); /* tcp_add_write_queue_tail() */
#ifdef FIXED
	sk_wmem_queued_add(sk, skb->truesize);
#else
	sk->sk_wmem_queued += skb->truesize;
#endif
	sk->sk_forward_alloc -= skb->truesize; /* sk_mem_charge() */
}

/* Appends `copy` bytes to skb (skb_copy_to_page_nocache()). */
static void skb_copy_to_page_nocache(struct sock *sk, struct sk_buff *skb, int copy)
{
	skb->len += copy;
	skb->truesize += copy;
#ifdef FIXED
	sk_wmem_queued_add(sk, copy);
#else
	sk->sk_wmem_queued += copy;
#endif
	sk->sk_forward_alloc -= copy; /* sk_mem_charge() */
}

/* Queues `size` bytes and pushes them out. Non-blocking: stops when the
 * send buffer is full (sk_stream_wait_memory() would return -EAGAIN). */
static __noinline int tcp_sendmsg_locked(struct sock *sk, size_t size)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct sk_buff *skb;
	int copied = 0;
	const int size_goal = 4096; /* tcp_send_mss() */

	while (size > 0) {
		int copy = 0;

		skb = skb_peek_tail(&sk->sk_write_queue); /* tcp_write_queue_tail() */
		if (skb)
			copy = size_goal - skb->len;

		if (copy <= 0) {
			if (!sk_stream_memory_free(sk))
				goto wait_for_sndbuf;

			skb = sk_stream_alloc_skb(sk);
			skb_entail(sk, skb);
			copy = size_goal;
		}

		/* Try to append data to the end of skb. */
		if ((size_t)copy > size)
			copy = (int)size;
		skb_copy_to_page_nocache(sk, skb, copy);

		if (!copied)
			TCP_SKB_CB(skb)->tcp_flags &= ~TCPHDR_PSH;

#ifdef FIXED
		WRITE_ONCE(tp->write_seq, tp->write_seq + copy);
#else
		tp->write_seq += copy;
#endif
		TCP_SKB_CB(skb)->end_seq += copy;

		copied += copy;
		size -= copy;
		continue;

wait_for_sndbuf:
		set_bit(SOCK_NOSPACE, &sk->sk_socket->flags);
		break;
	}

	if (copied)
		tcp_push(sk);
	return copied ? copied : -11; /* -EAGAIN */
}

static __noinline int tcp_sendmsg(struct sock *sk, size_t size)
{
	int ret;

	lock_sock(sk);
	ret = tcp_sendmsg_locked(sk, size);
	release_sock(sk);
	return ret;
}

/* This is meant for all protocols to use and covers goings on at the socket
 * level. (net/core/sock.c; SOL_SOCKET, two options) */
static __noinline int sock_setsockopt(struct socket *sock, int optname, int val)
{
	struct sock *sk = sock->sk;
	int ret = 0;

	lock_sock(sk);
	switch (optname) {
	case SO_SNDBUF:
		/* BSD treats SO_SNDBUF/SO_RCVBUF as hints: clamp, do not fail. */
		val = min_t(u32, val, sysctl_wmem_max);
		/* Ensure val * 2 fits into an int, to prevent max_t() from
		 * treating it as a negative value. */
		val = min_t(int, val, INT_MAX / 2);
		sk->sk_userlocks |= SOCK_SNDBUF_LOCK;
#ifdef FIXED
		WRITE_ONCE(sk->sk_sndbuf, max_t(int, val * 2, SOCK_MIN_SNDBUF));
#else
		sk->sk_sndbuf = max_t(int, val * 2, SOCK_MIN_SNDBUF);
#endif
		/* sk->sk_write_space(sk): no writers wait in the model. */
		break;

	case SO_RCVBUF:
		val = min_t(u32, val, sysctl_rmem_max);
		val = min_t(int, val, INT_MAX / 2);
		sk->sk_userlocks |= SOCK_RCVBUF_LOCK;
		/* Doubled on the way in, for the struct sk_buff overhead that
		 * the application does not know about; getsockopt() returns
		 * the doubled value. */
#ifdef FIXED
		WRITE_ONCE(sk->sk_rcvbuf, max_t(int, val * 2, SOCK_MIN_RCVBUF));
#else
		sk->sk_rcvbuf = max_t(int, val * 2, SOCK_MIN_RCVBUF);
#endif
		break;

	default:
		ret = -92; /* -ENOPROTOOPT */
		break;
	}
	release_sock(sk);
	return ret;
}

/* setsockopt(SO_RCVLOWAT) (net/ipv4/tcp.c); the caller holds the lock. */
static int tcp_set_rcvlowat(struct sock *sk, int val)
{
	int cap;

	if (sk->sk_userlocks & SOCK_RCVBUF_LOCK)
		cap = sk->sk_rcvbuf >> 1;
	else
		cap = sysctl_tcp_rmem[2] >> 1;
	val = min_t(int, val, cap);
	WRITE_ONCE(sk->sk_rcvlowat, val ? val : 1);

	if (sk->sk_userlocks & SOCK_RCVBUF_LOCK)
		return 0;

	val <<= 1;
	if (val > sk->sk_rcvbuf)
#ifdef FIXED
		WRITE_ONCE(sk->sk_rcvbuf, val);
#else
		sk->sk_rcvbuf = val;
#endif
	return 0;
}

/* === Connection set-up (tcp_init_sock(), tcp_create_openreq_child()) === */

static struct socket the_socket;

static void tcp_init_sock(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);

	pthread_mutex_init(&sk->sk_lock, NULL);
	skb_queue_head_init(&sk->sk_receive_queue);
	skb_queue_head_init(&sk->sk_write_queue);
	skb_queue_head_init(&sk->sk_error_queue);
	skb_queue_head_init(&tp->tcp_rtx_queue);
	sk->sk_prot = &tcp_prot;
	sk->sk_rcvlowat = 1;
#ifdef FIXED
	WRITE_ONCE(sk->sk_sndbuf, sysctl_tcp_wmem[1]);
	WRITE_ONCE(sk->sk_rcvbuf, sysctl_tcp_rmem[1]);
#else
	sk->sk_sndbuf = sysctl_tcp_wmem[1];
	sk->sk_rcvbuf = sysctl_tcp_rmem[1];
#endif
	tp->rcv_wnd = 65535;
	tp->notsent_lowat = 16384; /* setsockopt(TCP_NOTSENT_LOWAT) */
}

/* The connection is established with these initial sequence numbers. */
static void tcp_established(struct sock *sk, u32 rcv_isn, u32 snt_isn)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 seq;

	seq = rcv_isn + 1;
	tp->rcv_wup = seq;
#ifdef FIXED
	WRITE_ONCE(tp->copied_seq, seq);
	WRITE_ONCE(tp->rcv_nxt, seq);
#else
	tp->copied_seq = seq;
	tp->rcv_nxt = seq;
#endif

	seq = snt_isn + 1;
	tp->snd_una = seq;
#ifdef FIXED
	WRITE_ONCE(tp->snd_nxt, seq);
	WRITE_ONCE(tp->write_seq, tp->pushed_seq = seq);
#else
	tp->snd_nxt = seq;
	tp->write_seq = tp->pushed_seq = seq;
#endif
	sk->sk_state = TCP_ESTABLISHED;

	peer.snd_nxt = peer.acked = rcv_isn + 1;
	peer.rcv_nxt = snt_isn + 1;
	peer.wnd_end = peer.snd_nxt + tp->rcv_wnd;
}

/* === The driver: one thread per context === */

static int stop; /* READ_ONCE/WRITE_ONCE: the driver's own flag, not modelled code */


struct stats {
	unsigned long segs, polls, pollin, pollout, read, spliced, sent, opts;
};

static void *softirq_thread(void *arg)
{
	struct stats *st = arg;
	u32 rng = 0x9e3779b9;

	pthread_setname_np(pthread_self(), "softirq");
	run_on_cpu(1);
	while (!READ_ONCE(stop)) { /* net_rx_action() */
		struct sk_buff *skb = peer_next_segment(&rng);

		if (!skb) {
			sched_yield();
			continue;
		}
		tcp_v4_rcv(skb);
		st->segs++;
	}
	return NULL;
}

/*
 * The application: an event loop on the non-blocking socket. It reads when
 * poll says so (at SO_RCVLOWAT, 16 KiB), alternating recvmsg() and splice(),
 * sends when there is room, and changes its buffer sizes as it goes.
 */
static void *app_thread(void *arg)
{
	struct stats *st = arg;
	struct socket *sock = &the_socket;
	u32 rng = 0x1234567;
	int n;

	pthread_setname_np(pthread_self(), "app");
	run_on_cpu(2);
	for (unsigned long i = 0; !READ_ONCE(stop); i++) {
		/* epoll_wait(): ep_poll() -> ep_item_poll() -> sock_poll() */
		__poll_t mask = sock_poll(sock, EPOLLIN | EPOLLOUT);
		bool busy = false;

		rng ^= rng << 13, rng ^= rng >> 17, rng ^= rng << 5;
		if (mask & EPOLLIN) {
			if (i % 4 == 3) {
				n = tcp_splice_read(sock->sk, 65536);
				st->spliced += n > 0 ? n : 0;
			} else {
				n = tcp_recvmsg(sock->sk, 65536);
				st->read += n > 0 ? n : 0;
			}
			busy |= n > 0;
		}
		if (mask & EPOLLOUT) {
			n = tcp_sendmsg(sock->sk, 500 + rng % 3000);
			st->sent += n > 0 ? n : 0;
			busy |= n > 0;
		}
		/* A different value every time: SO_SNDBUF on even rounds,
		 * SO_RCVBUF on odd ones. */
		sock_setsockopt(sock, i % 2 ? SO_RCVBUF : SO_SNDBUF, 16384 + (int)(i / 2 % 4) * 4096);
		st->opts++;
		if (!busy)
			sched_yield(); /* epoll_wait() would sleep */
	}
	return NULL;
}

static void *epoll_thread(void *arg)
{
	struct stats *st = arg;
	const __poll_t events = EPOLLIN | EPOLLOUT | EPOLLPRI | EPOLLRDNORM | EPOLLWRNORM;

	pthread_setname_np(pthread_self(), "epoll");
	/* The contexts in syzbot's report ran on cpu 0 and cpu 1: epoll gets
	 * a CPU of its own; with only two, the writers (softirq and app)
	 * share the other. */
	run_on_cpu(0);
	while (!READ_ONCE(stop)) { /* ep_poll() -> ep_item_poll() */
		__poll_t mask = sock_poll(&the_socket, events);

		st->polls++;
		st->pollin += !!(mask & EPOLLIN);
		st->pollout += !!(mask & EPOLLOUT);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct tcp_sock *tp = &the_tcp_sock;
	struct sock *sk = &tp->sk;
	double seconds = argc > 1 ? atof(argv[1]) : 3;
	struct stats st[3] = { { 0 } };
	pthread_t t[3];
	struct timespec ts = { (time_t)seconds, (long)((seconds - (time_t)seconds) * 1e9) };
	u32 rng = 1;

#ifdef FIXED
	printf("tcp_poll (fixed: patches 2-9 applied), %.1f s\n", seconds);
#else
	printf("tcp_poll (buggy: before patches 2-9), %.1f s\n", seconds);
#endif
	printf("fields: rcv_nxt=%p copied_seq=%p write_seq=%p snd_nxt=%p urg_seq=%p "
	       "sk_rcvbuf=%p sk_sndbuf=%p sk_wmem_queued=%p\n",
	       (void *)&tp->rcv_nxt, (void *)&tp->copied_seq, (void *)&tp->write_seq, (void *)&tp->snd_nxt,
	       (void *)&tp->urg_seq, (void *)&sk->sk_rcvbuf, (void *)&sk->sk_sndbuf, (void *)&sk->sk_wmem_queued);
	fflush(stdout);

	the_socket.sk = sk;
	sk->sk_socket = &the_socket;
	tcp_init_sock(sk);
	tcp_established(sk, 1000000, 2000000);
	lock_sock(sk);
	tcp_set_rcvlowat(sk, 16384); /* wake the poller for 16 KiB at a time */
	release_sock(sk);
	/* The peer's first segment, before anyone polls: it carries the first
	 * urgent pointer, which sets urg_data once and for all. */
	tcp_v4_rcv(peer_next_segment(&rng));

	pthread_create(&t[0], NULL, softirq_thread, &st[0]);
	pthread_create(&t[1], NULL, app_thread, &st[1]);
	pthread_create(&t[2], NULL, epoll_thread, &st[2]);
	nanosleep(&ts, NULL);
	WRITE_ONCE(stop, 1);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);

	printf("segments %lu, read %lu + spliced %lu bytes, sent %lu bytes, setsockopt %lu, "
	       "polls %lu (EPOLLIN %lu, EPOLLOUT %lu)\n",
	       st[0].segs, st[1].read, st[1].spliced, st[1].sent, st[1].opts, st[2].polls, st[2].pollin,
	       st[2].pollout);
	return 0;
}
