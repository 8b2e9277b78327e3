#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Code written for ThreadSanitizer builds and runs under ucsan (issue 9).
#
#   exports/*        every function declared in each compiler's
#                    <sanitizer/tsan_interface.h> (the header parsed, comments
#                    and directives removed), and every dynamic annotation
#                    libtsan / clang's TSan runtime exports (Annotate*,
#                    WTFAnnotate*, RunningOnValgrind, ValgrindSlowdown,
#                    ThreadSanitizerQuery), and every __sanitizer_*
#                    function they export but for coverage, syscall hooks,
#                    libFuzzer's hooks and the error summary, is exported
#                    by libucsan.so.
#   doc/mentions-every-function
#                    docs/coming-from-tsan.md names every function that
#                    src/tsan_interface.c exports.
#   <cc>/NAME        the programs of this directory built with ucsan-cc
#                    under gcc and clang, checked by the e2e harness
#                    (tests/e2e/run.sh, its directives: OPTIONS, EXIT,
#                    EXPECT, NOT, TRIES ...).
#   ucsan-control/<cc>/NAME
#                    programs with `// UCSAN-CONTROL: FLAGS` built again with
#                    those flags (-DNO_ANNOTATIONS) under ucsan: every
#                    `// UCSAN-CONTROL-EXPECT: ERE` must match, proving that
#                    the annotation is what keeps the main run quiet.
#   tsan/<cc>/NAME   when the compiler's TSan runtime works: the same program
#                    built with plain -fsanitize=thread (no ucsan) behaves as
#                    `// TSAN-EXIT: N` (default 0), `// TSAN-EXPECT: ERE`,
#                    `// TSAN-NOT: ERE` say, with TSAN_OPTIONS set to
#                    history_size=7 and then `// TSAN-OPTIONS:`, and
#                    `// TSAN-LIBS:` on the link line. Built with
#                    -DCOMPAT_MAX_ITER=20000: racing loops stop after that
#                    many rounds. (clang 14's runtime often drops reports in
#                    long tight racing loops -- the earlier access is no
#                    longer found in its trace -- even with the largest
#                    history, which we also set.)
#                    `// TSAN-SKIP: why` leaves a program out.
#   tsan-control/<cc>/NAME
#                    `// TSAN-CONTROL: FLAGS` and `// TSAN-CONTROL-EXPECT:`:
#                    the same under TSan (without the annotations TSan
#                    reports, so the main TSan run is meaningful).
#
# Usage: tests/tsan_compat/run.sh          (from anywhere; see tests/PROTOCOL.md)
# Environment:
#   TSAN_COMPAT_COMPILERS  compilers (default "gcc clang")
#   TSAN_COMPAT_BUILD      tree holding bin/ and lib/ (default build/)
#   TSAN_COMPAT_TRIES_MAX  cap on every TRIES (also passed to the harness)
#
# Artifacts: build/tests/tsan_compat/. Portable sh (dash); needs nm, timeout.

set -u
unset CDPATH UCSAN_CC_TRACE UCSAN_CC_ACTIVE UCSAN_OPTIONS TSAN_OPTIONS UCSAN_CC UCSAN_CXX

SUITE=tsan_compat
. "$(dirname "$0")/../lib/suite.sh"
DIR=$ROOT/tests/tsan_compat
SUPPORT=$ROOT/tests/e2e/support
BUILD=${TSAN_COMPAT_BUILD:-$ROOT/build}
LIB=$BUILD/lib/libucsan.so
OUTROOT=$ROOT/build/tests/tsan_compat
COMPILERS=${TSAN_COMPAT_COMPILERS:-gcc clang}
TRIES_MAX=${TSAN_COMPAT_TRIES_MAX:-}
TSAN_BASE_OPTIONS=history_size=7

# tries_of SRC [MIN]: the TRIES of SRC, at least MIN, at most TRIES_MAX.
tries_of() {
	t=$(last "$1" TRIES)
	t=${t:-1}
	[ "$t" -lt "${2:-1}" ] && t=$2
	[ -n "$TRIES_MAX" ] && [ "$t" -gt "$TRIES_MAX" ] && t=$TRIES_MAX
	echo "$t"
}

