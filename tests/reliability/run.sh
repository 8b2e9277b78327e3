#!/bin/sh
# Reliability: the runtime never breaks the program it watches when its
# output has nowhere to go (stderr closed, a full pipe, a reader that left,
# fd 2 reused by the program), and log_path creates files safely.
SUITE=reliability
. "$(dirname "$0")/../lib/suite.sh"
cd "$ROOT" || exit 2
out=build/tests/reliability
mkdir -p "$out"
racy_opts="skip_watch=0:report_once_in_ms=0"

for cc in gcc clang; do
	exe=$out/racer-$cc
	if ! ucsan_build "$exe.log" "$cc" build/bin/ucsan-cc -O2 tests/reliability/racer.c -o "$exe"; then
		fail_log "$cc/build" "ucsan-cc failed" "$exe.log"
		continue
	fi

	# stderr closed from the start: runs to the end, exit status 66.
	UCSAN_OPTIONS=$racy_opts timeout 60 "$exe" 500 2>&- >"$out/closed.out"
	rc=$?
	if [ $rc -eq 66 ] && grep -q 'racer done' "$out/closed.out"; then pass "$cc/stderr-closed"
	else fail "$cc/stderr-closed" "exit $rc"; fi

	# A pipe nobody reads: the program must not hang on it.
	start=$(date +%s)
	( UCSAN_OPTIONS=$racy_opts timeout 60 "$exe" 1500 2>&1 >"$out/full.out"; echo $? >"$out/full.rc" ) | sleep 20 &
	pipe_job=$!
	while [ ! -s "$out/full.rc" ] && [ $(($(date +%s) - start)) -lt 19 ]; do sleep 1; done
	rc=$(cat "$out/full.rc" 2>/dev/null)
	kill $pipe_job 2>/dev/null
	wait $pipe_job 2>/dev/null
	rm -f "$out/full.rc"
	if [ "$rc" = 66 ]; then pass "$cc/full-pipe"
	else fail "$cc/full-pipe" "exit '$rc' (empty: still blocked after 19 s)"; fi

	# The reader went away: no SIGPIPE death, exit status kept.
	( UCSAN_OPTIONS=$racy_opts timeout 60 "$exe" 500 2>&1 >/dev/null; echo $? >"$out/epipe.rc" ) | true
	rc=$(cat "$out/epipe.rc")
	if [ "$rc" = 66 ]; then pass "$cc/reader-gone"
	else fail "$cc/reader-gone" "exit $rc (141 = killed by SIGPIPE)"; fi

	# The program closes fd 2 and reuses it: its file holds only its data.
	UCSAN_OPTIONS=$racy_opts timeout 60 "$exe" 300 reuse "$out/reused.txt" >/dev/null 2>"$out/reuse.err"
	rc=$?
	if [ $rc -eq 66 ] && [ "$(cat "$out/reused.txt")" = "program data" ] && grep -q '^BUG: UCSAN' "$out/reuse.err"; then
		pass "$cc/fd2-reused"
	else
		fail "$cc/fd2-reused" "exit $rc" "file: $(head -c 200 "$out/reused.txt")"
	fi

	# log_path: PATH.PID, mode 0600, never through a planted symlink.
	rm -f "$out"/log.* "$out/victim"
	UCSAN_OPTIONS=$racy_opts:halt_on_error=1:log_path=$out/log timeout 60 "$exe" 2000 2>"$out/log.err"
	f=$(ls "$out"/log.[0-9]* 2>/dev/null | head -1)
	if [ -n "$f" ] && grep -q '^BUG: UCSAN' "$f" && [ "$(stat -c %a "$f")" = 600 ]; then pass "$cc/log-path"
	else fail "$cc/log-path" "file '$f' mode $(stat -c %a "$f" 2>/dev/null)" "$(head -3 "$out/log.err")"; fi

	: >"$out/victim"
	# The pid is not known in advance: plant links for the next few pids.
	next=$(($(sh -c 'echo $$') + 1))
	for p in $(seq "$next" $((next + 40))); do ln -sf victim "$out/log.$p"; done
	UCSAN_OPTIONS=$racy_opts:halt_on_error=1:log_path=$out/log timeout 60 "$exe" 2000 2>"$out/sym.err"
	rc=$?
	if [ ! -s "$out/victim" ] && [ $rc -eq 66 ]; then pass "$cc/log-path-symlink"
	else fail "$cc/log-path-symlink" "exit $rc; victim: $(head -c 100 "$out/victim")"; fi
	rm -f "$out"/log.*

	# An unopenable log_path: said once, reports fall back to stderr.
	UCSAN_OPTIONS=$racy_opts:log_path=/nonexistent/dir/log timeout 60 "$exe" 300 2>"$out/nolog.err" >/dev/null
	rc=$?
	if [ $rc -eq 66 ] && [ "$(grep -c 'cannot open log_path' "$out/nolog.err")" = 1 ] &&
		grep -q '^BUG: UCSAN' "$out/nolog.err"; then pass "$cc/log-path-unopenable"
	else fail "$cc/log-path-unopenable" "exit $rc" "$(grep -c 'cannot open' "$out/nolog.err") notices"; fi
done
suite_end
