#!/bin/sh
# Fuzzes the runtime's two parsers of untrusted text with libFuzzer:
#   fuzz/options       ucsan_options_parse()      (UCSAN_OPTIONS)
#   fuzz/suppressions  ucsan_suppressions_parse() and ucsan_template_match()
# Each target is built from the runtime's sources (src/options.c,
# src/suppressions.c, with tests/fuzz/stubs.c for the rest of the runtime)
# with clang -fsanitize=fuzzer,address,undefined, and runs for SECONDS
# (default 60), both targets at once. Any crash, sanitizer report or input
# slower than FUZZ_UNIT_TIMEOUT seconds (default 10) fails the target; the
# input that did it is kept as build/tests/fuzz/<target>-crash-* (or
# -timeout-*), and `build/tests/fuzz/fuzz_<target> FILE` replays it.
#
# Usage: tests/fuzz/run.sh [SECONDS]        (PROTOCOL.md output)
# Seeds: tests/fuzz/corpus_<target>/ (read only); what the fuzzer finds
# goes to build/tests/fuzz/corpus_<target>/, kept between runs.
# Needs clang and libFuzzer: Debian packages clang and libclang-rt-14-dev
# (or the libclang-rt-dev of the clang version installed).
SUITE=fuzz
. "$(dirname "$0")/../lib/suite.sh"
cd "$ROOT" || exit 2
secs=${1:-60}
unit_timeout=${FUZZ_UNIT_TIMEOUT:-10}
out=build/tests/fuzz
mkdir -p "$out"
CC=${FUZZ_CC:-clang}
FLAGS="-g -O1 -std=gnu11 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -Wall -Wextra -Isrc"

case $secs in
'' | *[!0-9]*) echo "usage: $0 [SECONDS]" >&2; exit 2 ;;
esac

targets='options suppressions'
built=''
for t in $targets; do
	exe=$out/fuzz_$t
	# shellcheck disable=SC2086
	if ! have "$CC"; then
		fail "$t" "$CC is not installed (Debian: clang, libclang-rt-14-dev)"
	elif ! $CC $FLAGS tests/fuzz/fuzz_$t.c tests/fuzz/stubs.c src/options.c src/suppressions.c \
		-o "$exe" >"$out/build-$t.log" 2>&1; then
		fail "$t" "build failed (libFuzzer needs the Debian package libclang-rt-14-dev):" \
			"$(tail -n 15 "$out/build-$t.log")"
	else
		built="$built $t"
	fi
done

# Run the targets side by side; each gets SECONDS, plus a hard limit.
for t in $built; do
	mkdir -p "$out/corpus_$t"
	rm -f "$out/$t"-crash-* "$out/$t"-timeout-* "$out/$t"-oom-* "$out/$t"-leak-*
	timeout -k 10 $((secs + unit_timeout + 120)) "$out/fuzz_$t" \
		-max_total_time="$secs" -timeout="$unit_timeout" -rss_limit_mb=2048 \
		-max_len=4096 -print_final_stats=1 -artifact_prefix="$out/$t-" \
		"$out/corpus_$t" "tests/fuzz/corpus_$t" >"$out/$t.log" 2>&1 &
	echo $! >"$out/$t.pid"
done
for t in $built; do
	wait "$(cat "$out/$t.pid")"
	echo $? >"$out/$t.rc"
	rm -f "$out/$t.pid"
done

for t in $built; do
	rc=$(cat "$out/$t.rc")
	log=$out/$t.log
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
	artifact=$(ls "$out/$t"-* 2>/dev/null | grep -E -- '-(crash|timeout|oom|leak|slow-unit)-' | head -n 1)
	if [ "$rc" = 0 ] && ! grep -qE 'ERROR: (AddressSanitizer|libFuzzer|LeakSanitizer)|runtime error:|deadly signal' "$log" &&
		[ -n "$runs" ]; then
		pass "$t" "$runs inputs in ${secs}s, $cov"
	else
		why="exit status $rc"
		[ "$rc" = 124 ] || [ "$rc" = 137 ] && why="$why (killed: the run overran its time)"
		fail "$t" "$why; log: $log" \
			"${artifact:+input kept as $artifact; replay: $out/fuzz_$t $artifact}" \
			"$(grep -E -m 12 -A 12 'ERROR:|runtime error:|deadly signal|ALARM' "$log" | head -n 30)"
	fi
	rm -f "$out/$t.rc"
done
suite_end
