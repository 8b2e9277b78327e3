// SPDX-License-Identifier: Apache-2.0
/* In-process symbolization with elfutils' libdwfl: the ELF symbol table gives
 * "func+off/size", DWARF gives file:line and the chain of inlined calls.
 * Cold path (report printing): may malloc and be slow, must never crash. */
#define _GNU_SOURCE
#include "symbolize.h"

#include <dlfcn.h>
#include <dwarf.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libdw_lazy.h"
#include "platform.h"

#define MAX_DEPTH 64 /* nested scopes (lexical blocks, inline levels) */

typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);

static Dwfl *g_dwfl;
/* libdwfl is not thread-safe. The lock word holds the pid of the process
 * whose thread owns it, so a fork child can tell a lock orphaned by a parent
 * thread (that thread does not exist in the child) from a live one. */
static int g_lock;
/* Same-thread re-entrance: libdw mallocs (interceptors may report), and a
 * signal handler may report while we are inside libdw. */
static __thread int g_busy;
static char *g_debuginfo_path; /* NULL: libdw's default search path */

/* libdwfl keeps these files open: do not leak them into exec'ed children. */
static int cloexec(int fd)
{
	if (fd >= 0)
		fcntl(fd, F_SETFD, FD_CLOEXEC);
	return fd;
}

static int find_elf(Dwfl_Module *mod, void **ud, const char *name, Dwarf_Addr base,
		    char **file, Elf **elfp)
{
	return cloexec(dwfl_linux_proc_find_elf(mod, ud, name, base, file, elfp));
}

/* A debuglink candidate must carry the module's build ID (when it has one). */
static int same_build_id(Dwfl_Module *mod, int fd)
{
	const unsigned char *want;
	const void *id;
	GElf_Addr vaddr;
	int n = dwfl_module_build_id(mod, &want, &vaddr);
	if (n <= 0)
		return 1;
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	int ok = elf && dwelf_elf_gnu_build_id(elf, &id) == n && !memcmp(id, want, (size_t)n);
	elf_end(elf);
	return ok;
}

/* Local files only. dwfl_standard_find_debuginfo ends in debuginfod: libdw
 * 0.188 then dlopens libdebuginfod, libcurl and some 30 more libraries into
 * the watched program, and goes to the network if DEBUGINFOD_URLS is set,
 * all under the report lock. So: the build-ID tree, then the usual
 * .gnu_debuglink places next to the file and under /usr/lib/debug. */
static int find_debuginfo(Dwfl_Module *mod, void **ud, const char *name, Dwarf_Addr base,
			  const char *file, const char *link, GElf_Word crc, char **out)
{
	static const char *const where[] = { "%.*s/%s", "%.*s/.debug/%s", "/usr/lib/debug%.*s/%s" };
	int fd = cloexec(dwfl_build_id_find_debuginfo(mod, ud, name, base, file, link, crc, out));

	if (fd >= 0 || !file || !link || !strrchr(file, '/'))
		return fd;
	int dirlen = (int)(strrchr(file, '/') - file);
	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		char path[PATH_MAX];
		if (snprintf(path, sizeof(path), where[i], dirlen, file, link) >= (int)sizeof(path) ||
		    !strcmp(path, file))
			continue;
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0 && same_build_id(mod, fd) && (*out = strdup(path)))
			return fd;
		if (fd >= 0)
			close(fd);
	}
	return -1;
}

static const Dwfl_Callbacks g_callbacks = {
	.find_elf = find_elf,
	.find_debuginfo = find_debuginfo,
	.debuginfo_path = &g_debuginfo_path,
};

