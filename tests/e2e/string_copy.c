// A strcpy() into a global name buffer racing with a strlen() of it. Both
// run inside libc, uninstrumented: ucsan's interposers check them as range
// accesses at their callers' lines, and the report names those.
//
// OPTIONS: skip_watch=0 halt_on_error=1
// TRIES: 10
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in peek_len / rename_to$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ rename_to\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*string_copy\.c:[0-9]+$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ peek_len\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*string_copy\.c:[0-9]+$
// NOT: ^ [^ ]*(strcpy|strlen)[^ ]*\+0x

#include <string.h>

#include "e2e.h"

char g_name[64] = "worker";
static const char *const names[] = { "worker-a", "w", "worker-long-name", "wk" };

NOINLINE long peek_len(void)
{
	return (long)strlen(g_name);
}

NOINLINE void rename_to(long i)
{
	strcpy(g_name, names[i & 3]);
}

int main(void)
{
	e2e_race_rw(peek_len, rename_to, 4000);
	return 0;
}
