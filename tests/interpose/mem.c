// memcpy, memmove and memset (interposed on libc's) and __tsan_memcpy,
// __tsan_memmove, __tsan_memset (what newer compilers call instead) behave
// exactly like libc's own functions: the same return value, the same bytes
// written (zero, small, unaligned, page-crossing, large and, for memmove,
// overlapping copies; memset's int argument truncated), errno untouched, and
// the very same loads and stores, traced access by access (interpose.h):
// a 16-byte aligned copy that glibc does with whole 16-byte accesses must
// not become bytes or halves.  Everything runs twice: alone (nothing is
// watched) and with a second thread, every code site watched on first use
// and a watch every few accesses, so the wrappers' checks really run.
//
// CFLAGS: -O2 -g -std=gnu11 -Wall -Wextra -Werror
// OPTIONS: skip_watch=3 cold_site_limit=0 cold_watches=1000
// OPTIONS: udelay_task=2 cold_udelay=2 cold_budget_percent=100 cold_process_percent=100
// TIMEOUT: 120
// EXPECT-STDOUT: ^mem: [0-9]+ checks, 0 failed$
// NOT: UCSAN

#include "interpose.h"

typedef void *(*copy_fn)(void *, const void *, size_t);
typedef void *(*set_fn)(void *, int, size_t);

void *__tsan_memcpy(void *dst, const void *src, size_t n);
void *__tsan_memmove(void *dst, const void *src, size_t n);
void *__tsan_memset(void *dst, int c, size_t n);

static struct copier {
	const char *name;
	copy_fn ours, libc;
	int overlap; /* defined for overlapping ranges */
} copiers[4];

static struct setter {
	const char *name;
	set_fn ours, libc;
} setters[2];

static void setup(void)
{
	copiers[0] = (struct copier){ "memcpy", (copy_fn)ip_ucsan_sym("memcpy"), (copy_fn)ip_libc_sym("memcpy"), 0 };
	copiers[1] = (struct copier){ "memmove", (copy_fn)ip_ucsan_sym("memmove"), (copy_fn)ip_libc_sym("memmove"),
				      1 };
	copiers[2] = (struct copier){ "__tsan_memcpy", (copy_fn)ip_ucsan_sym("__tsan_memcpy"),
				      (copy_fn)ip_libc_sym("memcpy"), 0 };
	copiers[3] = (struct copier){ "__tsan_memmove", (copy_fn)ip_ucsan_sym("__tsan_memmove"),
				      (copy_fn)ip_libc_sym("memmove"), 1 };
	setters[0] = (struct setter){ "memset", (set_fn)ip_ucsan_sym("memset"), (set_fn)ip_libc_sym("memset") };
	setters[1] = (struct setter){ "__tsan_memset", (set_fn)ip_ucsan_sym("__tsan_memset"),
				      (set_fn)ip_libc_sym("memset") };
	/* What the program's own calls bind to is the interposer. */
	IP_EXPECT((copy_fn)memcpy == copiers[0].ours, "the program's memcpy is not ucsan's");
}

/* Two buffers with the same contents, one for ours and one for libc's;
 * fill(span) resets their first span bytes, same(span) compares them
 * (with libc's functions, which are not instrumented: fast). */
#define BUF (136 * 1024)
static unsigned char *buf_ours, *buf_libc, *buf_init;
static copy_fn libc_memcpy;

static void fill(size_t span)
{
	libc_memcpy(buf_ours, buf_init, span);
	libc_memcpy(buf_libc, buf_init, span);
}

static int same(size_t span)
{
	return !memcmp(buf_ours, buf_libc, span);
}

static const size_t sizes[] = { 0,   1,   2,   3,   4,   5,   6,   7,   8,   9,    12,   15,   16,   17,
				24,  31,  32,  33,  48,  63,  64,  65,  96,  127, 128,  129,  255,  256,
				257, 511, 512, 513, 1000, 2047, 2048, 2049, 4095, 4096, 4097, 8191, 8192, 65543 };
