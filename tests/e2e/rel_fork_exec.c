// exec after fork from a multi-threaded parent whose threads sit in watch
// windows: a child that execs /bin/true exits 0; a child that execs this
// program again (argument "racer") runs a fresh runtime, reports its race
// with its own PID and exits 66 (halt_on_error=1); the same through vfork,
// posix_spawn and system(). The parent has no race and exits 0.
//
// OPTIONS: skip_watch=0 udelay_task=2000 halt_on_error=1
// TRIES: 3
// TIMEOUT: 90
// EXPECT: ^BUG: UCSAN: data-race in exec_reader / exec_writer$
// EXPECT: ^rel: exec children: true 0, self 66, vfork 0, spawn 66, spawn-true 0, system 0$
// EXPECT: ^rel: 2 exec'd racers reported with their own pid$
// NOT: parent_

#include <spawn.h>
#include <sys/wait.h>

#include "rel_support.h"

extern char **environ;

static int exec_shared;
static int parent_private[2][16];
static int parent_stop;

E2E_READER_WRITER(exec_shared, exec_reader, exec_writer)

NOINLINE void parent_watch(int *p)
{
	(*p)++;
}

static void *parent_watcher(void *arg)
{
	while (!__atomic_load_n(&parent_stop, __ATOMIC_RELAXED))
		parent_watch(arg);
	return NULL;
}

static int status_of(pid_t pid, const char *what)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		e2e_die("waitpid", errno);
	if (!WIFEXITED(status)) {
		fprintf(stderr, "e2e: %s child died with status 0x%x\n", what, status);
		exit(2);
	}
	return WEXITSTATUS(status);
}

static pid_t fork_exec(const char *path, const char *arg)
{
	pid_t pid = fork();

	if (pid < 0)
		e2e_die("fork", errno);
	if (pid == 0) {
		execl(path, path, arg, (char *)NULL);
		_exit(127);
	}
	return pid;
}

int main(int argc, char **argv)
{
	char self[4096];
	char *spawn_args[] = { self, "racer", NULL };
	char *true_args[] = { "true", NULL };
	pthread_t w[2];
	pid_t racers[2];
	int rc_true, rc_self, rc_vfork, rc_spawn, rc_spawn_true, rc_system, ok = 0;
	ssize_t n;
	pid_t pid;
	char *text;

	if (argc > 1 && !strcmp(argv[1], "racer")) {
		/* The exec'd child: a fresh runtime; halt_on_error ends it. */
		e2e_race_rw(exec_reader, exec_writer, 5000);
		return 0;
	}
	e2e_require_runtime();
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0)
		e2e_die("readlink", errno);
	self[n] = '\0';
	for (int i = 0; i < 2; i++)
		w[i] = e2e_spawn(parent_watcher, parent_private[i]);
	e2e_sleep_ms(5);

	rc_true = status_of(fork_exec("/bin/true", NULL), "true");
	racers[0] = fork_exec(self, "racer");
	rc_self = status_of(racers[0], "self");

	pid = vfork();
	if (pid < 0)
		e2e_die("vfork", errno);
	if (pid == 0) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	rc_vfork = status_of(pid, "vfork");

	if ((errno = posix_spawn(&racers[1], self, NULL, NULL, spawn_args, environ)) != 0)
		e2e_die("posix_spawn", errno);
	rc_spawn = status_of(racers[1], "posix_spawn");
	if ((errno = posix_spawn(&pid, "/bin/true", NULL, NULL, true_args, environ)) != 0)
		e2e_die("posix_spawn", errno);
	rc_spawn_true = status_of(pid, "posix_spawn true");
	rc_system = system("exit 0");
	rc_system = WIFEXITED(rc_system) ? WEXITSTATUS(rc_system) : -1;

	__atomic_store_n(&parent_stop, 1, __ATOMIC_RELAXED);
	e2e_join(w[0]);
	e2e_join(w[1]);
	fprintf(stderr, "rel: exec children: true %d, self %d, vfork %d, spawn %d, "
		"spawn-true %d, system %d\n", rc_true, rc_self, rc_vfork, rc_spawn,
		rc_spawn_true, rc_system);
	if (rc_self == 0 || rc_spawn == 0)
		return 0; /* a racer missed its race in 5 s: retry */

	{
		struct rel_report reps[16];
		int nrep = rel_stderr_reports(&text, reps, 16, "report PIDs");

		if (nrep < 0)
			return 0;
		for (int i = 0; i < 2; i++)
			for (int k = 0; k < nrep; k++)
				if (reps[k].pid == (int)racers[i]) {
					ok++;
					break;
				}
		for (int k = 0; k < nrep; k++)
			if (reps[k].pid == (int)getpid())
				fprintf(stderr, "e2e: a report carries the parent's pid\n");
	}
	E2E_CHECK(rel_check_lines(text) == 0);
	free(text);
	fprintf(stderr, "rel: %d exec'd racers reported with their own pid\n", ok);
	return 0;
}
