// The functions of <sanitizer/common_interface_defs.h> and
// <sanitizer/allocator_interface.h> that ThreadSanitizer's runtime exports,
// called the way programs and test harnesses written for it call them:
// symbolizing a return address and a global into strings, finding a pc's
// module, printing the current stack, allocation hooks and the allocator's
// figures (and the hooks a program defines instead), the crash state, and
// reports sent to a file (whose name the runtime gives back) and to the
// program's __sanitizer_on_print(), with a callback run before
// halt_on_error ends the process.
//
// OPTIONS: skip_watch=0 halt_on_error=1
// TRIES: 5
// EXIT: 66
// EXPECT-STDOUT: ^pc: in symbolize_caller .*sanitizer_common\.c:[0-9]+(:[0-9]+)?$
// EXPECT-STDOUT: ^pc function: symbolize_caller$
// EXPECT-STDOUT: ^global: the_global$
// EXPECT-STDOUT: ^module: this program, offset inside it$
// EXPECT-STDOUT: ^crash state: 1 then 0$
// EXPECT-STDOUT: ^hooks: 1 malloc, 1 free of the block$
// EXPECT-STDOUT: ^weak hooks: 1 malloc, 1 free of the other block$
// EXPECT-STDOUT: ^ownership: block 1, stack 0, size 1234$
// EXPECT-STDOUT: ^allocated bytes: some$
// EXPECT-STDOUT: ^report path: the set prefix and the pid$
// EXPECT-STDOUT: ^death callback: the report is in the file$
// EXPECT-STDOUT: ^on_print: saw the report$
// EXPECT: print_me.*sanitizer_common\.c:[0-9]+
// NOT: data.race
// TSAN-EXIT: 66
// TSAN-EXPECT: print_me.*sanitizer_common\.c:[0-9]+
// TSAN-NOT: data.race

#include <fcntl.h>
#include <sanitizer/common_interface_defs.h>
#include <stdint.h>
#include <unistd.h>

#include "tsan_compat.h"

/* <sanitizer/allocator_interface.h>, which gcc does not ship. */
int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void *, size_t),
					      void (*free_hook)(const volatile void *));
int __sanitizer_get_ownership(const volatile void *p);
size_t __sanitizer_get_allocated_size(const volatile void *p);
size_t __sanitizer_get_current_allocated_bytes(void);

long the_global = 1;
long raced;
static char report_prefix[256];

static NOINLINE void here_i_am(char *out, size_t n, const char *fmt)
{
	__sanitizer_symbolize_pc(__builtin_return_address(0), fmt, out, n);
}

/* The caller's line, through a frame of its own. */
static NOINLINE void symbolize_caller(void)
{
	char buf[1024];
	here_i_am(buf, sizeof(buf), "%F %L");
	/* Inlined frames first, then the function: the last string. */
	const char *last = buf;
	for (const char *s = buf; *s; s += strlen(s) + 1)
		last = s;
	printf("pc: %s\n", last);
	here_i_am(buf, sizeof(buf), "%f");
	for (const char *s = buf; *s; s += strlen(s) + 1)
		last = s;
	printf("pc function: %s\n", last);
}

static NOINLINE void print_me(void)
{
	__sanitizer_print_stack_trace();
}

static int hooked_mallocs, hooked_frees;
static const volatile void *watched_block;

static void on_malloc(const volatile void *p, size_t size)
{
	if (size == 1234)
		__atomic_fetch_add(&hooked_mallocs, 1, __ATOMIC_RELAXED);
	(void)p;
}

static void on_free(const volatile void *p)
{
	if (p && p == watched_block)
		__atomic_fetch_add(&hooked_frees, 1, __ATOMIC_RELAXED);
}

/* The hooks a program may define instead of installing them. */
static int weak_mallocs, weak_frees;
static const volatile void *weak_block;

void __sanitizer_malloc_hook(const volatile void *p, size_t size)
{
	if (size == 4321)
		__atomic_fetch_add(&weak_mallocs, 1, __ATOMIC_RELAXED);
	(void)p;
}

