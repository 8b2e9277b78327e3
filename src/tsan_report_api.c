// SPDX-License-Identifier: Apache-2.0
/*
 * ThreadSanitizer's report-inspection API over ucsan's own report: while a
 * report is being printed, the program's __tsan_on_report(report) runs,
 * and __tsan_get_current_report() and the __tsan_get_report_*() accessors
 * describe it -- the two accesses (mops), the location, the two threads --
 * so that a test harness or a debugger script written against TSan sees
 * ucsan's reports. Thread ids are kernel tids (TSan's own numbering does
 * not exist here); there are no mutexes, sleep traces or extra stacks.
 * The description lives under the report lock and is valid only inside the
 * hook, as in TSan.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>

#include "internal.h"

static const struct ucsan_report_desc *current;

UCSAN_EXPORT __attribute__((weak)) void __tsan_on_report(void *report)
{
	(void)report;
}

void ucsan_tsan_on_report(const struct ucsan_report_desc *desc)
{
	void *p = dlsym(RTLD_DEFAULT, "__tsan_on_report");
	void (*fn)(void *) = p ? (void (*)(void *))p : __tsan_on_report;
	current = desc;
	fn((void *)desc);
	current = NULL;
}

UCSAN_EXPORT void *__tsan_get_current_report(void)
{
	return (void *)current;
}

static void copy_trace(void **trace, unsigned long trace_size, const uintptr_t *pcs, int npcs)
{
	if (!trace)
		return;
	for (unsigned long i = 0; i < trace_size; i++)
		trace[i] = i < (unsigned long)npcs ? (void *)pcs[i] : NULL;
}

UCSAN_EXPORT int __tsan_get_report_data(void *report, const char **description, int *count, int *stack_count,
					int *mop_count, int *loc_count, int *mutex_count, int *thread_count,
					int *unique_tid_count, void **sleep_trace, unsigned long trace_size)
{
	const struct ucsan_report_desc *d = report;
	if (!d)
		return 0;
	if (description)
		*description = d->description;
	if (count)
		*count = 1;
	if (stack_count)
		*stack_count = 0;
	if (mop_count)
		*mop_count = d->nmops;
	if (loc_count)
		*loc_count = 1;
	if (mutex_count)
		*mutex_count = 0;
	if (thread_count)
		*thread_count = d->nthreads;
	if (unique_tid_count)
		*unique_tid_count = 0;
	copy_trace(sleep_trace, trace_size, NULL, 0);
	return 1;
}

UCSAN_EXPORT int __tsan_get_report_tag(void *report, unsigned long *tag)
{
	if (!report || !tag)
		return 0;
	*tag = 0;
	return 1;
}

UCSAN_EXPORT int __tsan_get_report_stack(void *report, unsigned long idx, void **trace, unsigned long trace_size)
{
	(void)report, (void)idx, (void)trace, (void)trace_size;
	return 0; /* no stacks besides the accesses' and the threads' */
}

UCSAN_EXPORT int __tsan_get_report_mop(void *report, unsigned long idx, int *tid, void **addr, int *size,
				       int *write, int *atomic, void **trace, unsigned long trace_size)
{
	const struct ucsan_report_desc *d = report;
	if (!d || idx >= (unsigned long)d->nmops)
		return 0;
	const struct ucsan_report_mop *m = &d->mops[idx];
	if (tid)
		*tid = m->tid;
	if (addr)
		*addr = (void *)m->addr;
	if (size)
		*size = m->size;
	if (write)
		*write = m->write;
	if (atomic)
		*atomic = m->atomic;
	copy_trace(trace, trace_size, m->pcs, m->npcs);
	return 1;
}

UCSAN_EXPORT int __tsan_get_report_loc(void *report, unsigned long idx, const char **type, void **addr,
				       unsigned long *start, unsigned long *size, int *tid, int *fd, int *suppressable,
				       void **trace, unsigned long trace_size)
{
	const struct ucsan_report_desc *d = report;
	if (!d || idx != 0)
		return 0;
	static const char *const kinds[] = {
		[LOC_UNMAPPED] = "other", [LOC_GLOBAL] = "global", [LOC_TLS] = "tls",	 [LOC_STACK] = "stack",
		[LOC_HEAP] = "heap",	  [LOC_ANON] = "heap",	   [LOC_SPECIAL] = "other", [LOC_FILE] = "other",
	};
	if (type)
		*type = kinds[d->loc.kind];
	/* As TSan: a variable's own address, else the raced one. */
	if (addr)
		*addr = (void *)(d->loc.kind == LOC_GLOBAL || (d->loc.kind == LOC_TLS && d->loc.name[0])
					 ? d->loc.start
					 : d->mops[0].addr);
	if (start)
		*start = d->loc.start;
	if (size)
		*size = d->loc.size;
	/* A heap block: the allocating thread and stack, as TSan's. */
	if (tid)
		*tid = d->loc.heap_block ? d->loc.block.tid : d->loc.tid;
	if (fd)
		*fd = -1;
	if (suppressable)
		*suppressable = 0;
	copy_trace(trace, trace_size, d->loc.block.pcs, d->loc.heap_block ? d->loc.block.npcs : 0);
	return 1;
}

UCSAN_EXPORT int __tsan_get_report_loc_object_type(void *report, unsigned long idx, const char **object_type)
{
	if (!report || idx != 0 || !object_type)
		return 0;
	*object_type = "";
	return 1;
}

UCSAN_EXPORT int __tsan_get_report_mutex(void *report, unsigned long idx, uint64_t *mutex_id, void **addr,
					 int *destroyed, void **trace, unsigned long trace_size)
{
	(void)report, (void)idx, (void)mutex_id, (void)addr, (void)destroyed, (void)trace, (void)trace_size;
	return 0; /* no lock model */
}

UCSAN_EXPORT int __tsan_get_report_thread(void *report, unsigned long idx, int *tid, uint64_t *os_id, int *running,
					  const char **name, int *parent_tid, void **trace, unsigned long trace_size)
{
	const struct ucsan_report_desc *d = report;
	if (!d || idx >= (unsigned long)d->nthreads)
		return 0;
	const struct ucsan_report_thread *t = &d->threads[idx];
	if (tid)
		*tid = t->tid;
	if (os_id)
		*os_id = (uint64_t)t->tid;
	if (running)
		*running = t->running;
	if (name)
		*name = t->name;
	if (parent_tid)
		*parent_tid = t->parent;
	copy_trace(trace, trace_size, t->pcs, t->npcs);
	return 1;
}

UCSAN_EXPORT int __tsan_get_report_unique_tid(void *report, unsigned long idx, int *tid)
{
	(void)report, (void)idx, (void)tid;
	return 0;
}
