// The string and formatting functions ucsan interposes on (strlen, strnlen,
// strcmp, strncmp, memcmp, bcmp, strdup, strcpy, stpcpy, strncpy, strcat, strncat, the
// sprintf family, and the _FORTIFY_SOURCE __*_chk spellings of those and of
// memcpy, memmove and memset) behave
// exactly like libc's own: the same return value, the same bytes in the
// destination (the bytes past what they write included), errno untouched.
// Everything runs twice: alone (nothing is watched) and with a second
// thread, every code site watched on first use and a watch every few
// accesses, so the wrappers' checks really run.
//
// CFLAGS: -O2 -g -std=gnu11 -Wall -Wextra -Werror
// OPTIONS: skip_watch=3 cold_site_limit=0 cold_watches=1000
// OPTIONS: udelay_task=2 cold_udelay=2 cold_budget_percent=100 cold_process_percent=100
// TIMEOUT: 120
// EXPECT-STDOUT: ^string: [0-9]+ checks, 0 failed$
// NOT: UCSAN

#include "interpose.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))
#define BUF 256

static const char *const strs[] = { "", "a", "ab", "abc", "abcdefg", "abcdefgh", "abcdefghijklmnopqrstuvwxyz0123",
				    "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-0123456789" };
static const size_t limits[] = { 0, 1, 2, 3, 7, 8, 9, 31, 32, 33, 100 };

/* Destinations: same prefill for ours and libc's. */
static char dst_ours[BUF], dst_libc[BUF];

static void prefill(const char *s)
{
	for (int i = 0; i < BUF; i++)
		dst_ours[i] = dst_libc[i] = (char)('A' + i % 23);
	strncpy(dst_ours, s, 40);
	strncpy(dst_libc, s, 40);
	dst_ours[40] = dst_libc[40] = '\0';
}

static int same_dst(void)
{
	return !memcmp(dst_ours, dst_libc, BUF);
}

/* The offsets into a string the functions get: a start and an unaligned one. */
static const char *at(const char *s, int k)
{
	return k && *s ? s + 1 : s;
}

static void lengths(void)
{
	size_t (*o_strlen)(const char *) = ip_ucsan_sym("strlen"), (*l_strlen)(const char *) = ip_libc_sym("strlen");
	size_t (*o_strnlen)(const char *, size_t) = ip_ucsan_sym("strnlen");
	size_t (*l_strnlen)(const char *, size_t) = ip_libc_sym("strnlen");
	for (size_t i = 0; i < N_OF(strs); i++) {
		errno = IP_SENTINEL;
		IP_EXPECT(o_strlen(strs[i]) == l_strlen(strs[i]) && errno == IP_SENTINEL, "strlen(\"%s\")", strs[i]);
		for (size_t j = 0; j < N_OF(limits); j++) {
			errno = IP_SENTINEL;
			IP_EXPECT(o_strnlen(strs[i], limits[j]) == l_strnlen(strs[i], limits[j]) && errno == IP_SENTINEL,
				  "strnlen(\"%s\", %zu)", strs[i], limits[j]);
		}
	}
}

static int sign(int v)
{
	return (v > 0) - (v < 0);
}

static void compares(void)
{
	int (*o_strcmp)(const char *, const char *) = ip_ucsan_sym("strcmp");
	int (*l_strcmp)(const char *, const char *) = ip_libc_sym("strcmp");
	int (*o_strncmp)(const char *, const char *, size_t) = ip_ucsan_sym("strncmp");
	int (*l_strncmp)(const char *, const char *, size_t) = ip_libc_sym("strncmp");
	static const char *const others[] = { "", "a", "abd", "abc", "abcdefgh", "b", "\xff", "abcdefghijklmnopqrstuvwxyz0124" };
	for (size_t i = 0; i < N_OF(strs); i++) {
		for (size_t j = 0; j < N_OF(others); j++) {
			errno = IP_SENTINEL;
			IP_EXPECT(sign(o_strcmp(strs[i], others[j])) == sign(l_strcmp(strs[i], others[j])) &&
					  errno == IP_SENTINEL,
				  "strcmp(\"%s\", \"%s\")", strs[i], others[j]);
			for (size_t k = 0; k < N_OF(limits); k++)
				IP_EXPECT(sign(o_strncmp(strs[i], others[j], limits[k])) ==
						  sign(l_strncmp(strs[i], others[j], limits[k])),
					  "strncmp(\"%s\", \"%s\", %zu)", strs[i], others[j], limits[k]);
		}
	}
}

