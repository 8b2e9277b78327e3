// An uninstrumented "library" reports logical accesses to its objects with
// __tsan_external_write()/__tsan_external_read(), passing its caller's pc.
// Two threads modifying one object at once is a race on the object: TSan
// reports it as a "Modifying access of <tag>" (titled with the registered
// header), ucsan as an assertion failure (the library asserted exclusive
// access). Readers alone race with nobody.
//
// OPTIONS: skip_watch=0
// TRIES: 3
// EXIT: 66
// EXPECT: ^BUG: UCSAN: assert: race in obj_modify / obj_modify$
// EXPECT: ^assert no accesses to 0x[0-9a-f]+ of 1 bytes by thread
// NOT: obj_query
// TSAN-EXIT: 66
// TSAN-EXPECT: ^  Modifying access of MyLibObject at 0x
// TSAN-NOT: obj_query

#include "tsan_compat.h"

struct my_object {
	long payload[4];
};

static void *object_tag;
static struct my_object shared_obj, quiet_obj;

/* The library: not instrumented, so only its annotations are seen. */
COMPAT_NO_TSAN void obj_modify(struct my_object *o, long v)
{
	__tsan_external_write(o, __builtin_return_address(0), object_tag);
	o->payload[v & 3] = v;
}

COMPAT_NO_TSAN long obj_query(struct my_object *o)
{
	__tsan_external_read(o, __builtin_return_address(0), object_tag);
	return o->payload[0];
}

static void *worker(void *arg)
{
	long i = (long)arg;
	long sink = 0;
	unsigned long n = 0;
	while (compat_continue(&n)) {
		obj_modify(&shared_obj, i++);
		sink += obj_query(&quiet_obj);
	}
	return (void *)sink;
}

int main(void)
{
	e2e_require_runtime();
	object_tag = __tsan_external_register_tag("MyLibObject");
	__tsan_external_register_header(object_tag, "my_object.h");
	__tsan_external_assign_tag(&shared_obj, object_tag);
	pthread_t a = e2e_spawn(worker, (void *)0);
	pthread_t b = e2e_spawn(worker, (void *)100);
	e2e_run_for(1500);
	e2e_join(a);
	e2e_join(b);
	return 0;
}
