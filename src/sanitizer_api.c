// SPDX-License-Identifier: Apache-2.0
/*
 * The functions of <sanitizer/common_interface_defs.h> that every sanitizer
 * runtime exports, ThreadSanitizer's included, and that programs written
 * for TSan call: where reports go, printing the current stack, a callback
 * before the runtime ends the process, and symbolizing an address into a
 * string of the program's format. (The coverage, fiber and container
 * functions of that header belong to other sanitizers and are not here.)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "report.h"
#include "symbolize.h"

/* === Where reports go === */

static void set_path_locked(void *path)
{
	ucsan_output_set_path(path);
}

UCSAN_EXPORT void __sanitizer_set_report_path(const char *path)
{
	ucsan_report_locked(set_path_locked, (void *)path);
}

static void set_fd_locked(void *fd)
{
	ucsan_output_set_fd((int)(intptr_t)fd);
}

UCSAN_EXPORT void __sanitizer_set_report_fd(void *fd)
{
	ucsan_report_locked(set_fd_locked, fd);
}

static void get_path_locked(void *out)
{
	*(const char **)out = ucsan_output_file();
}

UCSAN_EXPORT const char *__sanitizer_get_report_path(void)
{
	const char *path = NULL;
	ucsan_report_locked(get_path_locked, &path);
	return path;
}

/* === The process's end === */

UCSAN_EXPORT void __sanitizer_set_death_callback(void (*callback)(void))
{
	atomic_store(&ucsan_death_callback, callback);
}

UCSAN_EXPORT int __sanitizer_acquire_crash_state(void)
{
	static _Atomic int taken;
	return !atomic_exchange(&taken, 1);
}

/* A sandbox may keep the symbolizer from opening debug information later:
 * load it now, by symbolizing an address of our own. */
UCSAN_EXPORT void __sanitizer_sandbox_on_notify(void *args)
{
	(void)args;
	struct ucsan_ctx *ctx = ucsan_api_ctx();
	struct ucsan_frame fr[1];
	char buf[256];
	ctx->disable_count++;
	ucsan_symbolize((uintptr_t)__sanitizer_sandbox_on_notify, 0, fr, 1, buf, sizeof(buf));
	ctx->disable_count--;
}

/* === Stacks and symbols === */

UCSAN_EXPORT NOINLINE void __sanitizer_print_stack_trace(void)
{
	struct ucsan_ctx *ctx = ucsan_api_ctx();
	uintptr_t pcs[UCSAN_MAX_STACK];
	ctx->disable_count++;
	const int n = ucsan_stack_capture(pcs, UCSAN_MAX_STACK);
	ucsan_report_print_stack(pcs, n);
	ctx->disable_count--;
}

/* The module's path as the symbolizer knows it (the executable's full
 * path, where dladdr() gives what argv[0] said), and pc less its bias. */
UCSAN_EXPORT int __sanitizer_get_module_and_offset_for_pc(void *pc, char *module_path, size_t module_path_len,
							   void **pc_offset)
{
	if (!pc)
		return 0;
	struct ucsan_ctx *ctx = ucsan_api_ctx();
	struct ucsan_frame fr[1];
	char strbuf[4096];
	ctx->disable_count++;
	const int k = ucsan_symbolize((uintptr_t)pc, 0, fr, 1, strbuf, sizeof(strbuf));
	ctx->disable_count--;
	if (k < 1 || !fr[0].module)
		return 0;
	if (module_path && module_path_len)
		snprintf(module_path, module_path_len, "%s", fr[0].module);
	if (pc_offset)
		*pc_offset = (void *)fr[0].module_offset;
	return 1;
}

static const char *base_name(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;
	return slash ? slash + 1 : path;
}

/*
 * One frame in the sanitizers' format language: %p pc, %m module, %o
 * offset in it, %f function, %q offset in the function, %s file, %l line,
 * %c column (not known here: 0), %n frame number, %F "in FUNCTION" (with
 * "+0xOFFSET" when the file is not known), %S "FILE:LINE", %L FILE:LINE
 * or "(MODULE+0xOFFSET)", %M "MODULE+0xOFFSET" (base name) or the pc, %%.
 */
