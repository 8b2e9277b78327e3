// SPDX-License-Identifier: Apache-2.0
/*
 * report_format=json: each report as one JSON object on one line, with the
 * same facts as the text report (title, both accesses with their frames,
 * the value change, the location, the threads) plus the process's id and
 * command line, so that logs of many processes can be merged (ucsan-report).
 * Cold path, under the report lock, never in a signal handler.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "report.h"
#include "symbolize.h"

static void json_string(struct sbuf *sb, const char *s)
{
	ucsan_sb_printf(sb, "\"");
	for (; s && *s; s++) {
		const unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			ucsan_sb_printf(sb, "\\%c", c);
		else if (c < 0x20)
			ucsan_sb_printf(sb, "\\u%04x", c);
		else
			ucsan_sb_printf(sb, "%c", c);
	}
	ucsan_sb_printf(sb, "\"");
}

/* "key":"value" or "key":null, with a leading comma unless first. */
static void json_field_str(struct sbuf *sb, const char *key, const char *value)
{
	ucsan_sb_printf(sb, ",\"%s\":", key);
	if (value)
		json_string(sb, value);
	else
		ucsan_sb_printf(sb, "null");
}

static void json_frame(struct sbuf *sb, const struct ucsan_frame *f, uintptr_t pc, bool first)
{
	ucsan_sb_printf(sb, "%s{\"pc\":\"0x%lx\"", first ? "" : ",", (unsigned long)pc);
	json_field_str(sb, "function", f->func);
	json_field_str(sb, "file", f->file ? ucsan_display_path(f->file) : NULL);
	json_field_str(sb, "file_path", f->file);
	ucsan_sb_printf(sb, ",\"line\":%d,\"inline\":%s", f->line, f->is_inline ? "true" : "false");
	if (!f->is_inline && f->func)
		ucsan_sb_printf(sb, ",\"offset\":%lu,\"function_size\":%lu", (unsigned long)f->offset,
				(unsigned long)f->size);
	json_field_str(sb, "module", f->module);
	ucsan_sb_printf(sb, ",\"module_offset\":%lu}", (unsigned long)f->module_offset);
}

/* The frames as the text shows them: each pc's inlined calls first. */
static void json_frames(struct sbuf *sb, const char *key, const uintptr_t *pcs, int n)
{
	ucsan_sb_printf(sb, ",\"%s\":[", key);
	n = ucsan_shown_frames(pcs, n);
	bool first = true;
	for (int i = 0; i < n; i++) {
		struct ucsan_frame fr[16];
		char strbuf[4096];
		const int k = ucsan_symbolize(pcs[i], 1, fr, 16, strbuf, sizeof(strbuf));
		for (int j = 0; j < k; j++) {
			json_frame(sb, &fr[j], pcs[i], first);
			first = false;
		}
	}
	ucsan_sb_printf(sb, "]");
}

static void json_access(struct sbuf *sb, const struct report_access *a, bool first)
{
	ucsan_sb_printf(sb, "%s{\"type\":", first ? "" : ",");
	json_string(sb, a->type);
	ucsan_sb_printf(sb,
			",\"write\":%s,\"atomic\":%s,\"size\":%zu,\"address\":\"0x%lx\",\"thread\":%d,"
			"\"cpu\":%d,\"in_signal_handler\":%s",
			(a->raw_type & UCSAN_ACCESS_WRITE) ? "true" : "false",
			(a->raw_type & UCSAN_ACCESS_ATOMIC) ? "true" : "false", a->size, (unsigned long)a->addr, a->tid,
			a->cpu, a->in_signal ? "true" : "false");
	if (a->omp_thread >= 0)
		ucsan_sb_printf(sb, ",\"openmp_thread\":%d", a->omp_thread);
	json_frames(sb, "frames", a->pcs, a->npcs);
	if (a->reordered_to)
		json_frames(sb, "reordered_to", &a->reordered_to, 1);
	ucsan_sb_printf(sb, "}");
}

static void json_value(struct sbuf *sb, const struct report_view *v)
{
	ucsan_sb_printf(sb, ",\"value_change\":");
	if (!v->value_changed) {
		ucsan_sb_printf(sb, "null");
		return;
	}
	if (v->acc[v->naccesses - 1].size == 16)
		ucsan_sb_printf(sb, "{\"old\":\"0x%016lx%016lx\",\"new\":\"0x%016lx%016lx\"", (unsigned long)v->old.hi,
				(unsigned long)v->old.lo, (unsigned long)v->new.hi, (unsigned long)v->new.lo);
	else
		ucsan_sb_printf(sb, "{\"old\":\"0x%lx\",\"new\":\"0x%lx\"", (unsigned long)v->old.lo,
				(unsigned long)v->new.lo);
	if (v->mask)
		ucsan_sb_printf(sb, ",\"mask\":\"0x%lx\"", v->mask);
	ucsan_sb_printf(sb, "}");
}

