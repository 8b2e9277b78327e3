/*
 * Soak test for ucsan: many threads doing a mix of plain, marked and range
 * (memcpy/memset) accesses, under a pthread mutex, under a spinlock written
 * in inline asm, on private, thread-local, read-only and malloc'ed data;
 * a thread that forks (each child does a little multi-threaded work and
 * leaves with _exit(0)); a thread that sends SIGUSR1 to random workers (the
 * handler touches handler-private data, reads data its own thread writes,
 * and writes a planted racy variable). Run under skip_watch=0 for a bounded
 * time by tests/stress/run.sh.
 *
 * Exactly three races are planted, each between two distinct noinline
 * functions; nothing else in the program races:
 *   planted_a_reader / planted_a_writer    plain int, read vs write
 *   planted_b_copy_in / planted_b_copy_out memcpy into vs out of a buffer
 *   planted_c_reader / planted_c_signal    a signal handler on one thread
 *                                          writes what another thread reads
 * The runner checks that every one is reported and that no report names
 * anything else.
 *
 * Usage: soak SECONDS [THREADS]   (THREADS: 8..64 workers, default 16)
 * Prints "soak: invariants hold" on stdout when the locked, spinlocked and
 * atomic counters add up, every child exited 0 and signals and forks
 * happened; the process then ends with the runtime's status (66 after the
 * planted races were reported).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if !defined(__x86_64__) && !defined(__i386__)
#error "soak.c's spinlock is x86 inline asm"
#endif

#if defined(__clang__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE __attribute__((noinline, noipa))
#endif
#define LINE_ALIGNED __attribute__((aligned(64)))

#define MAX_WORKERS 64

static int stop_flag;
static int stopped(void)
{
	return __atomic_load_n(&stop_flag, __ATOMIC_RELAXED);
}

static void sleep_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t next_rand(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

/* Read by every thread, written only before they start. The volatile
 * read is a marked access; the length keeps memcpy a real call. */
static volatile size_t copy_len = 128;

/* === The planted races === */

int planted_a LINE_ALIGNED;
char planted_b[256] LINE_ALIGNED;
int planted_c LINE_ALIGNED;

NOINLINE int planted_a_reader(void)
{
	return planted_a;
}

NOINLINE void planted_a_writer(int v)
{
	planted_a = v;
}

NOINLINE void planted_b_copy_in(const char *src)
{
	memcpy(planted_b, src, copy_len);
}

NOINLINE void planted_b_copy_out(char *dst)
{
	memcpy(dst, planted_b, copy_len);
}

NOINLINE int planted_c_reader(void)
{
	return planted_c;
}

NOINLINE void planted_c_signal(int v)
{
	planted_c = v;
}

/* === Regions that do not race === */

struct worker {
	pthread_t thread;
	long id;
	uint64_t rng;
	long private_data[32];
	char src[256], dst[256];
	/* what this worker did, summed up at the end */
	long iterations, mutex_calls, spin_calls, marked_calls;
	long sink;
} LINE_ALIGNED;

static struct worker workers[MAX_WORKERS];
static int nworkers = 16;

/* Under a pthread mutex: plain and range accesses. */
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static struct {
	long count;
	long sum;
	char buf[256];
} locked LINE_ALIGNED;

NOINLINE void mutex_region(struct worker *w)
{
	pthread_mutex_lock(&mutex);
	locked.count++;
	locked.sum += w->id;
	memcpy(locked.buf, w->src, copy_len);
	w->dst[0] = locked.buf[(w->id * 7) & 127];
	pthread_mutex_unlock(&mutex);
	w->mutex_calls++;
}

/* Under a spinlock the runtime cannot see (xchg / movl in inline asm). */
static int spin_word LINE_ALIGNED;
static struct {
	long count;
	long last;
	int hist[16];
} spun LINE_ALIGNED;

static inline void spin_lock(int *lock)
{
	for (;;) {
		int v = 1;

		__asm__ __volatile__("xchgl %0, %1" : "+r"(v), "+m"(*lock) : : "memory");
		if (v == 0)
			return;
		__asm__ __volatile__("pause" ::: "memory");
	}
}

static inline void spin_unlock(int *lock)
{
	__asm__ __volatile__("movl $0, %0" : "=m"(*lock) : : "memory");
}

NOINLINE void spinlock_region(struct worker *w)
{
	spin_lock(&spin_word);
	spun.count++;
	spun.last = w->id;
	spun.hist[w->id & 15]++;
	spin_unlock(&spin_word);
	w->spin_calls++;
}

/* Marked accesses only: __atomic builtins and C11 atomics. */
static long marked_counter LINE_ALIGNED;
static _Atomic long c11_counter LINE_ALIGNED;