/* memcmp and bcmp: the sign of the result (bcmp: zero or not). */
static void byte_compares(void)
{
	int (*o_memcmp)(const void *, const void *, size_t) = ip_ucsan_sym("memcmp");
	int (*l_memcmp)(const void *, const void *, size_t) = ip_libc_sym("memcmp");
	int (*o_bcmp)(const void *, const void *, size_t) = ip_ucsan_sym("bcmp");
	int (*l_bcmp)(const void *, const void *, size_t) = ip_libc_sym("bcmp");
	static const char *const others[] = { "abcdefghijklmnopqrstuvwxyz0123", "abcdefghijklmnopqrstuvwxyz0124",
					      "b", "abd", "\xff\xfe", "" };
	const char *base = strs[N_OF(strs) - 1];
	for (size_t j = 0; j < N_OF(others); j++) {
		for (size_t k = 0; k < N_OF(limits); k++) {
			const size_t n = limits[k] < strlen(others[j]) + 1 ? limits[k] : strlen(others[j]) + 1;
			errno = IP_SENTINEL;
			IP_EXPECT(sign(o_memcmp(base, others[j], n)) == sign(l_memcmp(base, others[j], n)) &&
					  errno == IP_SENTINEL,
				  "memcmp(\"%s\", %zu)", others[j], n);
			IP_EXPECT(!o_bcmp(others[j], base, n) == !l_bcmp(others[j], base, n), "bcmp(\"%s\", %zu)",
				  others[j], n);
		}
	}
}

static void copies(void)
{
	char *(*o_strcpy)(char *, const char *) = ip_ucsan_sym("strcpy");
	char *(*l_strcpy)(char *, const char *) = ip_libc_sym("strcpy");
	char *(*o_stpcpy)(char *, const char *) = ip_ucsan_sym("stpcpy");
	char *(*l_stpcpy)(char *, const char *) = ip_libc_sym("stpcpy");
	char *(*o_strcat)(char *, const char *) = ip_ucsan_sym("strcat");
	char *(*l_strcat)(char *, const char *) = ip_libc_sym("strcat");
	char *(*o_strncpy)(char *, const char *, size_t) = ip_ucsan_sym("strncpy");
	char *(*l_strncpy)(char *, const char *, size_t) = ip_libc_sym("strncpy");
	char *(*o_strncat)(char *, const char *, size_t) = ip_ucsan_sym("strncat");
	char *(*l_strncat)(char *, const char *, size_t) = ip_libc_sym("strncat");
	char *(*o_strdup)(const char *) = ip_ucsan_sym("strdup");
	for (size_t i = 0; i < N_OF(strs); i++) {
		for (int k = 0; k < 2; k++) {
			const char *s = at(strs[i], k);
			for (size_t d = 0; d < 4; d++) {
				prefill(strs[(i + d) % N_OF(strs)]);
				errno = IP_SENTINEL;
				IP_EXPECT(o_strcpy(dst_ours + d, s) == dst_ours + d && errno == IP_SENTINEL,
					  "strcpy return");
				l_strcpy(dst_libc + d, s);
				IP_EXPECT(same_dst(), "strcpy(dst+%zu, \"%s\")", d, s);
				prefill(strs[(i + d) % N_OF(strs)]);
				IP_EXPECT(o_stpcpy(dst_ours + d, s) - dst_ours == l_stpcpy(dst_libc + d, s) - dst_libc,
					  "stpcpy return");
				IP_EXPECT(same_dst(), "stpcpy(dst+%zu, \"%s\")", d, s);
				prefill(strs[(i + d) % N_OF(strs)]);
				IP_EXPECT(o_strcat(dst_ours + d, s) == dst_ours + d, "strcat return");
				l_strcat(dst_libc + d, s);
				IP_EXPECT(same_dst(), "strcat(dst+%zu, \"%s\")", d, s);
				for (size_t j = 0; j < N_OF(limits); j++) {
					prefill(strs[(i + d) % N_OF(strs)]);
					errno = IP_SENTINEL;
					IP_EXPECT(o_strncpy(dst_ours + d, s, limits[j]) == dst_ours + d &&
							  errno == IP_SENTINEL,
						  "strncpy return");
					l_strncpy(dst_libc + d, s, limits[j]);
					IP_EXPECT(same_dst(), "strncpy(dst+%zu, \"%s\", %zu)", d, s, limits[j]);
					prefill(strs[(i + d) % N_OF(strs)]);
					IP_EXPECT(o_strncat(dst_ours + d, s, limits[j]) == dst_ours + d, "strncat return");
					l_strncat(dst_libc + d, s, limits[j]);
					IP_EXPECT(same_dst(), "strncat(dst+%zu, \"%s\", %zu)", d, s, limits[j]);
				}
			}
			errno = IP_SENTINEL;
			char *dup = o_strdup(s);
			IP_EXPECT(dup && !strcmp(dup, s) && dup != s && errno == IP_SENTINEL, "strdup(\"%s\")", s);
			free(dup);
		}
	}
}