static void lock(void)
{
	int me = (int)getpid();

	for (;;) {
		int cur = 0;
		if (__atomic_compare_exchange_n(&g_lock, &cur, me, 0, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return;
		if (cur != me && __atomic_compare_exchange_n(&g_lock, &cur, me, 0,
							     __ATOMIC_ACQUIRE,
							     __ATOMIC_RELAXED)) {
			/* Orphaned by fork(): the session may be half-updated,
			 * so leak it rather than touch it. */
			g_dwfl = NULL;
			return;
		}
		ucsan_yield();
	}
}

static void unlock(void)
{
	__atomic_store_n(&g_lock, 0, __ATOMIC_RELEASE);
}

static int enter(void)
{
	if (g_busy)
		return 0;
	g_busy = 1;
	/* Loaded before the lock is taken: dlopen() waits for the loader's
	 * lock, whose holder may be about to report too. */
	if (!ucsan_dw_load()) {
		g_busy = 0;
		return 0;
	}
	lock();
	return 1;
}

static void leave(void)
{
	unlock();
	g_busy = 0;
}

/* Modules still mapped with the same range are re-reported unchanged and keep
 * their loaded ELF/DWARF; unmapped ones are dropped, new ones added. */
static void report_modules(Dwfl *dwfl)
{
	dwfl_report_begin(dwfl);
	dwfl_linux_proc_report(dwfl, getpid());
	dwfl_report_end(dwfl, NULL, NULL);
}

static Dwfl_Module *find_module(uintptr_t addr)
{
	int fresh = 0;

	if (!g_dwfl) {
		g_dwfl = dwfl_begin(&g_callbacks);
		if (!g_dwfl)
			return NULL;
		report_modules(g_dwfl);
		fresh = 1;
	}
	Dwfl_Module *mod = dwfl_addrmodule(g_dwfl, addr);
	if (!mod && !fresh) {
		/* Maybe dlopen'ed since the last report. */
		report_modules(g_dwfl);
		mod = dwfl_addrmodule(g_dwfl, addr);
	}
	return mod;
}

/* Bump allocator over the caller's string buffer. */
struct sbuf {
	char *p;
	size_t left;
};

static const char *put(struct sbuf *b, const char *s)
{
	if (!s || !b->p || b->left < 2)
		return NULL;
	size_t n = strnlen(s, b->left - 1);
	char *r = b->p;
	memcpy(r, s, n);
	r[n] = '\0';
	b->p += n + 1;
	b->left -= n + 1;
	return r;
}

/* Returns a malloc'ed demangled name or NULL. __cxa_demangle is looked up at
 * run time so that C programs do not pull libstdc++ into the process. */
static char *demangle(const char *name)
{
	static demangle_fn fn;
	int status = -1;

	if (!name || name[0] != '_' || name[1] != 'Z')
		return NULL;
	if (!fn)
		fn = (demangle_fn)dlsym(RTLD_DEFAULT, "__cxa_demangle");
	char *d = fn ? fn(name, NULL, NULL, &status) : NULL;
	if (d && status != 0) {
		free(d);
		d = NULL;
	}
	return d;
}

/* gcc and clang name specialized copies of a function "f.constprop.0",
 * "f.isra.0", "f.part.0", "f.cold": users know it as f. */
static void strip_clone_suffix(char *name)
{
	static const char *const tags[] = { ".constprop.", ".isra.", ".part.", ".cold",
					    ".lto_priv.", ".localalias", ".llvm.", ".specialized." };
	char *cut = NULL;
	for (size_t i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
		char *p = strstr(name, tags[i]);
		if (p && p != name && (!cut || p < cut))
			cut = p;
	}
	if (cut)
		*cut = '\0';
}

/* An ELF symbol name, without the version a .symtab may carry
 * ("__libc_start_main@@GLIBC_2.34"), demangled if possible. */
static const char *put_name(struct sbuf *b, const char *name)
{
	struct sbuf start = *b;
	char *r = (char *)put(b, name);
	if (!r)
		return NULL;
	r[strcspn(r, "@")] = '\0';
	strip_clone_suffix(r);
	char *d = demangle(r);
	if (d) {
		*b = start;
		r = (char *)put(b, d);
		free(d);
	}
	return r;
}

/* Name of a subprogram or inline instance (attributes may live on the
 * abstract origin). The linkage name gives C++ its qualified name, but a
 * mangled one is less readable than the plain DW_AT_name. */
static const char *die_name(struct sbuf *b, Dwarf_Die *die)
{
	Dwarf_Attribute a;
	const char *ln = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &a));
	if (!ln)
		ln = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a));
	char *d = demangle(ln);
	if (d) {
		const char *r = put(b, d);
		free(d);
		return r;
	}
	const char *n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &a));
	return put(b, n ? n : ln);
}

