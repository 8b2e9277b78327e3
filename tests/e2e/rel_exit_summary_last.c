// The summary is the last word: main returns while four threads race and
// report over and over (report_once_in_ms=0), and exit has 1 MiB of
// buffered stdout to flush into a pipe that a thread of the program drains
// slowly (4 KiB a millisecond), which keeps the runtime's exit path busy
// for a quarter of a second after it printed "UCSAN: reported N data
// races". No report may come after that line, and N must count every report
// printed (checked on the whole output once the process is gone). Exit
// status 66.
//
// OPTIONS: skip_watch=0 report_once_in_ms=0
// TIMEOUT: 60
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in sl_reader / sl_writer$
// EXPECT: ^UCSAN: reported [0-9]+ data races$
// EXPECT: ^rel: output of the run checked$

#include "rel_support.h"

#define BUFFERED (1 << 20)

static int sl_shared;

E2E_READER_WRITER(sl_shared, sl_reader, sl_writer)

/* Both race until the process is gone: the stop flag is never set. */
static struct e2e_loop reads = { sl_reader, NULL, 0, 0 };
static struct e2e_loop writes = { NULL, sl_writer, 0, 0 };

/* Drains the pipe behind stdout, slowly, until the process is gone. */
REL_UNCHECKED static void *slow_reader(void *arg)
{
	char buf[4096];
	int fd = *(int *)arg;

	for (;;) {
		if (read(fd, buf, sizeof(buf)) <= 0 && errno != EINTR)
			return NULL;
		e2e_sleep_ms(1);
	}
}

int main(int argc, char **argv)
{
	static char line[4096];
	static int pipefd[2];
	char *buf;

	rel_supervise(argc, argv);
	e2e_require_runtime();
	/* stdout: a pipe drained slowly, fully buffered in one big buffer
	 * that only exit flushes. */
	if (pipe(pipefd) != 0 || dup2(pipefd[1], 1) != 1)
		e2e_die("pipe", errno);
	close(pipefd[1]);
	buf = malloc(BUFFERED + 4096);
	if (!buf || setvbuf(stdout, buf, _IOFBF, BUFFERED + 4096) != 0)
		e2e_die("setvbuf", errno);
	memset(line, 'x', sizeof(line) - 1);
	line[sizeof(line) - 2] = '\n';
	for (int i = 0; i < BUFFERED / (int)sizeof(line); i++)
		fputs(line, stdout);
	e2e_spawn(slow_reader, &pipefd[0]);
	for (int i = 0; i < 2; i++) {
		e2e_spawn(e2e_loop_thread, &reads);
		e2e_spawn(e2e_loop_thread, &writes);
	}
	rel_wait_for_report("sl_reader / sl_writer", (int)getpid(), 20000);
	return 0;
}
