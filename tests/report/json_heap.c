// report_format=both: the JSON line that follows the text report parses (Python's json
// module) and says, field by field, what the text says (heap location).
//
// OPTIONS: halt_on_error=1 skip_watch=0 report_format=both
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in reader / writer$
// EXPECT: ^\{"ucsan_report":1,"title":"data-race in reader / writer",
// CHECK: python3 @ROOT@/tests/report/compare_json_text.py

#define LOC_HEAP 1
#include "location_race.h"