void __sanitizer_free_hook(const volatile void *p)
{
	if (p && p == weak_block)
		__atomic_fetch_add(&weak_frees, 1, __ATOMIC_RELAXED);
}

/* Everything the runtime prints passes here too. */
static int printed_report;

void __sanitizer_on_print(const char *str)
{
	if (strstr(str, "data-race") || strstr(str, "data race"))
		__atomic_store_n(&printed_report, 1, __ATOMIC_RELAXED);
}

/* Before the process ends: the report must be in the file already. */
static void on_death(void)
{
	char name[512], text[65536];
	snprintf(name, sizeof(name), "%s.%d", report_prefix, (int)getpid());
	int fd = open(name, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, text, sizeof(text) - 1) : -1;
	text[n > 0 ? n : 0] = '\0';
	printf("death callback: %s\n",
	       strstr(text, "data-race") || strstr(text, "data race") ? "the report is in the file" : "no report");
	printf("on_print: %s\n", __atomic_load_n(&printed_report, __ATOMIC_RELAXED) ? "saw the report" : "nothing");
	fflush(stdout);
	if (fd >= 0)
		close(fd);
	unlink(name);
}

static void *racer(void *arg)
{
	unsigned long n = 0;
	(void)arg;
	while (compat_continue(&n))
		raced++;
	return NULL;
}

int main(void)
{
	e2e_require_runtime();
	symbolize_caller();

	char buf[1024];
	__sanitizer_symbolize_global(&the_global, "%g", buf, sizeof(buf));
	printf("global: %s\n", buf);

	char module[4096];
	void *offset = NULL;
	int found = __sanitizer_get_module_and_offset_for_pc((void *)(uintptr_t)main, module, sizeof(module), &offset);
	char self[4096];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[len > 0 ? len : 0] = '\0';
	printf("module: %s, %s\n", found && !strcmp(module, self) ? "this program" : module,
	       offset && (uintptr_t)offset < (uintptr_t)(void *)main ? "offset inside it" : "offset wrong");

	int first = __sanitizer_acquire_crash_state();
	printf("crash state: %d then %d\n", first, __sanitizer_acquire_crash_state());

	__sanitizer_install_malloc_and_free_hooks(on_malloc, on_free);
	void *block = malloc(1234);
	long on_stack = 0;
	printf("ownership: block %d, stack %d, size %zu\n", __sanitizer_get_ownership(block),
	       __sanitizer_get_ownership(&on_stack), __sanitizer_get_allocated_size(block));
	printf("allocated bytes: %s\n", __sanitizer_get_current_allocated_bytes() >= 1234 ? "some" : "none");
	watched_block = block;
	free(block);
	printf("hooks: %d malloc, %d free of the block\n", __atomic_load_n(&hooked_mallocs, __ATOMIC_RELAXED),
	       __atomic_load_n(&hooked_frees, __ATOMIC_RELAXED));

	void *other = malloc(4321);
	weak_block = other;
	free(other);
	printf("weak hooks: %d malloc, %d free of the other block\n", __atomic_load_n(&weak_mallocs, __ATOMIC_RELAXED),
	       __atomic_load_n(&weak_frees, __ATOMIC_RELAXED));

	print_me();

	const char *tmp = getenv("TMPDIR");
	snprintf(report_prefix, sizeof(report_prefix), "%s/sanitizer_common-report", tmp && *tmp ? tmp : "/tmp");
	__sanitizer_set_report_path(report_prefix);
	char expected[512];
	snprintf(expected, sizeof(expected), "%s.%d", report_prefix, (int)getpid());
	const char *path = __sanitizer_get_report_path();
	printf("report path: %s\n", path && !strcmp(path, expected) ? "the set prefix and the pid" : path ? path : "none");
	fflush(stdout);
	__sanitizer_set_death_callback(on_death);

	pthread_t a = e2e_spawn(racer, NULL), b = e2e_spawn(racer, NULL);
	e2e_run_for(2000);
	e2e_join(a);
	e2e_join(b);
	unlink(expected);
	return 0;
}
