#!/bin/sh
# The documentation matches the code: every option in src/options.def is in
# the README's options table and in the runtime's help=1 output.
cd "$(dirname "$0")/../.." || exit 2
out=build/tests/docs
mkdir -p "$out"
fails=0
printf 'int main(void) { return 0; }\n' >"$out/empty.c"
if ! build/bin/ucsan-cc "$out/empty.c" -o "$out/empty" 2>"$out/cc.log"; then
	echo "FAIL: docs/build"
	sed 's/^/  /' "$out/cc.log"
	exit 1
fi
UCSAN_OPTIONS=help=1 "$out/empty" 2>"$out/help.txt"
for opt in $(sed -n 's/^OPT([A-Z]*, *\([a-z_]*\),.*/\1/p' src/options.def); do
	if grep -q "^| \`$opt\` |" README.md; then
		echo "PASS: docs/readme-option/$opt"
	else
		echo "FAIL: docs/readme-option/$opt"
		echo "  README.md has no options-table row for $opt"
		fails=$((fails + 1))
	fi
	if grep -q "^  $opt " "$out/help.txt"; then
		echo "PASS: docs/help-option/$opt"
	else
		echo "FAIL: docs/help-option/$opt"
		echo "  UCSAN_OPTIONS=help=1 does not list $opt"
		fails=$((fails + 1))
	fi
done
[ $fails -eq 0 ]
