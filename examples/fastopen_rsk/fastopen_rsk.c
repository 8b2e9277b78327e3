// SPDX-License-Identifier: Apache-2.0
/*
 * fastopen_rsk: tcp_v4_err() reads tp->fastopen_rsk holding only the
 * socket's spinlock, while the process owning the socket clears it.
 *
 * A user-space model of the bug Eric Dumazet found while annotating
 * tcp_poll() for KCSAN, fixed by "tcp: add rcu protection around
 * tp->fastopen_rsk" (patch 1 of the series; seed 002):
 *
 *     Both tcp_v4_err() and tcp_v6_err() do the following operations
 *     while they do not own the socket lock :
 *
 *         fastopen = tp->fastopen_rsk;
 *         snd_una = fastopen ? tcp_rsk(fastopen)->snt_isn : tp->snd_una;
 *
 *     The problem is that without appropriate barrier, the compiler
 *     might reload tp->fastopen_rsk and trigger a NULL deref.
 *
 * The socket lock is the kernel's two-level one: a spinlock that softirqs
 * take (bh_lock_sock) and an "owned" flag that process context sets with it
 * (lock_sock) and then holds without the spinlock. A softirq finding the
 * socket owned queues its segment to the backlog, which release_sock()
 * processes -- with the spinlock dropped and the socket still owned. That
 * is where the last ACK of a Fast Open handshake clears fastopen_rsk, and
 * where an ICMP error, holding only the spinlock, can meet it.
 *
 * Threads stand in for the contexts:
 *
 *   owner  Fast Open connections on one listener: the SYN creates the child
 *          socket with fastopen_rsk set (softirq, child's spinlock held);
 *          accept() takes the child; the process works on it (lock_sock),
 *          the handshake's last ACK goes to its backlog, and release_sock()
 *          runs tcp_rcv_state_process(), which drops the request sock.
 *   icmp   ICMP "host unreachable" errors for the child: tcp_v4_err().
 *
 * Request socks are freed after an RCU grace period (SLAB_TYPESAFE_BY_RCU
 * upstream), so the pointer tcp_v4_err() loaded stays valid while it runs.
 *
 * Default build: before the patch (plain accesses). -DFIXED: the patch
 * (rcu_dereference(), rcu_assign_pointer(), RCU_INIT_POINTER(),
 * rcu_dereference_protected()).
 *
 *     build/bin/ucsan-cc -O2 examples/fastopen_rsk/fastopen_rsk.c -o fastopen_rsk -pthread
 *     ./fastopen_rsk [seconds]
 */
#define _GNU_SOURCE
#include "../kernel_user.h"
#define __inline_helper static inline __attribute__((always_inline))

/* Sequence-number arithmetic (include/net/tcp.h). */
__inline_helper bool before(u32 seq1, u32 seq2)
{
	return (s32)(seq1 - seq2) < 0;
}
#define after(seq2, seq1) before(seq1, seq2)

/* seq1 <= seq2 <= seq3 in sequence space. */
__inline_helper bool between(u32 seq1, u32 seq2, u32 seq3)
{
	return seq3 - seq2 >= seq1 - seq2;
}

/* spinlock_t: a test-and-test-and-set lock on marked accesses. */
typedef struct {
	int locked;
} spinlock_t;

static void spin_lock(spinlock_t *lock)
{
	for (unsigned int spins = 0;; spins++) {
		if (!READ_ONCE(lock->locked) && !__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE))
			return;
		if (spins > 100)
			sched_yield(); /* a preempted holder: let it run */
	}
}

static void spin_unlock(spinlock_t *lock)
{
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
}

#define spin_lock_bh spin_lock
#define spin_unlock_bh spin_unlock

/* === RCU, as much as the model needs ===
 *
 * One reader context, the icmp thread: its read-side critical sections are
 * its calls of tcp_v4_err(), between which it passes through a quiescent
 * state and runs the callbacks queued so far (rcu_do_batch() in softirq).
 * Anything unpublished before that point can no longer be referenced by it.
 */
struct rcu_head {
	struct rcu_head *next;
	void (*func)(struct rcu_head *head);
};

static struct rcu_head *rcu_pending; /* a lock-free stack */

