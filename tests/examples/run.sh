#!/bin/sh
# The examples suite: examples/tcp_poll, examples/fastopen_rsk and
# examples/taskstats, models of the races in the seed patches, each built
# twice from its one source, under gcc and under clang:
#
#   examples/<cc>/<name>        the buggy build (as before the patches) is
#                               reported, with the default options
#   examples/<cc>/<name>-fixed  the -DFIXED build (the patches applied) runs
#                               3 s with every access watched (skip_watch=0)
#                               and reports nothing
#
# The buggy builds run until what is expected was seen, within a bound:
#
#   tcp_poll      up to 15 runs of 2 s; across them, all eight fields of
#                 patches 2-9 reported, and the rcv_nxt report's inline frames
#                 (tcp_rcv_nxt_update under tcp_queue_rcv, tcp_stream_is_readable
#                 under tcp_poll), as in syzbot's report
#   fastopen_rsk  up to 15 runs of 3 s; "data-race in reqsk_fastopen_remove /
#                 tcp_v4_err" on tp->fastopen_rsk
#   taskstats     up to 20 runs of 2 s; "data-race in taskstats_tgid_alloc /
#                 taskstats_tgid_alloc"
#
# and taskstats' WRITE_ONCE variant (-DWRITE_ONCE_PUBLISH, --ucsan-weak-memory):
# silent by default with every access watched, and reported "(reordered)"
# under weak_memory=1 within up to 12 runs of 5 s (test_write_once below).
#
# and every report they print must be one of those races (a report of anything
# else fails the test). On an idle machine the first run or two suffice; the
# bounds leave room for a busy one (detection slows down with the machine's
# load: see the times in examples/*/README.md).
#
# Usage: tests/examples/run.sh [NAME...]     (NAME: tcp_poll, fastopen_rsk, taskstats)
# Environment:
#   EX_COMPILERS  compilers to use (default "gcc clang")
#   EX_BIN        directory of ucsan-cc (default build/bin)
#   EX_VERBOSE=1  after a PASS, say how many runs and seconds it took
# Output: PASS/FAIL lines (tests/PROTOCOL.md); artifacts, including every
# run's stdout and stderr, in build/tests/examples/<cc>/. Portable sh.

set -u

ROOT=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
BIN=${EX_BIN:-$ROOT/build/bin}
OUTROOT=$ROOT/build/tests/examples
COMPILERS=${EX_COMPILERS:-gcc clang}
NAMES=${*:-tcp_poll fastopen_rsk taskstats}
# The fixed builds' options: every plain access watched, short stalls so that
# 3 s hold many watches, and the counters, to show how many there were.
FIXED_OPTIONS=skip_watch=0:udelay_task=10:print_stats=1
FIXED_SECONDS=3
FIXED_MIN_WATCHES=10000

# Per example: runs, seconds per run, the ERE every report title matches, the
# program's last line of output, and whether it prints its fields' addresses.
bounds() {
	case $1 in
	tcp_poll)
		tries=15 secs=2 summary='^segments [0-9]+' check_fields=yes
		titles='^BUG: UCSAN: data-race in ([a-z_0-9]+ / )?(tcp_poll|tcp_stream_memory_free)( / [a-z_0-9]+)?$' ;;
	fastopen_rsk)
		tries=15 secs=3 summary='^connections [0-9]+' check_fields=yes
		titles='^BUG: UCSAN: data-race in (reqsk_fastopen_remove / )?tcp_v4_err$' ;;
	taskstats)
		tries=20 secs=2 summary='^thread groups [0-9]+' check_fields=no
		titles='^BUG: UCSAN: data-race in taskstats_tgid_alloc( / taskstats_tgid_alloc)?$' ;;
	*)
		echo "run.sh: no example named '$1'" >&2
		exit 2 ;;
	esac
}

# Print the last 30 lines of file $1, indented.
tail_indented() {
	if [ -s "$1" ]; then
		echo "  --- last 30 lines of $(basename "$1"):"
		tail -n 30 "$1" | sed 's/^/    /'
	else
		echo "  --- $(basename "$1") is empty"
	fi
}

