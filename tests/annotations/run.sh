#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Tests for the annotation interface (include/ucsan.h, include/ucsan/kernel.h)
# and its guide (docs/annotations.md):
#
#   plain-*     tests/annotations/uses_all.c, which uses every macro and
#               function of both headers, built WITHOUT ucsan as C11 and
#               C++11 with -Wall -Wextra -Werror: warning-free, no undefined
#               ucsan_/__ucsan/__tsan symbol (nor any other), links without
#               libucsan and runs.
#   ucsan-*     the same file built with ucsan-cc / ucsan-c++: the object
#               calls the runtime's API and the marked/atomic entry points,
#               and the program runs without a report or warning.
#   no-sanitize-*  tests/annotations/no_sanitize.c: functions marked
#               UCSAN_NO_SANITIZE / __no_kcsan call no __tsan_* function.
#   doc/*       docs/annotations.md names every public macro and function of
#               both headers (names ending in '_' are internal).
#
# Usage: tests/annotations/run.sh          (from anywhere; see tests/PROTOCOL.md)
# Environment:
#   ANNOTATIONS_COMPILERS  compilers to use (default "gcc clang"; the C++
#                          compiler is g++ for gcc, clang++ for clang)
#   ANNOTATIONS_BUILD      tree holding bin/, lib/ and include/ (default build/)
#
# Output: one PASS/FAIL line per check, named annotations/<compiler>/<check>
# or annotations/doc/<check>; artifacts in build/tests/annotations/.
# Portable sh (runs under dash); needs nm, objdump, readelf, timeout.

set -u
unset CDPATH UCSAN_CC_TRACE UCSAN_CC_ACTIVE UCSAN_OPTIONS UCSAN_CC UCSAN_CXX

SUITE=annotations
. "$(dirname "$0")/../lib/suite.sh"
SRC=$ROOT/tests/annotations
INC=$ROOT/include
BUILD=${ANNOTATIONS_BUILD:-$ROOT/build}
OUTROOT=$ROOT/build/tests/annotations
COMPILERS=${ANNOTATIONS_COMPILERS:-gcc clang}
DOC=$ROOT/docs/annotations.md
HEADERS="$INC/ucsan.h $INC/ucsan/kernel.h"

# What an instrumented uses_all.o must call: the whole runtime API, and the
# entry points the marked accesses (READ_ONCE/WRITE_ONCE, rcu_*, smp_*) and
# function hooks become.
API_SYMS="ucsan_check_access ucsan_disable_current ucsan_enable_current
ucsan_set_enabled ucsan_nestable_atomic_begin ucsan_nestable_atomic_end
ucsan_flat_atomic_begin ucsan_flat_atomic_end ucsan_atomic_next
ucsan_set_access_mask ucsan_begin_scoped_access ucsan_end_scoped_access"
TSAN_SYMS="__tsan_volatile_read4
__tsan_volatile_write4 __tsan_volatile_read8 __tsan_volatile_write8
__tsan_atomic32_load __tsan_atomic32_store __tsan_atomic64_load
__tsan_atomic64_store __tsan_atomic_thread_fence"
# Undefined symbols a plain object may need that are the toolchain's own
# business, not the code's (stack protector, PIC).
TOOLCHAIN_SYMS='^(__stack_chk_fail|__stack_chk_guard|_GLOBAL_OFFSET_TABLE_)$'
# Options for instrumented runs: watch every access, briefly.
RUN_OPTIONS=skip_watch=0:udelay_task=1:udelay_interrupt=1:seed=1

# Undefined symbols of object files, one per line.
undefined() {
	nm -u "$@" 2>/dev/null | awk 'NF >= 2 && $(NF - 1) ~ /^[Uw]$/ { print $NF }' | sort -u
}

# The disassembly (with relocations) of the function whose symbol contains
# $2 (mangled C++ names included), from object $1.
function_body() {
	objdump -dr --no-show-raw-insn "$1" 2>/dev/null | awk -v fn="$2" '
		/^[0-9a-f]+ <[^>]+>:$/ { f = index($0, fn) > 0; next }
		f && NF { print }
	'
}

# === Headers in the build tree (what ucsan-cc puts first on the path) ===

check_build_headers() {
	stale=
	for h in ucsan.h ucsan/kernel.h; do
		cmp -s "$INC/$h" "$BUILD/include/$h" || stale="$stale $h"
	done
	if [ -z "$stale" ]; then
		pass build-headers-current
	else
		fail build-headers-current \
			"$BUILD/include differs from include/ for:$stale (run make): ucsan-cc builds use the copies"
	fi
}

# === uses_all.c without ucsan ===