NOINLINE void marked_region(struct worker *w)
{
	__atomic_fetch_add(&marked_counter, 1, __ATOMIC_RELAXED);
	atomic_fetch_add_explicit(&c11_counter, w->id, memory_order_relaxed);
	w->sink += __atomic_load_n(&marked_counter, __ATOMIC_ACQUIRE) & 1;
	w->marked_calls++;
}

/* The worker's own data: plain and range accesses. */
NOINLINE void private_region(struct worker *w)
{
	for (int i = 0; i < 8; i++)
		w->private_data[(w->rng + (uint64_t)i) & 31] += i;
	memcpy(w->dst, w->src, copy_len);
	memset(w->src + 128, (int)w->id, 64);
}

/* Written before the threads start, then only read. */
static int table[1024] LINE_ALIGNED;

NOINLINE void readonly_region(struct worker *w)
{
	long s = 0;

	for (int i = 0; i < 8; i++)
		s += table[(w->rng + (uint64_t)i * 37) & 1023];
	w->sink += s;
}

/* malloc'ed, used and freed by one thread (blocks move between threads). */
NOINLINE void heap_region(struct worker *w)
{
	size_t n = 64 + (size_t)(w->rng % 512);
	char *p = malloc(n);

	if (!p)
		return;
	memset(p, (int)w->id, n);
	for (size_t i = 0; i < n; i += 61)
		w->sink += p[i];
	free(p);
}

/* Thread-local data the thread writes and its own signal handler reads:
 * never concurrent (the handler runs in place of the thread). */
static __thread long tls_plain;
/* Only ever touched by signal handlers (of this thread). */
static __thread long handler_private;
static __thread long handler_seen;

NOINLINE void tls_region(struct worker *w)
{
	tls_plain += 2;
	w->sink += tls_plain & 3;
}

/* === Signals === */

static long signals_sent, signals_handled;

static void on_sigusr1(int sig)
{
	int saved = errno;

	handler_private++;
	handler_seen += tls_plain & 1;
	__atomic_fetch_add(&signals_handled, 1, __ATOMIC_RELAXED);
	planted_c_signal((int)handler_private ^ sig);
	errno = saved;
}

static void *signaller(void *arg)
{
	uint64_t rng = 0x9e3779b97f4a7c15ULL;

	(void)arg;
	while (!stopped()) {
		int i = (int)(next_rand(&rng) % (uint64_t)nworkers);

		if (pthread_kill(workers[i].thread, SIGUSR1) == 0)
			__atomic_fetch_add(&signals_sent, 1, __ATOMIC_RELAXED);
		sleep_us(300 + (long)(next_rand(&rng) % 1000));
	}
	return NULL;
}

/* === Forks === */

static long forks_ok, forks_failed;

/* The child's world: its own lock and data (a lock some parent thread held
 * at fork time stays held forever in the child). */
static pthread_mutex_t child_mutex;
static long child_locked;
static long child_private[2][16] LINE_ALIGNED;

static void *child_worker(void *arg)
{
	long *mine = arg;

	for (int i = 0; i < 300; i++) {
		mine[i & 15] += i;
		pthread_mutex_lock(&child_mutex);
		child_locked++;
		pthread_mutex_unlock(&child_mutex);
	}
	return NULL;
}

static void child_main(void)
{
	pthread_t t[2];

	pthread_mutex_init(&child_mutex, NULL);
	child_locked = 0;
	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, child_worker, child_private[i]) != 0)
			_exit(3);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	_exit(child_locked == 600 ? 0 : 4);
}

static void *forker(void *arg)
{
	uint64_t rng = 0x2545f4914f6cdd1dULL;

	(void)arg;
	while (!stopped()) {
		int status;
		pid_t pid;
		int waited = 0;

		sleep_us(50000 + (long)(next_rand(&rng) % 150000));
		pid = fork();
		if (pid < 0) {
			__atomic_fetch_add(&forks_failed, 1, __ATOMIC_RELAXED);
			fprintf(stderr, "soak: fork failed: %s\n", strerror(errno));
			continue;
		}
		if (pid == 0)
			child_main();
		/* A child gets 20 s; one that hangs is killed and counted. */
		for (;;) {
			pid_t r = waitpid(pid, &status, WNOHANG);

			if (r == pid)
				break;
			if (r < 0 && errno != EINTR) {
				status = -1;
				break;
			}
			if (++waited == 2000) {
				kill(pid, SIGKILL);
				waitpid(pid, &status, 0);
				fprintf(stderr, "soak: child %d hung: killed\n", (int)pid);
				status = -1;
				break;
			}
			sleep_us(10000);
		}
		if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			__atomic_fetch_add(&forks_ok, 1, __ATOMIC_RELAXED);
		} else {
			__atomic_fetch_add(&forks_failed, 1, __ATOMIC_RELAXED);
			if (status != -1)
				fprintf(stderr, "soak: child %d ended with status 0x%x\n", (int)pid, status);
		}
	}
	return NULL;
}

