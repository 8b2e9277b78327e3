#!/bin/sh
# Installs the Debian 12 packages ucsan needs to build and test:
#   make, gcc, g++          build the runtime; the default compiler behind ucsan-cc
#   clang                   the second compiler every end-to-end test runs under
#   libdw-dev, libelf-dev   symbolizing report stacks in-process (elfutils)
#   cmake                   the wrapper test builds a CMake project
#   pkg-config              checks the installed ucsan.pc
#   libomp-dev              clang's OpenMP runtime, for the OpenMP tests under clang
#   python3                 ucsan-report (merges JSON report logs, writes SARIF) and
#                           the tests that parse JSON reports
#   libclang-rt-14-dev      clang's sanitizer runtimes: ThreadSanitizer in make bench,
#                           libFuzzer for the parser fuzzers
set -e
pkgs="make gcc g++ clang libdw-dev libelf-dev cmake pkg-config libomp-dev libclang-rt-14-dev python3"
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -eq 0 ]; then sudo=; else sudo=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq $missing