# plain LANG: LANG is c or cxx.
check_plain() {
	lang=$1
	if [ "$lang" = c ]; then
		comp=$k std=-std=c11 xlang=
	else
		comp=$cxx std=-std=c++11 xlang="-x c++"
	fi
	log=$out/plain-$lang.log
	: >"$log"

	# Warning-free at -O0 and -O2 (different warnings fire at each).
	ok=yes
	for o in -O0 -O2; do
		# shellcheck disable=SC2086
		if ! $comp $xlang $std -Wall -Wextra -Werror $o -I"$INC" -c "$SRC/uses_all.c" \
			-o "$out/plain-$lang$o.o" >>"$log" 2>&1; then
			ok=
		fi
	done
	if [ -n "$ok" ] && [ ! -s "$log" ]; then
		pass "plain-$lang-compile"
	else
		fail_log "plain-$lang-compile" "$comp $std -Wall -Wextra -Werror (no ucsan) failed or printed something" "$log"
		return
	fi

	syms=$(undefined "$out/plain-$lang-O0.o" "$out/plain-$lang-O2.o")
	rt=$(printf '%s\n' "$syms" | grep -E '^(ucsan_|__ucsan|__tsan)')
	if [ -z "$rt" ]; then
		pass "plain-$lang-no-runtime-symbols"
	else
		fail "plain-$lang-no-runtime-symbols" "undefined runtime symbols without ucsan (-O0/-O2 objects):
$rt"
	fi
	other=$(printf '%s\n' "$syms" | grep -v -E "$TOOLCHAIN_SYMS" | grep -v '^$')
	if [ -z "$other" ]; then
		pass "plain-$lang-no-undefined-symbols"
	else
		hint=
		if printf '%s\n' "$other" | grep -q -E 'personality|_Unwind_|__cxa_|terminate'; then
			hint="
(C++ exception handling: the cleanup attribute of the *_SCOPED macros calls
ucsan_end_scoped_access(), which the compiler must assume can throw; declaring
it and ucsan_begin_scoped_access() __attribute__((nothrow)) in ucsan.h avoids it)"
		fi
		fail "plain-$lang-no-undefined-symbols" "uses_all.c calls nothing, yet the object needs (-O0/-O2):
$other$hint"
	fi

	exe=$out/plain-$lang
	# shellcheck disable=SC2086
	if ! $comp $xlang $std -O2 -I"$INC" -DEXPECT_INSTRUMENTED=0 "$SRC/uses_all.c" -o "$exe" \
		>"$out/plain-$lang-link.log" 2>&1; then
		fail_log "plain-$lang-run" "linking without libucsan failed" "$out/plain-$lang-link.log"
		return
	fi
	if readelf -d "$exe" 2>/dev/null | grep -q 'libucsan'; then
		fail "plain-$lang-run" "$exe depends on libucsan"
		return
	fi
	runs_quietly "plain-$lang-run" "$exe"
}

# runs_quietly NAME EXE [OPTIONS]: EXE, run with UCSAN_OPTIONS=OPTIONS, exits
# 0 and prints nothing (its output: $out/NAME.log).
runs_quietly() {
	UCSAN_OPTIONS=${3:-} timeout 20 "$2" >"$out/$1.log" 2>&1
	st=$?
	if [ "$st" -eq 0 ] && [ ! -s "$out/$1.log" ]; then
		pass "$1"
	else
		fail_log "$1" "${3:+UCSAN_OPTIONS=$3: }exit status $st (0 and no output expected; bit N set = check N in main() of uses_all.c)" \
			"$out/$1.log"
	fi
}

# === uses_all.c with ucsan ===

# with_ucsan LANG: sets $wrap, the ucsan driver for LANG (c or cxx) under
# the current compiler, and $std and $xlang, its -std= and -x options.
with_ucsan() {
	if [ "$1" = c ]; then
		wrap="env UCSAN_CC=$k $BUILD/bin/ucsan-cc" std=-std=c11 xlang=
	else
		wrap="env UCSAN_CXX=$cxx $BUILD/bin/ucsan-c++" std=-std=c++11 xlang="-x c++"
	fi
}

check_ucsan() {
	lang=$1
	with_ucsan "$lang"
	log=$out/ucsan-$lang.log
	obj=$out/ucsan-$lang.o
	# shellcheck disable=SC2086
	if $wrap $xlang $std -Wall -Wextra -Werror -O2 -I"$INC" -DEXPECT_INSTRUMENTED=1 \
		-c "$SRC/uses_all.c" -o "$obj" >"$log" 2>&1 && [ ! -s "$log" ]; then
		pass "ucsan-$lang-compile"
	else
		fail_log "ucsan-$lang-compile" "ucsan $std -Wall -Wextra -Werror failed or printed something" "$log"
		return
	fi

	syms=$(undefined "$obj")
	missing=$(missing_from "$syms" "$API_SYMS $TSAN_SYMS")
	if [ -z "$missing" ]; then
		pass "ucsan-$lang-runtime-symbols"
	else
		fail "ucsan-$lang-runtime-symbols" "not referenced by the instrumented object:$missing
referenced: $(printf '%s\n' "$syms" | grep -E '^(ucsan_|__tsan)' | tr '\n' ' ')"
	fi

	exe=$out/ucsan-$lang
	# shellcheck disable=SC2086
	if ! $wrap "$obj" -o "$exe" >"$out/ucsan-$lang-link.log" 2>&1; then
		fail_log "ucsan-$lang-run" "linking with ucsan failed" "$out/ucsan-$lang-link.log"
		return
	fi
	runs_quietly "ucsan-$lang-run" "$exe" "$RUN_OPTIONS"
}