# run_case ID EXE ENVVAR OPTS WANT_EXIT TRIES EXPECTS NOTS: run EXE (with
# ENVVAR=OPTS) until the expectations hold; WANT_EXIT empty: any status.
# No EXE: its build (EXE.build.log) failed.
run_case() {
	id=$1 exe=$2 envvar=$3 opts=$4 want=$5 tries=$6 expects=$7 nots=$8
	err=$exe.stderr
	if [ ! -x "$exe" ]; then
		fail_log "$id" "build failed" "$exe.build.log"
		return 1
	fi
	if retry "$tries" run_once; then
		pass "$id"
		return 0
	fi
	fail_log "$id" "after $n of $tries run(s): $envvar='$opts' $exe$NL${fails%"$NL"}" "$err"
	return 1
}

# run_once: one run of run_case's.
run_once() {
	(cd "$(dirname "$exe")" && exec env "$envvar=$opts" timeout -k 5 90 "$exe" \
		>"$exe.stdout" 2>"$err")
	rc=$?
	fails=''
	if [ -n "$want" ] && [ "$rc" != "$want" ]; then
		fails="${fails}exit status: expected $want, got $rc$NL"
	fi
	expect_match EXPECT "$err" "$expects"
	expect_none "$err" "$nots$NL^e2e: "
	[ -z "$fails" ]
}

# === Exports ===

exported=$(nm -D --defined-only "$LIB" 2>/dev/null | awk 'NF >= 3 { print $NF }' | sort -u)

# Function names declared in a C header: every NAME( of a __tsan_ name in
# its code.
header_functions() {
	c_code "$1" | grep -o '__tsan_[A-Za-z0-9_]*[ \t]*(' | sed 's/[ \t]*($//' | sort -u
}

# exports_all ID NAMES MIN KIND SOURCE: libucsan.so exports every one of
# NAMES, the KIND (functions, annotations) of SOURCE; fewer than MIN of them
# means they were not found right.
exports_all() {
	count=$(printf '%s\n' "$2" | grep -c .)
	missing=$(missing_from "$exported" "$2")
	if [ "$count" -lt "$3" ]; then
		fail "$1" "only $count $4 found in $5: the listing is broken"
	elif [ -n "$missing" ]; then
		fail "$1" "$5 has $count $4, $LIB does not export:$missing"
	else
		pass "$1"
	fi
}

check_exports() {
	if [ -z "$exported" ]; then
		fail exports/library "$LIB has no exported symbols (run make)"
		return
	fi
	for cc in $COMPILERS; do
		have "$cc" || continue
		hdr=$(printf '#include <sanitizer/tsan_interface.h>\n' |
			"$cc" -x c -M - 2>/dev/null | tr -d '\\' | tr ' ' '\n' | grep '/sanitizer/tsan_interface\.h$' | head -n 1)
		if [ -z "$hdr" ]; then
			fail "exports/$cc-header" "$cc has no <sanitizer/tsan_interface.h>"
			continue
		fi
		exports_all "exports/$cc-header" "$(header_functions "$hdr")" 20 functions "$hdr"
	done
	# The dynamic annotations, as TSan's runtimes export them.
	for rt in "$(gcc -print-file-name=libtsan.so 2>/dev/null)" \
		"$(clang -print-file-name=libclang_rt.tsan-x86_64.so 2>/dev/null)"; do
		[ -f "$rt" ] || continue
		rt=$(readlink -f "$rt")
		names=$(nm -D --defined-only "$rt" 2>/dev/null | awk 'NF >= 3 { print $NF }' |
			grep -E '^(WTF)?Annotate|^(RunningOnValgrind|ValgrindSlowdown|ThreadSanitizerQuery)$' | sort -u)
		exports_all "exports/$(basename "$rt")" "$names" 30 annotations "$rt"
		# The sanitizer_common interface, but for coverage, the syscall
		# hooks and libFuzzer's weak hooks (other tools' business) and the
		# error summary hook.
		names=$(nm -D --defined-only "$rt" 2>/dev/null | awk 'NF >= 3 { print $NF }' | grep '^__sanitizer_' |
			grep -Ev '_cov|coverage|syscall|weak_hook|report_error_summary' | sort -u)
		exports_all "exports/$(basename "$rt")-sanitizer-common" "$names" 20 functions "$rt"
	done
}

check_doc() {
	doc=$ROOT/docs/coming-from-tsan.md
	names=$(sed -n 's/^UCSAN_EXPORT .*[ *]\([A-Za-z_][A-Za-z0-9_]*\)(.*/\1/p' "$ROOT/src/tsan_interface.c" | sort -u)
	count=$(printf '%s\n' "$names" | grep -c .)
	if [ ! -s "$doc" ] || [ "$count" -lt 60 ]; then
		fail doc/mentions-every-function "$doc missing, or only $count exported functions found in src/tsan_interface.c"
		return
	fi
	missing=$(unmentioned "$doc" "$names")
	if [ -z "$missing" ]; then
		pass doc/mentions-every-function
	else
		fail doc/mentions-every-function "$doc does not mention (of $count):$missing"
	fi
}

