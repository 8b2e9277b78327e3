#!/bin/sh
# The documentation matches the code: every option in src/options.def is in
# the README's options table and in the runtime's help=1 output.
SUITE=docs
. "$(dirname "$0")/../lib/suite.sh"
cd "$ROOT" || exit 2
out=build/tests/docs
mkdir -p "$out"
printf 'int main(void) { return 0; }\n' >"$out/empty.c"
if ! build/bin/ucsan-cc "$out/empty.c" -o "$out/empty" 2>"$out/cc.log"; then
	fail_log build "ucsan-cc failed" "$out/cc.log"
	exit 1
fi
UCSAN_OPTIONS=help=1 "$out/empty" 2>"$out/help.txt"
for opt in $(sed -n 's/^OPT([A-Z]*, *\([a-z_]*\),.*/\1/p' src/options.def); do
	if grep -q "^| \`$opt\` |" README.md; then
		pass "readme-option/$opt"
	else
		fail "readme-option/$opt" "README.md has no options-table row for $opt"
	fi
	if grep -q "^  $opt " "$out/help.txt"; then
		pass "help-option/$opt"
	else
		fail "help-option/$opt" "UCSAN_OPTIONS=help=1 does not list $opt"
	fi
done
suite_end
