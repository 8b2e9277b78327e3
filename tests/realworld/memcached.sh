#!/bin/sh
# A real server under a short bounded load, as a user would try ucsan on it
# (not part of `make check`: it needs a memcached checkout, libevent-dev,
# autoconf and automake).
#
#   sh tests/realworld/memcached.sh SRC [RUNS] [SECONDS]
#
# Builds the memcached checkout SRC with build/bin/ucsan-cc (or with $MC_CC,
# e.g. MC_CC='gcc -fsanitize=thread', for the comparison), into
# build/realworld/memcached-LABEL (LABEL: $MC_LABEL, default ucsan), then
# RUNS times (default 4): starts it (-t 4 -m 64), drives it for SECONDS
# (default 10) from 4 client threads (set, get, incr and delete on 2000
# shared keys), stops it with SIGTERM and prints the reports it wrote and
# their racing pairs.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SRC=${1:?usage: memcached.sh SRC [RUNS] [SECONDS]}
RUNS=${2:-4}
SECS=${3:-10}
LABEL=${MC_LABEL:-ucsan}
CCMD=${MC_CC:-$ROOT/build/bin/ucsan-cc}
OUT=$ROOT/build/realworld/memcached-$LABEL
mkdir -p "$OUT"

# A build older than the entry points ucsan-cc links into it would meet a
# libucsan.so of another entry ABI: built again.
ENTRY=$ROOT/build/lib/ucsan-entry.o
if [ ! -x "$OUT/src/memcached" ] || { [ -z "${MC_CC:-}" ] && [ "$ENTRY" -nt "$OUT/src/memcached" ]; }; then
	rm -rf "$OUT/src"
	cp -r "$SRC" "$OUT/src"
	(cd "$OUT/src" && { [ -x configure ] || ./autogen.sh >"$OUT/autogen.log" 2>&1; } &&
		./configure CC="$CCMD" CFLAGS='-O2 -g' >"$OUT/configure.log" 2>&1 &&
		make -j2 memcached >"$OUT/make.log" 2>&1) || {
		echo "memcached.sh: build failed, see $OUT/*.log" >&2
		exit 1
	}
fi

run=0
while [ "$run" -lt "$RUNS" ]; do
	run=$((run + 1))
	port=$((20000 + ($$ + run) % 20000))
	log=$OUT/run$run.stderr
	"$OUT/src/memcached" -u root -t 4 -m 64 -U 0 -l 127.0.0.1 -p "$port" 2>"$log" &
	pid=$!
	python3 - "$port" "$SECS" <<'PY'
import random, socket, sys, threading, time
port, secs = int(sys.argv[1]), float(sys.argv[2])
for _ in range(100):  # until the server listens (5 s at most)
    try:
        socket.create_connection(("127.0.0.1", port)).close()
        break
    except OSError:
        time.sleep(0.05)
ops = [0] * 4

def client(n):
    s = socket.create_connection(("127.0.0.1", port))
    f = s.makefile("rb")
    rnd = random.Random(n)
    end = time.time() + secs
    while time.time() < end:
        k = "k%d" % rnd.randrange(2000)
        op = rnd.randrange(4)
        if op == 0:
            v = str(rnd.randrange(10**6)).encode()
            s.sendall(b"set %s 0 0 %d\r\n%s\r\n" % (k.encode(), len(v), v))
            f.readline()
        elif op == 1:
            s.sendall(b"get %s\r\n" % k.encode())
            while f.readline() not in (b"END\r\n", b""):
                pass
        elif op == 2:
            s.sendall(b"incr %s 1\r\n" % k.encode())
            f.readline()
        else:
            s.sendall(b"delete %s\r\n" % k.encode())
            f.readline()
        ops[n] += 1
    s.close()

ts = [threading.Thread(target=client, args=(i,)) for i in range(4)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print("requests: %d" % sum(ops))
PY
	# The server's CPU time (user + system, clock ticks) and peak RSS.
	cpu=$(awk '{print $14 + $15}' "/proc/$pid/stat")
	rss=$(awk '/^VmHWM/ {print $2}' "/proc/$pid/status")
	kill -TERM "$pid"
	wait "$pid" || true
	n=$(grep -c -E '^BUG: UCSAN: data-race|^WARNING: ThreadSanitizer: data race' "$log" || true)
	echo "run $run: $n report(s), server CPU $(awk "BEGIN {print $cpu / $(getconf CLK_TCK)}") s, peak RSS $((rss / 1024)) MiB"
	grep -E '^BUG: UCSAN: data-race in' "$log" | sed 's/^BUG: UCSAN: data-race in /  /' | sort | uniq -c || true
done
