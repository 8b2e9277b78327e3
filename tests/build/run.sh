#!/bin/sh
# The runtime builds warning-free (-Wall -Wextra -Werror) with gcc and clang,
# each into its own scratch build directory.
cd "$(dirname "$0")/../.." || exit 2
fails=0
mkdir -p build/tests
for cc in gcc clang; do
	dir=build/tests/build-$cc
	rm -rf "$dir"
	if make -s B="$dir" CC="$cc" CFLAGS="-O2 -g -Werror" "$dir/lib/libucsan.so" >"$dir.log" 2>&1; then
		echo "PASS: build/$cc-werror"
	else
		echo "FAIL: build/$cc-werror"
		sed 's/^/  /' "$dir.log" | tail -20
		fails=$((fails + 1))
	fi
done
[ $fails -eq 0 ]
