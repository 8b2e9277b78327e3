// No race: the reader reads `shared` under a spinlock written in inline
// asm, which the runtime cannot see, releases it, and blocks on a mutex
// main holds. A third thread takes the spinlock after that release and
// stores to `shared`: ordered after the read, through the unseen lock.
// The read is watched (a cold site) and followed at once by a blocking
// lock, so it is held through that wait; but only the mutex's owner
// (main) may meet the hold, so the store meets nothing. Without that
// rule it was reported in 20 of 20 runs (gcc and clang), as the stress
// suite's soak test found.
//
// REPEAT: 5
// NOT: UCSAN

#include <stdatomic.h>
#include <unistd.h>

#include "e2e.h"

static int spin_word;
static long shared;
static atomic_int reader_done, writer_done;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void spin_lock(int *w)
{
	int one = 1;
	for (;;) {
		__asm__ __volatile__("xchgl %0, %1" : "+r"(one), "+m"(*w) : : "memory");
		if (!one)
			return;
		one = 1;
		__asm__ __volatile__("pause");
	}
}

static void spin_unlock(int *w)
{
	__asm__ __volatile__("movl $0, %0" : "=m"(*w) : : "memory");
}

static void *reader(void *arg)
{
	(void)arg;
	spin_lock(&spin_word);
	const long seen = shared;
	spin_unlock(&spin_word);
	atomic_store_explicit(&reader_done, 1, memory_order_relaxed);
	pthread_mutex_lock(&lock);
	pthread_mutex_unlock(&lock);
	return (void *)seen;
}

static void *writer(void *arg)
{
	(void)arg;
	while (!atomic_load_explicit(&reader_done, memory_order_relaxed))
		usleep(100);
	usleep(2000); /* the reader is blocked on the mutex by now */
	spin_lock(&spin_word);
	shared = 42;
	spin_unlock(&spin_word);
	atomic_store_explicit(&writer_done, 1, memory_order_relaxed);
	return NULL;
}

int main(void)
{
	pthread_mutex_lock(&lock);
	pthread_t r = e2e_spawn(reader, NULL);
	pthread_t w = e2e_spawn(writer, NULL);
	while (!atomic_load_explicit(&writer_done, memory_order_relaxed))
		usleep(100);
	pthread_mutex_unlock(&lock);
	e2e_join(r);
	e2e_join(w);
	printf("%ld\n", shared);
	return 0;
}
