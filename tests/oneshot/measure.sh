#!/bin/sh
# One-shot detection rates: how often one short run of each racy program in
# tests/oneshot/ finds its race, under ucsan (built by gcc and by clang) and
# under gcc's and clang's ThreadSanitizer, and what ucsan costs in time.
# Not a test (`make oneshot`, not part of `make check`).
#
# Usage: tests/oneshot/measure.sh        (from anywhere; needs `make all`)
# Environment:
#   ONESHOT_RUNS      runs per program and configuration (default 20)
#   ONESHOT_TIMEOUT   seconds before a run is killed (default 20)
#   ONESHOT_SRC       the programs' directory (default tests/oneshot;
#                     `make heldout`: tests/heldout, which has no twins)
#
# Configurations, all at -O2 -g, default options (UCSAN_OPTIONS and
# TSAN_OPTIONS are unset):
#   native       gcc (g++), no instrumentation: the time reference
#   ucsan-gcc    build/bin/ucsan-cc (ucsan-c++) with UCSAN_CC=gcc
#   ucsan-clang  the same with UCSAN_CC=clang
#   tsan-gcc     gcc -fsanitize=thread
#   tsan-clang   clang -fsanitize=thread (Debian: libclang-rt-14-dev)
# A run counts as detected when its stderr has `BUG: UCSAN: data-race`
# (ucsan) or `WARNING: ThreadSanitizer: data race` (TSan).  The race-free
# twins (NAME_fixed.c) run as often under both ucsan builds; a twin run
# counts against ucsan if it printed anything with `UCSAN` in it or did not
# exit 0.  A configuration that does not build is shown as n/a.
#
# Output: a Markdown table on stdout, also written to build/oneshot/table.md
# (build/heldout/ for tests/heldout);
# progress on stderr; binaries, build logs and one sample report per
# program and configuration under build/oneshot/.  Portable sh (dash), awk.

set -u

ROOT=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
cd "$ROOT" || exit 2
SRC=${ONESHOT_SRC:-tests/oneshot}
OUT=build/${SRC##*/}
RUNS=${ONESHOT_RUNS:-20}
TMO=${ONESHOT_TIMEOUT:-20}
unset UCSAN_OPTIONS TSAN_OPTIONS UCSAN_CC UCSAN_CXX

if [ ! -x build/bin/ucsan-cc ] || [ ! -f build/lib/libucsan.so ]; then
	echo "measure.sh: build/bin/ucsan-cc or build/lib/libucsan.so missing (run make all)" >&2
	exit 2
fi
mkdir -p "$OUT/bin" "$OUT/log" || exit 2

say() {
	echo "oneshot: $*" >&2
}

# build CONFIG SRC EXE: build one program, output in EXE.build.log.
build() {
	cfg=$1 src=$2 exe=$3
	case $src in
	*.cpp) gcc=g++ clang=clang++ ucsan=build/bin/ucsan-c++ ;;
	*) gcc=gcc clang=clang ucsan=build/bin/ucsan-cc ;;
	esac
	set -- -O2 -g -pthread -I"$SRC" -o "$exe" "$src"
	# C++17 (std::shared_mutex): clang 14's default is C++14.
	case $src in *.cpp) set -- -std=gnu++17 "$@" ;; esac
	{
		case $cfg in
		native) $gcc "$@" ;;
		ucsan-gcc) UCSAN_CC=gcc UCSAN_CXX=g++ "$ucsan" "$@" ;;
		ucsan-clang) UCSAN_CC=clang UCSAN_CXX=clang++ "$ucsan" "$@" ;;
		tsan-gcc) $gcc -fsanitize=thread "$@" ;;
		tsan-clang) $clang -fsanitize=thread "$@" ;;
		esac
	} >"$exe.build.log" 2>&1
}

# run_n CONFIG EXE PATTERN: run EXE $RUNS times, one after the other.  Sets
# $hits (runs whose stderr matched the ERE PATTERN or, with PATTERN empty,
# runs that printed `UCSAN` or exited non-zero), $mean_ms (mean wall time)
# and $odd (runs that timed out or died of a signal).  The first matching
# stderr is kept as EXE.report.
run_n() {
	cfg=$1 exe=$2 pat=$3
	hits=0 odd=0 total_ns=0 i=0
	rm -f "$exe.report"
	while [ "$i" -lt "$RUNS" ]; do
		i=$((i + 1))
		t0=$(date +%s%N)
		timeout -k 5 "$TMO" "$exe" >/dev/null 2>"$exe.stderr"
		rc=$?
		t1=$(date +%s%N)
		total_ns=$((total_ns + t1 - t0))
		[ "$rc" -ge 124 ] && odd=$((odd + 1))
		if [ -n "$pat" ]; then
			grep -Eq -e "$pat" "$exe.stderr" || continue
		elif [ "$rc" = 0 ] && ! grep -q UCSAN "$exe.stderr"; then
			continue
		fi
		hits=$((hits + 1))
		[ -f "$exe.report" ] || cp "$exe.stderr" "$exe.report"
	done
	mean_ms=$(awk -v ns="$total_ns" -v n="$RUNS" 'BEGIN { printf "%.2f", ns / n / 1e6 }')
	[ "$odd" -gt 0 ] && say "$cfg $(basename "$exe"): $odd run(s) timed out or crashed"
	return 0
}