typedef int (*snprintf_fn)(char *, size_t, const char *, ...);
typedef int (*sprintf_fn)(char *, const char *, ...);
typedef int (*snprintf_chk_fn)(char *, size_t, int, size_t, const char *, ...);
typedef int (*sprintf_chk_fn)(char *, int, size_t, const char *, ...);
typedef int (*vsnprintf_fn)(char *, size_t, const char *, va_list);

static int call_v(vsnprintf_fn f, char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	const int r = f(buf, n, fmt, ap);
	va_end(ap);
	return r;
}

static void formats(void)
{
	snprintf_fn o_snprintf = ip_ucsan_sym("snprintf"), l_snprintf = ip_libc_sym("snprintf");
	sprintf_fn o_sprintf = ip_ucsan_sym("sprintf"), l_sprintf = ip_libc_sym("sprintf");
	snprintf_chk_fn o_snprintf_chk = ip_ucsan_sym("__snprintf_chk"), l_snprintf_chk = ip_libc_sym("__snprintf_chk");
	sprintf_chk_fn o_sprintf_chk = ip_ucsan_sym("__sprintf_chk"), l_sprintf_chk = ip_libc_sym("__sprintf_chk");
	vsnprintf_fn o_vsnprintf = ip_ucsan_sym("vsnprintf"), l_vsnprintf = ip_libc_sym("vsnprintf");
	for (size_t i = 0; i < N_OF(strs); i++) {
		for (size_t j = 0; j < N_OF(limits); j++) {
			const size_t n = limits[j];
			prefill("");
			errno = IP_SENTINEL;
			int r = o_snprintf(dst_ours, n, "%s/%d:%x", strs[i], (int)i, 0xbeefu);
			IP_EXPECT(errno == IP_SENTINEL, "snprintf errno");
			IP_EXPECT(r == l_snprintf(dst_libc, n, "%s/%d:%x", strs[i], (int)i, 0xbeefu) && same_dst(),
				  "snprintf(%zu, \"%s\")", n, strs[i]);
			prefill("");
			r = o_snprintf_chk(dst_ours, n, 1, BUF, "%s-%zu", strs[i], n);
			IP_EXPECT(r == l_snprintf_chk(dst_libc, n, 1, BUF, "%s-%zu", strs[i], n) && same_dst(),
				  "__snprintf_chk(%zu, \"%s\")", n, strs[i]);
			prefill("");
			r = call_v(o_vsnprintf, dst_ours, n, "[%s]%c", strs[i], 'z');
			IP_EXPECT(r == call_v(l_vsnprintf, dst_libc, n, "[%s]%c", strs[i], 'z') && same_dst(),
				  "vsnprintf(%zu, \"%s\")", n, strs[i]);
			/* NULL with size 0: only the length. */
			IP_EXPECT(o_snprintf(NULL, 0, "%s", strs[i]) == (int)strlen(strs[i]), "snprintf(NULL, 0)");
		}
		prefill("");
		IP_EXPECT(o_sprintf(dst_ours + 3, "%s=%ld", strs[i], -5L) == l_sprintf(dst_libc + 3, "%s=%ld", strs[i], -5L) &&
				  same_dst(),
			  "sprintf(\"%s\")", strs[i]);
		prefill("");
		IP_EXPECT(o_sprintf_chk(dst_ours, 1, BUF, "%.3s", strs[i]) == l_sprintf_chk(dst_libc, 1, BUF, "%.3s", strs[i]) &&
				  same_dst(),
			  "__sprintf_chk(\"%s\")", strs[i]);
	}
}