/* The CU containing addr. libdwfl (0.188) finds it only through
 * .debug_aranges, which clang does not emit, so fall back to asking each CU. */
static Dwarf_Die *find_cu(Dwfl_Module *mod, uintptr_t addr, Dwarf_Addr *bias)
{
	Dwarf_Die *cu = dwfl_module_addrdie(mod, addr, bias);

	for (Dwarf_Die *c = NULL; !cu && (c = dwfl_module_nextcu(mod, c, bias));)
		if (dwarf_haspc(c, addr - *bias) > 0)
			cu = c;
	return cu;
}

/* Fills chain[depth..] outermost first with the DIEs under parent whose
 * ranges contain pc. A hand walk rather than dwarf_getscopes, which stops at
 * the innermost inline instance, and fails outright when that instance's
 * abstract origin lives in another CU (LTO). Returns the new depth. */
static int find_scopes(Dwarf_Die *parent, Dwarf_Addr pc, Dwarf_Die *chain, int depth)
{
	Dwarf_Die c;

	if (depth >= MAX_DEPTH || dwarf_child(parent, &c) != 0)
		return depth;
	do {
		int tag = dwarf_tag(&c);
		if (tag == DW_TAG_namespace || tag == DW_TAG_module) {
			/* No ranges of their own, but may hold functions (C++). */
			int d = find_scopes(&c, pc, chain, depth);
			if (d > depth)
				return d;
		} else if (dwarf_haspc(&c, pc) > 0) {
			chain[depth] = c;
			return find_scopes(&c, pc, chain, depth + 1);
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	return depth;
}

/* clang's DWARF 5 line tables name files relative to the compilation
 * directory: join them, so paths mean the same from any working directory. */
static const char *put_path(struct sbuf *b, const char *file, const char *comp_dir)
{
	if (!file || file[0] == '/' || !comp_dir || !*comp_dir)
		return put(b, file);
	char full[4096];
	int n = snprintf(full, sizeof(full), "%s/%s", comp_dir, file);
	return n > 0 && n < (int)sizeof(full) ? put(b, full) : put(b, file);
}

/* Where an inline instance was called from: DW_AT_call_file/line. */
static const char *call_site(Dwarf_Die *inl, int *line)
{
	Dwarf_Attribute a;
	Dwarf_Word w;
	Dwarf_Die cu;
	Dwarf_Files *files;
	size_t nfiles;

	*line = 0;
	if (dwarf_formudata(dwarf_attr(inl, DW_AT_call_line, &a), &w) == 0)
		*line = (int)w;
	if (dwarf_formudata(dwarf_attr(inl, DW_AT_call_file, &a), &w) != 0 ||
	    !dwarf_diecu(inl, &cu, NULL, NULL) ||
	    dwarf_getsrcfiles(&cu, &files, &nfiles) != 0 || w >= nfiles)
		return NULL;
	return dwarf_filesrc(files, w, NULL, NULL);
}

int ucsan_symbolize(uintptr_t pc, int is_return_address, struct ucsan_frame *out,
		    int max, char *strbuf, size_t strbuf_len)
{
	if (!out || max < 1)
		return 0;
	memset(out, 0, sizeof(*out));
	if (!enter())
		return 1;

	struct sbuf b = { strbuf, strbuf_len };
	uintptr_t addr = is_return_address ? pc - 1 : pc;
	Dwfl_Module *mod = find_module(addr);
	if (!mod) {
		leave();
		return 1;
	}

	Dwarf_Addr start = 0, bias = 0;
	const char *mname = dwfl_module_info(mod, NULL, &start, NULL, NULL, NULL, NULL, NULL);
	if (!dwfl_module_getelf(mod, &bias))
		bias = start;
	struct ucsan_frame base = { .module = put(&b, mname), .module_offset = pc - bias };

	/* Source position of addr itself; each inline level then moves it
	 * outwards to its call site. */
	Dwarf_Addr dwbias = 0;
	Dwarf_Die *cu = find_cu(mod, addr, &dwbias);
	Dwarf_Line *l = cu ? dwarf_getsrc_die(cu, addr - dwbias) : NULL;
	const char *file = l ? dwarf_linesrc(l, NULL, NULL) : NULL;
	int line = 0;
	if (l && dwarf_lineno(l, &line) != 0)
		line = 0;
	Dwarf_Attribute cd;
	const char *comp_dir = cu ? dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &cd)) : NULL;

	/* Split DWARF: the skeleton CU has the lines, the .dwo unit the DIEs. */
	Dwarf_Die chain[MAX_DEPTH], split, *subprog = NULL;
	uint8_t unit_type = 0;
	if (cu && dwarf_cu_info(cu->cu, NULL, &unit_type, NULL, &split, NULL, NULL, NULL) == 0 &&
	    unit_type == DW_UT_skeleton && split.addr) /* zeroed if no .dwo */
		cu = &split;
	int nchain = cu ? find_scopes(cu, addr - dwbias, chain, 0) : 0, n = 0;
	for (int i = nchain - 1; i >= 0; i--) {
		int tag = dwarf_tag(&chain[i]);
		if (tag == DW_TAG_subprogram) {
			subprog = &chain[i];
			break;
		}
		if (tag != DW_TAG_inlined_subroutine)
			continue;
		if (n < max - 1) { /* keep the last slot for the real function */
			out[n] = base;
			out[n].func = die_name(&b, &chain[i]);
			out[n].file = put_path(&b, file, comp_dir);
			out[n].line = line;
			out[n].is_inline = 1;
			n++;
		}
		file = call_site(&chain[i], &line);
	}

	struct ucsan_frame *f = &out[n++];
	GElf_Off off = 0;
	GElf_Sym sym;
	const char *sname = dwfl_module_addrinfo(mod, addr, &off, &sym, NULL, NULL, NULL);
	*f = base;
	if (sname) {
		f->func = put_name(&b, sname);
		f->offset = off + (pc - addr);
		f->size = sym.st_size;
	} else if (subprog) { /* no symbol table, but DWARF knows the function */
		Dwarf_Addr entry;
		f->func = die_name(&b, subprog);
		if (dwarf_entrypc(subprog, &entry) == 0)
			f->offset = pc - (entry + dwbias);
	}
	f->file = put_path(&b, file, comp_dir);
	f->line = line;

	leave();
	return n;
}

