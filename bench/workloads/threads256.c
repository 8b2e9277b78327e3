// SPDX-License-Identifier: Apache-2.0
/*
 * threads256: threads64 with 256 threads on 2 CPUs and the same total work.
 * Four times the threads that may be preempted inside a watch window, each
 * holding a slot of the 64-slot watchpoint table: the scale table of
 * `make bench` shows how often an access found its window full
 * (no_capacity).
 */
#define THREADS 256
#include "threads64.c"