static void call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head))
{
	struct rcu_head *old = __atomic_load_n(&rcu_pending, __ATOMIC_RELAXED);

	head->func = func;
	do
		head->next = old;
	while (!__atomic_compare_exchange_n(&rcu_pending, &old, head, true, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
}

static void rcu_quiescent_state(void)
{
	struct rcu_head *head = __atomic_exchange_n(&rcu_pending, NULL, __ATOMIC_ACQUIRE);

	while (head) {
		struct rcu_head *next = head->next;

		head->func(head);
		head = next;
	}
}

#define rcu_read_lock() ((void)0)   /* softirqs are read-side critical sections */
#define rcu_read_unlock() ((void)0)

/* === Sockets and request socks (reduced) === */

enum { TCP_ESTABLISHED = 1, TCP_SYN_SENT, TCP_SYN_RECV, TCP_CLOSE = 7, TCP_LISTEN = 10 };

#define TCPHDR_ACK 0x10

struct sk_buff {
	struct sk_buff *next;
	u32 seq, end_seq, ack_seq; /* TCP_SKB_CB(skb)->... */
	u16 window;
	u8 tcp_flags;
	u8 doff;        /* header length in 32-bit words */
	u8 options[40]; /* the TCP options that follow the header */
};

#define TCPOPT_EOL 0
#define TCPOPT_NOP 1
#define TCPOPT_TIMESTAMP 8
#define TCPOLEN_TIMESTAMP 10

struct tcp_options_received {
	u32 ts_recent;  /* Time stamp to echo next */
	u32 rcv_tsval;  /* Time stamp value */
	u32 rcv_tsecr;  /* Time stamp echo reply */
	u8 saw_tstamp;  /* Saw TIMESTAMP on last packet */
};

/* Look for tcp options. Normally only called on SYN and SYNACK packets;
 * here on the ACK, for its timestamps (net/ipv4/tcp_input.c, reduced to
 * NOP, EOL and TIMESTAMP). */
static void tcp_parse_options(const struct sk_buff *skb, struct tcp_options_received *opt_rx)
{
	const u8 *ptr = skb->options;
	int length = skb->doff * 4 - 20;

	opt_rx->saw_tstamp = 0;
	while (length > 0) {
		int opcode = *ptr++;
		int opsize;

		switch (opcode) {
		case TCPOPT_EOL:
			return;
		case TCPOPT_NOP: /* Ref: RFC 793 section 3.1 */
			length--;
			continue;
		default:
			if (length < 2)
				return;
			opsize = *ptr++;
			if (opsize < 2) /* "silly options" */
				return;
			if (opsize > length)
				return; /* don't parse partial options */
			if (opcode == TCPOPT_TIMESTAMP && opsize == TCPOLEN_TIMESTAMP) {
				opt_rx->saw_tstamp = 1;
				opt_rx->rcv_tsval = (u32)ptr[0] << 24 | (u32)ptr[1] << 16 | (u32)ptr[2] << 8 | ptr[3];
				opt_rx->rcv_tsecr = (u32)ptr[4] << 24 | (u32)ptr[5] << 16 | (u32)ptr[6] << 8 | ptr[7];
			}
			ptr += opsize - 2;
			length -= opsize;
		}
	}
}

struct sock;

/* A SYN carrying data (the request of a Fast Open client). */
struct syn_skb {
	u32 seq;
	u32 len;
};

/* socket_lock_t (include/net/sock.h) */
typedef struct {
	spinlock_t slock;
	int owned;
} socket_lock_t;

struct request_sock {
	struct sock *rsk_listener;
	u32 rsk_rcv_wnd;
	u32 ts_recent;
	struct sock *sk; /* the child, until accept() takes it */
	struct request_sock *dl_next;
	u8 num_retrans;
	struct rcu_head rcu;
};

struct tcp_request_sock {
	struct request_sock req; /* inet_request_sock upstream */
	u32 rcv_isn;
	u32 snt_isn;
	u32 rcv_nxt;
	bool tfo_listener;
};

__inline_helper struct tcp_request_sock *tcp_rsk(const struct request_sock *req)
{
	return (struct tcp_request_sock *)req;
}

/* icsk_accept_queue (include/net/request_sock.h) */
struct fastopen_queue {
	spinlock_t lock;
	int qlen;
};

struct request_sock_queue {
	spinlock_t rskq_lock;
	struct request_sock *rskq_accept_head, *rskq_accept_tail;
	struct fastopen_queue fastopenq;
};

struct sock {
	volatile unsigned char sk_state; /* skc_state is volatile upstream */
	socket_lock_t sk_lock;
	struct {
		struct sk_buff *head, *tail;
	} sk_backlog;
	int sk_err_soft;
	u8 min_ttl; /* inet_sk(sk)->min_ttl */
	u8 recverr; /* inet_sk(sk)->recverr */
	struct request_sock_queue icsk_accept_queue;
	u8 icsk_retransmits;
	u8 icsk_backoff;
};

struct tcp_sock {
	struct sock sk;
	u32 rcv_nxt;
	u32 snd_una;
	u32 snd_nxt;
	u32 rcv_wup;
	u32 rcv_wnd;
	u32 snd_wl1;
	u32 snd_wnd;
	u32 max_window;
	u32 rcv_tstamp;
	struct tcp_options_received rx_opt;
	u32 srtt_us;   /* smoothed round trip time << 3 in usecs */
	u32 mdev_us;   /* medium deviation */
	u32 rto;       /* icsk_rto, in usecs here */
	u32 retrans_stamp;
	u64 tcp_mstamp; /* most recent packet received/sent */
	u32 delivered;
	u32 total_retrans;
	u32 connections; /* the model recycles this child: how often */
	/* fastopen_rsk points to request_sock that resulted in this big
	 * socket. Used to retransmit SYNACKs etc. */
	struct request_sock /* __rcu since the patch */ *fastopen_rsk;
};

__inline_helper struct tcp_sock *tcp_sk(const struct sock *sk)
{
	return (struct tcp_sock *)sk;
}

#define sock_owned_by_user(sk) ((sk)->sk_lock.owned)
/* lockdep's condition: documentation only, as in non-lockdep kernels. */
#define lockdep_sock_is_held(sk) ((sk)->sk_lock.owned || READ_ONCE((sk)->sk_lock.slock.locked))

#define bh_lock_sock(sk) spin_lock(&(sk)->sk_lock.slock)
#define bh_unlock_sock(sk) spin_unlock(&(sk)->sk_lock.slock)

static int tcp_v4_do_rcv(struct sock *sk, struct sk_buff *skb);

/* net/core/sock.c */
static void lock_sock(struct sock *sk)
{
	spin_lock_bh(&sk->sk_lock.slock);
	while (sk->sk_lock.owned) { /* __lock_sock(): sleep until released */
		spin_unlock_bh(&sk->sk_lock.slock);
		sched_yield();
		spin_lock_bh(&sk->sk_lock.slock);
	}
	sk->sk_lock.owned = 1;
	spin_unlock_bh(&sk->sk_lock.slock);
}

/* Runs the segments softirqs queued while we owned the socket: with the
 * spinlock dropped, the socket still ours. */
static __noinline void __release_sock(struct sock *sk)
{
	struct sk_buff *skb, *next;

	while ((skb = sk->sk_backlog.head) != NULL) {
		sk->sk_backlog.head = sk->sk_backlog.tail = NULL;

		spin_unlock_bh(&sk->sk_lock.slock);

		do {
			next = skb->next;
			skb->next = NULL;
			tcp_v4_do_rcv(sk, skb); /* sk_backlog_rcv() */
			skb = next;
		} while (skb != NULL);

		spin_lock_bh(&sk->sk_lock.slock);
	}
}

static __noinline void release_sock(struct sock *sk)
{
	spin_lock_bh(&sk->sk_lock.slock);
	if (sk->sk_backlog.tail)
		__release_sock(sk);
	sk->sk_lock.owned = 0; /* sock_release_ownership() */
	spin_unlock_bh(&sk->sk_lock.slock);
}

static void sk_add_backlog(struct sock *sk, struct sk_buff *skb)
{
	if (!sk->sk_backlog.tail)
		sk->sk_backlog.head = skb;
	else
		sk->sk_backlog.tail->next = skb;
	sk->sk_backlog.tail = skb;
	skb->next = NULL;
}

/* === The request sock's life (net/core/request_sock.c, tcp_fastopen.c) === */

static void reqsk_free_rcu(struct rcu_head *head)
{
	free((char *)head - __builtin_offsetof(struct request_sock, rcu));
}

static void reqsk_put(struct request_sock *req)
{
	/* Last reference (the refcount is not modelled): freed after a grace
	 * period, as SLAB_TYPESAFE_BY_RCU memory is reused only after one. */
	call_rcu(&req->rcu, reqsk_free_rcu);
}

/*
 * When a Fast Open child socket's handshake completes (or is aborted), the
 * request sock is taken off the child and released.
 */
static __noinline void reqsk_fastopen_remove(struct sock *sk, struct request_sock *req, bool reset)
{
	struct sock *lsk = req->rsk_listener;
	struct fastopen_queue *fastopenq;

	(void)reset;
	fastopenq = &lsk->icsk_accept_queue.fastopenq;

#ifdef FIXED
	RCU_INIT_POINTER(tcp_sk(sk)->fastopen_rsk, NULL);
#else
	tcp_sk(sk)->fastopen_rsk = NULL;
#endif
	spin_lock_bh(&fastopenq->lock);
	fastopenq->qlen--;
	tcp_rsk(req)->tfo_listener = false;
	if (req->sk) /* the child socket hasn't been accepted yet */
		goto out;

	/* The listener is open and this is no reset: just drop it. */
	spin_unlock_bh(&fastopenq->lock);
	reqsk_put(req);
	return;
out:
	spin_unlock_bh(&fastopenq->lock);
}

/*
 * The child socket of a Fast Open SYN (net/ipv4/tcp_fastopen.c). Runs in
 * softirq with the child's spinlock held. The model recycles one child
 * socket, whose sequence numbers tcp_create_openreq_child() set once.
 */
static __noinline struct sock *tcp_fastopen_create_child(struct sock *sk, struct sock *child,
							 struct request_sock *req, const struct syn_skb *syn)
{
	struct tcp_sock *tp;
	struct request_sock_queue *queue = &sk->icsk_accept_queue;

	child->sk_state = TCP_SYN_RECV; /* tcp_create_openreq_child() */

	spin_lock(&queue->fastopenq.lock);
	queue->fastopenq.qlen++;
	spin_unlock(&queue->fastopenq.lock);

	/* Initialize the child socket. Have to fix some values to take into
	 * account the child is a Fast Open socket and is created only out of
	 * the bits carried in the SYN packet. */
	tp = tcp_sk(child);

#ifdef FIXED
	rcu_assign_pointer(tp->fastopen_rsk, req);
#else
	tp->fastopen_rsk = req;
#endif
	tcp_rsk(req)->tfo_listener = true;

	/* tcp_create_openreq_child() starts each child afresh */
	tp->srtt_us = 0;
	tp->mdev_us = 1000000; /* jiffies_to_usecs(TCP_TIMEOUT_INIT) */
	tp->snd_wnd = tp->max_window = 0;
	tp->snd_wl1 = tcp_rsk(req)->rcv_isn;

	tp->rcv_nxt = tcp_rsk(req)->rcv_isn + 1;
	tp->rcv_nxt += syn->len; /* tcp_fastopen_add_skb(): the SYN's data, queued (not modelled) */
	tcp_rsk(req)->rcv_nxt = tp->rcv_nxt;
	tp->rcv_wup = tp->rcv_nxt;
	tp->connections++;
	return child;
}

/* The listener's accept queue: inet_csk_reqsk_queue_add(). */
static void inet_csk_reqsk_queue_add(struct sock *sk, struct request_sock *req, struct sock *child)
{
	struct request_sock_queue *queue = &sk->icsk_accept_queue;

	spin_lock(&queue->rskq_lock);
	req->sk = child;
	req->dl_next = NULL;
	if (queue->rskq_accept_head == NULL)
		queue->rskq_accept_head = req;
	else
		queue->rskq_accept_tail->dl_next = req;
	queue->rskq_accept_tail = req;
	spin_unlock(&queue->rskq_lock);
}

/* A SYN with a valid Fast Open cookie reaches the listener (softirq). */
static __noinline void tcp_conn_request(struct sock *sk, struct sock *child, const struct syn_skb *syn)
{
	struct tcp_request_sock *treq = calloc(1, sizeof(*treq));
	struct request_sock *req = &treq->req;

	if (!treq)
		abort();
	req->rsk_listener = sk;
	req->rsk_rcv_wnd = 65535;
	treq->rcv_isn = syn->seq;
	treq->snt_isn = tcp_sk(child)->snd_una - 1; /* the child's ISN */

	bh_lock_sock(child); /* sk_clone_lock() returns the child locked */
	tcp_fastopen_create_child(sk, child, req, syn);
	inet_csk_reqsk_queue_add(sk, req, child);
	bh_unlock_sock(child);
}

/* accept() (net/ipv4/inet_connection_sock.c): takes the child while the
 * handshake is still pending, so the request sock stays with the child. */
static __noinline struct sock *inet_csk_accept(struct sock *sk)
{
	struct request_sock_queue *queue = &sk->icsk_accept_queue;
	struct request_sock *req;
	struct sock *newsk;

	spin_lock_bh(&queue->rskq_lock);
	req = queue->rskq_accept_head;
	if (req)
		queue->rskq_accept_head = req->dl_next;
	spin_unlock_bh(&queue->rskq_lock);
	if (!req)
		return NULL;
	newsk = req->sk;

	spin_lock_bh(&queue->fastopenq.lock);
	if (tcp_rsk(req)->tfo_listener) {
		/* We are still waiting for the final ACK from 3WHS so can't
		 * free req now. Instead, we set req->sk to NULL to signify
		 * that the child socket is taken so reqsk_fastopen_remove()
		 * will free the req when 3WHS finishes (or is aborted). */
		req->sk = NULL;
		req = NULL;
	}
	spin_unlock_bh(&queue->fastopenq.lock);
	if (req)
		reqsk_put(req);
	return newsk;
}

/* === Input (net/ipv4/tcp_input.c, tcp_ipv4.c, reduced) === */

static void tcp_set_state(struct sock *sk, int state)
{
	sk->sk_state = state;
}

static __noinline void tcp_rcv_synrecv_state_fastopen(struct sock *sk)
{
	struct request_sock *req;

	/* tcp_try_undo_loss(sk, false): nothing to undo, no loss recovery
	 * in the model. Reset rtx states to prevent spurious
	 * retransmits_timed_out(). (icsk_retransmits = 0 too upstream: the
	 * model's child never retransmits, and tcp_v4_err() reads it.) */
	tcp_sk(sk)->retrans_stamp = 0;

	/* Once we leave TCP_SYN_RECV or TCP_FIN_WAIT_1, we no longer need
	 * req so release it. */
#ifdef FIXED
	req = rcu_dereference_protected(tcp_sk(sk)->fastopen_rsk, lockdep_sock_is_held(sk));
#else
	req = tcp_sk(sk)->fastopen_rsk;
#endif
	reqsk_fastopen_remove(sk, req, false);
}

__inline_helper u32 tcp_receive_window(const struct tcp_sock *tp)
{
	s32 win = tp->rcv_wup + tp->rcv_wnd - tp->rcv_nxt;

	return win < 0 ? 0 : (u32)win;
}

/* Check segment sequence number for validity. */
__inline_helper bool tcp_sequence(const struct tcp_sock *tp, u32 seq, u32 end_seq)
{
	return !before(end_seq, tp->rcv_wup) && !after(seq, tp->rcv_nxt + tcp_receive_window(tp));
}

static bool tcp_in_window(u32 seq, u32 end_seq, u32 s_win, u32 e_win)
{
	if (seq == s_win)
		return true;
	if (after(end_seq, s_win) && before(seq, e_win))
		return true;
	return seq == e_win && seq == end_seq;
}

/* net/ipv4/tcp_minisocks.c: a segment for a Fast Open child, checked
 * against its request sock. (Retransmitted SYNs, PAWS, RST and SYN
 * handling are left out: the model's peer sends the one ACK.) */
static __noinline struct sock *tcp_check_req(struct sock *sk, struct sk_buff *skb, struct request_sock *req)
{
	u32 rcv_nxt = tcp_rsk(req)->rcv_nxt;
	struct tcp_options_received tmp_opt;

	tmp_opt.saw_tstamp = 0;
	if (skb->doff > 5) {
		tcp_parse_options(skb, &tmp_opt);
		if (tmp_opt.saw_tstamp) {
			tmp_opt.ts_recent = req->ts_recent;
			/* PAWS: a timestamp older than the SYN's is stale */
			if ((s32)(tmp_opt.rcv_tsval - tmp_opt.ts_recent) < 0)
				return NULL;
		}
	}

	/* RFC793 page 36: "If the connection is in any non-synchronized
	 * state ... and the incoming segment acknowledges something not yet
	 * sent (the segment carries an unacceptable ACK) ..." -- the child's
	 * own tcp_ack() checks that; here, the sequence number. */
	if (!tcp_in_window(skb->seq, skb->end_seq, rcv_nxt, rcv_nxt + req->rsk_rcv_wnd))
		return NULL;
	if (!(skb->tcp_flags & TCPHDR_ACK))
		return NULL;

	/* For Fast Open no more processing is needed (sk is the child
	 * socket). */
	return sk;
}

/* Does PAWS and seqno based validation of an incoming segment (reduced:
 * no timestamps, RSTs or SYNs from the model's peer). */
static bool tcp_validate_incoming(struct sock *sk, struct sk_buff *skb)
{
	struct tcp_sock *tp = tcp_sk(sk);

	/* RFC1323: H1. Apply PAWS check first (tcp_fast_parse_options()). */
	if (skb->doff > 5) {
		tcp_parse_options(skb, &tp->rx_opt);
		if (tp->rx_opt.saw_tstamp && tp->rx_opt.ts_recent &&
		    (s32)(tp->rx_opt.rcv_tsval - tp->rx_opt.ts_recent) < 0)
			return false; /* tcp_paws_discard() */
	}

	/* Step 1: check sequence number */
	return tcp_sequence(tp, skb->seq, skb->end_seq);
}

/* Called to compute a smoothed rtt estimate (Van Jacobson's, reduced: no
 * mdev_max / rttvar tracking). */
static void tcp_rtt_estimator(struct sock *sk, long mrtt_us)
{
	struct tcp_sock *tp = tcp_sk(sk);
	long m = mrtt_us; /* RTT */
	u32 srtt = tp->srtt_us;

	if (m <= 0)
		m = 1;
	if (srtt != 0) {
		m -= (srtt >> 3);     /* m is now error in rtt est */
		srtt += m;            /* rtt = 7/8 rtt + 1/8 new */
		if (m < 0)
			m = -m;       /* m is now abs(error) */
		m -= (tp->mdev_us >> 2); /* similar update on mdev */
		tp->mdev_us += m;     /* mdev = 3/4 mdev + 1/4 new */
	} else {
		/* no previous measure. */
		srtt = m << 3;        /* take the measured time to be rtt */
		tp->mdev_us = m << 1; /* make sure rto = 3*rtt */
	}
	tp->srtt_us = srtt > 1U ? srtt : 1U;
}

/* Calculate rto without backoff (tcp_set_rto(): __tcp_set_rto()). */
static void tcp_set_rto(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 rto = (tp->srtt_us >> 3) + tp->mdev_us;

	tp->rto = rto < 200000 ? 200000 : rto > 120000000 ? 120000000 : rto; /* TCP_RTO_MIN/MAX */
}

/* The RTT of the SYN-ACK: from the timestamp the ACK echoes (the request
 * sock's SYN-ACK timestamp upstream). */
static void tcp_synack_rtt_meas(struct sock *sk, struct request_sock *req)
{
	struct tcp_sock *tp = tcp_sk(sk);
	long rtt_us = (long)(tp->rcv_tstamp - tp->rx_opt.rcv_tsecr) * 1000;

	(void)req;
	tcp_rtt_estimator(sk, rtt_us); /* tcp_ack_update_rtt() */
	tcp_set_rto(sk);
}

/* This routine deals with incoming acks (reduced to the window update the
 * handshake's last ACK makes: it acknowledges nothing new). */
static __noinline int tcp_ack(struct sock *sk, const struct sk_buff *skb)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 prior_snd_una = tp->snd_una;
	u32 ack = skb->ack_seq;
	u32 nwin = skb->window;

	/* If the ack is older than previous acks then we can probably
	 * ignore it. */
	if (before(ack, prior_snd_una))
		return 0;

	/* If the ack includes data we haven't sent yet, discard this
	 * segment (RFC793 Section 3.9). */
	if (after(ack, tp->snd_nxt))
		return -1;

	/* tcp_ack_update_window(): tcp_may_update_window() */
	if (after(ack, tp->snd_una) || after(skb->seq, tp->snd_wl1) ||
	    (skb->seq == tp->snd_wl1 && nwin > tp->snd_wnd)) {
		tp->snd_wl1 = skb->seq;
		if (tp->snd_wnd != nwin) {
			tp->snd_wnd = nwin;
			if (nwin > tp->max_window)
				tp->max_window = nwin;
		}
	}
	tp->rcv_tstamp++; /* = tcp_jiffies32 */

	/* tcp_ack_update_rtt(): an RTT sample from the echoed timestamp */
	if (tp->rx_opt.saw_tstamp && tp->rx_opt.rcv_tsecr)
		tcp_rtt_estimator(sk, (long)(tp->rcv_tstamp - tp->rx_opt.rcv_tsecr) * 1000);
	return 1;
}

/* Refreshes tp->tcp_mstamp, the time of the packet being processed. */
static void tcp_mstamp_refresh(struct tcp_sock *tp)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	tp->tcp_mstamp = (u64)ts.tv_sec * 1000000 + (u64)ts.tv_nsec / 1000;
}

