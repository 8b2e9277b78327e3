/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What report.c hands the formats: one report as a view (the accesses with
 * their stacks, the value change, the description for location and threads),
 * and the buffer both the text and the JSON format write into. Private to
 * report.c and report_json.c.
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

/* The report as one line of JSON (report_format=json). */
void ucsan_report_json(struct sbuf *sb, const struct report_view *v);

#endif
