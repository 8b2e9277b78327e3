// An ignore-region end without a begin: ucsan warns once, naming the
// annotation's file and line, and carries on (TSan stops with a CHECK
// failure: no shared meaning, so run.sh does not run it under TSan).
//
// EXPECT: ^UCSAN: warning: unbalanced AnnotateIgnoreWritesEnd\(\) at [^ ]*ignore_unbalanced\.c:[0-9]+ \(thread [0-9]+\)$
// EXPECT: ^UCSAN: warning: unbalanced __tsan_ignore_thread_end\(\) in main \(thread [0-9]+\)$
// TSAN-SKIP: TSan aborts on an unbalanced ignore end

#include "tsan_compat.h"

int main(void)
{
	e2e_require_runtime();
	ANNOTATE_IGNORE_WRITES_END();
	ANNOTATE_IGNORE_WRITES_END(); /* said once */
	__tsan_ignore_thread_end();
	/* Still balanced afterwards. */
	ANNOTATE_IGNORE_READS_BEGIN();
	ANNOTATE_IGNORE_READS_END();
	return 0;
}
