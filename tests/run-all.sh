#!/bin/sh
# Runs every test suite (see tests/PROTOCOL.md) and prints, last,
# "N passed, N failed". Exits non-zero if anything failed.
cd "$(dirname "$0")/.." || exit 2
log=build/tests/run-all.log
mkdir -p build/tests
: > "$log"

run_suite() {
	printf '== %s\n' "$*" | tee -a "$log"
	"$@" 2>&1 | tee -a "$log"
}

for t in build/tests/unit/test_*; do
	[ -x "$t" ] && run_suite sh tests/unit/run_binary.sh "$t"
done
for s in tests/build/run.sh tests/build/footprint.sh tests/unit/run.sh tests/docs/run.sh tests/annotations/run.sh tests/wrapper/run.sh \
	tests/install/run.sh tests/reliability/run.sh tests/e2e/run.sh tests/tsan_compat/run.sh \
	tests/openmp/run.sh tests/stress/options.sh tests/examples/run.sh tests/report/aggregate.sh; do
	[ -f "$s" ] && run_suite sh "$s"
done
# Short soak and fuzzing (make soak and tests/fuzz/run.sh SECONDS go longer).
run_suite env SOAK_SECONDS=10 sh tests/stress/run.sh
run_suite sh tests/fuzz/run.sh 60
# The kernel's KCSAN test suite, ported, the weak-memory tests, the
# many-thread scale tests, the one-shot corpus (one realistic race per
# program, found in one short run; tests/oneshot/measure.sh compares the
# detection rates with ThreadSanitizer's), the JSON reports and the checks
# that interposed functions and atomic entry points behave exactly like the
# originals: same harness, their own directories.
for d in kcsan weak_memory scale oneshot report interpose; do
	[ -d tests/$d ] && run_suite env E2E_DIR=tests/$d E2E_SUITE=$d sh tests/e2e/run.sh
done

pass=$(grep -c '^PASS: ' "$log")
fail=$(grep -c '^FAIL: ' "$log")
if [ "$fail" -gt 0 ]; then
	echo "failed:"
	grep '^FAIL: ' "$log" | sed 's/^/  /'
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
