#!/bin/sh
# Soak: tests/stress/soak.c (many threads; plain, marked and range accesses;
# a mutex, an inline-asm spinlock, forks, signals; three planted races)
# built with ucsan-cc under gcc and clang, each run for SECONDS under
# skip_watch=0. For each compiler:
#   stress/<cc>/soak-exit        ends by itself with status 66 (no hang,
#                                no crash) and says its invariants hold
#   stress/<cc>/soak-planted     each of the three planted races is reported
#   stress/<cc>/soak-no-foreign  no report names anything but a planted pair
#   stress/<cc>/soak-output      every stderr line is a report line, in
#                                report order; the summary counts them all
#
# Usage: tests/stress/run.sh [SECONDS]     (PROTOCOL.md output)
# Environment: SOAK_SECONDS (default 10; `make soak` style runs use 300),
# SOAK_THREADS (workers, default 16), SOAK_COMPILERS (default "gcc clang"),
# SOAK_OPTIONS (extra UCSAN_OPTIONS).
SUITE=stress
. "$(dirname "$0")/../lib/suite.sh"
cd "$ROOT" || exit 2
secs=${1:-${SOAK_SECONDS:-10}}
threads=${SOAK_THREADS:-16}
out=build/tests/stress
mkdir -p "$out"
opts="skip_watch=0:udelay_task=5:udelay_interrupt=2${SOAK_OPTIONS:+:$SOAK_OPTIONS}"

case $secs in
'' | *[!0-9]*) echo "usage: $0 [SECONDS]" >&2; exit 2 ;;
esac

# The planted pairs (titles are sorted), the planted writers racing with
# themselves on other threads (plain writes are watched by default), and,
# for races at unknown origin, the planted functions alone.
planted='planted_a_reader / planted_a_writer
planted_b_copy_in / planted_b_copy_out
planted_c_reader / planted_c_signal'
allowed_re='^BUG: UCSAN: data-race in (planted_a_reader / planted_a_writer|planted_b_copy_in / planted_b_copy_out|planted_c_reader / planted_c_signal|planted_a_writer / planted_a_writer|planted_b_copy_in / planted_b_copy_in|planted_c_signal / planted_c_signal|planted_a_reader|planted_a_writer|planted_b_copy_in|planted_b_copy_out|planted_c_reader|planted_c_signal)$'

# check_lines FILE: prints what is wrong with the report stream, if anything.
check_lines() {
	awk '
	function bad(why) {
		if (nbad++ < 5)
			printf "line %d: %s: %s\n", NR, why, substr($0, 1, 160)
	}
	{
		if ($0 ~ /^=+$/ && length($0) == 66) {
			if (state == 0) state = 1
			else if (state == 4) state = 0
			else bad("rule line in the middle of a report")
		} else if ($0 ~ /^BUG: UCSAN: (data-race|assert: race) in [^ ].*[^ ]$/) {
			if (state != 1) bad("title not right after the opening rule")
			state = 2; reports++
		} else if ($0 ~ /^Reported by User-space Concurrency Sanitizer on:$/) {
			if (state != 2) bad("footer outside a report")
			state = 3
		} else if ($0 ~ /^CPU: [0-9]+ PID: [0-9]+ Comm: /) {
			if (state != 3) bad("CPU line not right after the footer")
			state = 4
		} else if ($0 ~ /^UCSAN: reported [0-9]+ data races?$/) {
			if (state != 0) bad("summary inside a report")
			summaries++; summary = $3
		} else if ($0 ~ /^soak: /) {
			if (state != 0) bad("program line inside a report")
		} else if ($0 == "" ||
			   $0 ~ /^(race at unknown origin, with )?(read|write|read-write|assert no writes|assert no accesses)( \([a-z, ]+\))? to 0x[0-9a-f]+ of [0-9]+ bytes by (signal handler in )?thread [0-9]+( \(OpenMP thread [0-9]+\))? on cpu [0-9]+:$/ ||
			   $0 ~ /^ [^ ].*\+0x[0-9a-f]+\/0x[0-9a-f]+( [^ ]+:[0-9]+)?$/ ||
			   $0 ~ /^ [^ ].*( [^ ]+:[0-9]+)? \[inline\]$/ ||
			   $0 ~ /^ 0x[0-9a-f]+( \([^ ]+\+0x[0-9a-f]+\))?$/ ||
			   $0 ~ /^value changed: 0x[0-9a-f]+ -> 0x[0-9a-f]+$/ ||
			   $0 ~ /^ bits changed: 0x[0-9a-f]+ with mask 0x[0-9a-f]+$/ ||
			   $0 ~ /^location: [^ ]/ ||
			   $0 ~ /^thread [0-9]+ ".*" \((running|finished)\)( created by thread [0-9]+ at:| is the main thread)$/ ||
			   $0 ~ /^thread [0-9]+ \(not started through pthread_create\)$/ ||
			   $0 ~ /^  \|$/ || $0 ~ /^  \+-> reordered to: ./) {
			if (state != 2) bad("report body line outside a report body")
		} else {
			bad("unknown line shape")
		}
	}
	END {
		if (state != 0) bad("the output ends inside a report")
		if (summaries != 1) printf "%d summary lines, expected 1\n", summaries
		else if (summary != reports)
			printf "the summary says %d reports, %d were printed\n", summary, reports
	}' "$1"
}

