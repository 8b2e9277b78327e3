#!/bin/sh
# OpenMP suite (tests/PROTOCOL.md): ucsan-cc -fopenmp under gcc (libgomp)
# and, when `clang -fopenmp` can link a program (Debian: libomp-dev), clang
# (libomp).
#
#   openmp/<cc>/wrapper-c, wrapper-cxx   ucsan-cc / ucsan-c++ -fopenmp in
#       compile-only, link-only and compile-and-link invocations: the objects
#       are instrumented, the programs need libucsan and the OpenMP runtime
#       (not libtsan), and a racy parallel loop in the link-only program is
#       reported.
#   openmp/<cc>/race_* and norace_*      the corpus in this directory, run by
#       the end-to-end harness (tests/e2e/run.sh): racy programs must be
#       reported with their expected lines within their TRIES bound,
#       race-free ones must run under skip_watch=0 without any report.
#
# Usage: tests/openmp/run.sh [TEST...]   (TEST: corpus programs only)
# Environment: OPENMP_COMPILERS (default: gcc, plus clang when it links).
# Artifacts: build/tests/openmp/.

set -u

SUITE=openmp
. "$(dirname "$0")/../lib/suite.sh"
cd "$ROOT" || exit 2
OUT=$ROOT/build/tests/openmp
mkdir -p "$OUT/wrapper"

# Can $1 (a compiler) build and link an OpenMP program at all?
openmp_links() {
	printf '#include <omp.h>\nint main(void){return omp_get_max_threads() < 1;}\n' \
		>"$OUT/wrapper/probe.c" &&
		"$1" -fopenmp "$OUT/wrapper/probe.c" -o "$OUT/wrapper/probe-$1" \
			>"$OUT/wrapper/probe-$1.log" 2>&1
}

if [ -n "${OPENMP_COMPILERS:-}" ]; then
	compilers=$OPENMP_COMPILERS
else
	compilers=gcc
	if have clang && openmp_links clang; then
		compilers="gcc clang"
	else
		echo "openmp: clang -fopenmp cannot link a program (install libomp-dev); clang cases skipped" >&2
	fi
fi

# wrapper_case CC LANG: the three kinds of invocation for one compiler.
wrapper_case() {
	cc=$1 lang=$2
	GROUP=$cc id=wrapper-$lang
	d=$OUT/wrapper/$cc-$lang
	mkdir -p "$d"
	case $cc in
	gcc) rtlib=libgomp ;;
	*) rtlib=libomp ;;
	esac
	if [ "$lang" = c ]; then
		drv=$BIN/ucsan-cc src=$d/prog.c
		cat >"$src" <<'EOF'
#include <omp.h>
#include <stdio.h>

long hits;

int main(void)
{
	for (int r = 0; r < 20000; r++) {
#pragma omp parallel for num_threads(4)
		for (int i = 0; i < 64; i++)
			hits += i;   /* racy on purpose */
	}
	printf("%ld\n", hits);
	return 0;
}
EOF
	else
		drv=$BIN/ucsan-c++ src=$d/prog.cpp
		cat >"$src" <<'EOF'
#include <omp.h>
#include <cstdio>
#include <vector>

