/* SPDX-License-Identifier: Apache-2.0 */
/*
 * elfutils' libdw and libelf, loaded at the first symbolization instead of
 * at start-up: most runs never print a report, and loading them (with
 * libz, liblzma and libbz2 behind them) costs every process about half a
 * MiB of memory and its start-up time. symbolize.c calls the functions by
 * their own names; this header turns each name into a pointer loaded by
 * ucsan_dw_load(). Only symbolize.c includes it. A name missing from
 * the #define list below fails the link (libdw is not linked), one missing
 * from UCSAN_DW_FUNCS fails the compile: the two lists cannot drift apart.
 */
#ifndef UCSAN_LIBDW_LAZY_H
#define UCSAN_LIBDW_LAZY_H

#include <stdbool.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>

/* Every libdw and libelf function symbolize.c calls. */
#define UCSAN_DW_FUNCS(X)                                                                     \
	X(dwarf_aggregate_size) X(dwarf_attr) X(dwarf_attr_integrate) X(dwarf_child)              \
	X(dwarf_cu_info) X(dwarf_decl_file) X(dwarf_decl_line) X(dwarf_diecu) X(dwarf_diename)    \
	X(dwarf_entrypc) X(dwarf_filesrc) X(dwarf_formaddr) X(dwarf_formref_die)                  \
	X(dwarf_formstring) X(dwarf_formudata) X(dwarf_getlocation) X(dwarf_getlocation_addr)     \
	X(dwarf_getlocation_attr) X(dwarf_getscopes) X(dwarf_getsrc_die) X(dwarf_getsrcfiles)     \
	X(dwarf_haspc) X(dwarf_lineno) X(dwarf_linesrc) X(dwarf_siblingof) X(dwarf_tag)           \
	X(dwelf_elf_gnu_build_id) X(dwfl_addrmodule) X(dwfl_begin) X(dwfl_build_id_find_debuginfo) \
	X(dwfl_end) X(dwfl_getmodules) X(dwfl_linux_proc_find_elf) X(dwfl_linux_proc_report)      \
	X(dwfl_module_addrdie) X(dwfl_module_addrinfo) X(dwfl_module_build_id)                    \
	X(dwfl_module_getelf) X(dwfl_module_getsym_info) X(dwfl_module_getsymtab)                 \
	X(dwfl_module_info) X(dwfl_module_nextcu) X(dwfl_report_begin) X(dwfl_report_end)         \
	X(elf_begin) X(elf_end)

#define UCSAN_DW_MEMBER(name) __typeof__(name) *name;
struct ucsan_dw {
	UCSAN_DW_FUNCS(UCSAN_DW_MEMBER)
};
#undef UCSAN_DW_MEMBER

extern struct ucsan_dw ucsan_dw;

/* Loads the libraries once (false if they are missing: reports then show
 * raw addresses). Safe to call from several threads at once. */
bool ucsan_dw_load(void);

#ifndef UCSAN_DW_IMPL
/* From here on, each name is its loaded pointer. */
#define dwarf_aggregate_size (ucsan_dw.dwarf_aggregate_size)
#define dwarf_attr (ucsan_dw.dwarf_attr)
#define dwarf_attr_integrate (ucsan_dw.dwarf_attr_integrate)
#define dwarf_child (ucsan_dw.dwarf_child)
#define dwarf_cu_info (ucsan_dw.dwarf_cu_info)
#define dwarf_decl_file (ucsan_dw.dwarf_decl_file)
#define dwarf_decl_line (ucsan_dw.dwarf_decl_line)
#define dwarf_diecu (ucsan_dw.dwarf_diecu)
#define dwarf_diename (ucsan_dw.dwarf_diename)
#define dwarf_entrypc (ucsan_dw.dwarf_entrypc)
#define dwarf_filesrc (ucsan_dw.dwarf_filesrc)
#define dwarf_formaddr (ucsan_dw.dwarf_formaddr)
#define dwarf_formref_die (ucsan_dw.dwarf_formref_die)
#define dwarf_formstring (ucsan_dw.dwarf_formstring)
#define dwarf_formudata (ucsan_dw.dwarf_formudata)
#define dwarf_getlocation (ucsan_dw.dwarf_getlocation)
#define dwarf_getlocation_addr (ucsan_dw.dwarf_getlocation_addr)
#define dwarf_getlocation_attr (ucsan_dw.dwarf_getlocation_attr)
#define dwarf_getscopes (ucsan_dw.dwarf_getscopes)
#define dwarf_getsrc_die (ucsan_dw.dwarf_getsrc_die)
#define dwarf_getsrcfiles (ucsan_dw.dwarf_getsrcfiles)
#define dwarf_haspc (ucsan_dw.dwarf_haspc)
#define dwarf_lineno (ucsan_dw.dwarf_lineno)
#define dwarf_linesrc (ucsan_dw.dwarf_linesrc)
#define dwarf_siblingof (ucsan_dw.dwarf_siblingof)
#define dwarf_tag (ucsan_dw.dwarf_tag)
#define dwelf_elf_gnu_build_id (ucsan_dw.dwelf_elf_gnu_build_id)
#define dwfl_addrmodule (ucsan_dw.dwfl_addrmodule)
#define dwfl_begin (ucsan_dw.dwfl_begin)
#define dwfl_build_id_find_debuginfo (ucsan_dw.dwfl_build_id_find_debuginfo)
#define dwfl_end (ucsan_dw.dwfl_end)
#define dwfl_getmodules (ucsan_dw.dwfl_getmodules)
#define dwfl_linux_proc_find_elf (ucsan_dw.dwfl_linux_proc_find_elf)
#define dwfl_linux_proc_report (ucsan_dw.dwfl_linux_proc_report)
#define dwfl_module_addrdie (ucsan_dw.dwfl_module_addrdie)
#define dwfl_module_addrinfo (ucsan_dw.dwfl_module_addrinfo)
#define dwfl_module_build_id (ucsan_dw.dwfl_module_build_id)
#define dwfl_module_getelf (ucsan_dw.dwfl_module_getelf)
#define dwfl_module_getsym_info (ucsan_dw.dwfl_module_getsym_info)
#define dwfl_module_getsymtab (ucsan_dw.dwfl_module_getsymtab)
#define dwfl_module_info (ucsan_dw.dwfl_module_info)
#define dwfl_module_nextcu (ucsan_dw.dwfl_module_nextcu)
#define dwfl_report_begin (ucsan_dw.dwfl_report_begin)
#define dwfl_report_end (ucsan_dw.dwfl_report_end)
#define elf_begin (ucsan_dw.elf_begin)
#define elf_end (ucsan_dw.elf_end)
#endif

#endif /* UCSAN_LIBDW_LAZY_H */