/* The SYN_RECV part of the state machine: the handshake's last ACK. */
static __noinline int tcp_rcv_state_process(struct sock *sk, struct sk_buff *skb)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct request_sock *req;
	bool acceptable;

	tcp_mstamp_refresh(tp);
	tp->rx_opt.saw_tstamp = 0;
#ifdef FIXED
	req = rcu_dereference_protected(tp->fastopen_rsk, lockdep_sock_is_held(sk));
#else
	req = tp->fastopen_rsk;
#endif
	if (req) {
		if (sk->sk_state != TCP_SYN_RECV)
			abort(); /* WARN_ON_ONCE() */
		if (!tcp_check_req(sk, skb, req))
			return 1; /* discard */
	}

	if (!(skb->tcp_flags & TCPHDR_ACK))
		return 1;

	if (!tcp_validate_incoming(sk, skb))
		return 0;

	/* step 5: check the ACK field */
	acceptable = tcp_ack(sk, skb) > 0;
	if (!acceptable)
		return 1;

	switch (sk->sk_state) {
	case TCP_SYN_RECV:
		tp->delivered++; /* SYN-ACK delivery isn't tracked in tcp_ack */
		if (!tp->srtt_us)
			tcp_synack_rtt_meas(sk, req);

		/* Once we leave TCP_SYN_RECV, we no longer need req so
		 * release it. */
		if (req)
			tcp_rcv_synrecv_state_fastopen(sk);

		smp_mb();
		tcp_set_state(sk, TCP_ESTABLISHED);
		/* snd_una = ack_seq: it already is, the SYN-ACK being all we
		 * sent; timestamps and the rest are not modelled. */
		break;
	}
	return 0;
}