UCSAN_RE='BUG: UCSAN: data-race'
TSAN_RE='WARNING: ThreadSanitizer: data race'

racy=''
twins=''
for f in "$SRC"/*.c "$SRC"/*.cpp; do
	[ -f "$f" ] || continue
	case $f in
	*_fixed.c | *_fixed.cpp) twins="$twins $f" ;;
	*) racy="$racy $f" ;;
	esac
done

# measure SRC KIND CONFIG...: build program SRC in each configuration and
# run it; prints its line of results: the file name, then per configuration
# "hits mean_ms" for KIND racy, "hits" for KIND twin ("na" for each when it
# does not build).
measure() {
	src=$1 kind=$2
	shift 2
	file=$(basename "$src")
	name=${file%.*}
	line=$file
	for cfg do
		exe=$OUT/bin/$name.$cfg
		if ! build "$cfg" "$src" "$exe"; then
			say "$file $cfg: build failed, see $exe.build.log"
			[ "$kind" = racy ] && line="$line na"
			line="$line na"
			continue
		fi
		case $kind:$cfg in
		twin:* | *:native) pat='' ;;
		*:ucsan-*) pat=$UCSAN_RE ;;
		*:tsan-*) pat=$TSAN_RE ;;
		esac
		run_n "$cfg" "$exe" "$pat"
		if [ "$kind" = twin ]; then
			say "$file $cfg: $hits/$RUNS runs reported"
			line="$line $hits"
			continue
		fi
		[ "$cfg" = native ] && [ "$hits" -gt 0 ] &&
			say "$file native: $hits run(s) failed"
		say "$file $cfg: $hits/$RUNS, $mean_ms ms per run"
		line="$line $hits $mean_ms"
	done
	echo "$line"
}

# One line per racy program, its configurations in the order of $CONFIGS;
# one per twin, ucsan-gcc and ucsan-clang.
CONFIGS='native ucsan-gcc ucsan-clang tsan-gcc tsan-clang'
results=$OUT/results.txt
twin_results=$OUT/twins.txt
for src in $racy; do
	measure "$src" racy $CONFIGS
done >"$results"
for src in $twins; do
	measure "$src" twin ucsan-gcc ucsan-clang
done >"$twin_results"

# The tables.
table=$OUT/table.md
awk -v runs="$RUNS" '
	function pct(h) { return h == "na" ? "n/a" : sprintf("%d%%", 100 * h / runs + 0.5) }
	function ratio(t, n) { return (t == "na" || n == "na" || n <= 0) ? "n/a" : sprintf("%.2fx", t / n) }
	BEGIN {
		printf "One short run of each racy program, %d runs per program and configuration,\n", runs
		print "default options. Detection: runs that reported the race (ucsan: `BUG: UCSAN:"
		print "data-race`, TSan: `WARNING: ThreadSanitizer: data race`). Time: mean wall"
		print "time per run (process start included) relative to native gcc -O2."
		print ""
		print "| program | ucsan-gcc | ucsan-clang | tsan-gcc | tsan-clang | native ms | ucsan-gcc time | ucsan-clang time |"
		print "|---|---|---|---|---|---|---|---|"
	}
	# $1 name; native $2 $3; ucsan-gcc $4 $5; ucsan-clang $6 $7;
	# tsan-gcc $8 $9; tsan-clang $10 $11
	{
		printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", $1,
		    pct($4), pct($6), pct($8), pct($10),
		    $3 == "na" ? "n/a" : sprintf("%.1f", $3), ratio($5, $3), ratio($7, $3)
		for (c = 4; c <= 10; c += 2)
			if ($c != "na") { sum[c] += 100 * $c / runs; cnt[c]++ }
		for (c = 5; c <= 7; c += 2)
			if ($c != "na" && $3 != "na" && $3 > 0) { lsum[c] += log($c / $3); lcnt[c]++ }
	}
	END {
		printf "| **mean** |"
		for (c = 4; c <= 10; c += 2)
			printf " %s |", cnt[c] ? sprintf("%.0f%%", sum[c] / cnt[c]) : "n/a"
		printf " |"
		for (c = 5; c <= 7; c += 2)
			printf " %s |", lcnt[c] ? sprintf("%.2fx", exp(lsum[c] / lcnt[c])) : "n/a"
		printf "\n"
	}
' "$results" >"$table"
[ -s "$twin_results" ] && awk -v runs="$RUNS" '
	BEGIN {
		print ""
		printf "Race-free twins, %d runs each: runs with any ucsan output or a non-zero exit (must be 0).\n", runs
		print ""
		print "| twin | ucsan-gcc | ucsan-clang |"
		print "|---|---|---|"
	}
	{
		printf "| %s | %s | %s |\n", $1, $2 == "na" ? "n/a" : $2 "/" runs,
		    $3 == "na" ? "n/a" : $3 "/" runs
		for (c = 2; c <= 3; c++)
			if ($c != "na") { tot[c] += $c; n[c] += runs }
	}
	END {
		printf "| **total** | %d/%d | %d/%d |\n", tot[2], n[2], tot[3], n[3]
	}
' "$twin_results" >>"$table"
cat "$table"
