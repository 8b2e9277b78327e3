// SPDX-License-Identifier: Apache-2.0
/*
 * memops: one thread moving memory around the way ordinary programs do.
 * Struct assignments (small and large records), memcpy/memmove/memset of
 * varied sizes, libc string functions (strlen, strchr, strcmp, memchr) and
 * hand-written byte scans over the same strings.
 */
#include <string.h>

#include "common.h"

#define RECS 4096
#define ROUNDS 480
#define ARENA (1u << 20)
#define STRS 2048
#define STRLEN_MAX 200
#define SCAN_ROUNDS 480

struct small {
	int id;
	short kind;
	char tag[10];
};

struct record {
	uint64_t id;
	char name[40];
	double v[6];
	struct small s;
};

static struct record recs[RECS], shadow[RECS];
static struct small smalls[RECS];
static unsigned char arena[ARENA], arena2[ARENA];
static char strs[STRS][STRLEN_MAX + 1];

/* Hand-written scans: instrumented byte reads, unlike libc's. */
static size_t my_strlen(const char *s)
{
	const char *p = s;
	while (*p)
		p++;
	return (size_t)(p - s);
}

static size_t count_words(const char *s)
{
	size_t n = 0;
	int in = 0;
	for (; *s; s++) {
		const int sp = *s == ' ';
		n += !sp && !in;
		in = !sp;
	}
	return n;
}

int main(int argc, char **argv)
{
	const long scale = scale_arg(argc, argv);
	uint64_t s = rng_seed(7);
	uint64_t check = 0;

	for (int i = 0; i < RECS; i++) {
		recs[i].id = rng_next(&s);
		for (int j = 0; j < 39; j++)
			recs[i].name[j] = (char)('a' + rng_next(&s) % 26);
		recs[i].name[39] = 0;
		for (int j = 0; j < 6; j++)
			recs[i].v[j] = (double)(rng_next(&s) % 10000);
		recs[i].s.id = i;
		recs[i].s.kind = (short)(i % 7);
		memcpy(recs[i].s.tag, "tag-tag-t", 10);
	}
	for (int i = 0; i < STRS; i++) {
		const int len = 20 + (int)(rng_next(&s) % (STRLEN_MAX - 20));
		for (int j = 0; j < len; j++)
			strs[i][j] = rng_next(&s) % 6 ? (char)('a' + rng_next(&s) % 26) : ' ';
		strs[i][len] = 0;
	}

	for (long r = 0; r < ROUNDS * scale; r++) {
		/* Struct assignments, permuted. */
		for (int i = 0; i < RECS; i++) {
			const int j = (int)((i * 2654435761u + (unsigned)r) % RECS);
			shadow[j] = recs[i];
			smalls[i] = shadow[j].s;
		}
		for (int i = 0; i < RECS; i++) {
			recs[i].v[r % 6] += shadow[i].v[(r + 1) % 6];
			check += (uint64_t)smalls[i].id + (uint64_t)recs[i].v[r % 6];
		}
		/* memset and memcpy/memmove of sizes from 8 bytes to 64 KiB. */
		for (unsigned sz = 8, off = 0; sz <= 65536; sz *= 2, off += 4096) {
			memset(arena + off % (ARENA / 2), (int)(r + sz) & 0xff, sz);
			memcpy(arena2 + (off * 3) % (ARENA / 2), arena + off % (ARENA / 2), sz);
			memmove(arena2 + 1, arena2, sz);
			check += arena2[sz / 2];
		}
		for (int k = 0; k < 512; k++) {
			const unsigned sz = 16 + (unsigned)(rng_next(&s) % 240);
			const unsigned from = (unsigned)(rng_next(&s) % (ARENA - sz));
			const unsigned to = (unsigned)(rng_next(&s) % (ARENA - sz));
			memcpy(arena + to, arena2 + from, sz);
			check += arena[to + sz - 1];
		}
	}

	for (long r = 0; r < SCAN_ROUNDS * scale; r++) {
		for (int i = 0; i < STRS; i++) {
			const char *str = strs[i];
			size_t n = strlen(str);
			CHECK(n == my_strlen(str));
			const char *sp = strchr(str, 'q');
			check += n + (sp ? (size_t)(sp - str) : 0) + count_words(str);
			check += memchr(str, 'z', n) != NULL;
			check += (uint64_t)(strcmp(str, strs[(i + r) % STRS]) > 0);
		}
	}

	printf("memops: check=%016lx\n", (unsigned long)check);
	return 0;
}
