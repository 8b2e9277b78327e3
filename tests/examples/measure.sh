#!/bin/sh
# Time to the first report of each example's buggy build, with the default
# options (plus halt_on_error=1, which only ends the process at the first
# report): N runs per example and compiler, wall-clock seconds from exec to
# exit, and the median. Not part of the suite; uses the binaries that
# tests/examples/run.sh built (run it first).
#
# Usage: tests/examples/measure.sh [RUNS]      (default 5; each run at most 120 s)
# Environment: EX_COMPILERS (default "gcc clang"), EX_NAMES (default all three),
#   MEASURE_OPTIONS (more UCSAN_OPTIONS, e.g. overhead_budget=2)
set -u

ROOT=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
OUT=$ROOT/build/tests/examples
RUNS=${1:-5}
LIMIT=120

now() { date +%s.%N; }

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cpus"
printf '%-14s %-6s %-8s %s\n' example cc median "runs (s; '>' = not reported within the limit)"
for name in ${EX_NAMES:-tcp_poll fastopen_rsk taskstats}; do
	for cc in ${EX_COMPILERS:-gcc clang}; do
		exe=$OUT/$cc/$name
		if [ ! -x "$exe" ]; then
			echo "$exe: not built (run tests/examples/run.sh first)" >&2
			continue
		fi
		times=''
		i=0
		while [ "$i" -lt "$RUNS" ]; do
			i=$((i + 1))
			t0=$(now)
			(cd "$ROOT" && UCSAN_OPTIONS=halt_on_error=1${MEASURE_OPTIONS:+:$MEASURE_OPTIONS} exec timeout -k 5 $((LIMIT + 30)) "$exe" "$LIMIT" \
				>"$OUT/$cc/$name.measure.stdout" 2>"$OUT/$cc/$name.measure.stderr")
			rc=$?
			t1=$(now)
			t=$(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }')
			[ "$rc" = 66 ] || t=">$t"
			times="$times $t"
		done
		median=$(echo "$times" | tr ' ' '\n' | grep . | sed 's/^>//' | sort -n |
			awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
		printf '%-14s %-6s %-8s %s\n' "$name" "$cc" "$median" "$times"
	done
done