static __noinline int tcp_v4_do_rcv(struct sock *sk, struct sk_buff *skb)
{
	int ret = tcp_rcv_state_process(sk, skb);

	free(skb);
	return ret;
}

/* A segment for the child arrives (softirq). */
static __noinline int tcp_v4_rcv(struct sock *sk, struct sk_buff *skb)
{
	int ret = 0;

	bh_lock_sock(sk);
	if (!sock_owned_by_user(sk))
		ret = tcp_v4_do_rcv(sk, skb);
	else
		sk_add_backlog(sk, skb); /* tcp_add_backlog() */
	bh_unlock_sock(sk);
	return ret;
}

/* === ICMP errors (net/ipv4/tcp_ipv4.c) === */

#define ICMP_DEST_UNREACH 3
#define ICMP_HOST_UNREACH 1
#define EHOSTUNREACH 113

struct icmp_err {
	u8 type, code, ttl;
	u32 seq; /* the sequence number of our segment the error quotes */
};

/* SNMP counters: per-cpu increments upstream (__NET_INC_STATS()), which are
 * no plain accesses; atomic ones here. */
struct icmp_stats {
	unsigned long errors, out_of_window, soft_errors;
};
#define STATS_INC(field) ((void)__atomic_fetch_add(&(field), 1, __ATOMIC_RELAXED))

