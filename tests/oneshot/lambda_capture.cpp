// Bug: a C++ lambda that captures a local by reference and updates it from
// another thread.  count_errors() scans the second half of a log on a
// helper thread and the first half itself; both halves bump the same local:
//
//     std::thread helper([&] { ... errors++; ... });  ...  errors++;
//
// `[&]` makes that easy to miss: the two increments race and the count can
// come out short.
//
// TRIES: 12
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in .*count_errors.* / .*count_errors.*$
// EXPECT-FRAME: ^(read|write|read-write) to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ (operator\(\)|.*count_errors.*operator\(\).*) [^ ]*lambda_capture\.cpp:43( \[inline\])?$
// EXPECT-FRAME: ^(read|write|read-write) to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ count_errors\(.*\)\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*lambda_capture\.cpp:48$

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "oneshot.h"

static bool is_error(const std::string &line)
{
	spin_for_us(2);			/* the real check runs a regex */
	return line.find(" ERROR ") != std::string::npos;
}

size_t count_errors(const std::vector<std::string> &lines)
{
	size_t errors = 0;
	size_t half = lines.size() / 2;
#ifdef FIXED
	size_t helper_errors = 0;
#endif

	std::thread helper([&] {
		for (size_t i = half; i < lines.size(); i++)
			if (is_error(lines[i]))
#ifdef FIXED
				helper_errors++;
#else
				errors++;	// racy: shared with the loop below
#endif
	});
	for (size_t i = 0; i < half; i++)
		if (is_error(lines[i]))
			errors++;		// racy
	helper.join();
#ifdef FIXED
	return errors + helper_errors;
#else
	return errors;
#endif
}

int main()
{
	std::vector<std::string> log;

	for (int i = 0; i < 2000; i++) {
		char line[96];

		std::snprintf(line, sizeof(line),
			      "2024-05-01 12:%02d:%02d.%03d %s request %d done",
			      i / 3600 % 60, i / 60 % 60, i % 1000,
			      i % 7 == 3 ? "ERROR" : "INFO", i);
		log.emplace_back(line);
	}
	std::printf("%zu errors in %zu lines\n", count_errors(log), log.size());
	return 0;
}