# fields STDOUT STDERR: the names of the fields (from the program's
# "fields: name=0xaddr ..." line) that an access line of a report names.
# Addresses that are no such field are printed as "other:0xaddr".
fields() {
	awk 'FNR == NR {
		if ($1 == "fields:")
			for (i = 2; i <= NF; i++) {
				split($i, kv, "=")
				name[kv[2]] = kv[1]
			}
		next
	}
	/^(race at unknown origin, with )?(read|write|read-write)( \(marked\))? to 0x[0-9a-f]+ of / {
		for (i = 1; i < NF; i++)
			if ($i == "to") {
				a = $(i + 1)
				print (a in name) ? name[a] : "other:" a
			}
	}' "$1" "$2" | sort -u
}

# inline_frames FILE: some report in FILE (a block between "=====" lines)
# shows, as syzbot's did, the write in tcp_rcv_nxt_update() inlined into
# tcp_queue_rcv() and the read in tcp_stream_is_readable() inlined into
# tcp_poll(): each "[inline]" line directly followed by its caller's frame.
inline_frames() {
	awk '/^=+$/ { if (w && r) found = 1; w = r = 0 }
	prev ~ /^ tcp_rcv_nxt_update .*\[inline\]$/ && /^ tcp_queue_rcv\+0x/ { w = 1 }
	prev ~ /^ tcp_stream_is_readable .*\[inline\]$/ && /^ tcp_poll\+0x/ { r = 1 }
	{ prev = $0 }
	END { exit !(found || (w && r)) }' "$1"
}

# build NAME CC EXE [CFLAGS...]
build() {
	name=$1 cc=$2 exe=$3
	shift 3
	echo "+ UCSAN_CC=$cc $BIN/ucsan-cc -O2 -Wall -Wextra -Werror $* -pthread -o $exe examples/$name/$name.c" >>"$log"
	(cd "$ROOT" && UCSAN_CC=$cc "$BIN/ucsan-cc" -O2 -Wall -Wextra -Werror "$@" -pthread -o "$exe" \
		"examples/$name/$name.c") >>"$log" 2>&1
}

# run EXE OPTIONS SECONDS PREFIX: one run, from the repository root (so that
# report paths read examples/...), without the caller's UCSAN_OPTIONS. Sets
# $rc; output in PREFIX.stdout and PREFIX.stderr.
run() {
	(cd "$ROOT" && UCSAN_OPTIONS=$2 exec timeout -k 5 $(($3 + 60)) "$1" "$3" \
		>"$4.stdout" 2>"$4.stderr")
	rc=$?
}

# test_buggy NAME CC: the buggy build is reported within the bound.
test_buggy() {
	name=$1 cc=$2 id=examples/$cc/$name
	out=$OUTROOT/$cc exe=$OUTROOT/$cc/$name log=$OUTROOT/$cc/$name.build.log
	bounds "$name"
	mkdir -p "$out"
	rm -f "$exe" "$out/$name".run*
	: >"$log"
	if ! build "$name" "$cc" "$exe"; then
		echo "FAIL: $id"
		echo "  build failed:"
		tail_indented "$log"
		return 1
	fi

	start=$(date +%s) n=0 seen='' frames='' done='' why=''
	while [ "$n" -lt "$tries" ] && [ -z "$done" ]; do
		n=$((n + 1))
		p=$out/$name.run$n
		run "$exe" '' "$secs" "$p"
		err=$p.stderr
		bugs=$(grep -c '^BUG: UCSAN: ' "$err")
		# Whatever happens, a run must end normally: 66 with reports, 0 without.
		want=0
		[ "$bugs" -gt 0 ] && want=66
		if [ "$rc" != "$want" ]; then
			why="run $n: exit status $rc with $bugs report(s) (expected $want)"
			break
		fi
		if ! tail -n 1 "$p.stdout" | grep -Eq "$summary"; then
			why="run $n: the program did not finish normally (no summary line on stdout)"
			break
		fi
		if line=$(grep '^BUG: UCSAN: ' "$err" | grep -Ev -m1 "$titles"); then
			why="run $n: an unexpected report: $line"
			break
		fi
		if line=$(grep '^UCSAN: ' "$err" | grep -Ev -m1 '^UCSAN: reported [0-9]+ data races$'); then
			why="run $n: an unexpected runtime message: $line"
			break
		fi
		f=$(fields "$p.stdout" "$err")
		if [ "$check_fields" = yes ] && line=$(echo "$f" | grep -m1 '^other:'); then
			why="run $n: a report on an address that is none of the fields: ${line#other:}"
			break
		fi
		seen=$(printf '%s\n%s\n' "$seen" "$f" | grep -v '^$' | sort -u)
		case $name in
		tcp_poll)
			inline_frames "$err" && frames=yes
			[ "$(echo "$seen" | grep -c .)" = 8 ] && [ -n "$frames" ] && done=yes ;;
		fastopen_rsk)
			grep -q '^BUG: UCSAN: data-race in reqsk_fastopen_remove / tcp_v4_err$' "$err" &&
				[ "$seen" = fastopen_rsk ] && done=yes ;;
		taskstats)
			grep -q '^BUG: UCSAN: data-race in taskstats_tgid_alloc / taskstats_tgid_alloc$' "$err" &&
				done=yes ;;
		esac
	done
	secs_taken=$(($(date +%s) - start))
	if [ -n "$done" ]; then
		echo "PASS: $id"
		[ -n "${EX_VERBOSE:-}" ] && echo "  (run $n of $tries, ${secs_taken}s)"
		return 0
	fi
	echo "FAIL: $id"
	if [ -n "$why" ]; then
		echo "  $why"
	else
		echo "  not reported as expected in $n runs of ${secs}s (default options)"
		case $name in
		tcp_poll)
			echo "  fields reported: $(echo "$seen" | tr '\n' ' ')"
			[ -z "$frames" ] && echo "  no rcv_nxt report with both inline frames" ;;
		esac
	fi
	echo "  to reproduce: build/tests/examples/$cc/$name $secs"
	tail_indented "$out/$name.run$n.stderr"
	return 1
}

