#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# run.sh BUILD_DIR TOP WORKLOAD... -- the measurement half of `make -C bench`.
#
# Runs every workload under thirteen configurations, interleaved (native,
# floor, floor-so, ucsan, ucsan-kcsan, ucsan-nostacks, tsan-gcc, tsan-clang, floor-weak,
# ucsan-weak, floor-clang, floor-clang-so, ucsan-clang, native, ...; see
# bench/Makefile), BENCH_RUNS times each, then prints
# one table of medians, a compiler-for-compiler table (ucsan built by gcc
# against gcc's TSan, by clang against clang's), a weak memory table (the
# --ucsan-weak-memory builds), a scale table (threads64 and
# threads256: one more run each of ucsan and ucsan-kcsan with print_stats=1,
# for the watchpoint table's counters), and the fast-path microbenchmark.
#
# Environment:
#   BENCH_RUNS=N           runs per workload and configuration (default 3)
#   BENCH_WORKLOADS="a b"  subset of the workloads (default: all)
#   BENCH_TIMEOUT=S        seconds before a single run is killed (default 300)
#   BENCH_MICRO_ITERS=N    microbenchmark iterations per access kind (default 50M)
#
# Every run must exit 0, print nothing on stderr and print the same result
# line as the native build; anything else is listed after the tables (a
# ucsan report on these race-free programs is a false positive). Logs of
# every run stay in BUILD_DIR/logs, raw numbers in BUILD_DIR/results.txt
# (workload config run wall-s rss-KiB status cpu-s).
# Exit status: 0, or 1 if any run misbehaved.

set -u

die() {
	printf 'bench: %s\n' "$1" >&2
	exit 2
}

[ $# -ge 3 ] || die "usage: run.sh BUILD_DIR TOP WORKLOAD..."
B=$1
TOP=$2
shift 2
WORKLOADS=${BENCH_WORKLOADS:-$*}
RUNS=${BENCH_RUNS:-3}
TIMEOUT=${BENCH_TIMEOUT:-300}
MICRO_ITERS=${BENCH_MICRO_ITERS:-50000000}
CONFIGS="native floor floor-so ucsan ucsan-kcsan ucsan-nostacks tsan-gcc tsan-clang floor-weak ucsan-weak floor-clang floor-clang-so ucsan-clang"
# clang -flto, where ucsan-entry-lto.o was built.
[ -f "$TOP/build/lib/ucsan-entry-lto.o" ] && CONFIGS="$CONFIGS floor-clang-lto ucsan-clang-lto"

case $RUNS in
'' | *[!0-9]* | 0) die "BENCH_RUNS must be a positive integer" ;;
esac

now() {
	date +%s.%N 2>/dev/null | sed 's/N$/0/'
}
START=$(now)

RUNONE=$B/runone
FLOOR_DIR=$(cd "$B/floor/lib" 2>/dev/null && pwd -P) || die "no $B/floor/lib (run make -C bench build)"
UCSAN_DIR=$(cd "$TOP/build/lib" 2>/dev/null && pwd -P) || die "no $TOP/build/lib (run make)"
[ -x "$RUNONE" ] || die "no $RUNONE (run make -C bench build)"

# The configurations below set exactly the variables they need.
unset UCSAN_OPTIONS TSAN_OPTIONS LD_LIBRARY_PATH LD_PRELOAD

LOGS=$B/logs
DATA=$B/results.txt
PROBLEMS=$B/problems.txt
rm -rf "$LOGS"
mkdir -p "$LOGS"
: >"$DATA"
: >"$PROBLEMS"

# --- What the configurations mean on this tree -------------------------

# KCSAN's kernel defaults (randomization stays on, as by default).
# overhead_budget=0 (fixed sampling) exists only in runtimes with the time
# budget; without it, setting skip_watch alone is the fixed profile.
KCSAN_OPTS="skip_watch=4000:udelay_task=80"
# The fast path alone: checking off, so nothing is ever watched, with the
# default sampling (a fixed skip_watch would count every store out of
# line: only the time floor's threads take the inlined check alone).
NOWATCH_OPTS="enabled=0"
if UCSAN_OPTIONS=overhead_budget=0 "$B/microbench-ucsan" --probe 2>/dev/null; then
	KCSAN_OPTS="overhead_budget=0:$KCSAN_OPTS"