/* === Workers === */

enum role { ROLE_NONE, ROLE_A_WRITER, ROLE_A_READER, ROLE_B_IN, ROLE_B_OUT, ROLE_C_READER };

static void planted_work(struct worker *w, enum role role, int i)
{
	switch (role) {
	case ROLE_A_WRITER:
		planted_a_writer(i);
		break;
	case ROLE_A_READER:
		for (int k = 0; k < 4; k++)
			w->sink += planted_a_reader();
		break;
	case ROLE_B_IN:
		w->src[i & 127] = (char)i;
		planted_b_copy_in(w->src);
		break;
	case ROLE_B_OUT:
		planted_b_copy_out(w->dst);
		break;
	case ROLE_C_READER:
		for (int k = 0; k < 8; k++)
			w->sink += planted_c_reader();
		break;
	case ROLE_NONE:
		break;
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	enum role role = w->id < 5 ? (enum role)(w->id + 1) : ROLE_NONE;

	for (int i = 0; !stopped(); i++) {
		planted_work(w, role, i);
		switch (next_rand(&w->rng) % 7) {
		case 0: mutex_region(w); break;
		case 1: spinlock_region(w); break;
		case 2: marked_region(w); break;
		case 3: private_region(w); break;
		case 4: readonly_region(w); break;
		case 5: heap_region(w); break;
		default: tls_region(w); break;
		}
		w->iterations++;
	}
	w->sink += handler_seen;
	return NULL;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 10;
	struct sigaction sa;
	pthread_t sig_thread, fork_thread;
	long iterations = 0, mutex_calls = 0, spin_calls = 0, marked_calls = 0, id_sum = 0;
	int ok = 1;
	double start;

	if (argc > 2)
		nworkers = atoi(argv[2]);
	if (seconds <= 0 || nworkers < 8 || nworkers > MAX_WORKERS) {
		fprintf(stderr, "usage: soak SECONDS [THREADS 8..%d]\n", MAX_WORKERS);
		return 2;
	}
	for (int i = 0; i < 1024; i++)
		table[i] = i * 3;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigusr1;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL) != 0) {
		perror("sigaction");
		return 2;
	}

	start = now_s();
	for (int i = 0; i < nworkers; i++) {
		workers[i].id = i;
		workers[i].rng = 0x853c49e6748fea9bULL * (uint64_t)(i + 1) | 1;
		if (pthread_create(&workers[i].thread, NULL, worker_main, &workers[i]) != 0) {
			perror("pthread_create");
			return 2;
		}
	}
	if (pthread_create(&sig_thread, NULL, signaller, NULL) != 0 ||
	    pthread_create(&fork_thread, NULL, forker, NULL) != 0) {
		perror("pthread_create");
		return 2;
	}
	while (now_s() - start < seconds)
		sleep_us(20000);
	__atomic_store_n(&stop_flag, 1, __ATOMIC_RELAXED);
	pthread_join(sig_thread, NULL);
	pthread_join(fork_thread, NULL);
	for (int i = 0; i < nworkers; i++)
		pthread_join(workers[i].thread, NULL);

	for (int i = 0; i < nworkers; i++) {
		iterations += workers[i].iterations;
		mutex_calls += workers[i].mutex_calls;
		spin_calls += workers[i].spin_calls;
		marked_calls += workers[i].marked_calls;
		id_sum += workers[i].id * workers[i].marked_calls;
	}
	printf("soak: %d workers, %.1f s, %ld iterations, %ld forks (%ld failed), "
	       "%ld signals sent, %ld handled\n",
	       nworkers, now_s() - start, iterations, forks_ok, forks_failed, signals_sent,
	       signals_handled);
#define INVARIANT(cond)                                                     \
	do {                                                                \
		if (!(cond)) {                                              \
			printf("soak: invariant broken: %s\n", #cond);      \
			ok = 0;                                             \
		}                                                           \
	} while (0)
	INVARIANT(locked.count == mutex_calls);
	INVARIANT(spun.count == spin_calls);
	INVARIANT(marked_counter == marked_calls);
	INVARIANT(atomic_load(&c11_counter) == id_sum);
	INVARIANT(forks_ok > 0 || seconds < 1);
	INVARIANT(forks_failed == 0);
	INVARIANT(signals_handled > 0);
	for (int i = 0; i < nworkers; i++)
		INVARIANT(workers[i].iterations > 0);
	if (ok)
		printf("soak: invariants hold\n");
	fflush(stdout);
	return ok ? 0 : 3;
}
