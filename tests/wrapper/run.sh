#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Tests for the compiler wrapper (build/bin/ucsan-cc, build/bin/ucsan-c++):
# compile-only, link-only and one-step builds, C++, shared libraries, odd
# paths, make, CMake and configure-style projects, and the flags the wrapper
# must and must not add, under gcc and clang.
#
# Usage: tests/wrapper/run.sh            (from anywhere; see tests/PROTOCOL.md)
# Environment:
#   WRAPPER_COMPILERS  compilers to use (default "gcc clang"; the C++
#                      compiler is g++ for gcc, clang++ for clang)
#   WRAPPER_BUILD      tree holding bin/, lib/ and include/ (default build/)
#
# Output: one PASS/FAIL line per check, named wrapper/<compiler>/<check>;
# artifacts in build/tests/wrapper/<compiler>/.  Portable sh (runs under
# dash); needs nm, readelf, make and cmake.

set -u
unset CDPATH UCSAN_CC_TRACE UCSAN_CC_ACTIVE

SUITE=wrapper
. "$(dirname "$0")/../lib/suite.sh"
BUILD=${WRAPPER_BUILD:-$ROOT/build}
OUTROOT=$ROOT/build/tests/wrapper
COMPILERS=${WRAPPER_COMPILERS:-gcc clang}

# run LOG CMD...: run CMD with all output in LOG, whose first line is the
# command itself.
run() {
	log=$1
	shift
	{ printf '$'; printf ' %s' "$@"; echo; } >"$log"
	"$@" >>"$log" 2>&1
}

# quiet LOG: true if the command logged in LOG printed nothing.
quiet() {
	[ "$(wc -l <"$1")" -le 1 ]
}

# Run a program with a time limit.
if have timeout; then
	TIMEOUT="timeout 60"
else
	TIMEOUT=
fi

# runs LOG EXPECTED PROG [ARGS...]: run PROG, require exit status 0 and a
# line EXPECTED on stdout.  Sets $why on failure.
runs() {
	log=$1 expected=$2
	shift 2
	why=
	run "$log" $TIMEOUT "$@"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		why="$1 exited with status $rc (expected 0)"
	elif ! grep -qxF -e "$expected" "$log"; then
		why="$1 did not print '$expected'"
	fi
	[ -z "$why" ]
}

# instrumented OBJECT: the object calls into the tsan ABI.  Sets $why.
instrumented() {
	why=
	syms=$(nm "$1" 2>&1) || { why="nm $1 failed: $syms"; return 1; }
	for s in __tsan_init; do
		printf '%s\n' "$syms" | grep -q " U $s\$" ||
			why="${why}$1 does not reference $s$NL"
	done
	printf '%s\n' "$syms" |
		grep -Eq ' U __tsan_(unaligned_)?(volatile_)?(read|write|read_write)[0-9]+$' ||
		why="${why}$1 has no __tsan_read*/__tsan_write* reference$NL"
	[ -z "$why" ]
}

# calls_tsan PROGRAM: the program's code calls __tsan_read*/__tsan_write*,
# ucsan-entry.o's copies (direct calls) or libucsan.so's (undefined).
calls_tsan() {
	nm "$1" 2>/dev/null | grep -Eq ' U __tsan_(read|write|read_write)[0-9]+$' ||
		objdump -d "$1" 2>/dev/null | grep -Eq 'call.*<__tsan_(read|write|read_write)[0-9]+>'
}

# entry_ok PROGRAM: the program carries ucsan-entry.o and exports the state
# its entry points read, so that libucsan.so binds to it.  Sets $why.
entry_ok() {
	why=
	dsyms=$(nm -D --defined-only "$1" 2>&1) || { why="nm -D $1 failed: $dsyms"; return 1; }
	for s in __tsan_read4 __tsan_write4 ucsan_ctx_tls ucsan_hot ucsan_sites_cold; do
		printf '%s\n' "$dsyms" | grep -q " $s\$" || why="${why}$1 does not export $s$NL"
	done
	[ -z "$why" ]
}

# both_sides PROG [MAIN_FRAME]: runs one_state.c's PROG, 10 times at most,
# until it reports its race with a frame of lib_bump and one of main
# (matching the extended regexp MAIN_FRAME). Sets $found and $i; the last
# run's output is in PROG.out and PROG.err.
both_sides() {
	found=
	i=0
	while [ "$i" -lt 10 ] && [ -z "$found" ]; do
		i=$((i + 1))
		$TIMEOUT "$1" >"$1.out" 2>"$1.err"
		grep -q '^attached=1$' "$1.out" || break
		grep -Eq '^BUG: UCSAN: data-race in (lib_bump / main|main / lib_bump)$' "$1.err" &&
			grep -q '^ lib_bump+' "$1.err" && grep -Eq "${2:-^ main\+}" "$1.err" && found=yes
	done
}

