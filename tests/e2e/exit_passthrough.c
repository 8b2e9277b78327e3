// Without any report, the program's own exit status is kept.
//
// OPTIONS: skip_watch=0
// EXIT: 5
// NOT: UCSAN

#include "e2e.h"

int shared;

static void *worker(void *arg)
{
	(void)arg;
	shared = 42;
	return NULL;
}

int main(void)
{
	e2e_require_runtime();
	e2e_join(e2e_spawn(worker, NULL));
	return shared == 42 ? 5 : 2;
}