int main()
{
	std::vector<double> v(4096);
	double sum = 0;

#pragma omp parallel for num_threads(4) reduction(+:sum)
	for (int i = 0; i < (int)v.size(); i++) {
		v[i] = i * 0.5;
		sum += v[i];
	}
	std::printf("%g\n", sum);
	return sum == 0.5 * 4095 * 4096 / 2 ? 0 : 1;
}
EOF
	fi
	rm -f "$d/prog.o" "$d/linked" "$d/onestep"
	if ! ucsan_build "$d/compile.log" "$cc" "$drv" -fopenmp -O2 -c "$src" -o "$d/prog.o"; then
		fail_log "$id" "compile-only (-c) failed" "$d/compile.log"
		return
	fi
	if ! nm "$d/prog.o" | grep -q ' U __tsan_'; then
		fail "$id" "compile-only: prog.o has no __tsan_* calls (not instrumented)"
		return
	fi
	if ! nm "$d/prog.o" | grep -Eq ' U (GOMP_parallel|__kmpc_fork_call)$'; then
		fail "$id" "compile-only: prog.o has no OpenMP runtime calls (-fopenmp lost?)"
		return
	fi
	if ! ucsan_build "$d/link.log" "$cc" "$drv" -fopenmp "$d/prog.o" -o "$d/linked"; then
		fail_log "$id" "link-only failed" "$d/link.log"
		return
	fi
	if ! ucsan_build "$d/onestep.log" "$cc" "$drv" -fopenmp -O2 "$src" -o "$d/onestep"; then
		fail_log "$id" "compile-and-link failed" "$d/onestep.log"
		return
	fi
	for exe in "$d/linked" "$d/onestep"; do
		needed=$(readelf -d "$exe" 2>/dev/null | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | tr '\n' ' ')
		case " $needed" in
		*" libucsan.so "*) ;;
		*) fail "$id" "${exe##*/} does not need libucsan.so (needs: $needed)"; return ;;
		esac
		case " $needed" in
		*" $rtlib"*) ;;
		*) fail "$id" "${exe##*/} does not need $rtlib (needs: $needed)"; return ;;
		esac
		case " $needed" in
		*tsan*) fail "$id" "${exe##*/} needs ThreadSanitizer's runtime (needs: $needed)"; return ;;
		esac
	done
	if [ "$lang" = c ]; then
		# The link-only program: the racy += must be reported.
		if ! retry 5 racy_loop_reported; then
			fail_log "$id" "the racy loop was not reported in $n runs (last exit status $rc)" "$d/run.stderr"
			return
		fi
	else
		UCSAN_OPTIONS='skip_watch=0 udelay_task=5' timeout -k 5 60 "$d/onestep" \
			>"$d/run.stdout" 2>"$d/run.stderr"
		rc=$?
		if [ "$rc" != 0 ] || grep -q 'BUG' "$d/run.stderr"; then
			fail_log "$id" "race-free C++ program: exit status $rc" "$d/run.stderr"
			return
		fi
	fi
	pass "$id"
}

# racy_loop_reported: a run of wrapper_case's link-only C program reports
# its racy loop.
racy_loop_reported() {
	UCSAN_OPTIONS='skip_watch=0 halt_on_error=1' timeout -k 5 60 "$d/linked" \
		>"$d/run.stdout" 2>"$d/run.stderr"
	rc=$?
	[ "$rc" = 66 ] && grep -Eq '^BUG: UCSAN: data-race in ' "$d/run.stderr" &&
		grep -Eq 'prog\.c:11( \[inline\])?$' "$d/run.stderr"
}

# Every racy program marks its racing lines with a RACE comment; the line
# numbers its EXPECT lines name must be exactly those (an edit that shifts
# the code without updating the directives fails here, with a clear message).
expected_lines_case() {
	GROUP=
	bad=''
	for f in "$ROOT"/tests/openmp/race_*.c; do
		marked=$(grep -n 'RACE' "$f" | grep -v '^[0-9]*://' | cut -d: -f1 |
			sort -n | tr '\n' ' ')
		named=$(grep '^// EXPECT' "$f" | grep -o '\\\.c:([0-9|]*)\|\\\.c:[0-9]*' |
			grep -o '[0-9][0-9]*' | sort -un | tr '\n' ' ')
		[ -n "$marked" ] && [ "$marked" = "$named" ] ||
			bad="$bad${f##*/}: RACE comments on lines '$marked', EXPECT lines name '$named'$NL"
	done
	if [ -n "$bad" ]; then
		fail expected-lines "$bad"
	else
		pass expected-lines
	fi
}

if [ $# -eq 0 ]; then
	expected_lines_case
	for cc in $compilers; do
		wrapper_case "$cc" c
		wrapper_case "$cc" cxx
	done
fi

E2E_DIR=$ROOT/tests/openmp E2E_SUITE=openmp E2E_COMPILERS=$compilers \
	sh "$ROOT/tests/e2e/run.sh" "$@" || failures=$((failures + 1))
suite_end