# linked_ok ELF: libucsan.so is NEEDED and found through the run path; no
# libtsan or clang_rt tsan runtime, neither dynamic nor static.  Sets $why.
linked_ok() {
	why=
	dyn=$(readelf -d "$1" 2>&1) || { why="readelf -d $1 failed: $dyn"; return 1; }
	printf '%s\n' "$dyn" | grep -q 'NEEDED.*\[libucsan\.so\]' ||
		why="${why}$1: libucsan.so is not NEEDED$NL"
	if printf '%s\n' "$dyn" | grep -Eq 'NEEDED.*(tsan|clang_rt)'; then
		why="${why}$1 needs a compiler tsan runtime:$NL$(printf '%s\n' "$dyn" | grep NEEDED)$NL"
	fi
	rpath=$(printf '%s\n' "$dyn" | sed -n 's/.*(R[UN]*PATH).*\[\(.*\)\]$/\1/p')
	case ":$(printf '%s' "$rpath" | tr '\n' ':'):" in
	*":$LIBDIR:"*) ;;
	*) why="${why}$1: run path '$rpath' does not contain $LIBDIR$NL" ;;
	esac
	# ucsan-entry.o defines __tsan_read4 (with ucsan_hot) in programs,
	# never __tsan_init; a compiler's static tsan runtime defines both.
	syms=$(nm "$1" 2>/dev/null)
	if printf '%s\n' "$syms" | grep -Eq ' [TtWw] __tsan_init$' ||
	   { printf '%s\n' "$syms" | grep -Eq ' [TtWw] __tsan_read4$' &&
	     ! printf '%s\n' "$syms" | grep -Eq ' [BbDd] ucsan_hot$'; }; then
		why="${why}$1 defines __tsan_* itself: a static tsan runtime was linked$NL"
	fi
	# A program carries the entry points; a library never does: it uses
	# the program's.
	prev=$why
	if readelf -h "$1" 2>/dev/null | grep -q 'Type: *EXEC' ||
	   readelf -d "$1" 2>/dev/null | grep -q 'FLAGS_1.*PIE'; then
		entry_ok "$1"
	elif printf '%s\n' "$syms" | grep -Eq ' [BbDd] ucsan_hot$'; then
		why="$1 is a library but carries ucsan-entry.o$NL"
	else
		why=
	fi
	why=$prev$why
	[ -z "$why" ]
}

# addbin FILE...: remember linked programs and libraries for dynamic-deps.
addbin() {
	for f do
		printf '%s\n' "$f" >>"$D/binaries.txt"
	done
}

# ---------------------------------------------------------------------------
# Is there anything to test?

CCW=$BUILD/bin/ucsan-cc
CXXW=$BUILD/bin/ucsan-c++
missing=
for f in "$CCW" "$CXXW"; do
	[ -x "$f" ] || missing="$missing$f is missing or not executable$NL"
done
[ -f "$BUILD/lib/libucsan.so" ] ||
	missing="$missing$BUILD/lib/libucsan.so is missing: build the runtime with 'make' first$NL"
if [ -n "$missing" ]; then
	fail build "${missing%"$NL"}"
	exit 1
fi
LIBDIR=$(cd "$BUILD/lib" && pwd -P)
INCDIR=$(cd "$BUILD/include" 2>/dev/null && pwd -P) || INCDIR=$BUILD/include

# ---------------------------------------------------------------------------
# Sources shared by all checks.

SRC=$OUTROOT/src
rm -rf "$SRC"
mkdir -p "$SRC/dir with spaces/inc" || exit 2

cat >"$SRC/a.c" <<'EOF'
#include <stdio.h>
int counter;
int add(int x);
int main(void)
{
	for (int i = 2; i < 8; i++)
		add(i);
	printf("sum=%d\n", counter);
	return counter == 27 ? 0 : 1;
}
EOF
cat >"$SRC/b.c" <<'EOF'
extern int counter;
int add(int x)
{
	counter += x;
	return counter;
}
EOF
cat >"$SRC/t.cc" <<'EOF'
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>
struct Shape { virtual ~Shape() {} virtual int sides() const = 0; };
struct Tri : Shape { int sides() const override { return 3; } };
struct Sq : Shape { int sides() const override { return 4; } };
static int total(const std::vector<Shape *> &v)
{
	int n = 0;
	for (const Shape *s : v)
		n += s->sides();
	return n;
}
int main()
{
	std::vector<Shape *> v{new Tri, new Sq, new Tri};
	std::map<std::string, int> m;
	m["sides"] = total(v);
	try {
		throw std::runtime_error("boom");
	} catch (const std::exception &e) {
		m[e.what()] = 1;
	}
	for (Shape *s : v)
		delete s;
	std::cout << "c++ sides=" << m["sides"] << " boom=" << m["boom"] << std::endl;
	return m["sides"] == 10 ? 0 : 1;
}
EOF
cat >"$SRC/shlib.c" <<'EOF'
static int shared_counter;
int shared_add(int x)
{
	return shared_counter += x;
}
EOF
cat >"$SRC/bump.c" <<'EOF'
void lib_bump(int *p, int n)
{
	for (int i = 0; i < n; i++)
		(*p)++;
}
EOF
cat >"$SRC/one_state.c" <<'EOF'
#include <pthread.h>
#include <stdio.h>
void lib_bump(int *p, int n);
int __ucsan_debug_entry_attached(void);
int both_sides;
static void *from_library(void *arg)
{
	(void)arg;
	lib_bump(&both_sides, 2000000);
	return NULL;
}
int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, from_library, NULL);
	for (int i = 0; i < 2000000; i++)
		both_sides++;
	pthread_join(t, NULL);
	printf("attached=%d\n", __ucsan_debug_entry_attached());
	return 0;
}
EOF
cat >"$SRC/flags.c" <<'EOF'
int plain;
volatile int vol;
int counter;
int ignored_fn(void)
{
	return plain + 1;
}
int flags_fn(void)
{
	counter += 1;
	__atomic_fetch_add(&plain, 1, __ATOMIC_RELAXED);
	return plain + vol;
}
EOF
cat >"$SRC/main_shared.c" <<'EOF'
#include <stdio.h>
int shared_add(int x);
int main(void)
{
	shared_add(40);
	printf("shared=%d\n", shared_add(2));
	return 0;
}
EOF
# Uninstrumented program loading an instrumented library.
cat >"$SRC/dlopen.c" <<'EOF'
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv)
{
	void *h = dlopen(argc > 1 ? argv[1] : "", RTLD_NOW);
	if (!h) {
		printf("dlopen: %s\n", dlerror());
		return 1;
	}
	int (*f)(int) = (int (*)(int))dlsym(h, "shared_add");
	if (!f) {
		printf("dlsym: %s\n", dlerror());
		return 1;
	}
	f(40);
	printf("dlopen=%d\n", f(2));
	return 0;
}
EOF
cat >"$SRC/dir with spaces/inc/msg header.h" <<'EOF'
#define GREETING "from a header"
EOF
cat >"$SRC/dir with spaces/my prog.c" <<'EOF'
#include <stdio.h>
#include "msg header.h"
int main(void)
{
	printf("%s|%s\n", MSG, GREETING);
	return 0;
}
EOF
cat >"$SRC/features.c" <<'EOF'
#ifdef __SANITIZE_THREAD__
sanitize_thread_macro
#endif
#ifdef __has_feature
#if __has_feature(thread_sanitizer)
has_feature_thread_sanitizer
#endif
#endif
EOF
cat >"$SRC/header.c" <<'EOF'
#include <ucsan.h>
EOF
cat >"$SRC/words.c" <<'EOF'
#include <stdio.h>
int main(void)
{
	printf("words=%d\n", FROM_UCSAN_CC);
	return 0;
}
EOF

