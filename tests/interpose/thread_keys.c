// pthread_create() takes nothing from the program: after threads were made
// with it, the program can still create PTHREAD_KEYS_MAX thread-specific
// data keys, as under plain glibc (which reserves none for itself).
//
// ucsan's pthread_create takes one key (the one whose destructor sees each
// thread end, after the program's key destructors), and gives it up when
// the program's pthread_key_create runs out: the program's
// PTHREAD_KEYS_MAX-th key is still created (src/threads.c).  (gcc 12's
// ThreadSanitizer runtime takes one for good.)
//
// CFLAGS: -O2 -g -std=gnu11 -Wall -Wextra -Werror
// EXPECT-STDOUT: ^thread_keys: [0-9]+ checks, 0 failed$
// NOT: UCSAN

#include "interpose.h"

#include <limits.h>

static void *nothing(void *arg)
{
	return arg;
}

int main(void)
{
	pthread_key_t key;
	int n = 0, r;

	e2e_require_runtime();
	e2e_join(e2e_spawn(nothing, NULL));
	while ((r = pthread_key_create(&key, NULL)) == 0 && n <= PTHREAD_KEYS_MAX)
		n++;
	printf("pthread_key_create: %d keys, then %s\n", n, strerror(r));
	IP_EXPECT(n == PTHREAD_KEYS_MAX && r == EAGAIN, "%d keys for the program, PTHREAD_KEYS_MAX is %d", n,
		  PTHREAD_KEYS_MAX);
	/* And threads made now still start and end. */
	e2e_join(e2e_spawn(nothing, NULL));
	return ip_finish("thread_keys");
}
