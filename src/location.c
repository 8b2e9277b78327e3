// SPDX-License-Identifier: Apache-2.0
/*
 * What the raced-on memory is, for the report's "location:" line: a global
 * or static variable (from the symbol table), a thread's TLS or stack (from
 * the thread records of thread_info.c), a heap block (heap_blocks.c), or
 * else the mapping that holds it (/proc/self/maps: the heap, an anonymous
 * mapping, a mapped file). Runs at
 * report time only, in the reporting thread, outside signal handlers.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "symbolize.h"

/* glibc's size of the static TLS area below each thread pointer. */
static size_t static_tls_size(void)
{
	static size_t size;
	if (!size) {
		void (*info)(size_t *, size_t *) =
			(void (*)(size_t *, size_t *))dlsym(RTLD_DEFAULT, "_dl_get_tls_static_info");
		size_t align = 0;
		if (info)
			info(&size, &align);
		if (!size)
			size = 4096;
	}
	return size;
}

/* The module whose TLS block, in thread @t, holds @addr: its offset there. */
struct tls_lookup {
	uintptr_t addr, self_tp, owner_tp;
	uintptr_t offset, module_addr;
	bool found;
};

static int find_tls_block(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct tls_lookup *l = arg;
	(void)size;
	if (!info->dlpi_tls_data)
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_TLS)
			continue;
		/* Static TLS sits at the same distance from every thread pointer. */
		const uintptr_t block = l->owner_tp + ((uintptr_t)info->dlpi_tls_data - l->self_tp);
		if (l->addr >= block && l->addr < block + ph->p_memsz) {
			l->offset = l->addr - block;
			l->module_addr = info->dlpi_addr + ph->p_vaddr;
			l->found = true;
			return 1;
		}
	}
	return 0;
}

static bool locate_tls(struct ucsan_location *loc, uintptr_t addr, const struct ucsan_thread_info *t)
{
	if (!t->tp || addr >= t->tp || addr < t->tp - static_tls_size())
		return false;
	struct tls_lookup l = { .addr = addr, .self_tp = (uintptr_t)pthread_self(), .owner_tp = t->tp };
	dl_iterate_phdr(find_tls_block, &l);
	loc->kind = LOC_TLS;
	loc->tid = t->tid;
	if (l.found && ucsan_tls_symbol(l.module_addr, l.offset, loc->name, sizeof(loc->name), &loc->start,
					&loc->size))
		loc->start = addr - (l.offset - loc->start);
	return true;
}

/* The /proc/self/maps line holding addr, as "what" ("[heap]", a path). */
static bool find_mapping(uintptr_t addr, uintptr_t *lo, uintptr_t *hi, char *what, size_t wlen, char *perms)
{
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	char buf[4096], line[512];
	size_t ln = 0;
	bool found = false;
	ssize_t n;
	while (!found && (n = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n && !found; i++) {
			if (buf[i] != '\n') {
				if (ln + 1 < sizeof(line))
					line[ln++] = buf[i];
				continue;
			}
			line[ln] = '\0';
			ln = 0;
			unsigned long a, b;
			char p[5] = "";
			int path_at = 0;
			if (sscanf(line, "%lx-%lx %4s %*s %*s %*s %n", &a, &b, p, &path_at) < 3)
				continue;
			if (addr < a || addr >= b)
				continue;
			*lo = a;
			*hi = b;
			memcpy(perms, p, 5);
			snprintf(what, wlen, "%s", path_at > 0 ? line + path_at : "");
			found = true;
		}
	}
	close(fd);
	return found;
}

