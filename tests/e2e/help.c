// help=1 prints the option table at start-up, then the program runs as usual.
//
// OPTIONS: help=1
// EXPECT: skip_watch
// EXPECT: assume_plain_writes_atomic
// EXPECT: halt_on_error
// EXPECT: ^main ran$
// NOT: BUG

#include <stdio.h>

int main(void)
{
	fprintf(stderr, "main ran\n");
	return 0;
}