static const char *const location_kinds[] = {
	[LOC_UNMAPPED] = "unmapped", [LOC_GLOBAL] = "global",	 [LOC_TLS] = "thread-local",
	[LOC_STACK] = "stack",	     [LOC_HEAP] = "heap",	 [LOC_ANON] = "anonymous",
	[LOC_SPECIAL] = "special",   [LOC_FILE] = "file",
};

static void json_location(struct sbuf *sb, const struct report_view *v)
{
	const struct ucsan_location *l = &v->desc->loc;
	const uintptr_t addr = v->acc[v->naccesses - 1].addr;
	ucsan_sb_printf(sb, ",\"location\":{\"kind\":\"%s\"", location_kinds[l->kind]);
	json_field_str(sb, "description", v->location);
	if (l->name[0])
		json_field_str(sb, "name", l->name);
	if (l->module[0])
		json_field_str(sb, "module", l->module);
	if (l->kind != LOC_UNMAPPED)
		ucsan_sb_printf(sb, ",\"start\":\"0x%lx\",\"size\":%zu,\"offset\":%lu", (unsigned long)l->start,
				l->size, (unsigned long)(addr - l->start));
	if (l->decl_file[0]) {
		json_field_str(sb, "decl_file", ucsan_display_path(l->decl_file));
		ucsan_sb_printf(sb, ",\"decl_line\":%d", l->decl_line);
	}
	if (l->frame[0])
		json_field_str(sb, "frame", l->frame);
	if (l->heap_block) {
		ucsan_sb_printf(sb, ",\"allocated_by\":%d", l->block.tid);
		json_frames(sb, "allocated_at", l->block.pcs, l->block.npcs);
	}
	if (l->kind == LOC_TLS || l->kind == LOC_STACK)
		ucsan_sb_printf(sb, ",\"thread\":%d", l->tid);
	ucsan_sb_printf(sb, "}");
}

static void json_threads(struct sbuf *sb, const struct ucsan_report_desc *d)
{
	ucsan_sb_printf(sb, ",\"threads\":[");
	for (int i = 0; i < d->nthreads; i++) {
		const struct ucsan_report_thread *t = &d->threads[i];
		ucsan_sb_printf(sb, "%s{\"tid\":%d,\"known\":%s", i ? "," : "", t->tid, t->known ? "true" : "false");
		if (t->known) {
			json_field_str(sb, "name", t->name);
			ucsan_sb_printf(sb, ",\"running\":%s,\"main\":%s", t->running ? "true" : "false",
					t->parent ? "false" : "true");
			if (t->parent) {
				ucsan_sb_printf(sb, ",\"created_by\":%d", t->parent);
				json_frames(sb, "created_at", t->pcs, t->npcs);
			}
		}
		ucsan_sb_printf(sb, "}");
	}
	ucsan_sb_printf(sb, "]");
}

/* The command line, NUL-separated in /proc, as an array of strings. */
static void json_cmdline(struct sbuf *sb)
{
	char buf[2048];
	ssize_t n = -1;
	const int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	ucsan_sb_printf(sb, ",\"cmdline\":[");
	if (n > 0) {
		buf[n] = '\0';
		for (ssize_t i = 0; i < n; i += (ssize_t)strlen(buf + i) + 1) {
			if (i)
				ucsan_sb_printf(sb, ",");
			json_string(sb, buf + i);
		}
	}
	ucsan_sb_printf(sb, "]");
}

void ucsan_report_json(struct sbuf *sb, const struct report_view *v)
{
	ucsan_sb_printf(sb, "{\"ucsan_report\":1");
	json_field_str(sb, "title", v->title);
	json_field_str(sb, "kind", v->kind);
	ucsan_sb_printf(sb, ",\"unknown_origin\":%s,\"accesses\":[", v->unknown_origin ? "true" : "false");
	for (int i = 0; i < v->naccesses; i++)
		json_access(sb, &v->acc[i], i == 0);
	ucsan_sb_printf(sb, "]");
	json_value(sb, v);
	json_location(sb, v);
	json_threads(sb, v->desc);
	ucsan_sb_printf(sb, ",\"pid\":%d", (int)getpid());
	json_cmdline(sb);
	ucsan_sb_printf(sb, "}\n");
}
