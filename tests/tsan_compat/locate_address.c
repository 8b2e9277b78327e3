// __tsan_locate_address(), used as ThreadSanitizer's own test of it does:
// a global, a stack variable and a heap block, each named by kind, the
// global also by name.
//
// EXPECT-STDOUT: ^global_var: global 'global_var' region ok$
// EXPECT-STDOUT: ^stack_var: stack$
// EXPECT-STDOUT: ^heap_var: heap$

#include <stdlib.h>

#include "tsan_compat.h"

const char *__tsan_locate_address(void *addr, char *name, size_t name_size, void **region_address_ptr,
				  size_t *region_size_ptr);

long global_var;

int main(void)
{
	long stack_var = 0;
	void *heap_var = malloc(10);
	char name[128];
	void *region;
	size_t size;

	const char *type = __tsan_locate_address(&global_var, name, sizeof(name), &region, &size);
	printf("global_var: %s '%s' region %s\n", type, name,
	       region == (void *)&global_var && size == sizeof(global_var) ? "ok" : "wrong");
	type = __tsan_locate_address(&stack_var, name, sizeof(name), &region, &size);
	printf("stack_var: %s\n", type);
	type = __tsan_locate_address(heap_var, name, sizeof(name), &region, &size);
	printf("heap_var: %s\n", type);
	free(heap_var);
	return (int)stack_var;
}
