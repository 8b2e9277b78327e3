#!/bin/sh
# Memory: a program under ucsan may use at most 2 MiB more than natively
# (peak RSS of tests/build/footprint.c: 256 threads, 16384 heap blocks),
# under gcc and clang. The least of three runs each, so that a page more
# or less in one run does not decide. UCSAN_BIN: another build's bin/.
cd "$(dirname "$0")/../.." || exit 2
out=build/tests/build
mkdir -p "$out"
limit=2048
unset UCSAN_OPTIONS # default options
fails=0

least_rss() {
	best=
	for _ in 1 2 3; do
		r=$("$1") || return 1
		if [ -z "$best" ] || [ "$r" -lt "$best" ]; then best=$r; fi
	done
	echo "$best"
}

for cc in gcc clang; do
	id=build/footprint-$cc
	if ! "$cc" -O2 -pthread -o "$out/footprint-native-$cc" tests/build/footprint.c ||
		! UCSAN_CC=$cc "${UCSAN_BIN:-build/bin}/ucsan-cc" -O2 -pthread -o "$out/footprint-ucsan-$cc" tests/build/footprint.c; then
		echo "FAIL: $id"
		echo "  does not build"
		fails=$((fails + 1))
		continue
	fi
	native=$(least_rss "$out/footprint-native-$cc")
	ucsan=$(least_rss "$out/footprint-ucsan-$cc")
	if [ -n "$native" ] && [ -n "$ucsan" ] && [ $((ucsan - native)) -le $limit ]; then
		echo "PASS: $id"
		[ -n "${FOOTPRINT_VERBOSE:-}" ] && echo "  native $native KiB, ucsan $ucsan KiB"
	else
		echo "FAIL: $id"
		echo "  peak RSS native ${native:-?} KiB, ucsan ${ucsan:-?} KiB: more than $limit KiB apart"
		fails=$((fails + 1))
	fi
done
# libdw and libelf (and the compression libraries behind them) are loaded
# at the first report, not with every program.
lib=${UCSAN_BIN:-build/bin}/../lib/libucsan.so
needed=$(readelf -d "$lib" 2>/dev/null | grep NEEDED)
if [ -n "$needed" ] && ! printf '%s\n' "$needed" | grep -q -e libdw -e libelf; then
	echo "PASS: build/libdw-loaded-lazily"
else
	echo "FAIL: build/libdw-loaded-lazily"
	printf '%s\n' "${needed:-no NEEDED entries in $lib}" | sed 's/^/  /'
	fails=$((fails + 1))
fi
[ $fails -eq 0 ]
