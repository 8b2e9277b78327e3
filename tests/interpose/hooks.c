// The access hooks compilers emit before plain accesses, __tsan_{read,
// write}{1,2,4,8,16} and their unaligned, read_write, volatile and _pc
// variants, __tsan_{read,write}_range(_pc) and __tsan_vptr_{update,read},
// stand in for nothing: they must not change memory or errno, and make no
// load or store of their own (traced, interpose.h) but the one read of the
// vtable pointer __tsan_vptr_update compares with, as ThreadSanitizer's
// does.  sanitizer_common's __sanitizer_unaligned_{load,store}{16,32,64}
// stand in for a plain unaligned access: the same value, exactly the bytes
// written, errno untouched, and one access, as the uninstrumented access
// makes (the same loads and stores, traced).  All of it alone, then with a
// second thread and the runtime watching every few accesses.
//
// CFLAGS: -O2 -g -std=gnu11 -Wall -Wextra -Werror
// OPTIONS: skip_watch=2 cold_site_limit=0 cold_watches=1000
// OPTIONS: udelay_task=2 cold_udelay=2 cold_budget_percent=100 cold_process_percent=100
// TIMEOUT: 120
// EXPECT-STDOUT: ^hooks: [0-9]+ checks, 0 failed$
// NOT: UCSAN

#include "interpose.h"

#include <sanitizer/common_interface_defs.h>

#define PAGE 4096

/* === The hooks === */

enum kind { K_PTR, K_PC, K_RANGE, K_RANGE_PC, K_VPTR_UPDATE };

struct hook {
	char name[48];
	enum kind kind;
	size_t size; /* bytes the hook is about (sized hooks) */
	void *fn;
};

static struct hook hooks[128];
static int n_hooks;

static void add_hook(const char *name, enum kind kind, size_t size)
{
	struct hook *h = &hooks[n_hooks++];
	void *fn = dlsym(RTLD_DEFAULT, name);

	snprintf(h->name, sizeof(h->name), "%s", name);
	h->kind = kind;
	h->size = size;
	h->fn = fn;
	if (!fn) {
		fprintf(stderr, "e2e: %s is not defined\n", name);
		exit(2);
	}
}

static void find_hooks(void)
{
	static const char *const sized[] = { "read", "write", "unaligned_read", "unaligned_write", "read_write",
					     "unaligned_read_write", "volatile_read", "volatile_write",
					     "unaligned_volatile_read", "unaligned_volatile_write" };
	char name[48];

	for (size_t s = 1; s <= 16; s *= 2) {
		for (size_t i = 0; i < sizeof(sized) / sizeof(sized[0]); i++) {
			snprintf(name, sizeof(name), "__tsan_%s%zu", sized[i], s);
			add_hook(name, K_PTR, s);
		}
		snprintf(name, sizeof(name), "__tsan_read%zu_pc", s);
		add_hook(name, K_PC, s);
		snprintf(name, sizeof(name), "__tsan_write%zu_pc", s);
		add_hook(name, K_PC, s);
	}
	add_hook("__tsan_read_range", K_RANGE, 0);
	add_hook("__tsan_write_range", K_RANGE, 0);
	add_hook("__tsan_read_range_pc", K_RANGE_PC, 0);
	add_hook("__tsan_write_range_pc", K_RANGE_PC, 0);
	add_hook("__tsan_vptr_update", K_VPTR_UPDATE, sizeof(void *));
	add_hook("__tsan_vptr_read", K_PTR, sizeof(void *));
}

struct hook_call {
	const struct hook *h;
	char *p;
	unsigned long len; /* ranges */
	void *vptr;	/* vptr_update's new value */
	int err;
};

static void call_hook(void *arg)
{
	struct hook_call *k = arg;
	void *pc = (void *)call_hook;

	errno = IP_SENTINEL;
	switch (k->h->kind) {
	case K_PTR: ((void (*)(void *))k->h->fn)(k->p); break;
	case K_PC: ((void (*)(void *, void *))k->h->fn)(k->p, pc); break;
	case K_RANGE: ((void (*)(void *, unsigned long))k->h->fn)(k->p, k->len); break;
	case K_RANGE_PC: ((void (*)(void *, unsigned long, void *))k->h->fn)(k->p, k->len, pc); break;
	case K_VPTR_UPDATE: ((void (*)(void *, void *))k->h->fn)(k->p, k->vptr); break;
	}
	k->err = errno;
}

static struct ip_access acc[IP_TRACE_MAX];

static void check_hooks(char *page, char *copy)
{
	static const size_t offs[] = { 0, 1, 3, 8, 15, 16, PAGE - 16, PAGE - 5 };
	static const unsigned long lens[] = { 0, 1, 7, 16, 33, 100, 4096 };
	char s[256];

	for (int i = 0; i < n_hooks; i++) {
		const struct hook *h = &hooks[i];
		for (size_t o = 0; o < sizeof(offs) / sizeof(offs[0]); o++) {
			for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
				const int range = h->kind == K_RANGE || h->kind == K_RANGE_PC;
				struct hook_call k = { h, page + offs[o], lens[l], page + 8, 0 };
				int n, reads = 0, writes = 0;
				if (!range && l > 0)
					break;
				if (range && offs[o] + lens[l] > 2 * PAGE)
					continue;
				if (h->kind == K_VPTR_UPDATE && offs[o] % sizeof(void *))
					continue;
				for (int vi = 0; vi < (h->kind == K_VPTR_UPDATE ? 2 : 1); vi++) {
					/* vptr_update: a new value, then the same value again */
					k.vptr = vi ? *(void **)k.p : page + 8;
					n = ip_trace(page, 2 * PAGE, call_hook, &k, acc, IP_TRACE_MAX);
					for (int a = 0; a < n; a++) {
						writes += acc[a].write;
						reads += !acc[a].write;
					}
					IP_EXPECT(!memcmp(page, copy, 2 * PAGE), "%s(+%zu) changed memory", h->name,
						  offs[o]);
					IP_EXPECT(k.err == IP_SENTINEL, "%s(+%zu) changed errno to %d", h->name,
						  offs[o], k.err);
					IP_EXPECT(writes == 0, "%s(+%zu, %lu) stored to the object: %s", h->name,
						  offs[o], lens[l], ip_trace_str(acc, n, s, sizeof(s)));
					if (h->kind == K_VPTR_UPDATE)
						IP_EXPECT(n == 1 && acc[0].off == offs[o] && !acc[0].write,
							  "%s(+%zu): not one read of the pointer: %s", h->name,
							  offs[o], ip_trace_str(acc, n, s, sizeof(s)));
					else
						IP_EXPECT(reads == 0, "%s(+%zu, %lu) loaded from the object: %s",
							  h->name, offs[o], lens[l], ip_trace_str(acc, n, s, sizeof(s)));
				}
			}
		}
	}
}

