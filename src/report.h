/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What report.c hands the formats: one report as a view (the accesses with
 * their stacks, the value change, the description for location and threads),
 * and the buffer both the text and the JSON format write into; and what it
 * shares with the deferred value checks (value_checks.c). Private to
 * report.c, report_json.c and value_checks.c.
 */
#ifndef UCSAN_REPORT_H
#define UCSAN_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.h"

struct sbuf {
	char *buf;
	size_t len, cap;
};

__attribute__((format(printf, 2, 3))) void ucsan_sb_printf(struct sbuf *sb, const char *fmt, ...);

/* How many of the n frames to show: libc's and the loader's at the bottom
 * are dropped. */
int ucsan_shown_frames(const uintptr_t *pcs, int n);

/* One access as printed. */
struct report_access {
	const char *type; /* "write", "read (marked)", ... */
	int raw_type;     /* UCSAN_ACCESS_* */
	size_t size;
	uintptr_t addr;
	int tid, cpu;
	bool in_signal;
	int omp_thread; /* -1: not in an OpenMP parallel region */
	const uintptr_t *pcs;
	int npcs;
	uintptr_t reordered_to; /* a reordered access: where its function is now */
};

struct report_view {
	const char *kind;  /* "data-race", "assert: race" */
	const char *title; /* "data-race in a / b" */
	bool unknown_origin;
	int naccesses;     /* the other thread's access first, as printed */
	struct report_access acc[2];
	bool value_changed;
	struct ucsan_value old, new;
	unsigned long mask;
	const char *location; /* the text of the location line */
	const struct ucsan_report_desc *desc;
};

struct access_info {
	const volatile void *ptr;
	size_t size;
	int type;
	int tid;
	int cpu;
	uintptr_t ip; /* for scoped checks: where the scope was opened */
	bool in_signal; /* made by a signal handler that interrupted the thread */
	bool took_flag; /* its thread had taken the watcher's published flag (cold_sites.c) */
	int omp_thread; /* the OpenMP thread number in a parallel region, or -1 */
	/* An access to the thread's own stack: the frame holding the address
	 * (an address in its function, its call frame address), or 0. */
	uintptr_t frame_pc, frame_cfa;
};

enum { INFO_EMPTY, INFO_FILLING, INFO_READY };

/*
 * What a racing thread leaves for the watcher. One per watchpoint slot: the
 * slot stays occupied (consumed) until the watcher has reported, so at most
 * one producer ever owns an entry at a time.
 */
struct other_info {
	_Atomic int state; /* INFO_*; READY is published with release */
	struct access_info ai;
	int npcs;
	uintptr_t pcs[UCSAN_MAX_STACK];
};

/* Filters and prints a report whose stacks are captured (report.c).
 * Returns false if filtered. Takes the report lock. */
bool ucsan_emit_report(const struct access_info *ai, const struct access_info *oai, uintptr_t *pcs, int npcs,
		       uintptr_t *opcs, int onpcs, enum ucsan_value_change vc, struct ucsan_value old,
		       struct ucsan_value new, unsigned long mask);
/* A race whose value has not changed yet, kept to be judged at the
 * watcher's next runtime entry (value_checks.c); false if no room. At
 * exit, every pending one judged. */
bool ucsan_value_check_defer(const struct access_info *ai, const struct other_info *oi, struct ucsan_value old);
void ucsan_value_checks_at_exit(void);
void ucsan_value_checks_after_fork(void);

/* The report as one line of JSON (report_format=json). */
void ucsan_report_json(struct sbuf *sb, const struct report_view *v);

#endif
