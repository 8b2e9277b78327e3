// Racy: master without a barrier.  The master thread builds a lookup
// table from a codebook, which the whole team then uses to decode; master,
// unlike single, has no implied barrier, and the explicit one was
// forgotten (norace_master.c has it).
//
// OPTIONS: skip_watch=0 halt_on_error=1
// CFLAGS: -O2 -g -fopenmp
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in (decode\._omp_fn\.[0-9]+|\.omp_outlined\.[.0-9]*) / (decode\._omp_fn\.[0-9]+|\.omp_outlined\.[.0-9]*)$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ \(OpenMP thread [0-9]+\) on cpu [0-9]+:$ => ^ (decode\._omp_fn\.[0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+|\.omp_outlined\._debug__) [^ ]*race_master_no_barrier\.c:41( \[inline\])?$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ \(OpenMP thread [0-9]+\) on cpu [0-9]+:$ => ^ (decode\._omp_fn\.[0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+|\.omp_outlined\._debug__) [^ ]*race_master_no_barrier\.c:35( \[inline\])?$

#include "omp_test.h"

#define N 2048
#define LUT 64

static int codebook[LUT][8];
static int lut[LUT];
static unsigned char codes[N];
static int decoded[N];

NOINLINE void decode(int rep)
{
#pragma omp parallel
	{
#pragma omp master
		{
			for (int k = 0; k < LUT; k++) {
				int sum = rep;

				for (int j = 0; j < 8; j++)
					sum += codebook[k][j];
				lut[k] = sum;   /* RACE-B */
			}
		}
		/* missing: #pragma omp barrier */
#pragma omp for
		for (int i = 0; i < N; i++)
			decoded[i] = lut[codes[i] % LUT];   /* RACE-A */
	}
}

int main(void)
{
	int rep = 0;

	omp_test_start();
	for (int i = 0; i < N; i++)
		codes[i] = (unsigned char)(i * 29 + 3);
	for (int k = 0; k < LUT; k++)
		for (int j = 0; j < 8; j++)
			codebook[k][j] = k * 8 + j;
	do {
		decode(rep);
		rep++;
	} while (omp_test_again());
	printf("%d repetitions, decoded[5] = %d\n", rep, decoded[5]);
	return 0;
}