const char *ucsan_symbol_name(uintptr_t pc, char *buf, size_t len)
{
	const char *r = NULL;

	if (!buf || len < 2 || !enter())
		return NULL;
	Dwfl_Module *mod = find_module(pc);
	GElf_Off off;
	GElf_Sym sym;
	const char *name = mod ? dwfl_module_addrinfo(mod, pc, &off, &sym, NULL, NULL, NULL) : NULL;
	if (name) {
		struct sbuf b = { buf, len };
		r = put_name(&b, name);
	}
	leave();
	return r;
}

void ucsan_symbolize_reset(void)
{
	if (!enter())
		return;
	if (g_dwfl)
		dwfl_end(g_dwfl);
	g_dwfl = NULL;
	leave();
}

static void module_basename(Dwfl_Module *mod, char *buf, size_t len)
{
	const char *file = NULL;
	const char *name = dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, &file, NULL);
	const char *s = file ? file : name ? name : "?";
	const char *slash = strrchr(s, '/');
	snprintf(buf, len, "%s", slash ? slash + 1 : s);
}

/* The loaded object whose segments hold addr: where it starts. */
struct segment_search {
	uintptr_t addr, start;
};

static int find_segment(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct segment_search *s = arg;
	(void)size;
	uintptr_t first = 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD)
			continue;
		const uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
		if (!first)
			first = lo;
		if (s->addr >= lo && s->addr - lo < ph->p_memsz) {
			s->start = first;
			return 1;
		}
	}
	return 0;
}

