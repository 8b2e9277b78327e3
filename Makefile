# ucsan: plain GNU make. `make` builds into build/, `make check` runs every
# test suite, `make install PREFIX=... DESTDIR=...` installs.

VERSION := 0.1.0
PREFIX ?= /usr/local
DESTDIR ?=
CC ?= cc
CFLAGS ?= -O2 -g
B ?= build

# The runtime is never instrumented itself. Hidden by default: only the
# entry points and the public API are exported. initial-exec TLS keeps the
# per-thread context one instruction away. Report stacks unwind through the
# runtime with CFI, so it needs no frame pointers (the hot path is shorter
# without).
RT_CFLAGS := -std=gnu11 -fPIC -fvisibility=hidden -ftls-model=initial-exec \
	-fomit-frame-pointer -pthread -Wall -Wextra -MMD -MP
ifeq ($(shell uname -m),x86_64)
RT_CFLAGS += -mcx16
endif
# libatomic: 16-byte atomics; libgcc_s: the unwinder for report stacks;
# libdl: dlsym for interceptors. libdw/libelf (symbolizing reports) are
# loaded at the first report (src/libdw_lazy.c), not linked.
RT_LIBS := -latomic -lgcc_s -ldl -pthread

RT_SRCS := $(wildcard src/*.c)
RT_OBJS := $(patsubst src/%.c,$(B)/obj/%.o,$(RT_SRCS))

# ucsan-entry.o, linked into every executable by ucsan-cc: the plain-access
# entry points and the state they read, as position-independent executable
# code with local-exec TLS (src/entry/entry.c says why). One object, so
# that it comes whole or not at all.
ENTRY_CFLAGS := -std=gnu11 -fPIE -fno-plt -DUCSAN_ENTRY_OBJECT -fomit-frame-pointer -pthread \
	-Wall -Wextra -MMD -MP
ENTRY_SRCS := src/tsan_abi.c src/tsan_atomics.c src/hot_state.c src/entry/entry.c
ENTRY_OBJS := $(patsubst %.c,$(B)/obj/entry/%.o,$(notdir $(ENTRY_SRCS)))
# ucsan-entry-lto.o: the same entry points as LLVM bitcode, which ucsan-cc
# links into programs that clang links with -flto; the LTO linker then
# inlines the check at each access (src/entry/entry_lto.c). Compiled with
# -fsanitize=thread, all of its instrumentation off: LLVM inlines only
# between functions alike in that attribute. Built when clang is there, on
# x86-64 (an inlined entry reads its pc with lea).
CLANG ?= clang
LTO_ENTRY := $(if $(and $(shell command -v $(CLANG) 2>/dev/null),$(filter x86_64,$(shell uname -m))),$(B)/lib/ucsan-entry-lto.o)
LTO_ENTRY_CFLAGS := -flto=full -fsanitize=thread -mllvm -tsan-instrument-memory-accesses=false \
	-mllvm -tsan-instrument-atomics=false -mllvm -tsan-instrument-func-entry-exit=false \
	-mllvm -tsan-instrument-memintrinsics=false -O2 -g0
HEADERS := $(shell find include -name '*.h' 2>/dev/null)

all: $(B)/lib/libucsan.so $(B)/lib/ucsan-entry.o $(LTO_ENTRY) $(B)/bin/ucsan-cc $(B)/bin/ucsan-c++ $(B)/bin/ucsan-report \
	$(patsubst include/%,$(B)/include/%,$(HEADERS)) $(B)/lib/pkgconfig/ucsan.pc

# The allocation stacks of heap_stacks walk frame pointers, starting in the
# interposed allocation functions; operator new's exceptions pass through.
$(B)/obj/intercept_malloc.o: RT_CFLAGS += -fno-omit-frame-pointer -fexceptions

$(B)/obj/%.o: src/%.c Makefile
	@mkdir -p $(@D)
	$(CC) $(RT_CFLAGS) $(CFLAGS) -c $< -o $@

# Not -Bsymbolic-functions: programs override some of the runtime's weak
# functions (__tsan_default_options, __tsan_on_report ...), and its calls
# to them must reach the program's.
$(B)/lib/libucsan.so: $(RT_OBJS)
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-soname,libucsan.so -Wl,--no-undefined -o $@ $(RT_OBJS) $(LDFLAGS) $(RT_LIBS)

# Without debug information: its frames never show in reports, and DWARF
# from the runtime's compiler mixed into a program built by another one
# (gcc's into clang's) kept libdw from reading the program's line tables.
$(B)/obj/entry/%.o: src/%.c Makefile
	@mkdir -p $(@D)
	$(CC) $(ENTRY_CFLAGS) $(CFLAGS) -g0 -c $< -o $@

$(B)/obj/entry/entry.o: src/entry/entry.c Makefile
	@mkdir -p $(@D)
	$(CC) $(ENTRY_CFLAGS) $(CFLAGS) -g0 -c $< -o $@

$(B)/lib/ucsan-entry.o: $(ENTRY_OBJS)
	@mkdir -p $(@D)
	$(CC) -r -nostdlib -o $@ $(ENTRY_OBJS)

# Beside it, the major version of the clang that wrote it: an older clang
# cannot read its bitcode, and ucsan-cc links ucsan-entry.o for one.
$(B)/lib/ucsan-entry-lto.o: src/entry/entry_lto.c $(ENTRY_SRCS) $(wildcard src/*.h) Makefile
	@mkdir -p $(@D)
	$(CLANG) $(filter-out -MMD -MP,$(ENTRY_CFLAGS)) $(LTO_ENTRY_CFLAGS) -c $< -o $@
	echo __clang_major__ | $(CLANG) -E -P -x c - | tr -d ' \n' > $(B)/lib/ucsan-entry-lto.clang

$(B)/bin/ucsan-cc $(B)/bin/ucsan-c++: tools/ucsan-cc.in
	@mkdir -p $(@D)
	cp $< $@ && chmod 755 $@

# Merges report_format=json logs into a table or SARIF (Python 3).
$(B)/bin/ucsan-report: tools/ucsan-report
	@mkdir -p $(@D)
	cp $< $@ && chmod 755 $@

$(B)/include/%: include/%
	@mkdir -p $(@D)
	cp $< $@

$(B)/lib/pkgconfig/ucsan.pc: ucsan.pc.in Makefile
	@mkdir -p $(@D)
	sed -e 's|@PREFIX@|$(abspath $(B))|g' -e 's|@VERSION@|$(VERSION)|g' $< > $@

# --- tests ---------------------------------------------------------------
# test_symbolize.c is built by tests/unit/run.sh, under both compilers.
UNIT_SRCS := tests/unit/test_cold_sites.c tests/unit/test_countdown.c tests/unit/test_encoding.c tests/unit/test_gate.c tests/unit/test_heap_blocks.c tests/unit/test_held_watches.c tests/unit/test_options.c tests/unit/test_suppressions.c tests/unit/test_unknown_origin.c
UNIT_BINS := $(patsubst tests/unit/%.c,$(B)/tests/unit/%,$(UNIT_SRCS))

$(B)/tests/unit/%: tests/unit/%.c $(RT_OBJS)
	@mkdir -p $(@D)
	$(CC) $(filter-out -MMD -MP,$(RT_CFLAGS)) $(CFLAGS) -Isrc $< $(RT_OBJS) -o $@ $(RT_LIBS)

unit: $(UNIT_BINS)

check: all unit
	sh tests/run-all.sh

# Benchmarks: a table, not a test (see bench/).
bench: all
	$(MAKE) -C bench

# One-shot detection rates of ucsan and ThreadSanitizer on tests/oneshot/:
# a table, not a test (ONESHOT_RUNS=N runs per program, default 20).
oneshot: all
	sh tests/oneshot/measure.sh

# The same on tests/heldout/, programs written without sight of the corpus:
# whether what was tuned on it generalises.
heldout: all
	ONESHOT_SRC=tests/heldout sh tests/oneshot/measure.sh

# The long soak (make check runs a short one).
soak: all
	SOAK_SECONDS=$${SOAK_SECONDS:-300} sh tests/stress/run.sh

# The README's first command: build, then show real reports -- the tcp_poll
# race from the seed patches, found in the buggy build, silent when fixed.
demo: all
	sh examples/run-demo.sh

# --- install -------------------------------------------------------------
install: all
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/lib/pkgconfig" \
		"$(DESTDIR)$(PREFIX)/include/ucsan" "$(DESTDIR)$(PREFIX)/share/man/man1"
	install -m 755 tools/ucsan-cc.in "$(DESTDIR)$(PREFIX)/bin/ucsan-cc"
	install -m 755 tools/ucsan-cc.in "$(DESTDIR)$(PREFIX)/bin/ucsan-c++"
	install -m 755 tools/ucsan-report "$(DESTDIR)$(PREFIX)/bin/ucsan-report"
	install -m 755 $(B)/lib/libucsan.so "$(DESTDIR)$(PREFIX)/lib/libucsan.so"
	install -m 644 $(B)/lib/ucsan-entry.o "$(DESTDIR)$(PREFIX)/lib/ucsan-entry.o"
	if [ -f $(B)/lib/ucsan-entry-lto.o ]; then \
		install -m 644 $(B)/lib/ucsan-entry-lto.o "$(DESTDIR)$(PREFIX)/lib/ucsan-entry-lto.o"; \
		install -m 644 $(B)/lib/ucsan-entry-lto.clang "$(DESTDIR)$(PREFIX)/lib/ucsan-entry-lto.clang"; fi
	for h in $(HEADERS); do install -m 644 $$h "$(DESTDIR)$(PREFIX)/$$h"; done
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' ucsan.pc.in \
		> "$(DESTDIR)$(PREFIX)/lib/pkgconfig/ucsan.pc"
	install -m 644 docs/ucsan-cc.1 "$(DESTDIR)$(PREFIX)/share/man/man1/ucsan-cc.1"
	ln -sf ucsan-cc.1 "$(DESTDIR)$(PREFIX)/share/man/man1/ucsan-c++.1"

clean:
	rm -rf $(B)

.PHONY: all unit check demo bench oneshot heldout soak install clean
-include $(RT_OBJS:.o=.d) $(ENTRY_OBJS:.o=.d)