# test_fixed NAME CC: the fixed build stays silent with every access watched.
test_fixed() {
	name=$1 cc=$2 id=examples/$cc/$name-fixed
	out=$OUTROOT/$cc exe=$OUTROOT/$cc/$name-fixed log=$OUTROOT/$cc/$name-fixed.build.log
	mkdir -p "$out"
	rm -f "$exe" "$exe.stdout" "$exe.stderr"
	: >"$log"
	if ! build "$name" "$cc" "$exe" -DFIXED; then
		echo "FAIL: $id"
		echo "  build failed:"
		tail_indented "$log"
		return 1
	fi
	run "$exe" "$FIXED_OPTIONS" "$FIXED_SECONDS" "$exe"
	watches=$(sed -n 's/^UCSAN: stats: setup_watchpoints: //p' "$exe.stderr")
	fails=''
	bounds "$name"
	tail -n 1 "$exe.stdout" | grep -Eq "$summary" ||
		fails="${fails}the program did not finish normally (no summary line on stdout)
"
	[ "$rc" = 0 ] || fails="${fails}exit status: expected 0, got $rc
"
	grep -q '^BUG: UCSAN: ' "$exe.stderr" &&
		fails="${fails}reported: $(grep -m1 '^BUG: UCSAN: ' "$exe.stderr")
"
	if line=$(grep '^UCSAN: ' "$exe.stderr" | grep -v -m1 '^UCSAN: stats: '); then
		fails="${fails}runtime message: $line
"
	fi
	[ "${watches:-0}" -ge "$FIXED_MIN_WATCHES" ] ||
		fails="${fails}only ${watches:-no} watchpoints set (expected at least $FIXED_MIN_WATCHES)
"
	if [ -z "$fails" ]; then
		echo "PASS: $id"
		[ -n "${EX_VERBOSE:-}" ] && echo "  ($watches watchpoints in ${FIXED_SECONDS}s)"
		return 0
	fi
	echo "FAIL: $id"
	printf '%s' "$fails" | sed 's/^/  /'
	echo "  to reproduce: UCSAN_OPTIONS=$FIXED_OPTIONS build/tests/examples/$cc/$name-fixed $FIXED_SECONDS"
	tail_indented "$exe.stderr"
	return 1
}

# The taskstats variant that publishes with WRITE_ONCE() (-DWRITE_ONCE_PUBLISH,
# built with --ucsan-weak-memory): every access to sig->stats is marked, so
# the default mode stays silent with every access watched; weak_memory=1
# reports the zeroing of the statistics reordered past their publication.
# A missing barrier is found only when the sampler lands on the zeroing
# store and a late reader comes by while it is in flight: sample densely
# with short stalls (see examples/taskstats/README.md), 4 threads a group.
WO_OPTIONS=weak_memory=1:skip_watch=10:udelay_task=10
WO_ARGS=4
WO_TRIES=12
WO_SECS=5
WO_TITLE='^BUG: UCSAN: data-race in (taskstats_exit / taskstats_tgid_alloc|taskstats_tgid_alloc / taskstats_exit)$'