/* The module of a data address. The maps the modules were read from end
 * where the file does: the rest of a large .bss is an anonymous mapping of
 * its own, which only the object's program headers tell apart. */
static Dwfl_Module *find_data_module(uintptr_t addr)
{
	Dwfl_Module *mod = find_module(addr);
	if (mod)
		return mod;
	struct segment_search s = { addr, 0 };
	if (dl_iterate_phdr(find_segment, &s) && s.start)
		mod = find_module(s.start);
	return mod;
}

bool ucsan_data_symbol(uintptr_t addr, char *name, size_t nlen, uintptr_t *start, size_t *size, char *module,
		       size_t mlen)
{
	bool found = false;
	if (!enter())
		return false;
	Dwfl_Module *mod = find_data_module(addr);
	GElf_Off off = 0;
	GElf_Sym sym;
	const char *sname = mod ? dwfl_module_addrinfo(mod, addr, &off, &sym, NULL, NULL, NULL) : NULL;
	if (sname && GELF_ST_TYPE(sym.st_info) == STT_OBJECT && off < (sym.st_size ? sym.st_size : 1)) {
		struct sbuf b = { name, nlen };
		found = put_name(&b, sname) != NULL;
		*start = addr - off;
		*size = sym.st_size;
		module_basename(mod, module, mlen);
	}
	leave();
	return found;
}

bool ucsan_tls_symbol(uintptr_t module_addr, uintptr_t offset, char *name, size_t nlen, uintptr_t *start,
		      size_t *size)
{
	bool found = false;
	if (!enter())
		return false;
	Dwfl_Module *mod = find_module(module_addr);
	int n = mod ? dwfl_module_getsymtab(mod) : -1;
	for (int i = 1; i < n && !found; i++) {
		/* The raw symbol: a TLS symbol's value is its offset in the
		 * module's TLS block, which no load bias moves. */
		GElf_Sym sym;
		GElf_Addr adjusted;
		GElf_Word shndx;
		const char *sname = dwfl_module_getsym_info(mod, i, &sym, &adjusted, &shndx, NULL, NULL);
		if (!sname || GELF_ST_TYPE(sym.st_info) != STT_TLS)
			continue;
		if (offset >= sym.st_value && offset < sym.st_value + (sym.st_size ? sym.st_size : 1)) {
			struct sbuf b = { name, nlen };
			found = put_name(&b, sname) != NULL;
			*start = sym.st_value;
			*size = sym.st_size;
		}
	}
	leave();
	return found;
}

/* The address a variable's DW_AT_location names, if it is a static one
 * (DW_OP_addr, or DWARF 5's DW_OP_addrx through .debug_addr). */
static bool static_var_addr(Dwarf_Die *die, Dwarf_Addr *addr)
{
	Dwarf_Attribute a, res;
	Dwarf_Op *expr;
	size_t len;
	if (!dwarf_attr(die, DW_AT_location, &a) || dwarf_getlocation(&a, &expr, &len) != 0 || len < 1)
		return false;
	if (expr[0].atom == DW_OP_addr) {
		*addr = expr[0].number;
		return true;
	}
	if ((expr[0].atom == DW_OP_addrx || expr[0].atom == DW_OP_GNU_addr_index) &&
	    dwarf_getlocation_attr(&a, &expr[0], &res) == 0)
		return dwarf_formaddr(&res, addr) == 0;
	return false;
}

/* Depth-first through scopes that can hold static variables: functions
 * (a static inside one), blocks, namespaces, classes. */
