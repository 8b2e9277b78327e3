// Runs a program and prints its peak RSS in KiB over its whole life, as
// its parent sees it once it is gone (wait4): what the program's own
// getrusage() at some point of main() cannot see, its exit path and the
// children it waited for, counts too. Built natively.
//
//   peak_rss PROGRAM [ARG...]
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	int status;

	if (argc < 2) {
		fprintf(stderr, "usage: peak_rss PROGRAM [ARG...]\n");
		return 2;
	}
	const pid_t pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		/* Its output is not ours: only the figure goes to stdout. */
		if (!freopen("/dev/null", "w", stdout))
			_exit(127);
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return 1;
	printf("%ld\n", ru.ru_maxrss);
	return 0;
}
