#!/bin/sh
# `make install` into a scratch prefix, then use the installed tree the way
# a user would: the wrapper, the runtime, the header, pkg-config, man page.
SUITE=install
. "$(dirname "$0")/../lib/suite.sh"
cd "$ROOT" || exit 2
out=$ROOT/build/tests/install
prefix="$out/prefix"
rm -rf "$out"
mkdir -p "$out"

if make -s install PREFIX="$prefix" >"$out/make.log" 2>&1; then
	pass make-install
else
	fail make-install "$(tail -5 "$out/make.log")"
fi

for f in bin/ucsan-cc bin/ucsan-c++ lib/libucsan.so include/ucsan.h lib/pkgconfig/ucsan.pc \
	share/man/man1/ucsan-cc.1; do
	if [ -e "$prefix/$f" ]; then pass "file/$f"; else fail "file/$f" "missing: $prefix/$f"; fi
done

cat >"$out/race.c" <<'EOC'
#include <pthread.h>
#include <ucsan.h>
int shared;
volatile int stop;
__attribute__((noinline)) void writer(void) { shared++; }
__attribute__((noinline)) int reader(void) { return shared; }
static void *w(void *a) { while (!stop) writer(); return a; }
int main(void)
{
	pthread_t t;
	static volatile long sink; /* keeps gcc from dropping the pure reader() */
	pthread_create(&t, 0, w, 0);
	for (long i = 0; i < 200000000 && UCSAN_INSTRUMENTED; i++)
		sink += reader();
	stop = 1;
	pthread_join(t, 0);
	return 0;
}
EOC
# The entry points as bitcode for clang -flto, where they are built.
if [ -f build/lib/ucsan-entry-lto.o ]; then
	if [ -e "$prefix/lib/ucsan-entry-lto.o" ]; then pass file/lib/ucsan-entry-lto.o; else
		fail file/lib/ucsan-entry-lto.o "missing: $prefix/lib/ucsan-entry-lto.o"; fi
fi
for cc in gcc clang clang-lto; do
	lto=
	[ "$cc" = clang-lto ] && lto=-flto
	if [ "$cc" = clang-lto ] && [ ! -f build/lib/ucsan-entry-lto.o ]; then
		skip "$cc" "no ucsan-entry-lto.o built"
		continue
	fi
	if ! ucsan_build "$out/cc-$cc.log" "${cc%-lto}" "$prefix/bin/ucsan-cc" -O2 $lto "$out/race.c" -o "$out/race-$cc"; then
		fail_log "$cc/build" "the installed ucsan-cc failed" "$out/cc-$cc.log"
		continue
	fi
	UCSAN_OPTIONS=halt_on_error=1:skip_watch=10 "$out/race-$cc" 2>"$out/run-$cc.log"
	rc=$?
	if [ $rc -eq 66 ] && grep -q '^BUG: UCSAN: data-race in reader / writer$' "$out/run-$cc.log"; then
		pass "$cc/race-reported"
	else
		fail "$cc/race-reported" "exit $rc" "$(tail -20 "$out/run-$cc.log")"
	fi
	if readelf -d "$out/race-$cc" | grep -q "RUNPATH.*$prefix/lib\|RPATH.*$prefix/lib"; then
		pass "$cc/rpath"
	else
		fail "$cc/rpath" "$(readelf -d "$out/race-$cc" | grep -i path)"
	fi
done

cflags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags ucsan 2>&1)
case $cflags in
*"$prefix/include"*) pass pkg-config ;;
*) fail pkg-config "got: $cflags" ;;
esac

if man -l "$prefix/share/man/man1/ucsan-cc.1" 2>/dev/null | grep -q UCSAN_CC; then
	pass man-page
else
	fail man-page "man -l did not render a page mentioning UCSAN_CC"
fi
suite_end