/*
 * This routine is called by the ICMP module when it gets some sort of error
 * condition. If err < 0 then the socket should be closed and the error
 * returned to the user. If err > 0 it's just the icmp type << 8 | icmp code.
 * After adjustment header points to the first 8 bytes of the tcp header. We
 * need to find the appropriate port.
 *
 * (Reduced to ICMP_DEST_UNREACH for the model's one child socket.)
 */
static __noinline int tcp_v4_err(struct sock *child, const struct icmp_err *icmp, struct icmp_stats *st)
{
	struct tcp_sock *tp;
	const int type = icmp->type;
	const int code = icmp->code;
	struct sock *sk;
	struct request_sock *fastopen;
	u32 seq, snd_una;
	int err;

	sk = child; /* __inet_lookup_established(), and sock_hold() */
	seq = icmp->seq;
	STATS_INC(st->errors);

	bh_lock_sock(sk);
	/* If too many ICMPs get dropped on busy servers this needs to be
	 * solved differently. We do take care of PMTU discovery (RFC1191)
	 * special case: we can receive locally generated ICMP messages while
	 * socket is held. */
	if (sk->sk_state == TCP_CLOSE)
		goto out;

	if (icmp->ttl < sk->min_ttl)
		goto out;

	tp = tcp_sk(sk);
	/* XXX (TFO) - tp->snd_una should be ISN (tcp_create_openreq_child() */
#ifdef FIXED
	fastopen = rcu_dereference(tp->fastopen_rsk);
#else
	fastopen = tp->fastopen_rsk;
#endif
	snd_una = fastopen ? tcp_rsk(fastopen)->snt_isn : tp->snd_una;
	if (sk->sk_state != TCP_LISTEN && !between(seq, snd_una, tp->snd_nxt)) {
		STATS_INC(st->out_of_window);
		goto out;
	}

	switch (type) {
	case ICMP_DEST_UNREACH:
		if (code != ICMP_HOST_UNREACH)
			goto out; /* PMTU discovery and the rest: not modelled */
		err = EHOSTUNREACH;
		/* check if icmp_skb allows revert of backoff (see
		 * draft-zimmermann-tcp-lcd) */
		if (seq != tp->snd_una || !sk->icsk_retransmits || !sk->icsk_backoff || fastopen)
			break;
		goto out; /* the backoff revert is not modelled */
	default:
		goto out;
	}

	/* TCP_SYN_SENT / TCP_SYN_RECV: "Only in fast or simultaneous open.
	 * If a fast open socket is already accepted it is treated as a
	 * connected one below." That test reads fastopen->sk, which accept()
	 * clears under another lock -- a race of its own, which the patch left
	 * alone -- and a child not accepted yet would be closed: both are left
	 * out, and every child is treated as accepted. */

	/* If we've already connected we will keep trying until we time out,
	 * or the user gives up. (RFC 1122 4.2.3.9: soft errors only.) */
	if (!sock_owned_by_user(sk) && sk->recverr)
		abort(); /* sk->sk_err = err: the model's socket has no IP_RECVERR */
	else /* Only an error on timeout */
		sk->sk_err_soft = err;
	STATS_INC(st->soft_errors);

out:
	bh_unlock_sock(sk);
	return 0;
}

