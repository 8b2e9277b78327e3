// SPDX-License-Identifier: Apache-2.0
/*
 * Who the threads are, for reports: each thread's id, who created it and
 * where (a short stack taken in pthread_create), its stack and thread
 * pointer (for "stack of thread N" and "thread-local of thread N"), and
 * whether it is still running; and until when it sleeps, for the cold
 * stalls that wait for a sleeper to wake. Fixed memory, no locks: a record
 * is claimed with a compare-and-swap and reused once its thread has ended.
 * Only the report and cold paths read it; nothing here is on the hot path.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "internal.h"

#define MAX_THREADS 1024

static struct ucsan_thread_info threads[MAX_THREADS];

/* A record for a starting thread: a free one first, else one whose thread
 * has ended. */
static struct ucsan_thread_info *claim(void)
{
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < MAX_THREADS; i++) {
			struct ucsan_thread_info *t = &threads[i];
			int state = atomic_load(&t->state);
			if (state != (pass ? THREAD_ENDED : THREAD_FREE))
				continue;
			if (atomic_compare_exchange_strong(&t->state, &state, THREAD_FILLING))
				return t;
		}
	}
	return NULL;
}

static void stack_bounds(struct ucsan_thread_info *t)
{
	pthread_attr_t attr;
	void *addr;
	size_t size;
	if (pthread_getattr_np(pthread_self(), &attr) != 0)
		return;
	if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
		t->stack_lo = (uintptr_t)addr;
		t->stack_hi = (uintptr_t)addr + size;
	}
	pthread_attr_destroy(&attr);
}

void ucsan_thread_info_register(int creator, const uintptr_t *pcs, int npcs)
{
	const int tid = ucsan_gettid();
	struct ucsan_thread_info *t = claim();
	if (!t)
		return;
	t->tid = tid;
	atomic_store_explicit(&t->sleep_until, 0, memory_order_relaxed);
	atomic_store_explicit(&t->waiting, false, memory_order_relaxed);
	t->creator = creator;
	t->tp = (uintptr_t)pthread_self();
	t->stack_lo = t->stack_hi = 0;
	t->name[0] = '\0';
	t->npcs = npcs < UCSAN_CREATE_STACK ? npcs : UCSAN_CREATE_STACK;
	if (t->npcs > 0)
		memcpy(t->pcs, pcs, (size_t)t->npcs * sizeof(*pcs));
	stack_bounds(t);
	atomic_store(&t->state, THREAD_RUNNING);
	ucsan_ctx_tls.thread_info = t;
}

void ucsan_thread_info_ended(void)
{
	struct ucsan_thread_info *t = ucsan_ctx_tls.thread_info;
	if (!t)
		return;
	/* Its name, while it can still be asked. */
	prctl(PR_GET_NAME, t->name, 0, 0, 0);
	t->name[sizeof(t->name) - 1] = '\0';
	atomic_store(&t->state, THREAD_ENDED);
	ucsan_ctx_tls.thread_info = NULL;
}

/* The child of fork() has one thread: the others' records are ended. */
void ucsan_thread_info_after_fork(void)
{
	struct ucsan_thread_info *self = ucsan_ctx_tls.thread_info;
	for (int i = 0; i < MAX_THREADS; i++) {
		struct ucsan_thread_info *t = &threads[i];
		if (t != self && atomic_load(&t->state) == THREAD_RUNNING)
			atomic_store(&t->state, THREAD_ENDED);
	}
	if (self) {
		self->tid = ucsan_gettid();
		self->creator = 0;
		self->npcs = 0;
	}
}

void ucsan_thread_info_sleep(uint64_t until)
{
	struct ucsan_thread_info *t = ucsan_ctx_tls.thread_info;
	if (t)
		atomic_store_explicit(&t->sleep_until, until, memory_order_relaxed);
}

const struct ucsan_thread_info *ucsan_thread_info_creator(void)
{
	const struct ucsan_thread_info *self = ucsan_ctx_tls.thread_info;
	return self && self->creator ? ucsan_thread_info_find(self->creator) : NULL;
}

