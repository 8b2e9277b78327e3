#!/bin/sh
# Hostile UCSAN_OPTIONS: huge, negative, overflowing and non-numeric values,
# empty keys, very long strings, unknown keys, control characters. Each one
# must stop the program before main with exit status 1 and exactly one line
# on stderr that starts with "UCSAN: " and names the offending token; main's
# output must be absent. Values the parser accepts must let the program run
# normally (never a crash: skip_watch=4294967296 once divided by zero).
# And a setuid/setgid program must ignore UCSAN_OPTIONS and TSAN_OPTIONS
# (secure_getenv): built here, made setuid/setgid in build/tests/options and
# run across a uid/gid change, it must start normally with bogus options.
#
# Usage: tests/stress/options.sh      (PROTOCOL.md output; suite "options")
# Environment: OPTIONS_COMPILERS (default "gcc clang").
SUITE=options
. "$(dirname "$0")/../lib/suite.sh"
cd "$ROOT" || exit 2
out=build/tests/options
mkdir -p "$out"

# A 10 KiB string of one character: long_str CHAR
long_str() { head -c 10240 /dev/zero | tr '\0' "$1"; }
long_a=$(long_str a)
long_9=$(long_str 9)
# 10 KiB of valid pairs: accepted.
long_valid=$(i=0; while [ $i -lt 800 ]; do printf 'seed=%d:' $i; i=$((i + 1)); done)

cat >"$out/prog.c" <<'EOF'
#include <stdio.h>
#include <sys/auxv.h>
static int data[64];
int main(void)
{
	for (int i = 0; i < 64; i++)
		data[i] += i; /* instrumented accesses */
	printf("main ran secure=%lu\n", getauxval(AT_SECURE));
	return data[3] == 3 ? 0 : 4;
}
EOF

# rejects CC CASE TOKEN OPTIONS [VAR]: the run must fail before main with one
# line naming TOKEN (a fixed string) as the offender.
rejects() {
	cc=$1 name=$2 token=$3 opts=$4 var=${5:-UCSAN_OPTIONS}
	if [ "$var" = UCSAN_OPTIONS ]; then
		UCSAN_OPTIONS=$opts timeout 20 "$exe" >"$out/run.out" 2>"$out/run.err"
	else
		env -u UCSAN_OPTIONS "$var=$opts" timeout 20 "$exe" >"$out/run.out" 2>"$out/run.err"
	fi
	rc=$?
	lines=$(wc -l <"$out/run.err")
	first=$(head -n 1 "$out/run.err")
	why=''
	[ $rc -eq 1 ] || why="exit status $rc, expected 1"
	[ -z "$why" ] && [ -s "$out/run.out" ] && why="main ran: $(cat "$out/run.out")"
	[ -z "$why" ] && [ "$lines" -ne 1 ] && why="$lines lines on stderr, expected exactly 1"
	[ -z "$why" ] && [ "$(wc -c <"$out/run.err")" -gt 1200 ] &&
		why="the error line is $(wc -c <"$out/run.err") bytes long"
	case $first in UCSAN:\ *) ;; *) [ -z "$why" ] && why="the line does not start with 'UCSAN: '" ;; esac
	[ -z "$why" ] && ! grep -qF -e "$token" "$out/run.err" && why="the line does not name '$token'"
	[ -z "$why" ] && ! grep -qF "in $var" "$out/run.err" && why="the line does not say 'in $var'"
	if [ -z "$why" ]; then
		pass "$cc/$name"
	else
		fail "$cc/$name" "$var=$(printf '%s' "$opts" | head -c 80)..." "$why" \
			"stderr: $(head -c 400 "$out/run.err")"
	fi
}

# run_with OPTIONS: run the program with UCSAN_OPTIONS=OPTIONS. Sets $rc, and
# $sig to a note when a signal killed it.
run_with() {
	UCSAN_OPTIONS=$1 timeout 20 "$exe" >"$out/run.out" 2>"$out/run.err"
	rc=$?
	sig=''
	[ $rc -gt 128 ] && sig=" (killed by signal $((rc - 128)))"
}

# fail_run N WHY: the case failed: its options (the first N characters), WHY
# and the start of stderr.
fail_run() {
	fail "$cc/$name" "UCSAN_OPTIONS=$(printf '%s' "$opts" | head -c "$1")" "$2" \
		"stderr: $(head -c 400 "$out/run.err")"
}

# accepts CC CASE OPTIONS: the program must run normally (exit 0, main ran).
accepts() {
	cc=$1 name=$2 opts=$3
	run_with "$opts"
	if [ $rc -eq 0 ] && grep -q '^main ran' "$out/run.out" && [ ! -s "$out/run.err" ]; then
		pass "$cc/$name"
	else
		fail_run 80 "exit status $rc$sig, expected 0 with main running and nothing on stderr"
	fi
}

