// SPDX-License-Identifier: Apache-2.0
/*
 * compute: one thread, no sharing. A dense matrix multiply (doubles, i-k-j
 * order) and a set of byte loops over a buffer: histogram, table-driven
 * CRC-32, an in-place byte transform and a run-length count. Nearly every
 * instruction is an instrumented plain access: the worst case for a
 * per-access check.
 */
#include <string.h>

#include "common.h"

#define N 192          /* matrix side */
#define MM_REPS 14
#define BUF_BYTES (4u << 20)
#define BYTE_REPS 7

static double A[N][N], B[N][N], C[N][N];
static unsigned char buf[BUF_BYTES];
static uint32_t crc_table[256];
static unsigned long hist[256];

static void matmul(void)
{
	for (int i = 0; i < N; i++) {
		for (int j = 0; j < N; j++)
			C[i][j] = 0;
		for (int k = 0; k < N; k++) {
			const double a = A[i][k];
			for (int j = 0; j < N; j++)
				C[i][j] += a * B[k][j];
		}
	}
}

static void crc_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[i] = c;
	}
}

static uint32_t crc32(const unsigned char *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	for (size_t i = 0; i < n; i++)
		c = crc_table[(c ^ p[i]) & 0xff] ^ (c >> 8);
	return c ^ 0xffffffffu;
}

static void histogram(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		hist[p[i]]++;
}

/* A byte-wise substitution that keeps the buffer's statistics moving. */
static void transform(unsigned char *p, size_t n, unsigned char key)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = p[i];
		if (c >= 'a' && c <= 'z')
			c = (unsigned char)('a' + (c - 'a' + 13) % 26);
		p[i] = (unsigned char)(c ^ key);
	}
}

static unsigned long runs(const unsigned char *p, size_t n)
{
	unsigned long r = 1;
	for (size_t i = 1; i < n; i++)
		r += p[i] != p[i - 1];
	return r;
}

int main(int argc, char **argv)
{
	const long scale = scale_arg(argc, argv);
	uint64_t s = rng_seed(1);

	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			A[i][j] = (double)(rng_next(&s) % 1000) / 100.0;
			B[i][j] = (double)(rng_next(&s) % 1000) / 100.0;
		}
	double trace = 0;
	for (long r = 0; r < MM_REPS * scale; r++) {
		matmul();
		for (int i = 0; i < N; i++)
			trace += C[i][i];
		/* Feed the result back so each repetition differs. */
		A[r % N][(r * 7) % N] = C[(r * 3) % N][(r * 5) % N] / 1e6;
	}

	for (size_t i = 0; i < BUF_BYTES; i++)
		buf[i] = (unsigned char)(rng_next(&s) % 4 ? 'a' + rng_next(&s) % 26 : ' ');
	crc_init();
	uint32_t crc = 0;
	unsigned long nruns = 0;
	for (long r = 0; r < BYTE_REPS * scale; r++) {
		histogram(buf, BUF_BYTES);
		crc ^= crc32(buf, BUF_BYTES);
		transform(buf, BUF_BYTES, (unsigned char)(r & 0x1f));
		nruns += runs(buf, BUF_BYTES);
	}
	unsigned long hsum = 0;
	for (int i = 0; i < 256; i++)
		hsum = hsum * 31 + hist[i];

	printf("compute: trace=%.6e crc=%08x runs=%lu hist=%016lx\n", trace, crc, nruns, hsum);
	return 0;
}