static void render_frame(struct sbuf *o, const char *fmt, int frame_no, uintptr_t pc, const struct ucsan_frame *f)
{
	for (const char *p = fmt; *p; p++) {
		if (*p != '%' || !p[1]) {
			ucsan_sb_printf(o, "%c", *p);
			continue;
		}
		switch (*++p) {
		case '%': ucsan_sb_printf(o, "%%"); break;
		case 'n': ucsan_sb_printf(o, "%d", frame_no); break;
		case 'p': ucsan_sb_printf(o, "0x%lx", (unsigned long)pc); break;
		case 'm': ucsan_sb_printf(o, "%s", f->module ? f->module : ""); break;
		case 'o': ucsan_sb_printf(o, "0x%lx", (unsigned long)f->module_offset); break;
		case 'f': ucsan_sb_printf(o, "%s", f->func ? f->func : ""); break;
		case 'q':
			if (f->func && !f->is_inline)
				ucsan_sb_printf(o, "0x%lx", (unsigned long)f->offset);
			break;
		case 's': ucsan_sb_printf(o, "%s", f->file ? ucsan_display_path(f->file) : ""); break;
		case 'l': ucsan_sb_printf(o, "%d", f->line); break;
		case 'c': ucsan_sb_printf(o, "0"); break;
		case 'F':
			if (f->func) {
				ucsan_sb_printf(o, "in %s", f->func);
				if (!f->file && !f->is_inline)
					ucsan_sb_printf(o, "+0x%lx", (unsigned long)f->offset);
			}
			break;
		case 'S':
			if (f->file)
				ucsan_sb_printf(o, "%s:%d", ucsan_display_path(f->file), f->line);
			else
				ucsan_sb_printf(o, "<unknown>");
			break;
		case 'L':
			if (f->file)
				ucsan_sb_printf(o, "%s:%d", ucsan_display_path(f->file), f->line);
			else if (f->module)
				ucsan_sb_printf(o, "(%s+0x%lx)", f->module, (unsigned long)f->module_offset);
			else
				ucsan_sb_printf(o, "(<unknown module>)");
			break;
		case 'M':
			if (f->module)
				ucsan_sb_printf(o, "(%s+0x%lx)", base_name(f->module), (unsigned long)f->module_offset);
			else
				ucsan_sb_printf(o, "(0x%lx)", (unsigned long)pc);
			break;
		default: ucsan_sb_printf(o, "%%%c", *p); break;
		}
	}
}

/* Appends one C string to out_buf's list (a NUL after each, and an empty
 * string closes the list): false once out of room. */
static bool append_string(char *out_buf, size_t cap, size_t *used, const char *s, size_t len)
{
	if (*used + len + 2 > cap)
		return false;
	memcpy(out_buf + *used, s, len);
	*used += len;
	out_buf[(*used)++] = '\0';
	out_buf[*used] = '\0';
	return true;
}

/* pc is a return address, as __builtin_return_address(0) gives: its
 * call's line. Inlined frames first, the function they are in last. */
UCSAN_EXPORT void __sanitizer_symbolize_pc(void *pc, const char *fmt, char *out_buf, size_t out_buf_size)
{
	if (!fmt || !out_buf || !out_buf_size)
		return;
	out_buf[0] = '\0';
	struct ucsan_ctx *ctx = ucsan_api_ctx();
	struct ucsan_frame fr[16];
	char strbuf[4096], line[1024];
	ctx->disable_count++;
	const int k = ucsan_symbolize((uintptr_t)pc, 1, fr, 16, strbuf, sizeof(strbuf));
	ctx->disable_count--;
	size_t used = 0;
	for (int i = 0; i < k; i++) {
		struct sbuf o = { line, 0, sizeof(line) };
		line[0] = '\0';
		render_frame(&o, fmt, i, (uintptr_t)pc, &fr[i]);
		const size_t len = strlen(line); /* a cut line is one byte short of o.len */
		if (len && !append_string(out_buf, out_buf_size, &used, line, len))
			break;
	}
}

/* A global: %g its name, %s and %l where it is declared, %z its size,
 * %p the address, %m its module, %%. */
UCSAN_EXPORT void __sanitizer_symbolize_global(void *data_ptr, const char *fmt, char *out_buf,
					      size_t out_buf_size)
{
	if (!fmt || !out_buf || !out_buf_size)
		return;
	out_buf[0] = '\0';
	struct ucsan_ctx *ctx = ucsan_api_ctx();
	char name[256], module[1024], file[1024];
	uintptr_t start = 0;
	size_t size = 0;
	int line = 0;
	ctx->disable_count++;
	const bool known = ucsan_data_symbol((uintptr_t)data_ptr, name, sizeof(name), &start, &size, module,
					     sizeof(module));
	const bool declared = known && ucsan_data_decl(start, file, sizeof(file), &line);
	ctx->disable_count--;
	if (!known)
		return;
	struct sbuf o = { out_buf, 0, out_buf_size };
	for (const char *p = fmt; *p; p++) {
		if (*p != '%' || !p[1]) {
			ucsan_sb_printf(&o, "%c", *p);
			continue;
		}
		switch (*++p) {
		case '%': ucsan_sb_printf(&o, "%%"); break;
		case 'g': ucsan_sb_printf(&o, "%s", name); break;
		case 's': ucsan_sb_printf(&o, "%s", declared ? ucsan_display_path(file) : ""); break;
		case 'l': ucsan_sb_printf(&o, "%d", declared ? line : 0); break;
		case 'z': ucsan_sb_printf(&o, "%zu", size); break;
		case 'p': ucsan_sb_printf(&o, "0x%lx", (unsigned long)(uintptr_t)data_ptr); break;
		case 'm': ucsan_sb_printf(&o, "%s", module); break;
		default: ucsan_sb_printf(&o, "%%%c", *p); break;
		}
	}
}
