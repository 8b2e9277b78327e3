#!/bin/sh
# Measure the OpenMP corpus (tests/openmp/) under ucsan and under gcc's
# ThreadSanitizer and print the two Markdown tables of docs/openmp.md.
# Not part of `make check`: it takes 15-20 minutes on 2 cores.
#
# Usage: sh tests/openmp/compare-tsan.sh [TEST...]     (from anywhere)
# Environment:
#   COMPILERS   ucsan compilers (default "gcc clang"; clang is dropped when
#               `clang -fopenmp` cannot link a program)
#   RUNS        runs of every racy program per compiler (default 10)
#   CLEAN_RUNS  runs of every race-free program per compiler (default 5)
#   TSAN_RUNS   runs of every race-free program under TSan (default 3)
#   NO_TSAN=1   skip ThreadSanitizer
#   CLEAN_EXTRA extra UCSAN_OPTIONS for the race-free programs, appended to
#               their own (e.g. "udelay_task=80": the racy programs' stall)
#
# ucsan: each program is built with build/bin/ucsan-cc and run with the
# UCSAN_OPTIONS of its `// OPTIONS:` line.  A racy run counts as found when
# it exits 66 and its report has every EXPECT and EXPECT-FRAME line of the
# test (the test's TRIES bound is not applied: every run is one try, itself
# bounded by OMP_TEST_SECONDS in omp_test.h).  A race-free run is clean when
# it exits 0 without any report; the watchpoints it set are summed.
#
# ThreadSanitizer: gcc -fopenmp -fsanitize=thread -g -O1, TSAN_OPTIONS
# halt_on_error=0, so that every distinct warning of a run is seen.  A racy
# program counts as found when one warning's two accesses (their #0 frames)
# are the expected lines; every other warning is counted as a false one.
# Race-free programs: runs with any warning.
#
# Artifacts: build/tests/openmp-compare/.

set -u

. "$(dirname "$0")/../lib/suite.sh"
SRC=$ROOT/tests/openmp
SUPPORT=$ROOT/tests/e2e/support
OUT=$ROOT/build/tests/openmp-compare
RUNS=${RUNS:-10}
CLEAN_RUNS=${CLEAN_RUNS:-5}
TSAN_RUNS=${TSAN_RUNS:-3}
COMPILERS=${COMPILERS:-gcc clang}
mkdir -p "$OUT"

# The racing line numbers a test names in its EXPECT-FRAME lines, as
# "A B" where A and B are |-separated alternatives (one per EXPECT-FRAME).
expected_lines() {
	directive "$1" EXPECT-FRAME | sed -n 's/.*\\\.c:(\{0,1\}\([0-9|]*\))\{0,1\}.*/\1/p' |
		tr '\n' ' '
}

# found_ucsan TEST STDERR RC: did this run report what the test expects?
found_ucsan() {
	[ "$3" = 66 ] || return 1
	directive "$1" EXPECT >"$OUT/expects.tmp"
	while IFS= read -r re; do
		grep -Eq -e "$re" "$2" || return 1
	done <"$OUT/expects.tmp"
	directive "$1" EXPECT-FRAME >"$OUT/frames.tmp"
	while IFS= read -r spec; do
		a=${spec%% => *} b=${spec#* => }
		awk -v a="$a" -v b="$b" '
			prev && $0 ~ b { ok = 1 }
			{ prev = ($0 ~ a) }
			END { exit !ok }' "$2" || return 1
	done <"$OUT/frames.tmp"
	return 0
}

now() { date +%s.%N; }

# Median of the numbers on stdin, "-" if none.
median() {
	sort -n | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "-"; exit }
		m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.1f s\n", m }'
}

# table_head LEAD UCSAN TSAN: a Markdown table's header: the columns of LEAD
# ("a|b"), one column UCSAN (%s: the compiler) per compiler, then, unless
# NO_TSAN, the columns of TSAN.
table_head() {
	cols=$1
	for cc in $COMPILERS; do
		# shellcheck disable=SC2059
		cols="$cols|$(printf "$2" "$cc")"
	done
	[ -z "${NO_TSAN:-}" ] && cols="$cols|$3"
	printf '%s\n' "$cols" | awk -F'|' '{
		for (i = 1; i <= NF; i++) { head = head "| " $i " "; rule = rule "|---" }
		print head "|"; print rule "|"
	}'
}

# Does clang -fopenmp link here (Debian: libomp-dev)?
if printf 'int main(void){return 0;}\n' >"$OUT/probe.c" &&
	! clang -fopenmp "$OUT/probe.c" -o "$OUT/probe" >/dev/null 2>&1; then
	COMPILERS=$(echo "$COMPILERS" | sed 's/clang//')
	echo "compare-tsan: clang -fopenmp does not link; measuring gcc only" >&2
fi

