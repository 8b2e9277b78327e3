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

ROOT=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
E2E=${E2E_DIR:-$ROOT/tests/e2e}
SUITE=${E2E_SUITE:-e2e}
SUPPORT=$ROOT/tests/e2e/support
BIN=${E2E_BIN:-$ROOT/build/bin}
OUTROOT=$ROOT/build/tests/$SUITE
COMPILERS=${E2E_COMPILERS:-gcc clang}
NL='
'

# Print the values of directive $2 in the leading comment block of file $1,
# with @ROOT@ replaced by the repository root.
directive() {
	E2E_ROOT=$ROOT awk -v key="$2" '
		!/^\/\// && !/^[ \t]*$/ { exit }
		{
			s = $0
			if (sub("^// " key ":[ \t]*", "", s)) {
				while ((i = index(s, "@ROOT@")) > 0)
					s = substr(s, 1, i - 1) ENVIRON["E2E_ROOT"] \
					    substr(s, i + 6)
				print s
			}
		}
	' "$1"
}

# Join lines with single spaces.
joined() {
	directive "$1" "$2" | tr '\n' ' ' | sed 's/ *$//'
}

# Print the last 30 lines of file $1, indented.
tail_indented() {
	if [ -s "$1" ]; then
		echo "  --- last 30 lines of $(basename "$1"):"
		tail -n 30 "$1" | sed 's/^/    /'
	else
		echo "  --- $(basename "$1") is empty"
	fi
}

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
	while IFS= read -r re; do
		[ -n "$re" ] || continue
		grep -Eq -e "$re" "$err" ||
			fails="${fails}EXPECT: $re$NL"
	done <<EOF
$expects
EOF
	while IFS= read -r re; do
		[ -n "$re" ] || continue
		grep -Eq -e "$re" "${err%.stderr}.stdout" ||
			fails="${fails}EXPECT-STDOUT: $re$NL"
	done <<EOF
$stdout_expects
EOF
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
	while IFS= read -r re; do
		[ -n "$re" ] || continue
		if line=$(grep -E -m1 -e "$re" "$err"); then
			fails="${fails}NOT: $re$NL    (matched: $line)$NL"
			fatal=1
		fi
	done <<EOF
