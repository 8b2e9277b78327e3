# SPDX-License-Identifier: Apache-2.0
# The shell every test suite shares (sourced, not run). Portable sh (dash).
#
#     SUITE=name
#     . "$(dirname "$0")/../lib/suite.sh"
#     ...
#     pass NAME [NOTE] | fail NAME [TEXT...] | skip NAME WHY
#     ...
#     suite_end
#
# Output follows tests/PROTOCOL.md: a case is SUITE/[GROUP/]NAME (GROUP,
# empty by default, is typically the compiler of a series of cases). Sets
# ROOT (the repository root, absolute, symlinks resolved), BIN (build/bin),
# NL (a newline) and counts failed cases in $failures.

ROOT=$(cd "$(dirname "$0")/../.." && pwd -P) || exit 2
BIN=$ROOT/build/bin
NL='
'
GROUP=
failures=0

# pass NAME [NOTE]
pass() {
	echo "PASS: $SUITE/${GROUP:+$GROUP/}$1${2:+  ($2)}"
}

# fail NAME [TEXT...]: a FAIL line, then every line of every TEXT indented.
fail() {
	echo "FAIL: $SUITE/${GROUP:+$GROUP/}$1"
	shift
	for _t in "$@"; do
		[ -n "$_t" ] && printf '%s\n' "$_t" | sed 's/^/  /'
	done
	failures=$((failures + 1))
}

# fail_log NAME MESSAGE FILE: fail, showing the end of FILE (a build log,
# a run's stderr).
fail_log() {
	fail "$1" "$2" "$(tail_of "$3")"
}

# skip NAME WHY: a case deliberately not run; counts neither way.
skip() {
	echo "SKIP: $SUITE/${GROUP:+$GROUP/}$1 ($2)"
}

# suite_end: the suite's exit status.
suite_end() {
	[ "$failures" -eq 0 ]
}

# tail_of FILE: its last 25 lines under a header, indented, for fail().
tail_of() {
	if [ -s "$1" ]; then
		echo "--- last 25 lines of $1:"
		tail -n 25 "$1" | sed 's/^/  /'
	else
		echo "--- $1 is empty"
	fi
}

# have CMD: is CMD installed?
have() {
	command -v "$1" >/dev/null 2>&1
}

# cxx_of CC: the C++ compiler that goes with C compiler CC.
cxx_of() {
	case $1 in
	gcc) echo g++ ;;
	clang) echo clang++ ;;
	*) echo "$1++" ;;
	esac
}

# ucsan_build LOG CC DRIVER ARG...: build with DRIVER (ucsan-cc or
# ucsan-c++, any install's) under compiler CC and its C++ twin; LOG gets
# the command line and its output.
ucsan_build() {
	_log=$1 _cc=$2 _drv=$3
	shift 3
	echo "+ UCSAN_CC=$_cc UCSAN_CXX=$(cxx_of "$_cc") $_drv $*" >"$_log"
	UCSAN_CC=$_cc UCSAN_CXX=$(cxx_of "$_cc") "$_drv" "$@" >>"$_log" 2>&1
}

# === A test program's directives ===

# directive FILE KEY: the values of the `// KEY: value` lines in the leading
# block of `//` comments and blank lines of FILE, @ROOT@ replaced by $ROOT.
directive() {
	SUITE_ROOT=$ROOT awk -v key="$2" '
		!/^\/\// && !/^[ \t]*$/ { exit }
		{
			s = $0
			if (sub("^// " key ":[ \t]*", "", s)) {
				while ((i = index(s, "@ROOT@")) > 0)
					s = substr(s, 1, i - 1) ENVIRON["SUITE_ROOT"] substr(s, i + 6)
				print s
			}
		}
	' "$1"
}

# joined FILE KEY: the values on one line, separated by spaces.
joined() {
	directive "$1" "$2" | tr '\n' ' ' | sed 's/ *$//'
}

# last FILE KEY: the last value (the one that counts for single-valued keys).
last() {
	directive "$1" "$2" | tail -n 1
}

# === Checking output ===
# Both add what failed to $fails, one finding per line.

# expect_match LABEL FILE ERES: every ERE (one a line) matches a line of FILE.
expect_match() {
	while IFS= read -r _re; do
		[ -n "$_re" ] || continue
		grep -Eq -e "$_re" "$2" || fails="$fails$1: $_re$NL"
	done <<EOF
$3
EOF
}

# expect_none FILE ERES: no ERE matches a line of FILE. A match is for good:
# sets fatal=1 (running the program again cannot help).
expect_none() {
	while IFS= read -r _re; do
		[ -n "$_re" ] || continue
		if _line=$(grep -E -m1 -e "$_re" "$1"); then
			fails="${fails}NOT: $_re$NL    (matched: $_line)$NL"
			fatal=1
		fi
	done <<EOF
$2
EOF
}

# retry TRIES CMD...: run CMD until it succeeds, at most TRIES times, or
# until it sets fatal=1. $n: the runs made.
retry() {
	_tries=$1
	shift
	n=0
	while [ "$n" -lt "$_tries" ]; do
		n=$((n + 1))
		fatal=0
		"$@" && return 0
		[ "$fatal" = 1 ] && return 1
	done
	return 1
}

# === Lists of names ===

# missing_from LIST NAMES: the NAMES (words) that are no line of LIST, each
# after a blank.
missing_from() {
	for _w in $2; do
		printf '%s\n' "$1" | grep -qxF -- "$_w" || printf ' %s' "$_w"
	done
}

# unmentioned FILE NAMES: the NAMES that FILE never mentions as a word, each
# after a blank.
unmentioned() {
	for _w in $2; do
		grep -q -w -F -- "$_w" "$1" || printf ' %s' "$_w"
	done
}

# c_code FILE: the C code of FILE, comments and preprocessor directives (with
# their continuation lines) removed; string literals are not looked into.
c_code() {
	awk '
		{
			raw = $0; line = $0; code = ""
			while (line != "") {
				if (incomment) {
					i = index(line, "*/")
					if (!i) { line = ""; break }
					line = substr(line, i + 2); incomment = 0
					continue
				}
				i = index(line, "/*"); j = index(line, "//")
				if (j && (!i || j < i)) { code = code substr(line, 1, j - 1); break }
				if (!i) { code = code line; break }
				code = code substr(line, 1, i - 1) " "
				line = substr(line, i + 2); incomment = 1
			}
			if (indirective) { indirective = (raw ~ /\\[ \t]*$/); next }
			if (code ~ /^[ \t]*#/) { indirective = (raw ~ /\\[ \t]*$/); next }
			print code
		}
	' "$1"
}