static const size_t offsets[] = { 0, 1, 3, 7, 8, 15, 16, 31, 32 };
#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* dst and src apart (src after dst). */
static void copy_values(const struct copier *c)
{
	for (size_t si = 0; si < N_OF(sizes); si++) {
		for (size_t so = 0; so < N_OF(offsets); so++) {
			for (size_t dof = 0; dof < N_OF(offsets); dof++) {
				const size_t n = sizes[si], d = 64 + offsets[dof], s = n + 192 + offsets[so];
				const size_t span = s + n + 64;
				if (n > 4096 && (so > 1 || dof > 1))
					continue; /* the large sizes at two offsets only */
				fill(span);
				errno = IP_SENTINEL;
				void *r = c->ours(buf_ours + d, buf_ours + s, n);
				int err = errno;
				void *rl = c->libc(buf_libc + d, buf_libc + s, n);
				IP_EXPECT(r == buf_ours + d && rl == buf_libc + d,
					  "%s(dst+%zu, src+%zu, %zu) returned dst%+td", c->name, d, s, n,
					  (unsigned char *)r - (buf_ours + d));
				IP_EXPECT(err == IP_SENTINEL, "%s(%zu bytes) changed errno to %d", c->name, n, err);
				IP_EXPECT(same(span), "%s(dst+%zu, src+%zu, %zu): result differs from libc's", c->name, d, s, n);
			}
		}
	}
	/* Nothing to copy: any pointers, even NULL, come back untouched. */
	errno = IP_SENTINEL;
	IP_EXPECT(c->ours(NULL, NULL, 0) == NULL && errno == IP_SENTINEL, "%s(NULL, NULL, 0)", c->name);
	IP_EXPECT(c->ours(buf_ours, NULL, 0) == buf_ours, "%s(buf, NULL, 0)", c->name);
}

/* memmove: every overlap, both directions. */
static void move_values(const struct copier *c)
{
	static const size_t msizes[] = { 1, 2, 3, 4, 7, 8, 15, 16, 17, 31, 32, 33, 64, 100, 255, 256, 1000, 4097 };
	for (size_t si = 0; si < N_OF(msizes); si++) {
		for (long shift = -40; shift <= 40; shift++) {
			const size_t n = msizes[si], s = 4096, d = (size_t)(4096 + shift), span = s + n + 64;
			fill(span);
			errno = IP_SENTINEL;
			void *r = c->ours(buf_ours + d, buf_ours + s, n);
			int err = errno;
			c->libc(buf_libc + d, buf_libc + s, n);
			IP_EXPECT(r == buf_ours + d, "%s overlapping: wrong return", c->name);
			IP_EXPECT(err == IP_SENTINEL, "%s overlapping changed errno to %d", c->name, err);
			IP_EXPECT(same(span), "%s(src%+ld, src, %zu): result differs from libc's",
				  c->name, shift, n);
		}
	}
}

static void set_values(const struct setter *st)
{
	/* memset stores (unsigned char)c. */
	static const int values[] = { 0, 0x5a, 0xff, 0x1a5, -1, -0x80, 0x12345678, (int)0x80000000 };
	for (size_t vi = 0; vi < N_OF(values); vi++) {
		for (size_t si = 0; si < N_OF(sizes); si++) {
			for (size_t o = 0; o < N_OF(offsets); o++) {
				const size_t n = sizes[si], d = 64 + offsets[o], span = d + n + 64;
				if (n > 4096 && o > 1)
					continue;
				fill(span);
				errno = IP_SENTINEL;
				void *r = st->ours(buf_ours + d, values[vi], n);
				int err = errno;
				st->libc(buf_libc + d, values[vi], n);
				IP_EXPECT(r == buf_ours + d, "%s: wrong return", st->name);
				IP_EXPECT(err == IP_SENTINEL, "%s changed errno to %d", st->name, err);
				IP_EXPECT(same(span), "%s(dst+%zu, %#x, %zu): result differs",
					  st->name, d, (unsigned)values[vi], n);
			}
		}
	}
	errno = IP_SENTINEL;
	IP_EXPECT(st->ours(NULL, 0, 0) == NULL && errno == IP_SENTINEL, "%s(NULL, 0, 0)", st->name);
}

/* === Loads and stores, traced === */

/* Four pages: the source in the first two, the destination in the last two. */
static char *region;
#define PAGE 4096
#define REGION (4 * PAGE)

struct call {
	copy_fn copy;
	set_fn set;
	void *dst;
	const void *src;
	int c;
	size_t n;
	void *ret;
	int err;
};

static void do_call(void *p)
{
	struct call *k = p;

	errno = IP_SENTINEL;
	k->ret = k->copy ? k->copy(k->dst, k->src, k->n) : k->set(k->dst, k->c, k->n);
	k->err = errno;
}

static struct ip_access acc_ours[IP_TRACE_MAX], acc_libc[IP_TRACE_MAX];

