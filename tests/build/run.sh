#!/bin/sh
# The runtime builds warning-free (-Wall -Wextra -Werror) with gcc and clang,
# each into its own scratch build directory; and its rooms call in the
# directions docs/how-it-works.md draws (layers-*).
SUITE=build
. "$(dirname "$0")/../lib/suite.sh"
cd "$ROOT" || exit 2
mkdir -p build/tests
for cc in gcc clang; do
	dir=build/tests/build-$cc
	rm -rf "$dir"
	if make -s B="$dir" CC="$cc" CFLAGS="-O2 -g -Werror" "$dir/lib/libucsan.so" >"$dir.log" 2>&1; then
		pass "$cc-werror"
	else
		fail_log "$cc-werror" "make CC=$cc CFLAGS='-O2 -g -Werror' failed" "$dir.log"
	fi
done

# layers-*: from the gcc build's objects. Nothing takes a name from init.o
# but ucsan_init and its flag; platform.o takes nothing from the runtime.
objs=build/tests/build-gcc/obj
if [ -f "$objs/init.o" ] && [ -f "$objs/platform.o" ]; then
	nm --defined-only "$objs/init.o" | awk '$2 ~ /^[TDBR]$/ { print $3 }' | sort >"$objs.init-names"
	up=$(for o in "$objs"/*.o; do
		[ "$o" = "$objs/init.o" ] || nm -u "$o" | awk -v f="${o##*/}" '{ print $2, f }'
	done | sort | join - "$objs.init-names" | grep -v -e '^ucsan_init ' -e '^ucsan_initialized ')
	if [ -z "$up" ]; then
		pass layers-nothing-calls-init
	else
		fail layers-nothing-calls-init "names of init.o used elsewhere (symbol, user):" \
			"$(printf '%s\n' "$up" | sed 's/^/  /')"
	fi
	down=$(nm -u "$objs/platform.o" | awk '$2 ~ /^ucsan_/ { print $2 }')
	if [ -z "$down" ]; then
		pass layers-platform-calls-nothing
	else
		fail layers-platform-calls-nothing "platform.o calls:" $down
	fi
else
	fail layers-nothing-calls-init "no objects in $objs"
fi
# syscall-hooks: every hook <sanitizer/linux_syscall_hooks.h> declares (the
# copy clang ships; gcc ships none) is defined by the runtime, so that a
# program written for the sanitizers links under ucsan-cc.
hooks=$(clang -print-resource-dir 2>/dev/null)/include/sanitizer/linux_syscall_hooks.h
lib=build/tests/build-gcc/lib/libucsan.so
if [ -f "$hooks" ] && [ -f "$lib" ]; then
	grep -oE '__sanitizer_syscall_(pre|post)_impl_[a-z0-9_]+' "$hooks" | sort -u >"$objs.hooks"
	nm -D --defined-only "$lib" | awk '{ print $3 }' | sort -u >"$objs.exported"
	missing=$(comm -23 "$objs.hooks" "$objs.exported")
	if [ -s "$objs.hooks" ] && [ -z "$missing" ]; then
		pass syscall-hooks
	else
		fail syscall-hooks "hooks of $hooks not defined:" $missing
	fi
else
	fail syscall-hooks "no $hooks or no $lib"
fi
suite_end