/* === __sanitizer_unaligned_* against plain unaligned accesses === */

struct ua_call {
	int bits, store, ref;
	char *p;
	uint64_t v;
	int err;
};

/* The access itself, uninstrumented: what the compiler emits for it. */
static IP_NOSAN void ua_ref(struct ua_call *k)
{
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (k->bits * 2 + k->store) {
	case 32: __builtin_memcpy(&v16, k->p, 2); k->v = v16; break;
	case 33: v16 = (uint16_t)k->v; __builtin_memcpy(k->p, &v16, 2); break;
	case 64: __builtin_memcpy(&v32, k->p, 4); k->v = v32; break;
	case 65: v32 = (uint32_t)k->v; __builtin_memcpy(k->p, &v32, 4); break;
	case 128: __builtin_memcpy(&v64, k->p, 8); k->v = v64; break;
	default: v64 = k->v; __builtin_memcpy(k->p, &v64, 8); break;
	}
}

static void ua_do(void *arg)
{
	struct ua_call *k = arg;

	errno = IP_SENTINEL;
	if (k->ref)
		ua_ref(k);
	else if (k->store)
		k->bits == 16 ? __sanitizer_unaligned_store16(k->p, (uint16_t)k->v)
		: k->bits == 32 ? __sanitizer_unaligned_store32(k->p, (uint32_t)k->v)
				: __sanitizer_unaligned_store64(k->p, k->v);
	else
		k->v = k->bits == 16 ? __sanitizer_unaligned_load16(k->p)
		       : k->bits == 32 ? __sanitizer_unaligned_load32(k->p)
				       : __sanitizer_unaligned_load64(k->p);
	k->err = errno;
}

static struct ip_access acc_ref[IP_TRACE_MAX];

static void check_unaligned(char *page, char *copy)
{
	static const size_t offs[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 15, 16, 31, PAGE - 8, PAGE - 7, PAGE - 4,
				       PAGE - 3, PAGE - 1, PAGE + 1 };
	char a[256], b[256];

	for (int bits = 16; bits <= 64; bits *= 2) {
		for (size_t o = 0; o < sizeof(offs) / sizeof(offs[0]); o++) {
			for (int store = 0; store < 2; store++) {
				struct ua_call k = { bits, store, 0, page + offs[o], 0x0102030405060708ULL, 0 };
				struct ua_call r = k;
				int n, nr;
				r.ref = 1;
				/* Values and bytes, untraced: ours on page, the reference on copy. */
				r.p = copy + offs[o];
				ua_do(&k);
				ua_do(&r);
				IP_EXPECT(k.v == r.v && !memcmp(page, copy, 2 * PAGE),
					  "__sanitizer_unaligned_%s%d(+%zu): value %#llx, plain access %#llx%s",
					  store ? "store" : "load", bits, offs[o], (unsigned long long)k.v,
					  (unsigned long long)r.v, memcmp(page, copy, 2 * PAGE) ? ", bytes differ" : "");
				IP_EXPECT(k.err == IP_SENTINEL, "__sanitizer_unaligned_%s%d changed errno to %d",
					  store ? "store" : "load", bits, k.err);
				/* Accesses, traced on the same page. */
				r.p = k.p;
				k.v = r.v = 0x1112131415161718ULL;
				n = ip_trace(page, 2 * PAGE, ua_do, &k, acc, IP_TRACE_MAX);
				nr = ip_trace(page, 2 * PAGE, ua_do, &r, acc_ref, IP_TRACE_MAX);
				IP_EXPECT(ip_trace_equal(acc, n, acc_ref, nr),
					  "__sanitizer_unaligned_%s%d(+%zu): accesses %s, plain access %s",
					  store ? "store" : "load", bits, offs[o], ip_trace_str(acc, n, a, sizeof(a)),
					  ip_trace_str(acc_ref, nr, b, sizeof(b)));
				memcpy(copy, page, 2 * PAGE);
			}
		}
	}
}

static void all(char *page, char *copy)
{
	for (int i = 0; i < 2 * PAGE; i++)
		page[i] = (char)(i * 37 + 11);
	memcpy(copy, page, 2 * PAGE);
	check_hooks(page, copy);
	check_unaligned(page, copy);
}

int main(void)
{
	char *page = ip_pages(2), *copy = ip_pages(2);

	e2e_require_runtime();
	find_hooks();
	all(page, copy);	/* alone: nothing is watched */
	e2e_keep_company();	/* now the hooks may watch */
	all(page, copy);
	return ip_finish("hooks");
}
