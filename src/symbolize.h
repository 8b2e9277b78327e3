/* SPDX-License-Identifier: Apache-2.0 */
/* In-process symbolization of code addresses (libdwfl on our own process). */
#ifndef UCSAN_SYMBOLIZE_H
#define UCSAN_SYMBOLIZE_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

/* One printable frame. Strings point into the caller-provided buffer. */
struct ucsan_frame {
	const char *func;     /* function name, NULL if unknown; C++ names demangled when possible */
	const char *file;     /* source file path as recorded in DWARF (absolute or as given), NULL if unknown */
	int line;             /* 0 if unknown */
	int is_inline;        /* 1: this frame is an inlined call inside the next frame */
	uintptr_t offset;     /* offset of the address inside the (non-inline) function symbol; valid if !is_inline && func */
	uintptr_t size;       /* size of that function symbol (ELF st_size) */
	const char *module;   /* object file path (executable or shared library), NULL if unknown */
	uintptr_t module_offset; /* address minus module load bias */
};

/* Symbolizes a code address in this process. If is_return_address, the
 * source line and inline chain are looked up at pc-1 (the call instruction)
 * while `offset` still reports pc itself (kernel convention: "func+0x18/0x40").
 * Writes innermost first: inlined frames (is_inline=1) and last the real
 * function (is_inline=0, func = ELF symbol name). If max is too small for the
 * whole chain, the outermost inline frames are dropped but the real function
 * frame is always written last. Returns the number of frames written (>= 1
 * when max >= 1, even for unknown addresses: then func=NULL and
 * module/module_offset set when known), never more than max. Strings that do
 * not fit into strbuf are truncated or NULL. Thread-safe (internal lock);
 * re-entrant calls from the same thread get an "unknown" frame. */
int ucsan_symbolize(uintptr_t pc, int is_return_address, struct ucsan_frame *out,
		    int max, char *strbuf, size_t strbuf_len);

/* Just the ELF symbol name of the function containing pc (no inline
 * resolution, no line; demangled like ucsan_frame.func), written into buf;
 * returns buf, or NULL if unknown. Pass pc-1 for a return address. */
const char *ucsan_symbol_name(uintptr_t pc, char *buf, size_t len);

/* The global or static variable (an STT_OBJECT symbol) holding addr: its
 * name, start and size, and the file name of its module. */
bool ucsan_data_symbol(uintptr_t addr, char *name, size_t nlen, uintptr_t *start, size_t *size, char *module,
		       size_t mlen);

/* Where the static variable starting at var_start is declared, from
 * DWARF: the file (as recorded, joined to the compilation directory) and
 * line. */
bool ucsan_data_decl(uintptr_t var_start, char *file, size_t flen, int *line);

/* The local variable or parameter whose memory holds addr, in the frame
 * of the code at pc (an address inside the function: a return address
 * minus one) whose call frame address is cfa. */
struct ucsan_stack_var {
	char name[128], function[128], decl_file[256];
	int decl_line;
	uintptr_t start;
	size_t size;
};
bool ucsan_stack_var(uintptr_t pc, uintptr_t cfa, uintptr_t addr, struct ucsan_stack_var *v);

/* The TLS variable at `offset` in the TLS block of the module mapped at
 * module_addr (any address inside it): its name, offset and size. */
bool ucsan_tls_symbol(uintptr_t module_addr, uintptr_t offset, char *name, size_t nlen, uintptr_t *start,
		      size_t *size);

/* Drops cached state (call in a fork child before first use, and when a
 * lookup fails because new modules were dlopen'ed: re-report modules then). */
void ucsan_symbolize_reset(void);

#endif
