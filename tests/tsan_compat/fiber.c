// A race on a fiber (ucontext) announced with TSan's fiber API. The
// report's stack for the fiber's side is the fiber's: the racy function and
// the fiber's entry function below it. The main context stays inside
// __tsan_ignore_thread_begin/end while it runs the fiber: ignore state is
// per fiber (TSan keeps it per fiber too), so the fiber is still checked.
//
// OPTIONS: skip_watch=0
// TRIES: 3
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in fiber_writer / other_writer$
// EXPECT-FRAME: ^ fiber_writer\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*fiber\.c:[0-9]+$ => ^ fiber_body\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*fiber\.c:[0-9]+$
// NOT: unbalanced|not a fiber
// TSAN-EXIT: 66
// TSAN-EXPECT: ^    #0 fiber_writer
// TSAN-EXPECT: ^    #1 fiber_body

#include <stdlib.h>
#include <ucontext.h>

#include "tsan_compat.h"

#define FIBER_STACK (256 * 1024)

static ucontext_t main_uc, fiber_uc;
static void *main_fiber, *worker_fiber;
static unsigned long shared_counter;
static int fiber_done;

NOINLINE static void fiber_writer(void)
{
	shared_counter++;
}

NOINLINE static void other_writer(void)
{
	shared_counter += 2;
}

static void fiber_body(void)
{
	unsigned long n = 0;
	while (compat_continue(&n)) {
		fiber_writer();
		if (n % 32 == 0) {
			__tsan_switch_to_fiber(main_fiber, 0);
			swapcontext(&fiber_uc, &main_uc);
		}
	}
	STORE_RELAXED(&fiber_done, 1);
	__tsan_switch_to_fiber(main_fiber, 0);
	swapcontext(&fiber_uc, &main_uc);
	abort(); /* never resumed */
}

static void *other_thread(void *arg)
{
	unsigned long n = 0;
	(void)arg;
	while (compat_continue(&n))
		other_writer();
	return NULL;
}

static void *stopper(void *arg)
{
	(void)arg;
	e2e_run_for(1500);
	return NULL;
}

int main(void)
{
	e2e_require_runtime();
	main_fiber = __tsan_get_current_fiber();
	worker_fiber = __tsan_create_fiber(0);
	E2E_CHECK(main_fiber && worker_fiber && main_fiber != worker_fiber);
	__tsan_set_fiber_name(worker_fiber, "worker");

	void *stack = malloc(FIBER_STACK);
	E2E_CHECK(stack != NULL);
	E2E_CHECK(getcontext(&fiber_uc) == 0);
	fiber_uc.uc_stack.ss_sp = stack;
	fiber_uc.uc_stack.ss_size = FIBER_STACK;
	fiber_uc.uc_link = NULL;
	makecontext(&fiber_uc, fiber_body, 0);

	pthread_t other = e2e_spawn(other_thread, NULL);
	pthread_t stop = e2e_spawn(stopper, NULL);

	__tsan_ignore_thread_begin();
	while (!LOAD_RELAXED(&fiber_done)) {
		__tsan_switch_to_fiber(worker_fiber, 0);
		swapcontext(&main_uc, &fiber_uc);
		E2E_CHECK(__tsan_get_current_fiber() == main_fiber);
	}
	__tsan_ignore_thread_end();

	e2e_join(other);
	e2e_join(stop);
	__tsan_destroy_fiber(worker_fiber);
	free(stack);
	printf("%lu\n", shared_counter);
	return 0;
}
