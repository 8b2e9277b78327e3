#!/bin/sh
# The demo (make demo): examples/tcp_poll, the race syzbot reported against
# Linux's tcp_poll() in 2019, built twice from one source with ucsan-cc:
# first as it was (ucsan reports it), then with the upstream fix (it does not).
#
# Usage: examples/run-demo.sh           (after make; about 10 s)
# Environment: DEMO_SECONDS (default 2), seconds per run.
# Exit status: 0 if the buggy build was reported and the fixed one was not.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd) || exit 2
OUT=$ROOT/build/demo
SECS=${DEMO_SECONDS:-2}
unset UCSAN_OPTIONS

cd "$ROOT" || exit 2
mkdir -p "$OUT"
for v in tcp_poll tcp_poll-fixed; do
	flags=-O2
	[ "$v" = tcp_poll-fixed ] && flags="-O2 -DFIXED"
	echo "+ build/bin/ucsan-cc $flags examples/tcp_poll/tcp_poll.c -o build/demo/$v -pthread"
	# shellcheck disable=SC2086
	build/bin/ucsan-cc $flags examples/tcp_poll/tcp_poll.c -o "$OUT/$v" -pthread || exit 1
done

echo
echo '=== 1/2: tcp_poll as before the patches. Its epoll thread reads eight socket fields'
echo '===      without the socket lock while two other threads change them under it:'
echo "===      expect data-race reports (ucsan's default options, ${SECS} s per run)."
echo
# Which races a run catches is chance; run again (at most 3 times) if none.
n=0 rc=0
while [ "$n" -lt 3 ]; do
	n=$((n + 1))
	build/demo/tcp_poll "$SECS" >"$OUT/tcp_poll.stdout" 2>"$OUT/tcp_poll.stderr"
	rc=$?
	cat "$OUT/tcp_poll.stdout" "$OUT/tcp_poll.stderr"
	[ "$rc" = 66 ] && break
	echo "(no report in this run; trying again)"
done
# Name the fields: the program printed their addresses.
fields=$(awk 'FNR == NR { if ($1 == "fields:") for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[2]] = kv[1] } next }
	/ to 0x[0-9a-f]+ of / { for (i = 1; i < NF; i++) if ($i == "to" && ($(i + 1) in f)) print f[$(i + 1)] }' \
	"$OUT/tcp_poll.stdout" "$OUT/tcp_poll.stderr" | sort -u | tr '\n' ' ')
echo
echo "--- exit status $rc; racing fields in the reports above: ${fields:-none}"
if [ "$(echo "$fields" | wc -w)" = 8 ]; then
	echo "--- all eight fields that patches 2-9 of the 2019 series annotated"
else
	echo "--- (patches 2-9 of the 2019 series annotated eight; another run may catch the others)"
fi
buggy_ok=0
[ "$rc" = 66 ] && buggy_ok=1

echo
echo '=== 2/2: the same source with the patches applied (-DFIXED: READ_ONCE/WRITE_ONCE).'
echo '===      Every access is watched now (UCSAN_OPTIONS=skip_watch=0): expect silence.'
echo
UCSAN_OPTIONS=skip_watch=0:udelay_task=10 build/demo/tcp_poll-fixed "$SECS" \
	>"$OUT/tcp_poll-fixed.stdout" 2>"$OUT/tcp_poll-fixed.stderr"
frc=$?
cat "$OUT/tcp_poll-fixed.stdout" "$OUT/tcp_poll-fixed.stderr"
echo "--- exit status $frc, $(grep -c '^BUG: ' "$OUT/tcp_poll-fixed.stderr") reports"
fixed_ok=0
[ "$frc" = 0 ] && ! grep -q '^BUG: ' "$OUT/tcp_poll-fixed.stderr" && fixed_ok=1

echo
if [ "$buggy_ok" = 1 ] && [ "$fixed_ok" = 1 ]; then
	echo 'ucsan found the race the kernel fixed, and none after the fix. More: examples/*/README.md'
	exit 0
fi
echo 'unexpected: see build/demo/*.stderr' >&2
exit 1
