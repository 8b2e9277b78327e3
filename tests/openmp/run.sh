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

ROOT=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
cd "$ROOT" || exit 2
BIN=$ROOT/build/bin
OUT=$ROOT/build/tests/openmp
mkdir -p "$OUT/wrapper"
failed=0

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
	if command -v clang >/dev/null 2>&1 && openmp_links clang; then
		compilers="gcc clang"
	else
		echo "openmp: clang -fopenmp cannot link a program (install libomp-dev); clang cases skipped" >&2
	fi
fi

# fail ID WHAT LOG: print a FAIL line with diagnostics.
fail() {
	echo "FAIL: $1"
	echo "  $2"
	if [ -n "${3:-}" ] && [ -s "$3" ]; then
		tail -n 20 "$3" | sed 's/^/    /'
	fi
	failed=1
}

# wrapper_case CC LANG: the three kinds of invocation for one compiler.
wrapper_case() {
	cc=$1 lang=$2
	id=openmp/$cc/wrapper-$lang
	d=$OUT/wrapper/$cc-$lang
	mkdir -p "$d"
	case $cc in
	gcc) rtlib=libgomp cxx=g++ ;;
	*) rtlib=libomp cxx=clang++ ;;
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
	log=$d/build.log
	rm -f "$d/prog.o" "$d/linked" "$d/onestep"
	if ! UCSAN_CC=$cc UCSAN_CXX=$cxx "$drv" -fopenmp -O2 -c "$src" -o "$d/prog.o" >"$log" 2>&1; then
		fail "$id" "compile-only (-c) failed" "$log"
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
	if ! UCSAN_CC=$cc UCSAN_CXX=$cxx "$drv" -fopenmp "$d/prog.o" -o "$d/linked" >>"$log" 2>&1; then
		fail "$id" "link-only failed" "$log"
		return
	fi
	if ! UCSAN_CC=$cc UCSAN_CXX=$cxx "$drv" -fopenmp -O2 "$src" -o "$d/onestep" >>"$log" 2>&1; then
		fail "$id" "compile-and-link failed" "$log"
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
		n=0 ok=
		while [ "$n" -lt 5 ] && [ -z "$ok" ]; do
			n=$((n + 1))
			UCSAN_OPTIONS='skip_watch=0 halt_on_error=1' timeout -k 5 60 "$d/linked" \
				>"$d/run.stdout" 2>"$d/run.stderr"
			rc=$?
			[ "$rc" = 66 ] && grep -Eq '^BUG: UCSAN: data-race in ' "$d/run.stderr" &&
				grep -Eq 'prog\.c:11( \[inline\])?$' "$d/run.stderr" && ok=1
		done
		if [ -z "$ok" ]; then
			fail "$id" "the racy loop was not reported in $n runs (last exit status $rc)" "$d/run.stderr"
			return
		fi
	else
		UCSAN_OPTIONS='skip_watch=0 udelay_task=5' timeout -k 5 60 "$d/onestep" \
			>"$d/run.stdout" 2>"$d/run.stderr"
		rc=$?
		if [ "$rc" != 0 ] || grep -q 'BUG' "$d/run.stderr"; then
			fail "$id" "race-free C++ program: exit status $rc" "$d/run.stderr"
			return
		fi
	fi
	echo "PASS: $id"
}

# Every racy program marks its racing lines with a RACE comment; the line
# numbers its EXPECT lines name must be exactly those (an edit that shifts
# the code without updating the directives fails here, with a clear message).
expected_lines_case() {
	bad=''
	for f in "$ROOT"/tests/openmp/race_*.c; do
		marked=$(grep -n 'RACE' "$f" | grep -v '^[0-9]*://' | cut -d: -f1 |
			sort -n | tr '\n' ' ')
		named=$(grep '^// EXPECT' "$f" | grep -o '\\\.c:([0-9|]*)\|\\\.c:[0-9]*' |
			grep -o '[0-9][0-9]*' | sort -un | tr '\n' ' ')
		[ -n "$marked" ] && [ "$marked" = "$named" ] ||
			bad="$bad  ${f##*/}: RACE comments on lines '$marked', EXPECT lines name '$named'$NL"
	done
	if [ -n "$bad" ]; then
		echo "FAIL: openmp/expected-lines"
		printf '%s' "$bad"
		failed=1
	else
		echo "PASS: openmp/expected-lines"
	fi
}
NL='
'

if [ $# -eq 0 ]; then
	expected_lines_case
	for cc in $compilers; do
		wrapper_case "$cc" c
		wrapper_case "$cc" cxx
	done
fi

E2E_DIR=$ROOT/tests/openmp E2E_SUITE=openmp E2E_COMPILERS=$compilers \
	sh "$ROOT/tests/e2e/run.sh" "$@" || failed=1
exit "$failed"