# === Programs under ucsan ===

check_ucsan_controls() {
	for cc in $COMPILERS; do
		out=$OUTROOT/ucsan-control/$cc
		mkdir -p "$out"
		for src in "$DIR"/*.c; do
			flags=$(joined "$src" UCSAN-CONTROL)
			[ -n "$flags" ] || continue
			name=$(basename "$src" .c)
			id=ucsan-control/$cc/$name
			cflags=$(joined "$src" CFLAGS)
			rm -f "$out/$name"
			# shellcheck disable=SC2086
			ucsan_build "$out/$name.build.log" "$cc" "$BUILD/bin/ucsan-cc" ${cflags:--O2 -g} -pthread $flags \
				-I"$SUPPORT" -I"$DIR" -o "$out/$name" "$src"
			run_case "$id" "$out/$name" UCSAN_OPTIONS "$(joined "$src" OPTIONS)" '' \
				"$(tries_of "$src" 5)" "$(directive "$src" UCSAN-CONTROL-EXPECT)" ''
		done
	done
}

# === The same programs under ThreadSanitizer ===

tsan_works() {
	cc=$1 out=$2
	printf 'int main(void) { return 0; }\n' >"$out/probe.c"
	"$cc" -fsanitize=thread "$out/probe.c" -o "$out/probe" >"$out/probe.log" 2>&1 &&
		"$out/probe" >>"$out/probe.log" 2>&1
}

# tsan_build CC SRC EXE EXTRA_FLAGS: EXE, if it builds; the command line and
# its output in EXE.build.log.
tsan_build() {
	cflags=$(joined "$2" CFLAGS)
	libs=$(joined "$2" TSAN-LIBS)
	tlog=$3.build.log
	rm -f "$3"
	# shellcheck disable=SC2086
	set -- "$1" ${cflags:--O2 -g} -fsanitize=thread -pthread -DE2E_SKIP_RUNTIME_CHECK -DCOMPAT_MAX_ITER=20000 $4 \
		-I"$SUPPORT" -I"$DIR" -o "$3" "$2" $libs
	echo "+ $*" >"$tlog"
	"$@" >>"$tlog" 2>&1
}

check_tsan() {
	for cc in $COMPILERS; do
		out=$OUTROOT/tsan/$cc
		mkdir -p "$out" "$OUTROOT/tsan-control/$cc"
		have "$cc" || continue
		if ! tsan_works "$cc" "$out"; then
			echo "tsan_compat: $cc -fsanitize=thread does not build or run here; TSan comparison skipped" >&2
			continue
		fi
		for src in "$DIR"/*.c; do
			name=$(basename "$src" .c)
			[ -n "$(directive "$src" TSAN-SKIP)" ] && continue
			id=tsan/$cc/$name
			exe=$out/$name
			if ! tsan_build "$cc" "$src" "$exe" ''; then
				fail_log "$id" "build with $cc -fsanitize=thread failed" "$exe.build.log"
				continue
			fi
			want=$(last "$src" TSAN-EXIT)
			run_case "$id" "$exe" TSAN_OPTIONS "$TSAN_BASE_OPTIONS $(joined "$src" TSAN-OPTIONS)" "${want:-0}" \
				"$(tries_of "$src")" "$(directive "$src" TSAN-EXPECT)" "$(directive "$src" TSAN-NOT)"

			flags=$(joined "$src" TSAN-CONTROL)
			[ -n "$flags" ] || continue
			id=tsan-control/$cc/$name
			exe=$OUTROOT/tsan-control/$cc/$name
			tsan_build "$cc" "$src" "$exe" "$flags"
			run_case "$id" "$exe" TSAN_OPTIONS "$TSAN_BASE_OPTIONS $(joined "$src" TSAN-OPTIONS)" '' \
				"$(tries_of "$src")" "$(directive "$src" TSAN-CONTROL-EXPECT)" ''
		done
	done
}

# === Main ===

mkdir -p "$OUTROOT" || exit 2
check_exports
check_doc
E2E_DIR=$DIR E2E_SUITE=tsan_compat E2E_BIN=$BUILD/bin E2E_COMPILERS=$COMPILERS \
	E2E_TRIES_MAX=$TRIES_MAX sh "$ROOT/tests/e2e/run.sh" || failures=$((failures + 1))
check_ucsan_controls
check_tsan

suite_end