static bool find_var_die(Dwarf_Die *parent, Dwarf_Addr want, Dwarf_Die *out, int depth)
{
	Dwarf_Die c;
	if (depth >= MAX_DEPTH || dwarf_child(parent, &c) != 0)
		return false;
	do {
		Dwarf_Addr at;
		switch (dwarf_tag(&c)) {
		case DW_TAG_variable:
			if (static_var_addr(&c, &at) && at == want) {
				*out = c;
				return true;
			}
			break;
		case DW_TAG_subprogram:
		case DW_TAG_lexical_block:
		case DW_TAG_namespace:
		case DW_TAG_structure_type:
		case DW_TAG_class_type:
			if (find_var_die(&c, want, out, depth + 1))
				return true;
			break;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	return false;
}

/* Where the DIE of cu is declared: file (joined to the compilation
 * directory) and line. */
static bool decl_of(Dwarf_Die *die, Dwarf_Die *cu, char *file, size_t flen, int *line)
{
	const char *f = dwarf_decl_file(die);
	Dwarf_Attribute fa;
	Dwarf_Word index = 1;
	/* DWARF 5 numbers the CU's own file 0, which libdw 0.188 takes for
	 * "no file": that file is the CU's name. */
	if (!f && dwarf_formudata(dwarf_attr_integrate(die, DW_AT_decl_file, &fa), &index) == 0 && index == 0)
		f = dwarf_diename(cu);
	if (!f || dwarf_decl_line(die, line) != 0)
		return false;
	Dwarf_Attribute a;
	struct sbuf b = { file, flen };
	return put_path(&b, f, dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &a))) != NULL;
}

/* The declaration of the variable at var_start of module mod, or false. */
static bool module_var_decl(Dwfl_Module *mod, uintptr_t var_start, char *file, size_t flen, int *line)
{
	Dwarf_Addr bias = 0;
	Dwarf_Die var;
	for (Dwarf_Die *cu = NULL; (cu = dwfl_module_nextcu(mod, cu, &bias));)
		if (find_var_die(cu, var_start - bias, &var, 0))
			return decl_of(&var, cu, file, flen, line);
	return false;
}

/* A variable a library defines and the executable uses lives in the
 * executable (a copy relocation), whose DWARF only declares it: the
 * library's definition, at the library's own (unused) address, says where
 * it is written. */
struct copy_lookup {
	const char *name;
	Dwfl_Module *skip;
	char *file;
	size_t flen;
	int *line;
	bool found;
};

static int find_original(Dwfl_Module *mod, void **ud, const char *mname, Dwarf_Addr start, void *arg)
{
	struct copy_lookup *l = arg;
	(void)ud, (void)mname, (void)start;
	if (mod == l->skip)
		return DWARF_CB_OK;
	const int n = dwfl_module_getsymtab(mod);
	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		const char *sname = dwfl_module_getsym_info(mod, i, &sym, &addr, NULL, NULL, NULL);
		if (sname && GELF_ST_TYPE(sym.st_info) == STT_OBJECT && sym.st_shndx != SHN_UNDEF &&
		    !strcmp(sname, l->name)) {
			l->found = module_var_decl(mod, addr, l->file, l->flen, l->line);
			return l->found ? DWARF_CB_ABORT : DWARF_CB_OK;
		}
	}
	return DWARF_CB_OK;
}

bool ucsan_data_decl(uintptr_t var_start, char *file, size_t flen, int *line)
{
	bool found = false;
	if (!enter())
		return false;
	Dwfl_Module *mod = find_module(var_start);
	GElf_Off off = 0;
	GElf_Sym sym;
	const char *sname = mod ? dwfl_module_addrinfo(mod, var_start, &off, &sym, NULL, NULL, NULL) : NULL;
	if (mod)
		found = module_var_decl(mod, var_start, file, flen, line);
	if (!found && sname && off == 0 && GELF_ST_BIND(sym.st_info) == STB_GLOBAL) {
		struct copy_lookup l = { sname, mod, file, flen, line, false };
		dwfl_getmodules(g_dwfl, find_original, &l, 0);
		found = l.found;
	}
	leave();
	return found;
}

/* The frame base of a function, from its call frame address: the CFA
 * itself (gcc: DW_OP_call_frame_cfa), or on x86-64 the frame pointer
 * (clang: DW_OP_reg6), which ucsan-cc's -fno-omit-frame-pointer puts 16
 * bytes below the CFA (return address, saved rbp). */