fi
UCSAN_DEFAULTS=$(UCSAN_OPTIONS=help=1 "$B/microbench-ucsan" --probe 2>&1 |
	awk '$1 ~ /^(overhead_budget|skip_watch|skip_watch_randomize|udelay_task|delay_randomize)$/ {
		for (i = 1; i <= NF; i++) if ($i == "default") { v = $(i + 1); sub(/:$/, "", v) }
		s = s (s ? ":" : "") $1 "=" v
	} END { print s }')

for w in $WORKLOADS; do
	[ -x "$B/native/$w" ] && [ -x "$B/ucsan/$w" ] || die "no workload '$w' built in $B (run make -C bench build)"
done

# Each column must load the runtime it is named for: the static floors none,
# the shared floors the stub, ucsan the real one.
first=$(echo $WORKLOADS | awk '{ print $1 }')
lib_of() { ldd "$1" 2>/dev/null | awk '$1 == "libucsan.so" { print $3 }'; }
for c in floor floor-clang floor-weak $(echo "$CONFIGS" | grep -o floor-clang-lto); do
	[ -z "$(lib_of "$B/$c/$first")" ] || die "$c: $B/$c/$first loads a libucsan.so: $(lib_of "$B/$c/$first")"
done
for c in floor-so floor-clang-so; do
	l=$(lib_of "$B/$c/$first")
	[ "$(cd "${l%/*}" 2>/dev/null && pwd -P)/libucsan.so" = "$FLOOR_DIR/libucsan.so" ] ||
		die "$c: $B/$c/$first loads '$l', not the stub in $FLOOR_DIR"
done
for c in ucsan ucsan-clang ucsan-weak $(echo "$CONFIGS" | grep -o ucsan-clang-lto); do
	l=$(lib_of "$B/$c/$first")
	[ "$(cd "${l%/*}" 2>/dev/null && pwd -P)/libucsan.so" = "$UCSAN_DIR/libucsan.so" ] ||
		die "$c: $B/$c/$first loads '$l', not $UCSAN_DIR/libucsan.so"
done

binary_of() { # config workload
	case $1 in
	ucsan-kcsan | ucsan-nostacks) echo "$B/ucsan/$2" ;;
	*) echo "$B/$1/$2" ;;
	esac
}

# run_config CONFIG RESULT_FILE BINARY [ARG...]: runs under runone with the
# configuration's environment; stdout and stderr as the caller redirects.
run_config() {
	c=$1
	res=$2
	shift 2
	case $c in
	ucsan-kcsan) UCSAN_OPTIONS=$KCSAN_OPTS "$RUNONE" "$res" "$TIMEOUT" "$@" ;;
	ucsan-weak) UCSAN_OPTIONS=weak_memory=1 "$RUNONE" "$res" "$TIMEOUT" "$@" ;;
	ucsan-nostacks) UCSAN_OPTIONS=heap_stacks=0 "$RUNONE" "$res" "$TIMEOUT" "$@" ;;
	*) "$RUNONE" "$res" "$TIMEOUT" "$@" ;;
	esac
}

problem() {
	printf '%s\n' "$1" >>"$PROBLEMS"
}

# --- The workloads, interleaved ---------------------------------------

printf 'bench: %s run(s) of: %s\n' "$RUNS" "$WORKLOADS" >&2
run=1
while [ "$run" -le "$RUNS" ]; do
	printf 'bench: run %s/%s:' "$run" "$RUNS" >&2
	for w in $WORKLOADS; do
		printf ' %s' "$w" >&2
		for c in $CONFIGS; do
			bin=$(binary_of "$c" "$w")
			if [ ! -x "$bin" ]; then
				echo "$w $c $run - - n/a" >>"$DATA"
				continue
			fi
			log=$LOGS/$w.$c.$run
			if ! run_config "$c" "$log.res" "$bin" >"$log.out" 2>"$log.err"; then
				echo "$w $c $run - - runone-failed" >>"$DATA"
				problem "$w/$c run $run: could not be run (see $log.err)"
				continue
			fi
			read -r secs rss status cpu <"$log.res"
			echo "$w $c $run $secs $rss $status $cpu" >>"$DATA"
			if [ "$status" != 0 ]; then
				problem "$w/$c run $run: exit status $status (see $log.err)"
			fi
			if [ -s "$log.err" ]; then
				problem "$w/$c run $run: printed on stderr (see $log.err): $(head -n 3 "$log.err" | tr '\n' ' ' | cut -c 1-200)"
			fi
			ref=$LOGS/$w.native.1.out
			if [ "$c" != native ] && [ -s "$ref" ] && ! cmp -s "$ref" "$log.out"; then
				problem "$w/$c run $run: result differs from native: $(head -n 1 "$log.out")"
			fi
		done
	done
	printf '\n' >&2
	run=$((run + 1))
done

# --- Scale: the watchpoint table under many threads ----------------------

# One run each with print_stats=1, apart from the timed runs: their stderr
# must stay empty. Lines "workload config counter value" in $SCALE.
SCALE=$B/scale.txt
: >"$SCALE"
SCALE_WORKLOADS=
for w in $WORKLOADS; do
	case $w in threads64 | threads256) SCALE_WORKLOADS="$SCALE_WORKLOADS $w" ;; esac
done
[ -n "$SCALE_WORKLOADS" ] && printf 'bench: print_stats runs:' >&2
for w in $SCALE_WORKLOADS; do
	for c in ucsan ucsan-kcsan; do
		printf ' %s/%s' "$w" "$c" >&2
		# stderr in .stats, not .err: the stats are no report (see PROBLEMS).
		log=$LOGS/$w.$c.stats
		opts=print_stats=1
		[ "$c" = ucsan-kcsan ] && opts=$KCSAN_OPTS:$opts
		if ! UCSAN_OPTIONS=$opts "$RUNONE" "$log.res" "$TIMEOUT" "$B/ucsan/$w" >"$log.out" 2>"$log"; then
			problem "$w/$c print_stats run: could not be run (see $log)"
			continue
		fi
		read -r secs rss status cpu <"$log.res"
		[ "$status" = 0 ] || problem "$w/$c print_stats run: exit status $status (see $log)"
		if grep -qv '^UCSAN: stats: ' "$log"; then
			problem "$w/$c print_stats run: printed more than its stats (see $log)"
		fi
		ref=$LOGS/$w.native.1.out
		if [ -s "$ref" ] && ! cmp -s "$ref" "$log.out"; then
			problem "$w/$c print_stats run: result differs from native: $(head -n 1 "$log.out")"
		fi
		awk -v w="$w" -v c="$c" '$1 == "UCSAN:" && $2 == "stats:" {
			sub(/:$/, "", $3); print w, c, $3, $4
		}' "$log" >>"$SCALE"
	done
done
[ -n "$SCALE_WORKLOADS" ] && printf '\n' >&2

# --- The microbenchmark -------------------------------------------------

MICRO=$B/micro.txt
: >"$MICRO"
printf 'bench: microbenchmark, %s run(s):' "$RUNS" >&2
run=1
while [ "$run" -le "$RUNS" ]; do
	for m in native floor floor-so nowatch ucsan; do
		case $m in
		native | floor | floor-so) bin=$B/microbench-$m ;;
		*) bin=$B/microbench-ucsan ;;
		esac
		log=$LOGS/micro.$m.$run
		case $m in
		nowatch) UCSAN_OPTIONS=$NOWATCH_OPTS "$bin" "$MICRO_ITERS" >"$log.out" 2>"$log.err" ;;
		*) "$bin" "$MICRO_ITERS" >"$log.out" 2>"$log.err" ;;
		esac
		st=$?
		[ "$st" = 0 ] || problem "microbench/$m run $run: exit status $st (see $log.err)"
		[ -s "$log.err" ] && problem "microbench/$m run $run: printed on stderr (see $log.err)"
		awk -v m="$m" '{ print m, $1, $2 }' "$log.out" >>"$MICRO"
	done
	printf ' %s' "$run" >&2
	run=$((run + 1))
done
printf '\n' >&2

# --- The tables ---------------------------------------------------------

# awk helpers every table uses. median() reads cnt[key] and val[key, i].
TABLE_AWK='
function median(key,   n, i, j, t, a) {
	n = cnt[key]
	if (n == 0) return -1
	for (i = 1; i <= n; i++) a[i] = val[key, i]
	for (i = 2; i <= n; i++) {          # insertion sort, n is small
		t = a[i]
		for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]
		a[j + 1] = t
	}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function secs(x) { return x < 0 ? "n/a" : sprintf(x < 10 ? "%.3f" : "%.2f", x) }
function ratio(a, b) { return (a < 0 || b <= 0) ? "n/a" : sprintf("%.2f", a / b) }
# One Markdown table row; column 1 left-aligned, the others right-aligned.
function row(cells,   i, line) {
	line = "|"
	for (i = 1; i <= ncol; i++)
		line = line sprintf(i == 1 ? " %-" width[i] "s |" : " %" width[i] "s |", cells[i])
	print line
}
function rule(   i, line, dashes) {
	line = "|"
	for (i = 1; i <= ncol; i++) {
		dashes = sprintf("%" (width[i] + 1) "s", ""); gsub(/ /, "-", dashes)
		line = line (i == 1 ? "-" dashes : dashes ":") "|"
	}
	print line
}
# The header row head[1..ncol] and the rule under it; the columns as wide as
# their headings, but column 1 w1 wide and, if w2 is given, column 2 w2 wide.
function header(w1, w2,   i) {
	for (i = 1; i <= ncol; i++) width[i] = length(head[i])
	width[1] = w1
	if (w2) width[2] = w2
	row(head)
	rule()
}
# Geometric means over the workloads (nw of them) of column values.
function gacc(col, x) { if (x > 0) { glog[col] += log(x); gn[col]++ } }
function gmean(col) { return gn[col] == nw ? exp(glog[col] / gn[col]) : -1 }
# T[c] for each configuration c of `list`: workload w'"'"'s median time, or
# for w == "geomean" the geometric mean of the medians.
function times(w, list,   C, nc, j) {
	nc = split(list, C, " ")
	for (j = 1; j <= nc; j++) {
		if (w != "geomean") {
			T[C[j]] = median(w SUBSEP C[j])
			gacc(C[j], T[C[j]])
		} else
			T[C[j]] = gmean(C[j])
	}
}
'
# Medians over runs that finished (a ucsan report, exit 66, still counts).
TIMES_AWK='$6 == "0" || $6 == "66" { k = $1 SUBSEP $2; cnt[k]++; val[k, cnt[k]] = $4 }
'

# times_table COLUMN...: one row per workload and a geometric mean row; a
# column is a configuration (its median seconds) or A/B (the ratio of two
# configurations' medians).
times_table() {
	awk -v workloads="$WORKLOADS" -v columns="$*" "$TABLE_AWK$TIMES_AWK"'
	END {
		nw = split(workloads, W, " ")
		nc = split(columns, COL, " ")
		head[1] = "workload"
		configs = ""
		for (j = 1; j <= nc; j++) {
			np = split(COL[j], pair, "/")
			head[j + 1] = np == 2 ? COL[j] : COL[j] " s"
			for (k = 1; k <= np; k++)
				if (!(pair[k] in listed)) { listed[pair[k]] = 1; configs = configs " " pair[k] }
		}
		ncol = nc + 1
		header(10)
		for (i = 1; i <= nw + 1; i++) {
			w = i <= nw ? W[i] : "geomean"
			times(w, configs)
			cell[1] = w
			for (j = 1; j <= nc; j++)
				cell[j + 1] = split(COL[j], pair, "/") == 2 ? ratio(T[pair[1]], T[pair[2]]) : secs(T[COL[j]])
			row(cell)
		}
	}' "$DATA"
}

echo
echo "ucsan benchmark: absolute times vary with the machine and its load; the ratios are the point."
echo "$(uname -m), $(nproc 2>/dev/null || echo '?') CPUs; median of $RUNS run(s), interleaved; wall seconds; RSS = peak resident set (MiB)."
echo

awk -v runs="$RUNS" -v workloads="$WORKLOADS" "$TABLE_AWK"'
function mib(x) { if (x < 0) return "n/a"; x /= 1024; return sprintf(x < 100 ? "%.1f" : "%.0f", x) }
# Medians over runs that finished (a ucsan report, exit 66, still counts).
$6 == "0" || $6 == "66" {
	k = $1 SUBSEP $2
	cnt[k]++; val[k, cnt[k]] = $4
	kr = $1 SUBSEP $2 SUBSEP "rss"
	cnt[kr]++; val[kr, cnt[kr]] = $5
}
END {
	nw = split(workloads, W, " ")
	nc = split("native floor floor-so ucsan ucsan-kcsan tsan-gcc tsan-clang", C, " ")
	ncol = split("workload|native s|floor s|floor-so s|ucsan s|ucsan-kcsan s|tsan-gcc s|tsan-clang s|" \
		"ucsan/floor|ucsan/floor-so|ucsan/native|ucsan/tsan-gcc|ucsan/tsan-clang|" \
		"RSS MiB native/ucsan/tsan-gcc/tsan-clang", head, "|")
	header(10)
	for (i = 1; i <= nw + 1; i++) {
		w = i <= nw ? W[i] : "geomean"
		for (j = 1; j <= nc; j++) {
			if (i <= nw) {
				t[C[j]] = median(w SUBSEP C[j])
				r[C[j]] = median(w SUBSEP C[j] SUBSEP "rss")
				gacc("t" C[j], t[C[j]]); gacc("r" C[j], r[C[j]])
			} else {
				t[C[j]] = gmean("t" C[j]); r[C[j]] = gmean("r" C[j])
			}
		}
		cell[1] = w
		for (j = 1; j <= nc; j++) cell[j + 1] = secs(t[C[j]])
		cell[9] = ratio(t["ucsan"], t["floor"])
		cell[10] = ratio(t["ucsan"], t["floor-so"])
		cell[11] = ratio(t["ucsan"], t["native"])
		cell[12] = ratio(t["ucsan"], t["tsan-gcc"])
		cell[13] = ratio(t["ucsan"], t["tsan-clang"])
		cell[14] = mib(r["native"]) " / " mib(r["ucsan"]) " / " mib(r["tsan-gcc"]) " / " mib(r["tsan-clang"])
		row(cell)
	}
}' "$DATA"

echo
echo "native: cc -O2.  floor: the objects ucsan-cc compiled (compiler: ${UCSAN_CC:-cc}) linked statically with an"
echo "  empty runtime (bench/floor_runtime.c): direct calls, the instrumentation's own cost.  floor-so: the same"
echo "  objects on the empty runtime as a shared library (calls through the GOT)."
echo "ucsan: the same objects linked by ucsan-cc (ucsan-entry.o + build/lib/libucsan.so), default options"
echo "  ($UCSAN_DEFAULTS)."
echo "ucsan-kcsan: the same, UCSAN_OPTIONS=$KCSAN_OPTS (KCSAN's kernel defaults; fixed sampling counts every store, out of line)."
echo "tsan-gcc / tsan-clang: gcc / clang -O2 -fsanitize=thread with their own runtimes, default TSAN_OPTIONS."
for c in tsan-gcc tsan-clang; do
	if grep -q " $c .* n/a\$" "$DATA"; then
		echo "$c: not built for every workload (the compiler or its TSan runtime failed; see $B/$c/*.log)."
	fi
done

echo
echo "Compiler for compiler: ucsan-cc with gcc (the columns above) against gcc's TSan, with clang against clang's."
echo
times_table floor ucsan tsan-gcc ucsan/floor ucsan/tsan-gcc floor/tsan-gcc \
	floor-clang floor-clang-so ucsan-clang tsan-clang ucsan-clang/floor-clang ucsan-clang/floor-clang-so \
	ucsan-clang/tsan-clang floor-clang/tsan-clang
echo
echo "floor-clang / floor-clang-so / ucsan-clang: as floor / floor-so / ucsan, the workloads compiled by UCSAN_CC=clang ucsan-cc."
echo "floor/tsan-gcc, floor-clang/tsan-clang: the ucsan/tsan a runtime that checks nothing would reach (no ucsan/tsan below it)."

case $CONFIGS in
*ucsan-clang-lto*)
	echo
	echo "clang -flto: the workloads compiled and linked by UCSAN_CC=clang ucsan-cc -O2 -flto."
	echo
	times_table floor-clang ucsan-clang floor-clang-lto ucsan-clang-lto tsan-clang \
		ucsan-clang-lto/ucsan-clang ucsan-clang-lto/floor-clang ucsan-clang-lto/floor-clang-lto ucsan-clang-lto/tsan-clang
	echo
	echo "floor-clang-lto: the empty runtime as bitcode, inlined away (the instrumented code with no calls at all)."
	echo "ucsan-clang-lto: ucsan-entry-lto.o, the entry points as bitcode: the check inlined at each access."
	;;
esac

echo
echo "Weak memory: the workloads built with ucsan-cc --ucsan-weak-memory (function entry/exit hooks)."
echo
times_table floor ucsan floor-weak ucsan-weak floor-weak/floor ucsan-weak/floor-weak ucsan-weak/ucsan
echo
echo "floor-weak: the --ucsan-weak-memory objects on the static empty runtime (the hooks alone cost floor-weak/floor)."
echo "ucsan-weak: that binary on build/lib/libucsan.so with UCSAN_OPTIONS=weak_memory=1, otherwise default options."

echo
echo "Heap blocks: every malloc/free goes through ucsan's allocation functions, which record the block"
echo "(size, thread) and, with heap_stacks=1 (default), a 6-frame allocation stack (hashmap and threads64/256"
echo "allocate; the others hardly do)."
echo
times_table floor ucsan-nostacks ucsan ucsan/ucsan-nostacks ucsan-nostacks/floor
echo
echo "ucsan-nostacks: the ucsan binary with UCSAN_OPTIONS=heap_stacks=0 (blocks recorded, no stacks);"
echo "  ucsan/ucsan-nostacks is what the allocation stacks cost."

if [ -s "$SCALE" ]; then
	echo
	slots=$(UCSAN_OPTIONS=help=1 "$B/microbench-ucsan" --probe 2>&1 | awk '$1 == "num_watchpoints" {
		for (i = 1; i <= NF; i++) if ($i == "default") { v = $(i + 1); sub(/:$/, "", v) }
	} END { print v }')
	echo "Scale: many threads on $(nproc 2>/dev/null || echo '?') CPUs, a watchpoint table of num_watchpoints=${slots:-?} slots."
	echo
	awk -v scale="$SCALE" "$TABLE_AWK"'
	# Timed runs: medians as in the main table.
	FILENAME != scale && ($6 == "0" || $6 == "66") { k = $1 SUBSEP $2; cnt[k]++; val[k, cnt[k]] = $4; next }
	FILENAME == scale {
		if (!(($1, $2) in seen)) { seen[$1, $2] = 1; order[++n] = $1 SUBSEP $2 }
		stat[$1, $2, $3] = $4
	}
	function st(k, name) { return ((k, name) in stat) ? stat[k, name] : "n/a" }
	END {
		ncol = split("workload|config|wall s|/floor|watched (setup_watchpoints)|no_capacity|" \
			"no_capacity/wanted|data_races|unknown_origin", head, "|")
		header(10, 11)
		for (i = 1; i <= n; i++) {
			split(order[i], wc, SUBSEP)
			set = st(order[i], "setup_watchpoints"); full = st(order[i], "no_capacity")
			t = median(order[i])
			cell[1] = wc[1]; cell[2] = wc[2]
			cell[3] = secs(t); cell[4] = ratio(t, median(wc[1] SUBSEP "floor"))
			cell[5] = set; cell[6] = full
			cell[7] = (set + full > 0) ? sprintf("%.1f%%", 100 * full / (set + full)) : "n/a"
			cell[8] = st(order[i], "data_races"); cell[9] = st(order[i], "races_unknown_origin")
			row(cell)
		}
	}' "$DATA" "$SCALE"
	echo
	echo "wall s, /floor: the median from the main table and its ratio to the floor.  The counters come from"
	echo "one more run with print_stats=1: watched = accesses that set a watchpoint (setup_watchpoints);"
	echo "no_capacity = accesses sampled for a watch whose window of 3 slots was full, left unwatched;"
	echo "no_capacity/wanted = no_capacity / (watched + no_capacity).  data_races and unknown_origin"
	echo "(races_unknown_origin) must stay 0 on these race-free programs."
fi

echo
echo "Fast path: ns per instrumented access, one thread timed (a second one blocked), $MICRO_ITERS iterations, best of $RUNS run(s) (bench/microbench.c)."
echo
awk "$TABLE_AWK"'
{
	k = $1 SUBSEP $2
	if (!(k in ns) || $3 < ns[k]) ns[k] = $3
	if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 }
}
function f(m, k) { return ((m, k) in ns) ? sprintf("%.2f", ns[m, k]) : "n/a" }
function d(m, k) { return ((m, k) in ns && ("floor", k) in ns) ? sprintf("%+.2f", ns[m, k] - ns["floor", k]) : "n/a" }
END {
	label["read"] = "plain read (8 B)"
	label["write"] = "plain write (8 B, aligned)"
	label["marked"] = "marked (atomic load, 8 B)"
	label["range"] = "range (64 B struct copy)"
	label["read-alone"] = "plain read, process alone"
	ncol = split("access|native ns|floor ns|floor-so ns|ucsan ns, no watches|ucsan ns, default|" \
		"no watches - floor|default - floor", head, "|")
	header(26)
	for (i = 1; i <= n; i++) {
		k = order[i]
		cell[1] = (k in label) ? label[k] : k
		cell[2] = f("native", k); cell[3] = f("floor", k); cell[4] = f("floor-so", k)
		cell[5] = f("nowatch", k); cell[6] = f("ucsan", k)
		cell[7] = d("nowatch", k); cell[8] = d("ucsan", k)
		row(cell)
	}
}' "$MICRO"
echo
echo "native: the loop without instrumentation.  floor / floor-so: the instrumented object on the empty runtime,"
echo "linked statically / as a shared library.  ucsan: the same object linked by ucsan-cc."
echo "no watches: UCSAN_OPTIONS=$NOWATCH_OPTS, the per-access check alone."
echo "default: ucsan's default options, watches included.  range: a struct copy, for which gcc emits"
echo "__tsan_read_range and __tsan_write_range (clang: a call to memcpy, which ucsan intercepts)."
echo "A second thread, blocked, exists for every row but the last: timed before it is made, that row is"
echo "what a process with one thread pays (ucsan lets it off the check)."

END=$(now)
echo
if [ -s "$PROBLEMS" ]; then
	echo "PROBLEMS ($(wc -l <"$PROBLEMS") runs misbehaved; a ucsan report here is a false positive):"
	sed 's/^/  /' "$PROBLEMS"
	first_report=$(grep -l 'UCSAN' "$LOGS"/*.err 2>/dev/null | head -n 1)
	if [ -n "$first_report" ]; then
		echo "First ucsan report ($first_report):"
		head -n 40 "$first_report" | sed 's/^/  /'
	fi
	status=1
else
	echo "All runs exited 0, printed nothing on stderr and agreed with the native result: no reports."
	status=0
fi
awk -v a="$START" -v b="$END" -v s="${BENCH_START:-}" 'BEGIN {
	printf "bench: measured in %.0f s", b - a
	if (s != "") printf " (%.0f s with the build)", b - s
	printf "\n"
}'
exit $status
