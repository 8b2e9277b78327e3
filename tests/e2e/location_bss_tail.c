// The report names a global in the part of .bss past the file's pages, which
// the process's maps list as an anonymous mapping: the executable's program
// headers say whose it is.
//
// OPTIONS: halt_on_error=1 skip_watch=0
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in reader / writer$
// EXPECT: ^location: global 'big_table' of size 65544 at \+0x10000 in location_bss_tail \((.*/)?location_bss_tail\.c:15\)$

/* Far into .bss: past the pages the executable's file maps. */
static struct {
	char pad[1 << 16];
	long hits;
} big_table;

#define LOC_BSS_TAIL 1
#include "location_race.h"