void ucsan_locate(uintptr_t addr, struct ucsan_location *loc)
{
	memset(loc, 0, sizeof(*loc));
	/* Threads' TLS and stacks first: a thread's TLS lies in its stack's
	 * mapping, and neither has a symbol. */
	for (int i = 0; i < ucsan_thread_info_max(); i++) {
		const struct ucsan_thread_info *t = ucsan_thread_info_at(i);
		if (t && atomic_load(&t->state) == THREAD_RUNNING && locate_tls(loc, addr, t))
			return;
	}
	for (int i = 0; i < ucsan_thread_info_max(); i++) {
		const struct ucsan_thread_info *t = ucsan_thread_info_at(i);
		if (t && atomic_load(&t->state) == THREAD_RUNNING && addr >= t->stack_lo && addr < t->stack_hi) {
			loc->kind = LOC_STACK;
			loc->tid = t->tid;
			loc->start = t->stack_lo;
			loc->size = t->stack_hi - t->stack_lo;
			return;
		}
	}
	if (ucsan_data_symbol(addr, loc->name, sizeof(loc->name), &loc->start, &loc->size, loc->module,
			      sizeof(loc->module))) {
		loc->kind = LOC_GLOBAL;
		if (!ucsan_data_decl(loc->start, loc->decl_file, sizeof(loc->decl_file), &loc->decl_line))
			loc->decl_file[0] = '\0';
		return;
	}
	if (ucsan_heap_block_find(addr, &loc->block)) {
		loc->kind = LOC_HEAP;
		loc->heap_block = true;
		loc->start = loc->block.start;
		loc->size = loc->block.size;
		return;
	}
	uintptr_t lo, hi;
	if (!find_mapping(addr, &lo, &hi, loc->module, sizeof(loc->module), loc->perms)) {
		loc->kind = LOC_UNMAPPED;
		return;
	}
	loc->start = lo;
	loc->size = hi - lo;
	if (!strcmp(loc->module, "[heap]"))
		loc->kind = LOC_HEAP;
	else if (loc->module[0] == '\0')
		loc->kind = LOC_ANON;
	else if (loc->module[0] == '[')
		loc->kind = LOC_SPECIAL;
	else
		loc->kind = LOC_FILE;
}

void ucsan_describe_location(char *buf, size_t len, uintptr_t addr)
{
	struct ucsan_location loc;
	ucsan_locate(addr, &loc);
	ucsan_format_location(buf, len, addr, &loc);
}

void ucsan_format_location(char *buf, size_t len, uintptr_t addr, const struct ucsan_location *where)
{
	const struct ucsan_location loc = *where;
	const unsigned long off = (unsigned long)(addr - loc.start), lo = (unsigned long)loc.start,
			    hi = (unsigned long)(loc.start + loc.size);
	switch (loc.kind) {
	case LOC_TLS:
		if (loc.name[0])
			snprintf(buf, len, "thread-local '%s' of size %zu at +0x%lx of thread %d", loc.name, loc.size,
				 off, loc.tid);
		else
			snprintf(buf, len, "thread-local of thread %d", loc.tid);
		break;
	case LOC_STACK:
		if (loc.name[0] && loc.decl_file[0])
			snprintf(buf, len, "stack of thread %d: '%s' of size %zu at +0x%lx in frame %s (%s:%d)", loc.tid,
				 loc.name, loc.size, off, loc.frame, ucsan_display_path(loc.decl_file), loc.decl_line);
		else if (loc.name[0])
			snprintf(buf, len, "stack of thread %d: '%s' of size %zu at +0x%lx in frame %s", loc.tid,
				 loc.name, loc.size, off, loc.frame);
		else
			snprintf(buf, len, "stack of thread %d", loc.tid);
		break;
	case LOC_GLOBAL:
		if (loc.decl_file[0])
			snprintf(buf, len, "global '%s' of size %zu at +0x%lx in %s (%s:%d)", loc.name, loc.size, off,
				 loc.module, ucsan_display_path(loc.decl_file), loc.decl_line);
		else
			snprintf(buf, len, "global '%s' of size %zu at +0x%lx in %s", loc.name, loc.size, off,
				 loc.module);
		break;
	case LOC_HEAP:
		if (loc.heap_block)
			snprintf(buf, len, "heap block of size %zu at +0x%lx, allocated by thread %d%s", loc.size, off,
				 loc.block.tid, loc.block.npcs ? " at:" : "");
		else
			snprintf(buf, len, "heap (the brk heap, 0x%lx-0x%lx)", lo, hi);
		break;
	case LOC_ANON:
		snprintf(buf, len, "anonymous mapping 0x%lx-0x%lx (%s; heap blocks of other arenas and mmap live here)",
			 lo, hi, loc.perms);
		break;
	case LOC_SPECIAL:
		snprintf(buf, len, "%s 0x%lx-0x%lx", loc.module, lo, hi);
		break;
	case LOC_FILE:
		snprintf(buf, len, "mapping of %s at +0x%lx (%s)", loc.module, off, loc.perms);
		break;
	default:
		snprintf(buf, len, "unmapped");
		break;
	}
}
