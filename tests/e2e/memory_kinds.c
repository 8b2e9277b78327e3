// Races on memory that is not a global: a malloc'ed block (main arena), a
// block malloc'ed by another thread (per-thread arena, near the top of the
// address space), a local variable of main's stack and an anonymous mmap.
// Each kind has its own reader/writer pair; not halting, so each pair is
// reported once (report_once_in_ms) and all four must show up.
//
// OPTIONS: skip_watch=0
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in read_heap / write_heap$
// EXPECT: ^BUG: UCSAN: data-race in read_arena / write_arena$
// EXPECT: ^BUG: UCSAN: data-race in read_stack / write_stack$
// EXPECT: ^BUG: UCSAN: data-race in read_mmap / write_mmap$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ read_arena\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*memory_kinds\.c:[0-9]+$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ write_stack\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*memory_kinds\.c:[0-9]+$
// EXPECT: ^UCSAN: reported 4 data races$
// NOT: race at unknown origin

#include <sys/mman.h>
#include "e2e.h"

struct places {
	long *heap;
	long *arena;
	long *stack;
	long *map;
};

static struct places places;
static pthread_mutex_t arena_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t arena_cv = PTHREAD_COND_INITIALIZER;
long sink;

NOINLINE long read_heap(void) { return *places.heap; }
NOINLINE long read_arena(void) { return *places.arena; }
NOINLINE long read_stack(void) { return *places.stack; }
NOINLINE long read_mmap(void) { return *places.map; }
NOINLINE void write_heap(long v) { *places.heap = v; }
NOINLINE void write_arena(long v) { *places.arena = v; }
NOINLINE void write_stack(long v) { *places.stack = v; }
NOINLINE void write_mmap(long v) { *places.map = v; }

static void *reader_thread(void *arg)
{
	long sum = 0;

	(void)arg;
	while (!e2e_stopped())
		sum += read_heap() + read_arena() + read_stack() + read_mmap();
	__atomic_store_n(&sink, sum, __ATOMIC_RELAXED);
	return NULL;
}

/* Allocates places.arena from its own malloc arena, then writes. */
static void *writer_thread(void *arg)
{
	long i = 0;

	(void)arg;
	pthread_mutex_lock(&arena_mu);
	places.arena = malloc(64);
	E2E_CHECK(places.arena != NULL);
	*places.arena = 0;
	pthread_cond_signal(&arena_cv);
	pthread_mutex_unlock(&arena_mu);
	while (!e2e_stopped()) {
		i++;
		write_heap(i);
		write_arena(i);
		write_stack(i);
		write_mmap(i);
	}
	return NULL;
}

int main(void)
{
	long on_stack = 0;
	pthread_t r, w;

	places.heap = calloc(1, sizeof(long));
	places.stack = &on_stack;
	places.map = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	E2E_CHECK(places.heap != NULL && places.map != MAP_FAILED);
	w = e2e_spawn(writer_thread, NULL);
	pthread_mutex_lock(&arena_mu);
	while (!places.arena)
		pthread_cond_wait(&arena_cv, &arena_mu);
	pthread_mutex_unlock(&arena_mu);
	r = e2e_spawn(reader_thread, NULL);
	e2e_run_for(1500);
	e2e_join(r);
	e2e_join(w);
	e2e_show_addr("heap", places.heap, sizeof(*places.heap));
	e2e_show_addr("arena", places.arena, sizeof(*places.arena));
	e2e_show_addr("stack", places.stack, sizeof(*places.stack));
	e2e_show_addr("mmap", places.map, sizeof(*places.map));
	return 0;
}