uint64_t ucsan_thread_info_creator_wakes(uint64_t now, uint64_t by)
{
	const struct ucsan_thread_info *t = ucsan_thread_info_creator();
	if (!t || atomic_load_explicit(&t->state, memory_order_relaxed) != THREAD_RUNNING)
		return 0;
	const uint64_t until = atomic_load_explicit(&t->sleep_until, memory_order_relaxed);
	return until > now && until <= by ? until : 0;
}

void ucsan_thread_info_waiting(bool waiting)
{
	struct ucsan_thread_info *t = ucsan_ctx_tls.thread_info;
	if (t)
		atomic_store_explicit(&t->waiting, waiting, memory_order_relaxed);
}

const struct ucsan_thread_info *ucsan_thread_info_find(int tid)
{
	const struct ucsan_thread_info *found = NULL;
	for (int i = 0; i < MAX_THREADS; i++) {
		const struct ucsan_thread_info *t = &threads[i];
		const int state = atomic_load(&t->state);
		if ((state == THREAD_RUNNING || state == THREAD_ENDED) && t->tid == tid &&
		    (!found || state == THREAD_RUNNING))
			found = t;
	}
	return found;
}

const struct ucsan_thread_info *ucsan_thread_info_at(int i)
{
	if (i < 0 || i >= MAX_THREADS)
		return NULL;
	const int state = atomic_load(&threads[i].state);
	return (state == THREAD_RUNNING || state == THREAD_ENDED) ? &threads[i] : NULL;
}

int ucsan_thread_info_max(void)
{
	return MAX_THREADS;
}

/* The thread's name now: the kernel's comm of a running thread (set by
 * pthread_setname_np or prctl), the one kept at exit otherwise. */
void ucsan_thread_name(const struct ucsan_thread_info *t, char *buf, size_t len)
{
	buf[0] = '\0';
	if (!t || len < 2)
		return;
	if (atomic_load(&t->state) == THREAD_RUNNING) {
		char path[64];
		int n = snprintf(path, sizeof(path), "/proc/self/task/%d/comm", t->tid);
		if (n > 0 && n < (int)sizeof(path)) {
			int fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd >= 0) {
				ssize_t r = read(fd, buf, len - 1);
				close(fd);
				if (r > 0) {
					buf[r] = '\0';
					char *nl = strchr(buf, '\n');
					if (nl)
						*nl = '\0';
					return;
				}
			}
		}
		buf[0] = '\0';
		return;
	}
	snprintf(buf, len, "%s", t->name);
}

/* OpenMP's thread number, from the program's OpenMP runtime if it has one
 * (libgomp, libomp), looked up at start-up: asked when a report is made,
 * perhaps in a signal handler, where dlsym cannot run. Both functions only
 * read the calling thread's state. */
static int (*omp_thread_num)(void), (*omp_in_parallel)(void);
/* Cleared when the process begins to exit: the OpenMP runtime's own
 * destructors run later (in the loader's finalization, after every atexit
 * handler), and omp_in_parallel() crashes in libomp once they have begun
 * -- a report from a memset of theirs would call it. */
static _Atomic bool omp_alive;

static void omp_exiting(void)
{
	atomic_store(&omp_alive, false);
}

void ucsan_omp_init(void)
{
	omp_thread_num = (int (*)(void))dlsym(RTLD_DEFAULT, "omp_get_thread_num");
	omp_in_parallel = (int (*)(void))dlsym(RTLD_DEFAULT, "omp_in_parallel");
	if (omp_thread_num && omp_in_parallel && atexit(omp_exiting) == 0)
		atomic_store(&omp_alive, true);
}

bool ucsan_omp_present(void)
{
	return omp_in_parallel != NULL;
}

int ucsan_omp_thread(void)
{
	if (!atomic_load(&omp_alive) || !omp_in_parallel())
		return -1;
	return omp_thread_num();
}
