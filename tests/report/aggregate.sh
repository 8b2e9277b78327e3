#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# ucsan-report over the JSON logs of several processes (report_format=json,
# log_path=DIR/ucsan): three racy programs, one of them run twice, each
# process writing its own DIR/ucsan.PID.
#
#   report/<cc>/aggregate-table   the table counts 4 reports, 3 distinct
#                                 races, 4 processes, 4 logs, and names
#                                 each race's title and top frames
#   report/<cc>/aggregate-sarif   --sarif writes SARIF 2.1.0 that
#                                 check_sarif.py accepts, one result per
#                                 race, located in each program's source
#
# Run from anywhere; artifacts in build/tests/report/<cc>/aggregate/.
set -u
SUITE=report
. "$(dirname "$0")/../lib/suite.sh"
E2E=$ROOT/tests/e2e

# logs_report LOGDIR PROG: one run of PROG (halt_on_error=1) logged a JSON
# report; a run that found nothing leaves no log.
logs_report() {
	before=$(ls "$1" | wc -l)
	UCSAN_OPTIONS="halt_on_error=1:skip_watch=0:assume_plain_writes_atomic=0:report_format=json:log_path=$1/ucsan" \
		"$2" >/dev/null 2>&1
	[ "$(ls "$1" | wc -l)" -gt "$before" ]
}

for cc in ${E2E_COMPILERS:-gcc clang}; do
	out=$ROOT/build/tests/report/$cc/aggregate
	rm -rf "$out"
	mkdir -p "$out/logs"
	built=1
	for p in write_write plain_write_read location_global; do
		ucsan_build "$out/$p.build" "$cc" "$BIN/ucsan-cc" -O2 -g -I"$E2E/support" -I"$E2E" "$E2E/$p.c" -o "$out/$p" ||
			{ built=0; fail "$cc/aggregate-table" "building $p failed:" "$(cat "$out/$p.build")"; }
	done
	[ $built = 1 ] || continue
	ran=1
	for p in write_write plain_write_read location_global location_global; do
		retry 10 logs_report "$out/logs" "$out/$p" || { ran=0; fail "$cc/aggregate-table" "$p logged no report in 10 runs"; }
	done
	[ $ran = 1 ] || continue

	"$BIN/ucsan-report" "$out/logs" >"$out/table" 2>&1
	summary=$(tail -n 1 "$out/table")
	if [ "$summary" = "4 reports, 3 distinct races, in 4 processes from 4 logs" ] &&
		grep -Eq '^ +2 +2 +data-race in reader / writer$' "$out/table" &&
		grep -Eq '^ +1 +1 +data-race in writer_a / writer_b$' "$out/table" &&
		grep -Eq '^ +write: writer_a .*write_write\.c:[0-9]+$' "$out/table" &&
		grep -Eq '^ +read: reader .*plain_write_read\.c:33$' "$out/table"; then
		pass "$cc/aggregate-table"
	else
		fail "$cc/aggregate-table" "expected 4 reports of 3 races from 4 processes, got:" "$(cat "$out/table")"
	fi

	# Relative file names in the logs are relative to where the programs
	# ran (here), which is the SARIF's %SRCROOT%.
	if "$BIN/ucsan-report" --sarif --srcroot "$ROOT" "$out/logs" >"$out/sarif.json" 2>"$out/sarif.err" &&
		said=$(python3 "$ROOT/tests/report/check_sarif.py" "$out/sarif.json" 3 \
			write_write.c plain_write_read.c location_race.h 2>&1); then
		pass "$cc/aggregate-sarif"
	else
		fail "$cc/aggregate-sarif" "$(cat "$out/sarif.err")" "${said:-}"
	fi
done
suite_end
