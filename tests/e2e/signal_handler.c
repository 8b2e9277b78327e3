// A signal handler writes a variable that the interrupted thread keeps
// reading.  As in the kernel, where a watcher runs with interrupts disabled
// unless interrupt_watcher=1, a thread's own signal handler racing with its
// watch window is not reported by default (signal_handler_watcher.c turns the
// option on).
//
// OPTIONS: skip_watch=0
// NOT: BUG|UCSAN: reported

#include <signal.h>
#include "e2e.h"

#ifndef RUN_MS
#define RUN_MS 1000
#endif

int shared;
long signals_sent;
pthread_t target;

E2E_READER_WRITER(shared, reader, handler_write)

static void handler(int sig)
{
	static int n;

	(void)sig;
	handler_write(++n);
}

int main(void)
{
	struct e2e_loop reads = { reader, NULL, 0, 0 };
	struct sigaction sa;
	double end;
	int err;

	e2e_require_runtime();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	if (sigaction(SIGUSR1, &sa, NULL) != 0)
		e2e_die("sigaction", errno);
	target = e2e_spawn(e2e_loop_thread, &reads);
	end = e2e_now() + RUN_MS / 1000.0;
	while (e2e_now() < end) {
		err = pthread_kill(target, SIGUSR1);
		if (err)
			e2e_die("pthread_kill", err);
		signals_sent++;
		e2e_sleep_ms(1);
	}
	__atomic_store_n(&e2e_stop_flag, 1, __ATOMIC_RELAXED);
	e2e_join(target);
	fprintf(stderr, "signals sent: %ld\n", signals_sent);
	return 0;
}
