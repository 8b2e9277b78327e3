// SPDX-License-Identifier: Apache-2.0
/*
 * ucsan-entry-lto.o: the entry points of ucsan-entry.o as LLVM bitcode, one
 * module, which ucsan-cc links into a program that clang links with full
 * -flto (-flto=thin gets ucsan-entry.o). The LTO linker inlines the check
 * at each access (always_inline, UCSAN_EXPORT; "used" keeps the exported
 * copies, which libucsan.so binds to and the section bounds need),
 * so the call an access costs otherwise is gone. The module is compiled
 * with -fsanitize=thread, every instrumentation of it turned off, because
 * LLVM inlines only between functions alike in that attribute (Makefile).
 */
#define UCSAN_ENTRY_BITCODE 1
#include "../tsan_abi.c"
#include "../tsan_atomics.c"
#include "../hot_state.c"
#include "entry.c"