/* === The driver === */

static struct sock listener;
static struct tcp_sock child;
static int stop; /* the driver's own flag */


/* The client's ACK of our SYN-ACK, with timestamps, as the network
 * delivers it. */
static struct sk_buff *client_ack(const struct tcp_sock *tp)
{
	struct sk_buff *ack = calloc(1, sizeof(*ack));
	u32 tsval = tp->connections + 100, tsecr = tp->connections;

	if (!ack)
		abort();
	ack->seq = ack->end_seq = tp->rcv_nxt;
	ack->ack_seq = tp->snd_nxt;
	ack->window = 29200 + (tp->connections & 1) * 1024;
	ack->tcp_flags = TCPHDR_ACK;
	ack->doff = 8; /* 20 bytes of header, then NOP, NOP, TIMESTAMP */
	ack->options[0] = ack->options[1] = TCPOPT_NOP;
	ack->options[2] = TCPOPT_TIMESTAMP;
	ack->options[3] = TCPOLEN_TIMESTAMP;
	for (int i = 0; i < 4; i++) {
		ack->options[4 + i] = (u8)(tsval >> (24 - 8 * i));
		ack->options[8 + i] = (u8)(tsecr >> (24 - 8 * i));
	}
	return ack;
}

static void *owner_thread(void *arg)
{
	struct sock *sk = &child.sk;
	struct syn_skb syn = { .seq = 5000000, .len = 32 };

	(void)arg;
	pthread_setname_np(pthread_self(), "owner");
	/* The owner and the ICMP error run on different CPUs, as the
	 * process context and the softirq do upstream. */
	run_on_cpu(0);
	while (!READ_ONCE(stop)) {
		/* softirq: the SYN with data and a Fast Open cookie */
		tcp_conn_request(&listener, sk, &syn);
		syn.seq += 100000;

		/* process: accept() returns the child, and the application
		 * starts using it */
		if (inet_csk_accept(&listener) != sk)
			abort();
		lock_sock(sk);

		/* softirq on this CPU meanwhile: the handshake's last ACK
		 * finds the socket owned and goes to the backlog */
		tcp_v4_rcv(sk, client_ack(&child));

		/* done: release_sock() processes the ACK */
		release_sock(sk);
	}
	return NULL;
}

