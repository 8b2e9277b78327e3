#!/bin/sh
# End-to-end tests for ucsan: build small C/C++ programs with the compiler
# wrapper (build/bin/ucsan-cc, build/bin/ucsan-c++) under gcc and clang, run
# them and check the reports on stderr and the exit status.
#
# Usage: tests/e2e/run.sh [TEST...]      (TEST = file name without extension)
# Environment:
#   E2E_COMPILERS   compilers to use (default "gcc clang")
#   E2E_TRIES_MAX   cap on every test's TRIES (e.g. 1 for a quick look)
#   E2E_BIN         directory of ucsan-cc/ucsan-c++ (default build/bin)
#   E2E_VERBOSE=1   after a PASS, say how many runs it took
#   E2E_DIR         directory of the tests (default tests/e2e); tests/e2e/support
#                   and E2E_DIR itself are on the include path
#   E2E_SUITE       suite name for PASS/FAIL ids and build/tests/SUITE (default e2e)
#
# A test is tests/e2e/NAME.c or NAME.cpp.  Its leading block of `//` comment
# and blank lines may hold directives, `// KEY: value` (the value starts after
# the blanks following the colon).  OPTIONS/CFLAGS/LIBS/ARGS/SHARED lines
# are joined with spaces, EXPECT, EXPECT-FRAME and NOT may be repeated, for
# the other keys the last line counts:
#   // OPTIONS: k=v ...     UCSAN_OPTIONS for the run (default: empty)
#   // CFLAGS: ...          compile flags (default: -O2 -g)
#   // LIBS: ...            extra link arguments
#   // ARGS: ...            program arguments
#   // SHARED: path.c       build tests/e2e/path.c as an instrumented shared
#                           library (-shared -fPIC) and link the program to it
#   // TRIES: N             run up to N times until all expectations hold
#                           (default 1).  A run is only retried when it looks
#                           like the race was simply not caught: exit status
#                           0 or the expected one, and no NOT line matched.
#   // REPEAT: N            the test passes only if N runs in a row pass
#                           (default 1), each with its own TRIES; for silent
#                           tests (EXIT: 0 and NOT lines) that must stay
#                           silent run after run.
#   // KNOWN-MISS: [CC:] why  a racy program ucsan does not find reliably yet
#                           (under compiler CC only, if given): not run; a
#                           `SKIP: <id> (known miss: why)` line, counted
#                           neither way (make oneshot measures its rate)
#   // TIMEOUT: S           seconds before a run is killed (default 60)
#   // EXIT: N              expected exit status (default 0)
#   // EXPECT: ERE          some stderr line must match
#   // EXPECT-FRAME: A => B some stderr line matching ERE A is directly
#                           followed by a line matching ERE B
#   // NOT: ERE             no stderr line may match
#   // EXPECT-STDOUT: ERE   some stdout line must match
#   // CHECK: CMD           once every other expectation holds, `CMD STDERR-FILE`
#                           (run by sh, may be repeated) must exit 0; what it
#                           prints shows under the FAIL line
# In every directive @ROOT@ stands for the repository root (absolute path).
# Every test implicitly has `NOT: ^e2e: ` (test programs report their own
# failed checks with lines starting with "e2e: ").
#
# Helper sources (support/) are not tests.  Output: one PASS/FAIL line per
# (test, compiler); artifacts in build/tests/e2e/<compiler>/.  Portable sh
# (runs under dash), grep -E, sed, awk.

set -u

SUITE=${E2E_SUITE:-e2e}
. "$(dirname "$0")/../lib/suite.sh"
E2E=${E2E_DIR:-$ROOT/tests/e2e}
SUPPORT=$ROOT/tests/e2e/support
BIN=${E2E_BIN:-$BIN}
OUTROOT=$ROOT/build/tests/$SUITE
COMPILERS=${E2E_COMPILERS:-gcc clang}