for cc in ${SOAK_COMPILERS:-gcc clang}; do
	exe=$out/soak-$cc
	if ! ucsan_build "$exe.log" "$cc" build/bin/ucsan-cc -O2 -g -Wall -Wextra -Werror tests/stress/soak.c \
		-o "$exe" -pthread; then
		fail_log "$cc/soak-build" "ucsan-cc failed" "$exe.log"
		continue
	fi
	start=$(date +%s)
	UCSAN_OPTIONS=$opts timeout -k 10 $((secs + 90)) "$exe" "$secs" "$threads" \
		>"$exe.stdout" 2>"$exe.stderr"
	rc=$?
	took=$(($(date +%s) - start))
	stats=$(grep '^soak: [0-9]* workers' "$exe.stdout")
	run="UCSAN_OPTIONS=$opts $exe $secs $threads"

	if [ $rc -eq 66 ] && grep -q '^soak: invariants hold$' "$exe.stdout"; then
		pass "$cc/soak-exit" "${took}s; ${stats#soak: }"
	else
		why="exit status $rc, expected 66"
		[ $rc -eq 124 ] || [ $rc -eq 137 ] && why="$why (timed out: a hang)"
		[ $rc -gt 128 ] && [ $rc -ne 137 ] && why="$why (killed by signal $((rc - 128)))"
		fail "$cc/soak-exit" "$why; $run" "$(cat "$exe.stdout")" "$(tail -n 5 "$exe.stderr")"
	fi

	missing=''
	while IFS= read -r pair; do
		grep -qxF "BUG: UCSAN: data-race in $pair" "$exe.stderr" || missing="$missing [$pair]"
	done <<EOF
$planted
EOF
	if [ -z "$missing" ]; then
		pass "$cc/soak-planted" "$(grep -c '^BUG: UCSAN: ' "$exe.stderr") reports"
	else
		fail "$cc/soak-planted" "not reported:$missing" \
			"reported: $(grep '^BUG: UCSAN: ' "$exe.stderr" | sort | uniq -c | tr '\n' ';')"
	fi

	foreign=$(grep '^BUG: UCSAN: ' "$exe.stderr" | grep -Ev "$allowed_re" | sort | uniq -c)
	if [ -z "$foreign" ]; then
		pass "$cc/soak-no-foreign"
	else
		fail "$cc/soak-no-foreign" "reports outside the planted races:" "$foreign" \
			"(full output: $exe.stderr)"
	fi

	problems=$(check_lines "$exe.stderr")
	if [ -z "$problems" ]; then
		pass "$cc/soak-output"
	else
		fail "$cc/soak-output" "$problems" "(full output: $exe.stderr)"
	fi
done
suite_end