# rejects_or_accepts CC CASE OPTIONS TOKEN: either outcome is fine, a crash
# or a garbled error is not.
rejects_or_accepts() {
	cc=$1 name=$2 opts=$3 token=$4
	run_with "$opts"
	if [ $rc -eq 0 ] && grep -q '^main ran' "$out/run.out"; then
		pass "$cc/$name" "accepted"
	elif [ $rc -eq 1 ] && [ "$(wc -l <"$out/run.err")" -eq 1 ] && grep -qF -e "$token" "$out/run.err" &&
		[ ! -s "$out/run.out" ]; then
		pass "$cc/$name" "rejected"
	else
		fail_run 600 "exit status $rc$sig: expected 0 (accepted, main ran) or 1 with one line naming '$token'"
	fi
}

for cc in ${OPTIONS_COMPILERS:-gcc clang}; do
	exe=$out/prog-$cc
	if ! ucsan_build "$exe.log" "$cc" build/bin/ucsan-cc -O2 "$out/prog.c" -o "$exe"; then
		fail_log "$cc/build" "ucsan-cc failed" "$exe.log"
		continue
	fi

	# Huge, negative, overflowing.
	rejects "$cc" huge 99999999999999999999999 'skip_watch=99999999999999999999999'
	rejects "$cc" huge-seed 99999999999999999999999 'seed=99999999999999999999999'
	rejects "$cc" huge-negative -99999999999999999999999 'seed=-99999999999999999999999'
	rejects "$cc" long-max-plus-1 9223372036854775808 'udelay_task=9223372036854775808'
	rejects "$cc" negative -1 'skip_watch=-1'
	rejects "$cc" negative-delay -5 'udelay_task=-5'
	rejects "$cc" negative-slots -1 'num_watchpoints=-1'
	rejects "$cc" negative-exitcode -66 'exitcode=-66'
	rejects "$cc" exitcode-wraps 4294967362 'exitcode=4294967362'
	rejects "$cc" exitcode-256 256 'exitcode=256'
	rejects "$cc" slots-too-many 4097 'num_watchpoints=4097'
	rejects "$cc" budget-over-100 101 'overhead_budget=101'

	# Not numbers, not booleans.
	rejects "$cc" non-numeric abc 'skip_watch=abc'
	rejects "$cc" trailing-junk 10x 'skip_watch=10x'
	rejects "$cc" float 1.5 'udelay_task=1.5'
	rejects "$cc" exponent 1e3 'skip_watch=1e3'
	rejects "$cc" hex 0x10 'udelay_task=0x10'
	rejects "$cc" empty-value skip_watch 'skip_watch='
	rejects "$cc" empty-quoted-value skip_watch 'skip_watch=""'
	rejects "$cc" bool-2 2 'halt_on_error=2'
	rejects "$cc" bool-word maybe 'enabled=maybe'
	rejects "$cc" bad-filter-mode greylist 'filter_mode=greylist'
	rejects "$cc" unterminated-quote skip_watch "skip_watch='5"

	# Keys.
	rejects "$cc" unknown-key nonsense 'skip_watch=0:nonsense=1'
	rejects "$cc" empty-key "''" '=1'
	rejects "$cc" empty-key-after-valid "''" 'skip_watch=0:=1'
	rejects "$cc" key-without-value halt_on_error 'halt_on_error'
	rejects "$cc" case-matters Skip_Watch 'Skip_Watch=0'
	# Runs of separators are empty entries, not empty keys: skipped, as
	# the README and sanitizer_common's flag parser do.
	accepts "$cc" separators-only '::'
	accepts "$cc" separator-runs ':,: skip_watch=5::,halt_on_error=0:'

	# Very long strings (10 KiB).
	rejects "$cc" long-key "$(printf '%s' "$long_a" | head -c 40)" "$long_a=1"
	rejects "$cc" long-key-no-value "$(printf '%s' "$long_a" | head -c 40)" "$long_a"
	rejects "$cc" long-int-value skip_watch "skip_watch=$long_9"
	rejects "$cc" long-bool-value halt_on_error "halt_on_error=$long_a"
	# A 10 KiB path cannot name a file: it must not be cut short silently
	# (the runtime would write to a different file than the one asked for).
	rejects "$cc" long-string-value log_path "log_path=$long_a"
	rejects "$cc" long-quoted-value strip_path_prefix "strip_path_prefix='$long_a'"
	accepts "$cc" long-valid "$long_valid"

	# One line, even when the value holds a newline or control characters.
	rejects "$cc" newline-in-value skip_watch "skip_watch='1${NL}2'"
	rejects "$cc" tab-separated nonsense "skip_watch=1	nonsense=2"

	# Values that are valid numbers but extreme must not crash the engine.
	rejects_or_accepts "$cc" skip-2pow32 'skip_watch=4294967296' skip_watch
	rejects_or_accepts "$cc" skip-2pow33 'skip_watch=8589934592:skip_watch_randomize=1' skip_watch
	rejects_or_accepts "$cc" skip-long-max 'skip_watch=9223372036854775807' skip_watch
	rejects_or_accepts "$cc" report-once-long-max 'report_once_in_ms=9223372036854775807' report_once_in_ms
	rejects_or_accepts "$cc" seed-long-min 'seed=-9223372036854775808' seed
	rejects_or_accepts "$cc" delay-max 'udelay_task=1000000:udelay_interrupt=1000000:skip_watch=1000000' udelay_task
	rejects_or_accepts "$cc" budget-100 'overhead_budget=100' overhead_budget

	# The TSAN_OPTIONS fallback is parsed with the same care.
	rejects "$cc" tsan-options-bad-value abc 'skip_watch=abc' TSAN_OPTIONS
	rejects "$cc" tsan-options-huge 99999999999999999999999 'exitcode=99999999999999999999999' TSAN_OPTIONS

	# Positive control: options are read when nothing forbids it.
	UCSAN_OPTIONS=help=1 timeout 20 "$exe" >"$out/run.out" 2>"$out/run.err"
	if grep -q 'skip_watch' "$out/run.err" && grep -q '^main ran secure=0' "$out/run.out"; then
		pass "$cc/control-help"
	else
		fail "$cc/control-help" "UCSAN_OPTIONS=help=1 printed no option table" \
			"$(head -c 300 "$out/run.err")"
	fi

	# setuid/setgid: the environment is not trusted. The programs run as
	# user nobody, who may not be able to enter the checkout (a clone in a
	# directory made by mktemp -d): they and the runtime are copied to a
	# directory everyone can read, and built there so that their run path
	# points at it.
	suid_tree=$(mktemp -d "${TMPDIR:-/tmp}/ucsan-suid.XXXXXX") && chmod 755 "$suid_tree" &&
		mkdir -p "$suid_tree/bin" "$suid_tree/lib" "$suid_tree/include" &&
		cp build/bin/ucsan-cc "$suid_tree/bin/" &&
		cp build/lib/libucsan.so build/lib/ucsan-entry.o "$suid_tree/lib/" &&
		cp -R build/include/. "$suid_tree/include/" &&
		chmod -R a+rX "$suid_tree" &&
		ucsan_build "$exe.suid.log" "$cc" "$suid_tree/bin/ucsan-cc" -O2 "$out/prog.c" -o "$suid_tree/prog"
	suid_ok=$?
	suid_why="cannot copy the program and runtime to a directory user nobody can read (see $exe.suid.log)"
	if [ $suid_ok -eq 0 ] && have setpriv &&
		! setpriv --reuid=65534 --regid=65534 --clear-groups test -r "$suid_tree/lib/libucsan.so" 2>/dev/null; then
		suid_ok=1
		suid_why="user nobody cannot read $suid_tree"
	fi
	for mode in setuid-nobody setuid-root setgid; do
		sx=$suid_tree/prog-$mode
		if [ $suid_ok -ne 0 ]; then
			pass "$cc/$mode" "skipped: $suid_why"
			continue
		fi
		rm -f "$sx"
		cp "$suid_tree/prog" "$sx" || { fail "$cc/$mode" "cannot copy the program"; continue; }
		runas=''
		case $mode in
		setuid-nobody)  # root runs a program that becomes nobody
			chown nobody "$sx" && chmod 4755 "$sx" ;;
		setuid-root)    # nobody runs a program that becomes root
			chown root "$sx" && chmod 4755 "$sx"
			runas='setpriv --reuid=65534 --regid=65534 --clear-groups' ;;
		setgid)         # root runs a program whose group becomes nogroup
			chgrp nogroup "$sx" && chmod 2755 "$sx" ;;
		esac
		if [ $? -ne 0 ] || { [ -n "$runas" ] && ! $runas true 2>/dev/null; }; then
			pass "$cc/$mode" "skipped: cannot chown/chmod or change user here"
			continue
		fi
		# shellcheck disable=SC2086
		UCSAN_OPTIONS=bogus=1 TSAN_OPTIONS=bogus=1 timeout 20 $runas "$sx" \
			>"$out/suid.out" 2>"$out/suid.err"
		rc=$?
		if grep -q '^main ran secure=0' "$out/suid.out"; then
			pass "$cc/$mode" "skipped: AT_SECURE not set (nosuid mount or no privilege change here)"
			continue
		fi
		# help=1 is valid: not printing the table shows it was not read.
		# shellcheck disable=SC2086
		UCSAN_OPTIONS=help=1 timeout 20 $runas "$sx" >"$out/suid-help.out" 2>"$out/suid-help.err"
		rc2=$?
		if [ $rc -eq 0 ] && grep -q '^main ran secure=1' "$out/suid.out" && [ ! -s "$out/suid.err" ] &&
			[ $rc2 -eq 0 ] && ! grep -q skip_watch "$out/suid-help.err"; then
			pass "$cc/$mode"
		else
			fail "$cc/$mode" "with bogus options: exit $rc, stdout '$(head -c 100 "$out/suid.out")'" \
				"stderr: $(head -c 300 "$out/suid.err")" \
				"with help=1: exit $rc2, stderr $(wc -l <"$out/suid-help.err") lines"
		fi
		rm -f "$sx"
	done
	[ -n "$suid_tree" ] && rm -rf "$suid_tree"
done
suite_end
