// fork: the parent starts a thread (so the runtime has per-thread state and
// possibly a watchpoint set at fork time), forks, and the child runs the
// reader/writer race with halt_on_error=1.  The child's report appears and
// the child exits 66; the parent, which saw no race, exits 0.
//
// OPTIONS: skip_watch=0 halt_on_error=1
// TRIES: 10
// EXPECT: ^BUG: UCSAN: data-race in reader / writer$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ reader\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*fork\.c:[0-9]+$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ writer\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*fork\.c:[0-9]+$
// EXPECT: ^parent: child exited with 66$

#include <sys/wait.h>
#include <unistd.h>
#include "e2e.h"

int shared;
int parent_only;      /* only the parent's busy thread touches it */

E2E_READER_WRITER(shared, reader, writer)

/* Keeps watching its own variable in the parent while main forks. */
static int busy_stop;
static void *busy_thread(void *arg)
{
	long sum = 0;

	(void)arg;
	while (!__atomic_load_n(&busy_stop, __ATOMIC_RELAXED))
		sum += parent_only;
	__atomic_store_n(&e2e_sink, sum, __ATOMIC_RELAXED);
	return NULL;
}

int main(void)
{
	pthread_t busy = e2e_spawn(busy_thread, NULL);
	int status;
	pid_t pid;

	e2e_sleep_ms(20);
	pid = fork();
	if (pid < 0)
		e2e_die("fork", errno);
	if (pid == 0) {
		e2e_race_rw(reader, writer, 4000);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		e2e_die("waitpid", errno);
	__atomic_store_n(&busy_stop, 1, __ATOMIC_RELAXED);
	e2e_join(busy);
	if (WIFEXITED(status))
		fprintf(stderr, "parent: child exited with %d\n",
			WEXITSTATUS(status));
	else
		fprintf(stderr, "e2e: child died with status 0x%x\n", status);
	return 0;
}
