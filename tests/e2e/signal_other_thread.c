// A signal handler writes a variable that another thread reads: the race
// is reported with the handler's frames under "by signal handler in
// thread T", printed once it is safe to symbolize (not from inside the
// handler), and no runtime or signal-trampoline frame shows.
//
// OPTIONS: skip_watch=0 halt_on_error=0 report_once_in_ms=100000
// TRIES: 10
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in handler_write / reader$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of 4 bytes by signal handler in thread [0-9]+ on cpu [0-9]+:$ => ^ handler_write\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*signal_other_thread\.c:[0-9]+$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ reader\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*signal_other_thread\.c:[0-9]+$
// EXPECT: ^ on_signal\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*signal_other_thread\.c:[0-9]+$
// NOT: trampoline|__restore_rt|ucsan_

#include <signal.h>

#include "e2e.h"

static int shared;

E2E_READER_WRITER(shared, reader, handler_write)

static void on_signal(int sig)
{
	static int n;
	handler_write(++n + sig);
}

static void *signaller(void *arg)
{
	pthread_t target = *(pthread_t *)arg;
	while (!e2e_stopped()) {
		pthread_kill(target, SIGUSR1);
		e2e_sleep_ms(1);
	}
	return NULL;
}

int main(void)
{
	struct e2e_loop reads = { reader, NULL, 0, 0 };
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGUSR1, &sa, NULL);
	/* The handler runs on the main thread, racing with the reads. */
	pthread_t self = pthread_self();
	pthread_t r = e2e_spawn(e2e_loop_thread, &reads);
	pthread_t s = e2e_spawn(signaller, &self);
	for (int i = 0; i < 2000 && !e2e_stopped(); i++)
		e2e_sleep_ms(1);
	__atomic_store_n(&e2e_stop_flag, 1, __ATOMIC_RELAXED);
	e2e_join(r);
	e2e_join(s);
	return 0;
}
