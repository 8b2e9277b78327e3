// Fixed twin of lambda_capture.cpp: the helper thread counts into its own
// variable, which the caller adds in after join().
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

#define FIXED 1
#include "lambda_capture.cpp"
