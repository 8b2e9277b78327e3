// SPDX-License-Identifier: Apache-2.0
/*
 * Stack capture for reports: return addresses from the unwinder (DWARF CFI,
 * so uninstrumented frames without frame pointers unwind too), with the
 * runtime's own frames removed so the first frame is the racing access.
 * Cold path only.
 */
#define _GNU_SOURCE
#include <link.h>
#include <unwind.h>

#include "internal.h"

/* The runtime's executable segment, found once at start-up. */
static uintptr_t rt_text_start, rt_text_end;

static int find_self(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	uintptr_t self = (uintptr_t)data;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;
		uintptr_t end = start + ph->p_memsz;
		if (self >= start && self < end) {
			rt_text_start = start;
			rt_text_end = end;
			return 1;
		}
	}
	return 0;
}

void ucsan_stacktrace_init(void)
{
	dl_iterate_phdr(find_self, (void *)(uintptr_t)&ucsan_stacktrace_init);
}

static uintptr_t entry_text_start, entry_text_end;

void ucsan_stacktrace_add_entry_text(uintptr_t start, uintptr_t end)
{
	entry_text_start = start;
	entry_text_end = end;
}

bool ucsan_pc_in_runtime(uintptr_t pc)
{
	return (pc >= rt_text_start && pc < rt_text_end) || (pc >= entry_text_start && pc < entry_text_end);
}

struct unwind_state {
	uintptr_t *pcs;
	int n, max;
};

static _Unwind_Reason_Code unwind_one(struct _Unwind_Context *uc, void *arg)
{
	struct unwind_state *st = arg;
	int before_insn = 0;
	uintptr_t pc = (uintptr_t)_Unwind_GetIPInfo(uc, &before_insn);

	if (!pc)
		return _URC_END_OF_STACK;
	/* The runtime's frames: the capture itself on top, and the signal
	 * trampoline (signals.c) between a handler and its signal frame. */
	if (ucsan_pc_in_runtime(pc))
		return _URC_NO_REASON;
	/* A frame interrupted by a signal: what lies below belongs to the
	 * interrupted code, not to the handler whose access this is. Drop the
	 * signal trampoline too, and stop. */
	if (before_insn) {
		if (st->n > 1)
			st->n--;
		return _URC_END_OF_STACK;
	}
	st->pcs[st->n++] = pc;
	return st->n >= st->max ? _URC_END_OF_STACK : _URC_NO_REASON;
}

int ucsan_stack_capture(uintptr_t *pcs, int max)
{
	struct unwind_state st = { pcs, 0, max };
	_Unwind_Backtrace(unwind_one, &st);
	return st.n;
}

/*
 * Which of the calling thread's frames holds addr. In the unwinder's walk
 * the context of a frame reports its pc and the CFA of its callee (its own
 * stack pointer at the call): a frame spans from that CFA up to the next
 * context's. So the frame is the last one whose callee's CFA is at or
 * below addr, and its own CFA is the next context's.
 */
struct frame_lookup {
	uintptr_t addr, prev_pc, pc, cfa;
};

static _Unwind_Reason_Code frame_one(struct _Unwind_Context *uc, void *arg)
{
	struct frame_lookup *l = arg;
	int before_insn = 0;
	const uintptr_t pc = (uintptr_t)_Unwind_GetIPInfo(uc, &before_insn);
	const uintptr_t cfa = (uintptr_t)_Unwind_GetCFA(uc);
	if (!pc || before_insn)
		return _URC_END_OF_STACK; /* a signal frame: the rest is not ours */
	if (cfa > l->addr) {
		if (l->prev_pc && !ucsan_pc_in_runtime(l->prev_pc)) {
			l->pc = l->prev_pc - 1; /* inside the call instruction */
			l->cfa = cfa;
		}
		return _URC_END_OF_STACK;
	}
	l->prev_pc = pc;
	return _URC_NO_REASON;
}

bool ucsan_stack_frame_of(uintptr_t addr, uintptr_t *pc, uintptr_t *cfa)
{
	struct frame_lookup l = { addr, 0, 0, 0 };
	_Unwind_Backtrace(frame_one, &l);
	*pc = l.pc;
	*cfa = l.cfa;
	return l.pc != 0;
}