typedef char *(*chk_copy_fn)(char *, const char *, size_t);
typedef char *(*chk_ncopy_fn)(char *, const char *, size_t, size_t);
typedef void *(*chk_mem_fn)(void *, const void *, size_t, size_t);
typedef void *(*chk_set_fn)(void *, int, size_t, size_t);

/* The _FORTIFY_SOURCE spellings, with a destination size that fits. */
static void fortified(void)
{
	static const char *const names[] = { "__strcpy_chk", "__stpcpy_chk", "__strcat_chk" };
	static const char *const nnames[] = { "__strncpy_chk", "__strncat_chk" };
	static const char *const mnames[] = { "__memcpy_chk", "__memmove_chk" };
	for (size_t f = 0; f < N_OF(names); f++) {
		chk_copy_fn o = ip_ucsan_sym(names[f]), l = ip_libc_sym(names[f]);
		for (size_t i = 0; i < N_OF(strs); i++) {
			prefill(strs[(i + 3) % N_OF(strs)]);
			errno = IP_SENTINEL;
			char *r = o(dst_ours + 2, strs[i], BUF - 2);
			IP_EXPECT(errno == IP_SENTINEL, "%s errno", names[f]);
			IP_EXPECT(r - dst_ours == l(dst_libc + 2, strs[i], BUF - 2) - dst_libc && same_dst(),
				  "%s(\"%s\")", names[f], strs[i]);
		}
	}
	for (size_t f = 0; f < N_OF(nnames); f++) {
		chk_ncopy_fn o = ip_ucsan_sym(nnames[f]), l = ip_libc_sym(nnames[f]);
		for (size_t i = 0; i < N_OF(strs); i++) {
			for (size_t j = 0; j < N_OF(limits); j++) {
				prefill(strs[(i + 5) % N_OF(strs)]);
				char *r = o(dst_ours + 1, strs[i], limits[j], BUF - 1);
				IP_EXPECT(r - dst_ours == l(dst_libc + 1, strs[i], limits[j], BUF - 1) - dst_libc &&
						  same_dst(),
					  "%s(\"%s\", %zu)", nnames[f], strs[i], limits[j]);
			}
		}
	}
	for (size_t f = 0; f < N_OF(mnames); f++) {
		chk_mem_fn o = ip_ucsan_sym(mnames[f]), l = ip_libc_sym(mnames[f]);
		for (size_t j = 0; j < N_OF(limits); j++) {
			prefill("");
			errno = IP_SENTINEL;
			void *r = o(dst_ours + 3, dst_ours + 40, limits[j], BUF - 3);
			IP_EXPECT(errno == IP_SENTINEL, "%s errno", mnames[f]);
			IP_EXPECT((char *)r - dst_ours == (char *)l(dst_libc + 3, dst_libc + 40, limits[j], BUF - 3) - dst_libc &&
					  same_dst(),
				  "%s(%zu)", mnames[f], limits[j]);
		}
	}
	chk_set_fn o_set = ip_ucsan_sym("__memset_chk"), l_set = ip_libc_sym("__memset_chk");
	for (size_t j = 0; j < N_OF(limits); j++) {
		prefill("");
		IP_EXPECT(o_set(dst_ours + 5, 0x1a5, limits[j], BUF - 5) == dst_ours + 5, "__memset_chk return");
		l_set(dst_libc + 5, 0x1a5, limits[j], BUF - 5);
		IP_EXPECT(same_dst(), "__memset_chk(%zu)", limits[j]);
	}
}

static void all(void)
{
	lengths();
	compares();
	byte_compares();
	copies();
	formats();
	fortified();
}

int main(void)
{
	e2e_require_runtime();
	/* What the program's own calls bind to is the interposer. */
	IP_EXPECT((void *)strlen == ip_ucsan_sym("strlen"), "the program's strlen is not ucsan's");
	all();			/* alone: ucsan watches nothing */
	e2e_keep_company();	/* now the wrappers' checks run, and watch */
	all();
	return ip_finish("string");
}