# test_write_once CC
test_write_once() {
	cc=$1 name=taskstats id=examples/$cc/taskstats-write-once
	out=$OUTROOT/$cc exe=$OUTROOT/$cc/taskstats-write-once log=$OUTROOT/$cc/taskstats-write-once.build.log
	bounds taskstats
	mkdir -p "$out"
	rm -f "$exe" "$exe".run*
	: >"$log"
	if ! build taskstats "$cc" "$exe" --ucsan-weak-memory -DWRITE_ONCE_PUBLISH; then
		echo "FAIL: $id"
		echo "  build failed:"
		tail_indented "$log"
		return 1
	fi
	# Default mode: marked accesses only, nothing to report.
	run "$exe" "$FIXED_OPTIONS" "$FIXED_SECONDS" "$exe.run0"
	if [ "$rc" != 0 ] || grep -q '^BUG: UCSAN: ' "$exe.run0.stderr"; then
		echo "FAIL: $id"
		echo "  weak_memory=0 ($FIXED_OPTIONS): exit status $rc, expected 0 and no report"
		tail_indented "$exe.run0.stderr"
		return 1
	fi
	n=0 done='' why=''
	while [ "$n" -lt "$WO_TRIES" ] && [ -z "$done" ]; do
		n=$((n + 1))
		p=$exe.run$n
		(cd "$ROOT" && UCSAN_OPTIONS=$WO_OPTIONS exec timeout -k 5 $((WO_SECS + 60)) "$exe" "$WO_SECS" \
			$WO_ARGS >"$p.stdout" 2>"$p.stderr")
		rc=$?
		err=$p.stderr
		bugs=$(grep -c '^BUG: UCSAN: ' "$err")
		want=0
		[ "$bugs" -gt 0 ] && want=66
		if [ "$rc" != "$want" ]; then
			why="run $n: exit status $rc with $bugs report(s) (expected $want)"
			break
		fi
		if line=$(grep '^BUG: UCSAN: ' "$err" | grep -Ev -m1 "$WO_TITLE"); then
			why="run $n: an unexpected report: $line"
			break
		fi
		# The whole report: the reordered zeroing, the unlocked read, and
		# where the zeroing was carried to (the unlock that retired it).
		awk '/^=+$/ { if (t && w && r && to) found = 1; t = w = r = to = 0; next }
		/^BUG: UCSAN: data-race in / { t = 1 }
		/^write \(reordered\) to 0x[0-9a-f]+ of [0-9]+ bytes by thread / { getline; if ($1 ~ /^taskstats_tgid_alloc\+0x/ || ($1 == "kmem_cache_zalloc" && $NF == "[inline]")) w = 1 }
		/^read to 0x[0-9a-f]+ of 2 bytes by thread / { getline; if ($1 ~ /^taskstats_exit\+0x/) r = 1 }
		/^  \+-> reordered to: taskstats_tgid_alloc\+0x/ { to = 1 }
		END { exit !found }' "$err" && done=yes
	done
	if [ -n "$done" ]; then
		echo "PASS: $id"
		[ -n "${EX_VERBOSE:-}" ] && echo "  (run $n of $WO_TRIES)"
		return 0
	fi
	echo "FAIL: $id"
	if [ -n "$why" ]; then
		echo "  $why"
	else
		echo "  not reported as expected in $n runs of ${WO_SECS}s ($WO_OPTIONS)"
	fi
	echo "  to reproduce: UCSAN_OPTIONS=$WO_OPTIONS build/tests/examples/$cc/taskstats-write-once $WO_SECS $WO_ARGS"
	tail_indented "$exe.run$n.stderr"
	return 1
}

pass=0 fail=0 t0=$(date +%s)
for name in $NAMES; do
	bounds "$name"
done
for cc in $COMPILERS; do
	if ! command -v "$cc" >/dev/null 2>&1; then
		for name in $NAMES; do
			for t in "$name" "$name-fixed"; do
				echo "FAIL: examples/$cc/$t"
				echo "  compiler '$cc' is not installed"
				fail=$((fail + 1))
			done
		done
		continue
	fi
	for name in $NAMES; do
		if test_buggy "$name" "$cc"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
		if test_fixed "$name" "$cc"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
		if [ "$name" = taskstats ]; then
			if test_write_once "$cc"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
		fi
	done
done
echo "examples: $pass passed, $fail failed in $(($(date +%s) - t0))s" >&2
[ "$fail" -eq 0 ]
