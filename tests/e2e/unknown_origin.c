// The writer is not instrumented (no_sanitize), so the runtime never sees its
// stores; the reader's watchpoint only notices that the value changed while
// it was stalled: "race at unknown origin".
//
// OPTIONS: skip_watch=0 udelay_task=200 halt_on_error=1
// TRIES: 10
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in reader$
// EXPECT: ^race at unknown origin, with read to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^race at unknown origin, with read to => ^ reader\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*unknown_origin\.c:[0-9]+$
// EXPECT: ^value changed: 0x[0-9a-f]{8} -> 0x[0-9a-f]{8}$
// NOT: ^(read|write)( \(marked\))? to
// NOT: hidden

#include "e2e.h"

int shared;

NOINLINE long reader(void)
{
	return shared;
}

#ifndef RUN_MS
#define RUN_MS 4000
#endif

/* Invisible to the runtime: gcc and clang spell the attribute differently. */
#if defined(__clang__)
__attribute__((noinline, no_sanitize("thread")))
#else
__attribute__((noinline, noipa, no_sanitize_thread))
#endif
void hidden_store(long v)
{
	shared = v;
}

int main(void)
{
	e2e_require_runtime();
	e2e_race_rw(reader, hidden_store, RUN_MS);
	return 0;
}