# A make project: pattern rules, dependency files, a separate link step.
mkdir -p "$SRC/make"
cp "$SRC/a.c" "$SRC/b.c" "$SRC/make/"
printf '%s\n' \
	'OBJS = a.o b.o' \
	'prog: $(OBJS)' \
	'	$(CC) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS)' \
	'%.o: %.c' \
	'	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<' \
	'-include $(OBJS:.o=.d)' >"$SRC/make/Makefile"

# A CMake project: C and C++, a shared library and two programs.
mkdir -p "$SRC/cmake"
cp "$SRC/shlib.c" "$SRC/main_shared.c" "$SRC/t.cc" "$SRC/cmake/"
cat >"$SRC/cmake/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.13)
project(wrappertest C CXX)
add_library(shared SHARED shlib.c)
add_executable(prog main_shared.c)
target_link_libraries(prog shared)
add_executable(cxxprog t.cc)
EOF

# A configure-style project, probing $CC the way autoconf does.
mkdir -p "$SRC/configure"
cp "$SRC/a.c" "$SRC/b.c" "$SRC/configure/"
cat >"$SRC/configure/configure" <<'EOF'
#!/bin/sh
# Tiny autoconf-style configure: probes $CC, writes config.h and Makefile.
: "${CC:=cc}" "${CFLAGS:=-O2}"
exec 5>config.log
rm -f conftest*
for opt in --version -v -V -qversion; do
	echo "configure: $CC $opt" >&5
	$CC $opt >&5 2>&1
done
printf 'checking whether the C compiler works... '
printf 'int main(void) { return 0; }\n' >conftest.c
if $CC $CFLAGS conftest.c -o conftest >&5 2>&1 && ./conftest; then
	echo yes
else
	echo no; echo "configure: error: C compiler cannot create executables" >&2; exit 77
fi
printf 'checking for suffix of object files... '
rm -f conftest.o
if $CC $CFLAGS -c conftest.c >&5 2>&1 && test -f conftest.o; then
	echo o
else
	echo "configure: error: cannot compile" >&2; exit 1
fi
printf 'checking how to run the C preprocessor... '
printf '#include <limits.h>\nint x = INT_MAX;\n' >conftest.c
if $CC -E conftest.c >conftest.i 2>&5 && grep -q 'int x' conftest.i; then
	printf '#include <ac_nonexistent.h>\n' >conftest.c
	if $CC -E conftest.c >/dev/null 2>&5; then
		echo "configure: error: $CC -E accepts missing headers" >&2; exit 1
	fi
	echo "$CC -E"
else
	echo "configure: error: $CC -E does not work" >&2; exit 1
fi
printf 'checking for pthread_create... '
printf 'char pthread_create(void);\nint main(void) { return pthread_create != 0 ? 0 : 1; }\n' >conftest.c
if $CC $CFLAGS conftest.c -o conftest >&5 2>&1; then
	echo yes; have_pthread=1
else
	echo no; have_pthread=0
fi
printf 'checking for __SANITIZE_THREAD__... '
printf '#ifndef __SANITIZE_THREAD__\n#error no\n#endif\n' >conftest.c
if $CC $CFLAGS -c conftest.c -o conftest.o >&5 2>&1; then
	echo yes; tsan=1
else
	echo no; tsan=0
fi
rm -f conftest*
printf '#define HAVE_PTHREAD_CREATE %s\n#define HAVE_SANITIZE_THREAD %s\n' \
	"$have_pthread" "$tsan" >config.h
printf 'CC = %s\nCFLAGS = %s\n' "$CC" "$CFLAGS" >Makefile
cat >>Makefile <<'MK'
prog: a.o b.o
	$(CC) $(CFLAGS) -o $@ a.o b.o
.c.o:
	$(CC) $(CFLAGS) -c $<
MK
echo "configure: wrote config.h and Makefile"
EOF
chmod +x "$SRC/configure/configure"

# ---------------------------------------------------------------------------
# The pkg-config file made from ucsan.pc.in.

