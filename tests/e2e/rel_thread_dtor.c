// Instrumented code at thread exit: pthread_key_create() destructors (with
// a key whose destructor sets its value again, so it runs in several
// rounds) and __cxa_thread_atexit_impl() destructors (what C++ thread_local
// objects use) make watched accesses to thread-private and shared data as
// 64 threads leave at once, 10 times over. The destructors' unlocked
// updates of a shared counter race with each other and are reported with
// the destructor's frame; everything else is private or locked. No crash,
// no hang, every destructor ran, and the output is well-formed.
//
// OPTIONS: skip_watch=0 udelay_task=50 report_once_in_ms=100
// TRIES: 3
// TIMEOUT: 120
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in (key_dtor|tls_dtor) / (key_dtor|tls_dtor)$
// EXPECT: ^rel: 640 threads, 640 key destructors x 3 rounds, 640 thread_local destructors$
// EXPECT: ^rel: output of the run checked$
// NOT: ^BUG: UCSAN: .*(private|locked)

#include "rel_support.h"

#define THREADS 64
#define ROUNDS 10

extern void *__dso_handle;
extern int __cxa_thread_atexit_impl(void (*dtor)(void *), void *obj, void *dso);

struct tls_obj {
	long private_data[8];
	long id;
};

static __thread struct tls_obj tls_objs;
static pthread_key_t key;
static pthread_barrier_t leave_together;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long racy_dtor_count;  /* updated without the lock: the race */
static long locked_key_rounds, locked_tls_dtors;
static long key_private[THREADS][3][8];

NOINLINE void key_dtor(void *value)
{
	long *p = value;  /* key_private[id][round] */
	long round = p[0];

	for (int i = 1; i < 8; i++)
		p[i] += p[i - 1] + 1;      /* private */
	racy_dtor_count++;                 /* shared, unlocked */
	pthread_mutex_lock(&lock);
	locked_key_rounds++;
	pthread_mutex_unlock(&lock);
	if (round < 2) {
		/* Set again: destructors run once more (up to 4 rounds). */
		long *next = p + 8;

		next[0] = round + 1;
		pthread_setspecific(key, next);
	}
}

NOINLINE void tls_dtor(void *obj)
{
	struct tls_obj *o = obj;

	for (int i = 0; i < 8; i++)
		o->private_data[i] = o->id * i; /* private */
	racy_dtor_count++;                      /* shared, unlocked */
	pthread_mutex_lock(&lock);
	locked_tls_dtors++;
	pthread_mutex_unlock(&lock);
}

static void *worker(void *arg)
{
	long id = (long)arg;

	key_private[id][0][0] = 0;
	pthread_setspecific(key, key_private[id][0]);
	tls_objs.id = id;
	if (__cxa_thread_atexit_impl(tls_dtor, &tls_objs, __dso_handle) != 0) {
		fprintf(stderr, "e2e: __cxa_thread_atexit_impl failed\n");
		exit(2);
	}
	pthread_barrier_wait(&leave_together);
	return NULL;
}

int main(int argc, char **argv)
{
	int err;

	rel_supervise(argc, argv);
	e2e_require_runtime();
	if ((err = pthread_key_create(&key, key_dtor)) != 0)
		e2e_die("pthread_key_create", err);
	pthread_barrier_init(&leave_together, NULL, THREADS);
	for (int r = 0; r < ROUNDS; r++) {
		pthread_t t[THREADS];

		memset(key_private, 0, sizeof(key_private));
		for (long i = 0; i < THREADS; i++)
			t[i] = e2e_spawn(worker, (void *)i);
		for (int i = 0; i < THREADS; i++)
			e2e_join(t[i]);
	}
	E2E_CHECK(locked_key_rounds == 3L * THREADS * ROUNDS);
	E2E_CHECK(locked_tls_dtors == (long)THREADS * ROUNDS);
	fprintf(stderr, "rel: %d threads, %d key destructors x 3 rounds, %ld thread_local destructors\n",
		THREADS * ROUNDS, THREADS * ROUNDS, locked_tls_dtors);
	return 0;
}
