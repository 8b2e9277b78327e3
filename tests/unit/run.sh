#!/bin/sh
# Builds tests/unit/test_symbolize.c against src/symbolize.c alone (with the
# platform helpers below it) with every compiler in UNIT_COMPILERS (default
# "gcc clang"), as PIE and non-PIE, and runs each build; case names get
# the variant: unit/symbolize-gcc-pie/<case>.
# Artifacts go to build/tests/unit-symbolize/. Exits non-zero on any failure.
SUITE=unit
. "$(dirname "$0")/../lib/suite.sh"
cd "$ROOT" || exit 2
out=build/tests/unit-symbolize
mkdir -p "$out"

for cc in ${UNIT_COMPILERS:-gcc clang}; do
	if ! have "$cc"; then
		skip "symbolize-$cc" "no $cc"
		continue
	fi
	for pie in pie no-pie; do
		v=$cc-$pie
		if [ $pie = pie ]; then f="-fPIE -pie"; else f="-fno-PIE -no-pie"; fi
		# -rdynamic lets the test's own __cxa_demangle be found by dlsym.
		# shellcheck disable=SC2086
		if ! "$cc" -g -O2 -fno-omit-frame-pointer -rdynamic $f -std=gnu11 -Wall -Wextra \
			-Werror -Isrc tests/unit/test_symbolize.c src/symbolize.c src/libdw_lazy.c src/platform.c \
			-o "$out/test_symbolize-$v" -ldl -lpthread >"$out/build-$v.log" 2>&1; then
			fail "symbolize-$v/build" "$(cat "$out/build-$v.log")"
			continue
		fi
		# The program prints its own PASS/FAIL lines.
		"$out/test_symbolize-$v" >"$out/run-$v.log" 2>&1 || failures=$((failures + 1))
		sed "s#^\([A-Z]*\): unit/symbolize/#\1: unit/symbolize-$v/#" "$out/run-$v.log"
	done
done
suite_end