$nots
^e2e: 
EOF
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
	id=$SUITE/$cc/$name
	miss=$(directive "$src" KNOWN-MISS | while IFS= read -r m; do
		case $m in
		gcc:* | clang:*) [ "${m%%:*}" = "$cc" ] && echo "${m#*: }" ;;
		*) echo "$m" ;;
		esac
	done | tail -n 1)
	if [ -n "$miss" ]; then
		echo "SKIP: $id (known miss: $miss)"
		return 0
	fi
	case $file in
	*.cpp) drv=$BIN/ucsan-c++ ;;
	*) drv=$BIN/ucsan-cc ;;
	esac
	case $cc in
	gcc) cxx=g++ ;;
	clang) cxx=clang++ ;;
	*) cxx=$cc++ ;;
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
	tries=$(directive "$src" TRIES | tail -n 1)
	tries=${tries:-1}
	repeat=$(directive "$src" REPEAT | tail -n 1)
	repeat=${repeat:-1}
	[ "$repeat" -ge 1 ] 2>/dev/null || repeat=1
	[ -n "${E2E_TRIES_MAX:-}" ] && [ "$tries" -gt "$E2E_TRIES_MAX" ] &&
		tries=$E2E_TRIES_MAX
	tmo=$(directive "$src" TIMEOUT | tail -n 1)
	tmo=${tmo:-60}
	exp_exit=$(directive "$src" EXIT | tail -n 1)
	exp_exit=${exp_exit:-0}
	expects=$(directive "$src" EXPECT)
	frames=$(directive "$src" EXPECT-FRAME)
	nots=$(directive "$src" NOT)
	stdout_expects=$(directive "$src" EXPECT-STDOUT)
	checks=$(directive "$src" CHECK)

	if ! command -v "$cc" >/dev/null 2>&1; then
		echo "FAIL: $id"
		echo "  compiler '$cc' is not installed"
		return 1
	fi
	if [ ! -x "$drv" ]; then
		echo "FAIL: $id"
		echo "  $drv does not exist (run make first)"
		return 1
	fi

	# Build: shared libraries first, then the program.
	: >"$log"
	link=''
	for lib in $(directive "$src" SHARED); do
		libname=$(basename "$lib")
		libname=${libname%.*}
		case $libname in lib*) ;; *) libname=lib$libname ;; esac
		case $lib in *.cpp) ldrv=$BIN/ucsan-c++ ;; *) ldrv=$BIN/ucsan-cc ;; esac
		echo "+ UCSAN_CC=$cc UCSAN_CXX=$cxx $ldrv $cflags -fPIC -shared -Wl,-soname,$libname.so -I$SUPPORT -I$E2E -o $out/$libname.so $E2E/$lib" >>"$log"
		# shellcheck disable=SC2086
		if ! UCSAN_CC=$cc UCSAN_CXX=$cxx "$ldrv" $cflags -fPIC -shared \
			-Wl,-soname,"$libname.so" -I"$SUPPORT" -I"$E2E" \
			-o "$out/$libname.so" "$E2E/$lib" >>"$log" 2>&1; then
			echo "FAIL: $id"
			echo "  building shared library $lib failed:"
			tail_indented "$log"
			return 1
		fi
		link="$link $out/$libname.so"
	done
	[ -n "$link" ] && link="$link -Wl,-rpath,$out"
	echo "+ UCSAN_CC=$cc UCSAN_CXX=$cxx $drv $cflags -pthread -I$SUPPORT -I$E2E -o $exe $src$link $libs" >>"$log"
	# shellcheck disable=SC2086
	if ! UCSAN_CC=$cc UCSAN_CXX=$cxx "$drv" $cflags -pthread \
		-I"$SUPPORT" -I"$E2E" -o "$exe" "$src" $link $libs >>"$log" 2>&1; then
		echo "FAIL: $id"
		echo "  build failed:"
		tail_indented "$log"
		return 1
	fi

	# Run until the expectations hold, at most $tries times; all that
	# $repeat times.
	r=0 ok=0
	while [ "$r" -lt "$repeat" ]; do
		r=$((r + 1))
		n=0 ok=0
		while [ "$n" -lt "$tries" ]; do
			n=$((n + 1))
			# shellcheck disable=SC2086
			(cd "$out" && UCSAN_OPTIONS=$opts exec timeout -k 5 "$tmo" \
				"./$name" $args >"$name.stdout" 2>"$name.stderr")
			rc=$?
			if check "$out/$name.stderr" "$rc"; then
				ok=1
				break
			fi
			[ "$fatal" = 1 ] && break
		done
		[ "$ok" = 1 ] || break
	done
	if [ "$ok" = 1 ]; then
		echo "PASS: $id"
		if [ -z "${E2E_VERBOSE:-}" ]; then
			:
		elif [ "$repeat" -gt 1 ]; then
			echo "  ($repeat repetitions, the last in run $n of $tries)"
		else
			echo "  (run $n of $tries)"
		fi
		return 0
	fi
	echo "FAIL: $id"
	[ "$repeat" -gt 1 ] && echo "  in repetition $r of $repeat:"
	echo "  after $n of $tries run(s): UCSAN_OPTIONS='$opts' build/tests/$SUITE/$cc/$name${args:+ $args}"
	[ "$rc" = 124 ] || [ "$rc" = 137 ] &&
		echo "  (the run timed out after ${tmo}s)"
	printf '%s' "$fails" | sed 's/^/  /'
	tail_indented "$out/$name.stderr"
	return 1
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
pass=0 fail=0 start=$(date +%s)
for cc in $COMPILERS; do
	for src in $tests; do
		if run_test "$src" "$cc"; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1))
		fi
	done
done
echo "e2e: $pass passed, $fail failed in $(($(date +%s) - start))s" >&2
[ "$fail" -eq 0 ]