# check ERRFILE RC: verify the expectations of the current test.  Sets
# $fails to the failed expectations (one per line, empty if all held) and
# $fatal to 1 when re-running cannot help.
check() {
	err=$1 rc=$2
	fails='' fatal=0
	if [ "$rc" != "$exp_exit" ]; then
		fails="${fails}exit status: expected $exp_exit, got $rc$NL"
		[ "$rc" = 0 ] || fatal=1
	fi
	expect_match EXPECT "$err" "$expects"
	expect_match EXPECT-STDOUT "${err%.stderr}.stdout" "$stdout_expects"
	while IFS= read -r spec; do
		[ -n "$spec" ] || continue
		a=${spec%% => *} b=${spec#* => }
		nums=$(grep -En -e "$a" "$err" | cut -d: -f1 | tr '\n' ' ')
		if [ -z "$nums" ]; then
			fails="${fails}EXPECT-FRAME: $spec$NL    (no line matches '$a')$NL"
		elif ! NUMS=$nums awk '
			BEGIN { n = split(ENVIRON["NUMS"], a, " ")
				for (i = 1; i <= n; i++) want[a[i] + 1] = 1 }
			FNR in want' "$err" | grep -Eq -e "$b"; then
			fails="${fails}EXPECT-FRAME: $spec$NL    (no line after a '$a' line matches '$b')$NL"
		fi
	done <<EOF
$frames
EOF
	expect_none "$err" "$nots$NL^e2e: "
	[ -z "$fails" ] || return 1
	while IFS= read -r cmd; do
		[ -n "$cmd" ] || continue
		if ! said=$(sh -c "$cmd \"\$1\"" check "$err" 2>&1); then
			fails="${fails}CHECK: $cmd$NL$(printf '%s\n' "$said" | head -n 20 | sed 's/^/    /')$NL"
			fatal=1
		fi
	done <<EOF
$checks
EOF
	[ -z "$fails" ]
}

# run_test SRC COMPILER: build and run one test, print its PASS/FAIL line.
run_test() {
	src=$1 cc=$2
	file=$(basename "$src")
	name=${file%.*}
	GROUP=$cc
	miss=$(directive "$src" KNOWN-MISS | while IFS= read -r m; do
		case $m in
		gcc:* | clang:*) [ "${m%%:*}" = "$cc" ] && echo "${m#*: }" ;;
		*) echo "$m" ;;
		esac
	done | tail -n 1)
	if [ -n "$miss" ]; then
		skip "$name" "known miss: $miss"
		return 0
	fi
	case $file in
	*.cpp) drv=$BIN/ucsan-c++ ;;
	*) drv=$BIN/ucsan-cc ;;
	esac
	out=$OUTROOT/$cc
	mkdir -p "$out"
	exe=$out/$name log=$out/$name.build.log
	rm -f "$exe" "$out/$name.stderr" "$out/$name.stdout"

	cflags=$(joined "$src" CFLAGS)
	[ -n "$cflags" ] || cflags='-O2 -g'
	libs=$(joined "$src" LIBS)
	args=$(joined "$src" ARGS)
	opts=$(joined "$src" OPTIONS)
	tries=$(last "$src" TRIES)
	tries=${tries:-1}
	repeat=$(last "$src" REPEAT)
	repeat=${repeat:-1}
	[ "$repeat" -ge 1 ] 2>/dev/null || repeat=1
	[ -n "${E2E_TRIES_MAX:-}" ] && [ "$tries" -gt "$E2E_TRIES_MAX" ] &&
		tries=$E2E_TRIES_MAX
	tmo=$(last "$src" TIMEOUT)
	tmo=${tmo:-60}
	exp_exit=$(last "$src" EXIT)
	exp_exit=${exp_exit:-0}
	expects=$(directive "$src" EXPECT)
	frames=$(directive "$src" EXPECT-FRAME)
	nots=$(directive "$src" NOT)
	stdout_expects=$(directive "$src" EXPECT-STDOUT)
	checks=$(directive "$src" CHECK)

	if ! have "$cc"; then
		fail "$name" "compiler '$cc' is not installed"
		return 1
	fi
	if [ ! -x "$drv" ]; then
		fail "$name" "$drv does not exist (run make first)"
		return 1
	fi

	# Build: shared libraries first, then the program.
	link=''
	for lib in $(directive "$src" SHARED); do
		libname=$(basename "$lib")
		libname=${libname%.*}
		case $libname in lib*) ;; *) libname=lib$libname ;; esac
		case $lib in *.cpp) ldrv=$BIN/ucsan-c++ ;; *) ldrv=$BIN/ucsan-cc ;; esac
		# shellcheck disable=SC2086
		if ! ucsan_build "$out/$libname.build.log" "$cc" "$ldrv" $cflags -fPIC -shared \
			-Wl,-soname,"$libname.so" -I"$SUPPORT" -I"$E2E" \
			-o "$out/$libname.so" "$E2E/$lib"; then
			fail_log "$name" "building shared library $lib failed:" "$out/$libname.build.log"
			return 1
		fi
		link="$link $out/$libname.so"
	done
	[ -n "$link" ] && link="$link -Wl,-rpath,$out"
	# shellcheck disable=SC2086
	if ! ucsan_build "$log" "$cc" "$drv" $cflags -pthread \
		-I"$SUPPORT" -I"$E2E" -o "$exe" "$src" $link $libs; then
		fail_log "$name" "build failed:" "$log"
		return 1
	fi

	# Run until the expectations hold, at most $tries times; all that
	# $repeat times.
	r=0 ok=0
	while [ "$r" -lt "$repeat" ]; do
		r=$((r + 1))
		ok=0
		retry "$tries" run_once || break
		ok=1
	done
	if [ "$ok" = 1 ]; then
		if [ -z "${E2E_VERBOSE:-}" ]; then
			pass "$name"
		elif [ "$repeat" -gt 1 ]; then
			pass "$name" "$repeat repetitions, the last in run $n of $tries"
		else
			pass "$name" "run $n of $tries"
		fi
		return 0
	fi
	msg="after $n of $tries run(s): UCSAN_OPTIONS='$opts' build/tests/$SUITE/$cc/$name${args:+ $args}"
	[ "$repeat" -gt 1 ] && msg="in repetition $r of $repeat:$NL$msg"
	[ "$rc" = 124 ] || [ "$rc" = 137 ] && msg="$msg$NL(the run timed out after ${tmo}s)"
	fail_log "$name" "$msg$NL${fails%"$NL"}" "$out/$name.stderr"
	return 1
}