static bool frame_base(Dwarf_Die *subprog, uintptr_t cfa, uintptr_t *base)
{
	Dwarf_Attribute a;
	Dwarf_Op *expr;
	size_t len;
	if (!dwarf_attr(subprog, DW_AT_frame_base, &a) || dwarf_getlocation(&a, &expr, &len) != 0 || len != 1)
		return false;
	if (expr[0].atom == DW_OP_call_frame_cfa) {
		*base = cfa;
		return true;
	}
#if defined(__x86_64__)
	if (expr[0].atom == DW_OP_reg6) {
		*base = cfa - 16;
		return true;
	}
#endif
	return false;
}

/* Among the variables and parameters directly under scope, the one whose
 * memory at pc (DW_OP_fbreg from the frame base) holds addr. */
static bool var_in_scope(Dwarf_Die *scope, Dwarf_Addr pc, uintptr_t base, uintptr_t addr, Dwarf_Die *out,
			 uintptr_t *start, size_t *size)
{
	Dwarf_Die c;
	if (dwarf_child(scope, &c) != 0)
		return false;
	do {
		const int tag = dwarf_tag(&c);
		if (tag != DW_TAG_variable && tag != DW_TAG_formal_parameter)
			continue;
		Dwarf_Attribute a;
		Dwarf_Op *expr;
		size_t len;
		if (!dwarf_attr(&c, DW_AT_location, &a) || dwarf_getlocation_addr(&a, pc, &expr, &len, 1) != 1 ||
		    len != 1 || expr[0].atom != DW_OP_fbreg)
			continue;
		Dwarf_Die type;
		Dwarf_Word bytes = 0;
		if (!dwarf_attr_integrate(&c, DW_AT_type, &a) || !dwarf_formref_die(&a, &type) ||
		    dwarf_aggregate_size(&type, &bytes) != 0 || bytes == 0)
			bytes = 1;
		const uintptr_t at = base + (uintptr_t)(Dwarf_Sword)expr[0].number;
		if (addr >= at && addr - at < bytes) {
			*out = c;
			*start = at;
			*size = (size_t)bytes;
			return true;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	return false;
}

bool ucsan_stack_var(uintptr_t pc, uintptr_t cfa, uintptr_t addr, struct ucsan_stack_var *v)
{
	bool found = false;
	if (!enter())
		return false;
	Dwfl_Module *mod = find_module(pc);
	Dwarf_Addr dwbias = 0;
	Dwarf_Die *cu = mod ? find_cu(mod, pc, &dwbias) : NULL;
	Dwarf_Die chain[MAX_DEPTH], var;
	const int n = cu ? find_scopes(cu, pc - dwbias, chain, 0) : 0;
	/* The frame base belongs to the real function, the outermost scope. */
	int fn = -1;
	for (int i = 0; i < n && fn < 0; i++)
		if (dwarf_tag(&chain[i]) == DW_TAG_subprogram)
			fn = i;
	uintptr_t base;
	if (fn >= 0 && frame_base(&chain[fn], cfa, &base)) {
		for (int i = n - 1; i >= fn && !found; i--) {
			if (!var_in_scope(&chain[i], pc - dwbias, base, addr, &var, &v->start, &v->size))
				continue;
			/* Named after the innermost function around it (an
			 * inlined one, if it lives there). */
			int owner = i;
			while (owner > fn && dwarf_tag(&chain[owner]) != DW_TAG_inlined_subroutine)
				owner--;
			struct sbuf b = { v->name, sizeof(v->name) };
			struct sbuf fb = { v->function, sizeof(v->function) };
			found = die_name(&b, &var) != NULL;
			if (!die_name(&fb, &chain[owner]))
				v->function[0] = '\0';
			if (!decl_of(&var, cu, v->decl_file, sizeof(v->decl_file), &v->decl_line))
				v->decl_file[0] = '\0';
		}
	}
	leave();
	return found;
}
