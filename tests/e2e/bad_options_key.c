// An unknown option key: one line naming it, exit status 1, main never runs.
//
// OPTIONS: skip_watch=0:nonsense=1
// EXIT: 1
// EXPECT: ^UCSAN: .*nonsense
// NOT: BUG
// NOT: main ran

#include <stdio.h>

int main(void)
{
	fprintf(stderr, "e2e: main ran although UCSAN_OPTIONS was invalid\n");
	return 0;
}