# run_once: one run of the current test; true if its expectations hold.
run_once() {
	# shellcheck disable=SC2086
	(cd "$out" && UCSAN_OPTIONS=$opts exec timeout -k 5 "$tmo" \
		"./$name" $args >"$name.stdout" 2>"$name.stderr")
	rc=$?
	check "$out/$name.stderr" "$rc"
}

# Select the tests.
tests=''
if [ $# -gt 0 ]; then
	for t in "$@"; do
		t=${t##*/}
		t=${t%.c}
		t=${t%.cpp}
		if [ -f "$E2E/$t.c" ]; then
			tests="$tests $E2E/$t.c"
		elif [ -f "$E2E/$t.cpp" ]; then
			tests="$tests $E2E/$t.cpp"
		else
			echo "run.sh: no test named '$t'" >&2
			exit 2
		fi
	done
else
	for f in "$E2E"/*.c "$E2E"/*.cpp; do
		[ -f "$f" ] && tests="$tests $f"
	done
fi

set -f
passed=0 start=$(date +%s)
for cc in $COMPILERS; do
	for src in $tests; do
		run_test "$src" "$cc" && passed=$((passed + 1))
	done
done
echo "e2e: $passed passed, $failures failed in $(($(date +%s) - start))s" >&2
suite_end