# === UCSAN_NO_SANITIZE ===

# no_sanitize LANG OPT
check_no_sanitize() {
	lang=$1 o=$2
	name=no-sanitize-$lang$o
	with_ucsan "$lang"
	obj=$out/$name.o
	# shellcheck disable=SC2086
	if ! $wrap --ucsan-weak-memory $xlang $o -I"$INC" -c "$SRC/no_sanitize.c" -o "$obj" >"$out/$name.log" 2>&1; then
		fail_log "$name" "compiling no_sanitize.c with ucsan failed" "$out/$name.log"
		return
	fi
	objdump -dr --no-show-raw-insn "$obj" >"$out/$name.dis" 2>&1
	control=$(function_body "$obj" visible)
	if ! printf '%s\n' "$control" | grep -Eq '__tsan_(read|write)[0-9]' ||
		! printf '%s\n' "$control" | grep -q '__tsan_atomic'; then
		fail_log "$name" "control: visible() (no attribute) should call __tsan_read/write* and __tsan_atomic*; the check cannot work" \
			"$out/$name.dis"
		return
	fi
	msg=
	: >"$out/$name.hidden.dis"
	for fn in hidden_plain hidden_kcsan; do
		body=$(function_body "$obj" "$fn")
		if [ -z "$body" ]; then
			msg="$msg$fn: not found in the object
"
			continue
		fi
		calls=$(printf '%s\n' "$body" | grep -o '__tsan_[A-Za-z0-9_]*' | sort -u | tr '\n' ' ')
		if [ -n "$calls" ]; then
			msg="$msg$fn calls: $calls
"
			printf '%s:\n%s\n' "$fn" "$body" >>"$out/$name.hidden.dis"
		fi
	done
	if [ -z "$msg" ]; then
		pass "$name"
	else
		fail_log "$name" "${msg}UCSAN_NO_SANITIZE under $k expands to:
$(printf '#include <ucsan.h>\nUCSAN_NO_SANITIZE\n' | $k -E -P -I"$INC" -x c - 2>/dev/null | tail -n 1)" \
			"$out/$name.hidden.dis"
	fi
}

# === docs/annotations.md ===

# Every public name of the headers: #define'd macros, and the functions and
# struct tags declared outside directives (comments removed first). Names
# ending in '_' are internal; include guards (*_H) are not API.
header_names() {
	for h in $HEADERS; do
		sed -n 's/^[ \t]*#[ \t]*define[ \t][ \t]*\([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' "$h"
		c_code "$h" | {
			tee "$OUTROOT/code.tmp" |
				grep -o '[A-Za-z_][A-Za-z0-9_]*[ \t]*(' | sed 's/[ \t]*($//'
			grep -o 'struct[ \t][ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*{' "$OUTROOT/code.tmp" |
				sed 's/^struct[ \t]*//; s/[ \t]*{$//'
		}
	done | grep -v -x -E '__attribute__|__typeof__|sizeof|if|while|for|switch|return|void|int|char|long|unsigned' |
		grep -v -E '(_|_H)$' | sort -u
	rm -f "$OUTROOT/code.tmp"
}

check_doc() {
	GROUP=doc
	if [ ! -s "$DOC" ]; then
		fail exists "$DOC is missing or empty"
		return
	fi
	pass exists
	names=$(header_names)
	printf '%s\n' "$names" >"$OUTROOT/header-names.txt"
	n=$(printf '%s\n' "$names" | grep -c .)
	if [ "$n" -lt 40 ]; then
		fail mentions-every-name "only $n names found in the headers (see $OUTROOT/header-names.txt): the extraction is broken"
		return
	fi
	missing=$(unmentioned "$DOC" "$names")
	if [ -z "$missing" ]; then
		pass mentions-every-name
	else
		fail mentions-every-name "$DOC does not mention (of $n public names):$missing"
	fi
}

# === Main ===

mkdir -p "$OUTROOT" || exit 2
check_build_headers
for k in $COMPILERS; do
	GROUP=$k
	cxx=$(cxx_of "$k")
	out=$OUTROOT/$k
	rm -rf "$out"
	mkdir -p "$out" || exit 2
	if ! have "$k" || ! have "$cxx"; then
		fail compilers "$k or $cxx not found"
		continue
	fi
	check_plain c
	check_plain cxx
	check_ucsan c
	check_ucsan cxx
	check_no_sanitize c -O0
	check_no_sanitize c -O2
	check_no_sanitize cxx -O2
done
check_doc

suite_end
