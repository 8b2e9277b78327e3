// SPDX-License-Identifier: Apache-2.0
/*
 * What the fuzzed runtime sources (src/options.c, src/suppressions.c) need
 * from the rest of the runtime, stubbed out so that they can be built alone
 * with -fsanitize=fuzzer,address: output goes nowhere, and every code
 * address symbolizes to one fixed frame (so that suppression patterns are
 * matched against a real function name and file).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"
#include "symbolize.h"

void ucsan_write_fd(int fd, const char *buf, size_t len)
{
	(void)fd;
	/* Touch every byte, so that ASan sees a read past the end. */
	volatile char sink = 0;
	for (size_t i = 0; i < len; i++)
		sink ^= buf[i];
	(void)sink;
}

void ucsan_log_write(const char *buf, size_t len)
{
	ucsan_write_fd(2, buf, len);
}

int ucsan_symbolize(uintptr_t pc, int is_return_address, struct ucsan_frame *out, int max, char *strbuf,
		    size_t strbuf_len)
{
	static const char func[] = "fuzz_racy_function";
	static const char file[] = "/src/project/fuzz_racy_file.c";

	(void)is_return_address;
	if (max < 1)
		return 0;
	memset(out, 0, sizeof(*out));
	if (strbuf_len >= sizeof(func) + sizeof(file)) {
		memcpy(strbuf, func, sizeof(func));
		memcpy(strbuf + sizeof(func), file, sizeof(file));
		out->func = strbuf;
		out->file = strbuf + sizeof(func);
		out->line = 42;
	}
	out->offset = pc & 0xff;
	out->size = 0x100;
	return 1;
}

const char *ucsan_symbol_name(uintptr_t pc, char *buf, size_t len)
{
	struct ucsan_frame f;
	char tmp[128];

	if (ucsan_symbolize(pc, 0, &f, 1, tmp, sizeof(tmp)) < 1 || !f.func || len == 0)
		return NULL;
	strncpy(buf, f.func, len - 1);
	buf[len - 1] = '\0';
	return buf;
}

void ucsan_symbolize_reset(void)
{
}
