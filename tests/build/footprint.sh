#!/bin/sh
# Memory: a program under ucsan may use at most 2 MiB more than natively
# (peak RSS of tests/build/footprint.c: 256 threads, 16384 heap blocks,
# then a forked child), under gcc and clang: as the program sees it at its
# busiest (footprint-CC), and over its whole run as its parent sees it
# (footprint-whole-CC, tests/build/peak_rss.c: the runtime's exit path and
# its reset in the forked child count too). The least of three runs each,
# so that a page more or less in one run does not decide. UCSAN_BIN:
# another build's bin/.
SUITE=build
. "$(dirname "$0")/../lib/suite.sh"
cd "$ROOT" || exit 2
BIN=${UCSAN_BIN:-$BIN}
out=build/tests/build
mkdir -p "$out"
limit=2048
unset UCSAN_OPTIONS # default options

if ! cc -O2 -Wall -Wextra -o "$out/peak_rss" tests/build/peak_rss.c >"$out/peak_rss.log" 2>&1; then
	fail_log peak-rss "does not build" "$out/peak_rss.log"
fi

# least_rss [WRAPPER] PROGRAM: the least of three runs' figures.
least_rss() {
	best=
	for _ in 1 2 3; do
		r=$("$@") || return 1
		if [ -z "$best" ] || [ "$r" -lt "$best" ]; then best=$r; fi
	done
	echo "$best"
}

# compare NAME [WRAPPER]: footprint-native-$cc against footprint-ucsan-$cc,
# each run as least_rss [WRAPPER] PROGRAM.
compare() {
	_name=$1
	shift
	native=$(least_rss "$@" "$out/footprint-native-$cc")
	ucsan=$(least_rss "$@" "$out/footprint-ucsan-$cc")
	if [ -n "$native" ] && [ -n "$ucsan" ] && [ $((ucsan - native)) -le $limit ]; then
		pass "$_name" "native $native KiB, ucsan $ucsan KiB"
	else
		fail "$_name" "peak RSS native ${native:-?} KiB, ucsan ${ucsan:-?} KiB: more than $limit KiB apart"
	fi
}

for cc in gcc clang; do
	log=$out/footprint-$cc.log
	if ! "$cc" -O2 -pthread -o "$out/footprint-native-$cc" tests/build/footprint.c >"$log" 2>&1 ||
		! ucsan_build "$log" "$cc" "$BIN/ucsan-cc" -O2 -pthread -o "$out/footprint-ucsan-$cc" tests/build/footprint.c; then
		fail_log "footprint-$cc" "does not build" "$log"
		continue
	fi
	compare "footprint-$cc"
	compare "footprint-whole-$cc" "$out/peak_rss"
done

# libdw and libelf (and the compression libraries behind them) are loaded
# at the first report, not with every program.
lib=$BIN/../lib/libucsan.so
needed=$(readelf -d "$lib" 2>/dev/null | grep NEEDED)
if [ -n "$needed" ] && ! printf '%s\n' "$needed" | grep -q -e libdw -e libelf; then
	pass libdw-loaded-lazily
else
	fail libdw-loaded-lazily "${needed:-no NEEDED entries in $lib}"
fi
suite_end