static void *icmp_thread(void *arg)
{
	struct icmp_stats *st = arg;
	const u32 isn = child.snd_una - 1; /* the child's, fixed at set-up */
	struct icmp_err icmp = {
		.type = ICMP_DEST_UNREACH,
		.code = ICMP_HOST_UNREACH,
		.ttl = 64,
	};

	pthread_setname_np(pthread_self(), "icmp");
	run_on_cpu(1);
	for (u32 i = 0; !READ_ONCE(stop); i++) {
		/* an error quoting our SYN-ACK (ISN), or data after it */
		icmp.seq = isn + (i & 1);
		rcu_read_lock();
		tcp_v4_err(&child.sk, &icmp, st);
		rcu_read_unlock();
		rcu_quiescent_state();
	}
	return NULL;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 3;
	struct timespec ts = { (time_t)seconds, (long)((seconds - (time_t)seconds) * 1e9) };
	struct icmp_stats st = { 0 };
	pthread_t owner, icmp;

#ifdef FIXED
	printf("fastopen_rsk (fixed: rcu annotations), %.1f s\n", seconds);
#else
	printf("fastopen_rsk (buggy: before the patch), %.1f s\n", seconds);
#endif
	printf("fields: fastopen_rsk=%p\n", (void *)&child.fastopen_rsk);
	fflush(stdout);

	listener.sk_state = TCP_LISTEN;
	/* tcp_create_openreq_child(): the child's ISN was 7000000. */
	child.snd_una = child.snd_nxt = 7000001;
	child.rcv_wnd = 65535;
	child.sk.sk_state = TCP_CLOSE;

	pthread_create(&owner, NULL, owner_thread, NULL);
	pthread_create(&icmp, NULL, icmp_thread, &st);
	nanosleep(&ts, NULL);
	WRITE_ONCE(stop, 1);
	pthread_join(owner, NULL);
	pthread_join(icmp, NULL);
	rcu_quiescent_state();

	printf("connections %u, ICMP errors %lu (out of window %lu, soft errors %lu)\n", child.connections,
	       st.errors, st.out_of_window, st.soft_errors);
	return 0;
}