/* Trace ours and libc's on the same addresses; they must match. */
static void compare_traces(const char *name, struct call ours, struct call libc, const char *where, int quiet)
{
	char a[512], b[512];
	int n_ours, n_libc;

	n_libc = ip_trace(region, REGION, do_call, &libc, acc_libc, IP_TRACE_MAX);
	n_ours = ip_trace(region, REGION, do_call, &ours, acc_ours, IP_TRACE_MAX);
	IP_EXPECT(ours.ret == libc.ret, "%s %s: returned %p, libc %p", name, where, ours.ret, libc.ret);
	IP_EXPECT(ours.err == IP_SENTINEL, "%s %s: errno %d after the call", name, where, ours.err);
	IP_EXPECT(ip_trace_equal(acc_ours, n_ours, acc_libc, n_libc),
		  "%s %s: loads and stores differ from libc's:\n    ucsan: %s\n    libc:  %s", name, where,
		  ip_trace_str(acc_ours, n_ours, a, sizeof(a)), ip_trace_str(acc_libc, n_libc, b, sizeof(b)));
	if (!quiet)
		printf("  %-14s %-24s libc: %s\n", name, where, ip_trace_str(acc_libc, n_libc, b, sizeof(b)));
}

static void traces(int quiet)
{
	/* Aligned objects first (printed once: how glibc copies them). */
	static const size_t tsizes[] = { 1, 2, 4, 8, 16, 32, 64, 3, 7, 15, 17, 31, 33, 100, 256, 1000, 2112 };
	static const size_t toffs[][2] = { { 0, 0 }, { 16, 48 }, { 1, 1 }, { 0, 3 }, { 4090, 4093 } };
	char where[64];

	for (size_t t = 0; t < N_OF(toffs); t++) {
		for (size_t si = 0; si < N_OF(tsizes); si++) {
			const size_t n = tsizes[si];
			/* 2112 bytes: glibc's rep movsb / rep stosb, one fault per
			 * byte (slow to trace): once, aligned, in the first pass. */
			if (n > 2048 && (quiet || t != 0))
				continue;
			char *src = region + toffs[t][0], *dst = region + 2 * PAGE + toffs[t][1];
			const int show = !quiet && t == 0 && si < 5;
			snprintf(where, sizeof(where), "%zu bytes at +%zu/+%zu", n, toffs[t][0], toffs[t][1]);
			for (size_t i = 0; i < N_OF(copiers); i++) {
				struct call o = { .copy = copiers[i].ours, .dst = dst, .src = src, .n = n };
				struct call l = o;
				l.copy = copiers[i].libc;
				compare_traces(copiers[i].name, o, l, where, !show);
			}
			for (size_t i = 0; i < N_OF(setters); i++) {
				struct call o = { .set = setters[i].ours, .dst = dst, .c = 0x5a, .n = n };
				struct call l = o;
				l.set = setters[i].libc;
				compare_traces(setters[i].name, o, l, where, !show);
			}
		}
	}
	/* Overlapping moves, forwards and backwards. */
	static const long shifts[] = { -17, -8, -1, 1, 8, 16, 17 };
	for (size_t s = 0; s < N_OF(shifts); s++) {
		for (size_t si = 0; si < N_OF(tsizes); si++) {
			char *src = region + PAGE;
			if (tsizes[si] > 2048)
				continue;
			snprintf(where, sizeof(where), "%zu bytes, overlap %+ld", tsizes[si], shifts[s]);
			for (size_t i = 0; i < N_OF(copiers); i++) {
				if (!copiers[i].overlap)
					continue;
				struct call o = { .copy = copiers[i].ours, .dst = src + shifts[s], .src = src,
						  .n = tsizes[si] };
				struct call l = o;
				l.copy = copiers[i].libc;
				compare_traces(copiers[i].name, o, l, where, 1);
			}
		}
	}
}

static void all(int quiet)
{
	for (size_t i = 0; i < N_OF(copiers); i++) {
		copy_values(&copiers[i]);
		if (copiers[i].overlap)
			move_values(&copiers[i]);
	}
	for (size_t i = 0; i < N_OF(setters); i++)
		set_values(&setters[i]);
	traces(quiet);
}

int main(void)
{
	e2e_require_runtime();
	setup();
	buf_ours = (unsigned char *)ip_pages(BUF / PAGE + 1);
	buf_libc = (unsigned char *)ip_pages(BUF / PAGE + 1);
	buf_init = (unsigned char *)ip_pages(BUF / PAGE + 1);
	libc_memcpy = copiers[0].libc;
	for (size_t i = 0; i < BUF; i++)
		buf_init[i] = (unsigned char)(i * 131 + (i >> 8) * 7 + 1);
	region = ip_pages(4);

	puts("glibc's accesses (R/W + offset in a 4-page region; dst is at +8192):");
	all(0);		/* alone: ucsan watches nothing */
	e2e_keep_company();	/* now the wrappers' checks run, and watch */
	all(1);
	return ip_finish("mem");
}
