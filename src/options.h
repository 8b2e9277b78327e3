/* SPDX-License-Identifier: Apache-2.0 */
/* Run-time options: one struct, filled once at start-up (see options.def). */
#ifndef UCSAN_OPTIONS_H
#define UCSAN_OPTIONS_H

#include <stdbool.h>

#define OPT_BOOL_T bool
#define OPT_INT_T long
#define OPT_STR_T const char *

struct ucsan_options {
#define OPT(type, name, def, desc) OPT_##type##_T name;
#include "options.def"
#undef OPT
};

/* Written only by ucsan_options_init() before any other thread exists. */
extern struct ucsan_options ucsan_opts;

/* Parses one "k=v:k=v" string on top of the current values. On error writes
 * one line naming the culprit into err and returns false. */
bool ucsan_options_parse(const char *str, char *err, unsigned long errlen);
void ucsan_options_set_defaults(void);
/* Applies what mode options (strict) imply; called after parsing. */
void ucsan_options_apply_modes(void);
/* Defaults, then __ucsan_default_options(), then $UCSAN_OPTIONS; exits(1) on error. */
void ucsan_options_init(void);
void ucsan_options_print_help(void);
/* ThreadSanitizer's flags accepted for compatibility (tsan_flags.def). */
size_t ucsan_tsan_flag_count(void);
const char *ucsan_tsan_flag_name(size_t i);

#endif