PC=$BUILD/lib/pkgconfig/ucsan.pc
if ! have pkg-config; then
	fail pkg-config "pkg-config is not installed"
elif [ ! -f "$PC" ]; then
	fail pkg-config "$PC does not exist"
elif ! out=$(PKG_CONFIG_PATH=${PC%/*} pkg-config --cflags --libs ucsan 2>&1); then
	fail pkg-config "pkg-config --cflags --libs ucsan failed:$NL$out"
else
	why=
	case " $out " in *" -L$LIBDIR "*|*" -L$BUILD/lib "*) ;; *) why="${why}no -L<libdir>$NL" ;; esac
	case " $out " in *" -Wl,-rpath,$LIBDIR "*|*" -Wl,-rpath,$BUILD/lib "*) ;; *) why="${why}no -Wl,-rpath,<libdir>$NL" ;; esac
	case " $out " in *" -lucsan "*) ;; *) why="${why}no -lucsan$NL" ;; esac
	case " $out " in *" -I"*) ;; *) why="${why}no -I<includedir>$NL" ;; esac
	case $out in *@*) why="${why}unsubstituted @...@ placeholder$NL" ;; esac
	if [ -z "$why" ]; then
		pass pkg-config
	else
		fail pkg-config "pkg-config --cflags --libs ucsan printed:$NL  $out$NL$why"
	fi
fi

# ---------------------------------------------------------------------------
# The checks, per compiler.

for k in $COMPILERS; do
	GROUP=$k
	cxx=$(cxx_of "$k")
	if ! have "$k" || ! have "$cxx"; then
		fail compilers "$k or $cxx is not installed"
		continue
	fi
	UCSAN_CC=$k
	UCSAN_CXX=$cxx
	export UCSAN_CC UCSAN_CXX
	D=$OUTROOT/$k
	rm -rf "$D"
	mkdir -p "$D" || exit 2
	: >"$D/binaries.txt"

	# --- queries pass through untouched
	why=
	for q in --version -dumpmachine -dumpversion; do
		want=$($k $q 2>&1)
		got=$("$CCW" $q 2>&1)
		[ "$got" = "$want" ] || why="${why}ucsan-cc $q printed:$NL$got${NL}but $k $q prints:$NL$want$NL"
	done
	want=$($cxx --version 2>&1)
	got=$("$CXXW" --version 2>&1)
	[ "$got" = "$want" ] || why="${why}ucsan-c++ --version printed:$NL$got${NL}but $cxx --version prints:$NL$want$NL"
	if [ -z "$why" ]; then pass version; else fail version "$why"; fi

	# --- preprocessing: instrumentation macros, our include directory
	if ! run "$D/features.log" "$CCW" -E -P "$SRC/features.c"; then
		fail_log preprocess "ucsan-cc -E failed" "$D/features.log"
	elif [ "$k" = gcc ] && ! grep -qx sanitize_thread_macro "$D/features.log"; then
		fail_log preprocess "__SANITIZE_THREAD__ is not defined under gcc" "$D/features.log"
	elif [ "$k" != gcc ] && ! grep -qx has_feature_thread_sanitizer "$D/features.log"; then
		fail_log preprocess "__has_feature(thread_sanitizer) is false" "$D/features.log"
	else
		pass preprocess
	fi
	if [ ! -f "$INCDIR/ucsan.h" ]; then
		fail include-dir "$INCDIR/ucsan.h does not exist"
	elif ! run "$D/header.log" "$CCW" -E "$SRC/header.c"; then
		fail_log include-dir "#include <ucsan.h> failed" "$D/header.log"
	elif ! grep -qF "\"$INCDIR/ucsan.h\"" "$D/header.log"; then
		fail_log include-dir "<ucsan.h> was not taken from $INCDIR" "$D/header.log"
	else
		pass include-dir
	fi

	# --- compile only, then link only
	if ! run "$D/compile.log" "$CCW" -O2 -c "$SRC/a.c" -o "$D/a.o" ||
	   ! run "$D/compile-b.log" "$CCW" -O2 -c "$SRC/b.c" -o "$D/b.o"; then
		fail_log compile-only "compiling failed" "$D/compile.log"
	elif [ ! -f "$D/a.o" ] || [ ! -f "$D/b.o" ]; then
		fail_log compile-only "no object files produced" "$D/compile.log"
	elif ! quiet "$D/compile.log"; then
		fail_log compile-only "compiling printed diagnostics" "$D/compile.log"
	else
		pass compile-only
	fi
	if instrumented "$D/a.o" && instrumented "$D/b.o"; then
		pass objects-instrumented
	else
		fail objects-instrumented "$why"
	fi
	# -Werror: clang must not warn about unused instrumentation flags.
	if ! run "$D/link.log" "$CCW" -Werror "$D/a.o" "$D/b.o" -o "$D/linked"; then
		fail_log link-only "linking objects failed" "$D/link.log"
	elif ! quiet "$D/link.log"; then
		fail_log link-only "linking printed diagnostics" "$D/link.log"
	elif ! runs "$D/linked.run" sum=27 "$D/linked"; then
		fail_log link-only "$why" "$D/linked.run"
	else
		pass link-only
	fi
	addbin "$D/linked"

	# --- compile and link in one command
	if ! run "$D/one.log" "$CCW" -O2 "$SRC/a.c" "$SRC/b.c" -o "$D/onestep"; then
		fail_log compile-and-link "compile-and-link failed" "$D/one.log"
	elif ! quiet "$D/one.log"; then
		fail_log compile-and-link "printed diagnostics" "$D/one.log"
	elif ! calls_tsan "$D/onestep"; then
		fail compile-and-link "the program is not instrumented (no __tsan_read4/write4)"
	elif ! runs "$D/onestep.run" sum=27 "$D/onestep"; then
		fail_log compile-and-link "$why" "$D/onestep.run"
	else
		pass compile-and-link
	fi
	addbin "$D/onestep"

	# --- relocatable link (-r gets no runtime), then a final link
	if ! run "$D/r.log" "$CCW" -r "$D/a.o" "$D/b.o" -o "$D/ab.o"; then
		fail_log relocatable-link "ucsan-cc -r failed" "$D/r.log"
	elif readelf -d "$D/ab.o" 2>/dev/null | grep -q NEEDED; then
		fail relocatable-link "-r output has dynamic dependencies"
	elif ! run "$D/r2.log" "$CCW" "$D/ab.o" -o "$D/fromr" ||
	     ! runs "$D/fromr.run" sum=27 "$D/fromr"; then
		fail_log relocatable-link "linking the -r object failed: $why" "$D/r2.log"
	else
		pass relocatable-link
	fi
	addbin "$D/fromr"

	# --- C++, compiled then linked, and in one step
	if ! run "$D/cxx.log" "$CXXW" -O1 -c "$SRC/t.cc" -o "$D/t.o"; then
		fail_log c++ "ucsan-c++ -c failed" "$D/cxx.log"
	elif ! instrumented "$D/t.o"; then
		fail c++ "$why"
	elif ! run "$D/cxx-link.log" "$CXXW" -Werror "$D/t.o" -o "$D/cxxprog"; then
		fail_log c++ "ucsan-c++ link failed" "$D/cxx-link.log"
	elif ! runs "$D/cxxprog.run" "c++ sides=10 boom=1" "$D/cxxprog"; then
		fail_log c++ "$why" "$D/cxxprog.run"
	elif ! run "$D/cxx1.log" "$CXXW" "$SRC/t.cc" -o "$D/cxxprog1"; then
		fail_log c++ "ucsan-c++ compile-and-link failed" "$D/cxx1.log"
	elif ! runs "$D/cxxprog1.run" "c++ sides=10 boom=1" "$D/cxxprog1"; then
		fail_log c++ "$why" "$D/cxxprog1.run"
	else
		pass c++
	fi
	addbin "$D/cxxprog" "$D/cxxprog1"

	# --- an instrumented shared library and a program using it
	L="$D/lib dir"
	mkdir -p "$L"
	if ! run "$D/shlib.log" "$CCW" -fPIC -shared "$SRC/shlib.c" -o "$L/libshared.so"; then
		fail_log shared-library "building the library failed" "$D/shlib.log"
	elif ! run "$D/shmain.log" "$CCW" "$SRC/main_shared.c" -L"$L" -lshared \
	     "-Wl,-rpath,$L" -o "$D/shmain"; then
		fail_log shared-library "linking against the library failed" "$D/shmain.log"
	elif ! runs "$D/shmain.run" shared=42 "$D/shmain"; then
		fail_log shared-library "$why" "$D/shmain.run"
	else
		pass shared-library
	fi
	addbin "$L/libshared.so" "$D/shmain"

	# --- one state per process: a program and a library, both built by
	# us, race on one variable from both sides. The program's entry points
	# attach to the runtime (one context per thread, one gate), and the
	# race is reported with a frame on each side.
	if ! run "$D/bump.log" "$CCW" -O1 -fPIC -shared "$SRC/bump.c" -o "$L/libbump.so" ||
	   ! run "$D/onestate.log" "$CCW" -O1 "$SRC/one_state.c" -L"$L" -lbump "-Wl,-rpath,$L" -o "$D/onestate"; then
		fail_log one-state "build failed" "$D/onestate.log"
	elif ! entry_ok "$D/onestate"; then
		fail one-state "$why"
	else
		both_sides "$D/onestate"
		if ! grep -q '^attached=1$' "$D/onestate.out"; then
			fail_log one-state "the program's entry points did not attach to the runtime" "$D/onestate.out"
		elif [ -z "$found" ]; then
			fail_log one-state "no report with a frame on each side in $i runs" "$D/onestate.err"
		else
			pass one-state
		fi
	fi
	# ... and a program whose state is hidden from the runtime (a version
	# script) must stop with the reason, not run with two contexts.
	printf '{ local: *; };\n' >"$D/hide.map"
	if ! run "$D/hidden.log" "$CCW" -O1 "$SRC/a.c" "$SRC/b.c" "-Wl,--version-script=$D/hide.map" -o "$D/hidden"; then
		fail_log hidden-state "build failed" "$D/hidden.log"
	else
		$TIMEOUT "$D/hidden" >"$D/hidden.out" 2>"$D/hidden.err"
		rc=$?
		if [ "$rc" != 1 ] || ! grep -q "^UCSAN: error: the executable's ucsan entry points" "$D/hidden.err"; then
			fail_log hidden-state "exit status $rc, expected 1 and the error" "$D/hidden.err"
		else
			pass hidden-state
		fi
	fi
	# ... loaded by an uninstrumented program: the library must pull in
	# libucsan.so by itself.
	if ! run "$D/dlopen.log" "$k" "$SRC/dlopen.c" -o "$D/dlopen" -ldl; then
		fail_log shared-library-dlopen "building the plain program failed" "$D/dlopen.log"
	elif ! runs "$D/dlopen.run" dlopen=42 "$D/dlopen" "$L/libshared.so"; then
		fail_log shared-library-dlopen "$why" "$D/dlopen.run"
	else
		pass shared-library-dlopen
	fi

	# --- spaces and quotes in paths and arguments
	S="$SRC/dir with spaces"
	O="$D/out dir"
	mkdir -p "$O"
	if ! run "$D/spaces.log" "$CCW" "-DMSG=\"it's \\\"quoted\\\",  spaced\"" \
	     -I"$S/inc" -c "$S/my prog.c" -o "$O/my prog.o" ||
	   ! run "$D/spaces2.log" "$CCW" "$O/my prog.o" -o "$O/my prog"; then
		fail_log spaces-in-paths "build failed" "$D/spaces.log"
	elif ! runs "$D/spaces.run" "it's \"quoted\",  spaced|from a header" "$O/my prog"; then
		fail_log spaces-in-paths "$why" "$D/spaces.run"
	elif ! run "$D/spaces3.log" "$CCW" -DMSG='"one step"' -I"$S/inc" \
	     "$S/my prog.c" -o "$O/my prog 2" ||
	     ! runs "$D/spaces3.run" "one step|from a header" "$O/my prog 2"; then
		fail_log spaces-in-paths "one-step build: $why" "$D/spaces3.log"
	else
		pass spaces-in-paths
	fi
	addbin "$O/my prog"

	# --- UCSAN_CC with several words; a symlink to the wrapper
	if ! (UCSAN_CC="$k -DFROM_UCSAN_CC=7" && export UCSAN_CC &&
	      run "$D/words.log" "$CCW" "$SRC/words.c" -o "$D/words") ||
	   ! runs "$D/words.run" words=7 "$D/words"; then
		fail_log compiler-with-words "UCSAN_CC='$k -DFROM_UCSAN_CC=7': $why" "$D/words.log"
	else
		pass compiler-with-words
	fi
	mkdir -p "$D/links"
	ln -sf "$CCW" "$D/links/mycc"
	if ! run "$D/symlink.log" "$D/links/mycc" "$SRC/a.c" "$SRC/b.c" -o "$D/viasymlink"; then
		fail_log symlink "building through a symlink failed" "$D/symlink.log"
	elif ! runs "$D/viasymlink.run" sum=27 "$D/viasymlink"; then
		fail_log symlink "$why" "$D/viasymlink.run"
	else
		pass symlink
	fi
	addbin "$D/viasymlink"

	# --- the user's flags come after ours and win
	if ! run "$D/g0.log" "$CCW" -g0 -c "$SRC/b.c" -o "$D/g0.o"; then
		fail_log user-flags-win "compiling with -g0 failed" "$D/g0.log"
	elif readelf -S "$D/g0.o" | grep -q '\.debug_info'; then
		fail user-flags-win "-g0 did not override the wrapper's -g"
	elif ! run "$D/g.log" "$CCW" -c "$SRC/b.c" -o "$D/g.o" ||
	     ! readelf -S "$D/g.o" | grep -q '\.debug_info'; then
		fail user-flags-win "the wrapper does not add -g"
	else
		pass user-flags-win
	fi

	# --- flags written for ThreadSanitizer: accepted, merged with ours, and
	# the user's setting wins (ucsan-cc(1), "Flags the user may set")
	printf 'fun:ignored_fn\n' >"$D/ignore.txt"
	why=
	# flag_case NAME "FLAGS" GREP-ERE [!]: compile flags.c with FLAGS; the
	# object's symbols must (or, with !, must not) match GREP-ERE.
	flag_case() {
		# shellcheck disable=SC2086
		if ! run "$D/flag-$1.log" "$CCW" -O1 $2 -c "$SRC/flags.c" -o "$D/flag-$1.o" || ! quiet "$D/flag-$1.log"; then
			why="$why$1: '$2' failed or printed diagnostics: $(head -n 3 "$D/flag-$1.log" | tail -n 2 | tr '\n' ' ')$NL"
			return
		fi
		if nm "$D/flag-$1.o" | grep -Eq "$3"; then
			[ "${4-}" = '!' ] && why="$why$1: '$2': the object has symbols matching $3$NL"
		else
			[ "${4-}" = '!' ] || why="$why$1: '$2': no symbol matches $3$NL"
		fi
	}
	if [ "$k" = clang ]; then
		flag_case fee-mllvm "-mllvm -tsan-instrument-func-entry-exit=true" ' U __tsan_func_entry$'
		flag_case fee-on "-fsanitize-thread-func-entry-exit" ' U __tsan_func_entry$'
		flag_case fee-off "-fno-sanitize-thread-func-entry-exit" ' U __tsan_func_entry$' '!'
		flag_case volatile-off "-mllvm -tsan-distinguish-volatile=0" ' U __tsan_volatile_read4$' '!'
		flag_case volatile-on "-mllvm -tsan-distinguish-volatile=1" ' U __tsan_volatile_read4$'
		flag_case compound-off "-mllvm -tsan-compound-read-before-write=0" ' U __tsan_read_write4$' '!'
		flag_case compound-on "-mllvm --tsan-compound-read-before-write=1" ' U __tsan_read_write4$'
		flag_case no-memory "-fno-sanitize-thread-memory-access" ' U __tsan_(read|write)4$' '!'
		flag_case no-atomics "-fno-sanitize-thread-atomics" ' U __tsan_atomic32_fetch_add$' '!'
		flag_case ignorelist "-fsanitize-ignorelist=$D/ignore.txt" ' U __tsan_read4$'
		flag_case blacklist "-fsanitize-blacklist=$D/ignore.txt" ' U __tsan_read4$'
	else
		flag_case fee-param "--param=tsan-instrument-func-entry-exit=1" ' U __tsan_func_entry$'
		flag_case volatile-param "--param tsan-distinguish-volatile=0" ' U __tsan_volatile_read4$' '!'
	fi
	flag_case twice "-fsanitize=thread -fsanitize=thread" ' U __tsan_read4$'
	flag_case off "-fno-sanitize=thread" ' U __tsan_' '!'
	# The ignore list: the listed function calls nothing, the other does.
	if [ "$k" = clang ] && [ -f "$D/flag-ignorelist.o" ] &&
	   objdump -dr "$D/flag-ignorelist.o" | awk '/<ignored_fn>:/,/ret/' | grep -q '__tsan_read'; then
		why="${why}ignorelist: ignored_fn is still instrumented$NL"
	fi
	if [ -z "$why" ]; then
		pass user-tsan-flags
	else
		fail user-tsan-flags "$why"
	fi

	# --- the user's own -fsanitize=thread must not bring in a tsan runtime
	if ! run "$D/usertsan.log" "$CCW" -fsanitize=thread "$SRC/a.c" "$SRC/b.c" -o "$D/usertsan"; then
		fail_log user-fsanitize-thread "build failed" "$D/usertsan.log"
	elif ! runs "$D/usertsan.run" sum=27 "$D/usertsan"; then
		fail_log user-fsanitize-thread "$why" "$D/usertsan.run"
	else
		pass user-fsanitize-thread
	fi
	addbin "$D/usertsan"

	# --- function entry/exit hooks only with --ucsan-weak-memory
	if run "$D/hooks.log" "$CCW" -O2 -c "$SRC/b.c" -o "$D/nohooks.o" &&
	   run "$D/hooks2.log" "$CCW" --ucsan-weak-memory -O2 -c "$SRC/b.c" -o "$D/hooks.o"; then
		if nm "$D/nohooks.o" | grep -q '__tsan_func_entry'; then
			fail func-hooks "function entry/exit emitted without --ucsan-weak-memory"
		elif ! nm "$D/hooks.o" | grep -q ' U __tsan_func_entry'; then
			fail func-hooks "--ucsan-weak-memory did not emit __tsan_func_entry"
		else
			pass func-hooks
		fi
	else
		fail_log func-hooks "build failed" "$D/hooks.log"
	fi

	# --- gcc: -flto must not lose the instrumentation
	if [ "$k" = gcc ]; then
		if ! run "$D/lto.log" "$CCW" -O2 -flto -c "$SRC/b.c" -o "$D/lto-b.o" ||
		   ! run "$D/lto2.log" "$CCW" -O2 -flto "$SRC/a.c" "$D/lto-b.o" -o "$D/lto"; then
			fail_log lto "build failed" "$D/lto.log"
		elif ! calls_tsan "$D/lto"; then
			fail lto "the -flto program is not instrumented"
		elif ! runs "$D/lto.run" sum=27 "$D/lto"; then
			fail_log lto "$why" "$D/lto.run"
		else
			pass lto
		fi
		addbin "$D/lto"
	fi

	# --- clang -flto: the entry points as bitcode, inlined at each access
	# of main (-O2), attached to the runtime, and a race on the access's
	# own line; -flto=thin links ucsan-entry.o.
	if [ "$k" = clang ] && [ -f "$LIBDIR/ucsan-entry-lto.o" ]; then
		if ! run "$D/ltob.log" "$CCW" -O1 -fPIC -shared "$SRC/bump.c" -o "$L/libltobump.so" ||
		   ! run "$D/clto.log" "$CCW" -v -O2 -flto "$SRC/one_state.c" -L"$L" -lltobump "-Wl,-rpath,$L" -o "$D/clto"; then
			fail_log clang-lto "build failed" "$D/clto.log"
		elif ! grep -q 'ucsan-entry-lto\.o' "$D/clto.log"; then
			fail_log clang-lto "ucsan-entry-lto.o was not linked" "$D/clto.log"
		elif objdump -d "$D/clto" | awk '/<main>:/,/^$/' | grep -Eq 'call.*<__tsan_(read|write|read_write)[0-9]+>'; then
			fail clang-lto "main still calls the entry points: not inlined"
		else
			both_sides "$D/clto" '^ main\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*one_state\.c:17$'
			if ! grep -q '^attached=1$' "$D/clto.out"; then
				fail_log clang-lto "the program's entry points did not attach to the runtime" "$D/clto.out"
			elif [ -z "$found" ]; then
				fail_log clang-lto "no report with main's frame at one_state.c:17 in $i runs" "$D/clto.err"
			else
				pass clang-lto
			fi
		fi
		if ! run "$D/thin.log" "$CCW" -v -O2 -flto=thin "$SRC/a.c" "$SRC/b.c" -o "$D/thin"; then
			fail_log clang-thinlto "build failed" "$D/thin.log"
		elif grep -q 'ucsan-entry-lto\.o' "$D/thin.log" || ! entry_ok "$D/thin"; then
			fail_log clang-thinlto "ucsan-entry.o was not the one linked ${why:-}" "$D/thin.log"
		elif ! runs "$D/thin.run" sum=27 "$D/thin"; then
			fail_log clang-thinlto "$why" "$D/thin.run"
		else
			pass clang-thinlto
		fi
		addbin "$D/clto" "$D/thin"
	fi

	# --- -static is refused with one clear line
	run "$D/static.log" "$CCW" -static "$SRC/a.c" "$SRC/b.c" -o "$D/static"
	rc=$?
	if [ "$rc" -eq 0 ]; then
		fail_log static-rejected "ucsan-cc -static succeeded" "$D/static.log"
	elif [ "$(wc -l <"$D/static.log")" -ne 2 ] || ! grep -q -- '-static.*shared' "$D/static.log"; then
		fail_log static-rejected "expected exactly one error line naming -static and the shared runtime" "$D/static.log"
	elif [ -e "$D/static" ]; then
		fail static-rejected "an output file was produced anyway"
	else
		pass static-rejected
	fi

	# --- no runtime next to the wrapper: linking fails clearly, compiling works
	mkdir -p "$D/nolib/bin" "$D/nolib/lib"
	cp "$CCW" "$D/nolib/bin/ucsan-cc"
	run "$D/nolib.log" "$D/nolib/bin/ucsan-cc" "$SRC/a.c" "$SRC/b.c" -o "$D/nolib/prog"
	rc=$?
	if [ "$rc" -ne 1 ]; then
		fail_log missing-runtime "linking without libucsan.so: exit status $rc, expected 1" "$D/nolib.log"
	elif [ "$(wc -l <"$D/nolib.log")" -ne 2 ] || ! grep -q 'libucsan\.so' "$D/nolib.log"; then
		fail_log missing-runtime "expected exactly one error line naming libucsan.so" "$D/nolib.log"
	elif ! run "$D/nolib-c.log" "$D/nolib/bin/ucsan-cc" -c "$SRC/b.c" -o "$D/nolib/b.o"; then
		fail_log missing-runtime "compiling (-c) without libucsan.so failed" "$D/nolib-c.log"
	else
		pass missing-runtime
	fi

	# --- a make project
	rm -rf "$D/make"
	cp -R "$SRC/make" "$D/make"
	if ! run "$D/make.log" make -C "$D/make" CC="$CCW" CFLAGS=-O2; then
		fail_log make "make CC=ucsan-cc failed" "$D/make.log"
	elif [ ! -f "$D/make/a.d" ] || ! instrumented "$D/make/a.o"; then
		fail_log make "no dependency file or uninstrumented object: $why" "$D/make.log"
	elif ! runs "$D/make.run" sum=27 "$D/make/prog"; then
		fail_log make "$why" "$D/make.run"
	else
		pass make
	fi
	addbin "$D/make/prog"

	# --- a CMake project
	if ! run "$D/cmake.log" cmake -S "$SRC/cmake" -B "$D/cmake" \
	     -DCMAKE_C_COMPILER="$CCW" -DCMAKE_CXX_COMPILER="$CXXW" ||
	   ! run "$D/cmake-build.log" cmake --build "$D/cmake"; then
		fail cmake "cmake configure or build failed" "$(tail_of "$D/cmake.log")" \
			"$(tail_of "$D/cmake-build.log")"
	elif ! runs "$D/cmake.run" shared=42 "$D/cmake/prog" ||
	     ! runs "$D/cmake-cxx.run" "c++ sides=10 boom=1" "$D/cmake/cxxprog"; then
		fail_log cmake "$why" "$D/cmake.run"
	else
		case $k in gcc) id=GNU ;; clang) id=Clang ;; *) id= ;; esac
		if [ -n "$id" ] && ! grep -q "CMAKE_C_COMPILER_ID \"$id\"" \
		     "$D"/cmake/CMakeFiles/*/CMakeCCompiler.cmake; then
			fail cmake "CMake did not identify the compiler as $id"
		else
			pass cmake
		fi
	fi
	addbin "$D/cmake/prog" "$D/cmake/libshared.so" "$D/cmake/cxxprog"

	# --- a configure-style project
	rm -rf "$D/configure"
	cp -R "$SRC/configure" "$D/configure"
	if ! (cd "$D/configure" && CC=$CCW && export CC &&
	      run "$D/configure.log" ./configure); then
		fail configure "./configure with CC=ucsan-cc failed" "$(tail_of "$D/configure.log")" \
			"$(tail_of "$D/configure/config.log")"
	elif ! run "$D/configure-make.log" make -C "$D/configure"; then
		fail_log configure "make after configure failed" "$D/configure-make.log"
	elif ! grep -q 'HAVE_PTHREAD_CREATE 1' "$D/configure/config.h"; then
		fail_log configure "configure did not find pthread_create" "$D/configure/config.h"
	elif [ "$k" = gcc ] && ! grep -q 'HAVE_SANITIZE_THREAD 1' "$D/configure/config.h"; then
		fail_log configure "configure did not see __SANITIZE_THREAD__" "$D/configure/config.h"
	elif ! runs "$D/configure.run" sum=27 "$D/configure/prog"; then
		fail_log configure "$why" "$D/configure.run"
	else
		pass configure
	fi
	addbin "$D/configure/prog"

	# --- every program and library built above links the right runtime
	why_all=
	nbins=0
	while IFS= read -r b; do
		[ -n "$b" ] || continue
		[ -f "$b" ] || continue
		nbins=$((nbins + 1))
		linked_ok "$b" || why_all="$why_all$why"
	done <"$D/binaries.txt"
	if [ -n "$why_all" ]; then
		fail dynamic-deps "${why_all%"$NL"}"
	elif [ "$nbins" -lt 10 ]; then
		fail_log dynamic-deps "only $nbins binaries were built; expected at least 10" "$D/binaries.txt"
	else
		pass dynamic-deps
	fi
done

suite_end
