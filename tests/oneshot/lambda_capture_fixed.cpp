// Fixed twin of lambda_capture.cpp: the helper thread counts into its own
// variable, which the caller adds in after join().
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

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

	size_t helper_errors = 0;

	std::thread helper([&] {
		for (size_t i = half; i < lines.size(); i++)
			if (is_error(lines[i]))
				helper_errors++;
	});
	for (size_t i = 0; i < half; i++)
		if (is_error(lines[i]))
			errors++;
	helper.join();
	return errors + helper_errors;
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