tests=''
if [ $# -gt 0 ]; then
	for t in "$@"; do tests="$tests ${t%.c}"; done
else
	for f in "$SRC"/race_*.c "$SRC"/norace_*.c; do
		t=${f##*/}
		tests="$tests ${t%.c}"
	done
fi

racy_table="$OUT/racy.md"
clean_table="$OUT/clean.md"
table_head 'program|racing lines' 'ucsan %s: found (median time)' \
	'TSan: expected pair|TSan: other warnings' >"$racy_table"
table_head program 'ucsan %s: runs with a report (watchpoints set)' \
	'TSan: runs with warnings|TSan: first warning (lines)' >"$clean_table"

for t in $tests; do
	src=$SRC/$t.c
	[ -f "$src" ] || { echo "compare-tsan: no test $t" >&2; exit 2; }
	cflags=$(directive "$src" CFLAGS | tr '\n' ' ')
	opts=$(directive "$src" OPTIONS | tr '\n' ' ')
	lines=$(expected_lines "$src")
	case $t in
	race_*) racy=1 ;;
	*) racy='' opts="$opts ${CLEAN_EXTRA:-}" ;;
	esac
	if [ -n "$racy" ]; then
		# shellcheck disable=SC2046 # split into the two alternatives
		set -- $(echo "$lines" | tr '|' ',')
		row="| $t | ${1:-?} / ${2:-${1:-?}} |"
	else
		row="| $t |"
	fi

	for cc in $COMPILERS; do
		exe=$OUT/$cc-$t
		# shellcheck disable=SC2086
		if ! ucsan_build "$exe.build.log" "$cc" "$BIN/ucsan-cc" $cflags -pthread -I"$SUPPORT" -I"$SRC" \
			-o "$exe" "$src"; then
			row="$row build failed |"
			continue
		fi
		rm -f "$exe".missed.*.stderr "$exe".report.*.stderr
		n=0 found=0 reports=0 watches=0
		: >"$OUT/times.tmp"
		total=$RUNS
		[ -n "$racy" ] || total=$CLEAN_RUNS
		while [ "$n" -lt "$total" ]; do
			n=$((n + 1))
			start=$(now)
			(cd "$OUT" && UCSAN_OPTIONS=$opts exec timeout -k 5 120 "$exe" \
				>"$exe.stdout" 2>"$exe.stderr")
			rc=$?
			end=$(now)
			if [ -n "$racy" ]; then
				if found_ucsan "$src" "$exe.stderr" "$rc"; then
					found=$((found + 1))
					echo "$end $start" | awk '{ print $1 - $2 }' >>"$OUT/times.tmp"
				else
					cp "$exe.stderr" "$exe.missed.$n.stderr"
				fi
			else
				if [ "$rc" != 0 ] || grep -Eq '^BUG|UCSAN: reported' "$exe.stderr"; then
					reports=$((reports + 1))
					cp "$exe.stderr" "$exe.report.$n.stderr"
				fi
				w=$(sed -n 's/^UCSAN: stats: setup_watchpoints: //p' "$exe.stderr")
				watches=$((watches + ${w:-0}))
			fi
		done
		if [ -n "$racy" ]; then
			row="$row $found/$total ($(median <"$OUT/times.tmp")) |"
		else
			row="$row $reports/$total ($watches) |"
		fi
		echo "compare-tsan: $cc $t done" >&2
	done

	if [ -z "${NO_TSAN:-}" ]; then
		exe=$OUT/tsan-$t
		if ! gcc -fopenmp -fsanitize=thread -g -O1 -DE2E_SKIP_RUNTIME_CHECK \
			-I"$SUPPORT" -I"$SRC" -o "$exe" "$src" >"$exe.build.log" 2>&1; then
			row="$row build failed | |"
		elif [ -n "$racy" ]; then
			(cd "$OUT" && TSAN_OPTIONS='halt_on_error=0' exec timeout -k 5 120 \
				"$exe" >"$exe.stdout" 2>"$exe.stderr")
			# shellcheck disable=SC2086 # split into the two alternatives
			set -- $lines
			# Per warning: the line numbers of the first two #0 frames.
			awk -v f="$t.c" -v A="${1:-x}" -v B="${2:-${1:-x}}" '
				function flush() {
					if (!inw) return
					hit = ((l1 ~ "^(" A ")$" && l2 ~ "^(" B ")$") ||
					       (l1 ~ "^(" B ")$" && l2 ~ "^(" A ")$"))
					if (hit) good++; else other++
				}
				/WARNING: ThreadSanitizer:/ { flush(); inw = 1; k = 0; l1 = l2 = "" }
				inw && /^ +#0 / {
					k++
					ln = $0; sub(/ \(.*$/, "", ln); sub(/^.*:/, "", ln)
					if (k == 1) l1 = ln; else if (k == 2) l2 = ln
				}
				END { flush(); printf "%s %d\n", good ? "yes" : "no", other }
			' "$exe.stderr" >"$OUT/tsan.tmp"
			read -r good other <"$OUT/tsan.tmp"
			row="$row $good | $other |"
		else
			rm -f "$exe".[0-9]*.stderr
			n=0 bad=0
			while [ "$n" -lt "$TSAN_RUNS" ]; do
				n=$((n + 1))
				(cd "$OUT" && TSAN_OPTIONS='halt_on_error=0' exec timeout -k 5 120 \
					"$exe" >"$exe.stdout" 2>"$exe.$n.stderr")
				grep -q 'WARNING: ThreadSanitizer' "$exe.$n.stderr" && bad=$((bad + 1))
			done
			first=$(awk '
				/WARNING: ThreadSanitizer/ { inw = 1; k = 0; next }
				inw && /^ +#0 / {
					k++
					fn = $2; ln = $3; sub(/^.*\//, "", ln)
					s = s (k == 2 ? " vs " : "") fn " " ln
					if (k == 2) { print s; exit }
				}' "$exe".[0-9]*.stderr)
			row="$row $bad/$TSAN_RUNS | ${first:--} |"
		fi
		echo "compare-tsan: tsan $t done" >&2
	fi

	if [ -n "$racy" ]; then
		echo "$row" >>"$racy_table"
	else
		echo "$row" >>"$clean_table"
	fi
done

echo "Racy programs (ucsan: runs of $RUNS that reported the expected pair):"
echo
cat "$racy_table"
echo
echo "Race-free programs (ucsan: $CLEAN_RUNS runs each; TSan: $TSAN_RUNS runs each):"
echo
cat "$clean_table"
