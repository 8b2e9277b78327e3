// weak_memory=1 on a program built without --ucsan-weak-memory: said once,
// instead of silently finding nothing.
//
// OPTIONS: weak_memory=1 skip_watch=0 udelay_task=0
// EXIT: 0
// EXPECT: ^UCSAN: weak_memory=1 needs function entry/exit instrumentation
// NOT: BUG: UCSAN

#include "e2e.h"

static int var[64];

int main(void)
{
	e2e_keep_company(); /* nothing is watched in a lone thread */
	for (int i = 0; i < 1000; i++)
		var[i % 64] += i;
	return var[3] < 0;
}
