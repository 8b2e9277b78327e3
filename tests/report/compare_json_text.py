#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks a log written with report_format=both: every text report is
followed by its JSON line, the JSON parses (Python's json module), and each
field the text shows equals the JSON's: title, access lines, every frame
(function, file, line, inline), the value change, the location line, and
each thread line with its creation stack.

Usage: compare_json_text.py LOG [MIN_REPORTS]
Prints nothing and exits 0 when all agree; else one line per difference."""
import json
import re
import sys

ACCESS = re.compile(r"^(race at unknown origin, with )?(.+?) to (0x[0-9a-f]+) of (\d+) bytes by "
                    r"(signal handler in )?thread (\d+)(?: \(OpenMP thread (\d+)\))? on cpu (\d+):$")
REAL = re.compile(r"^ (\S+)\+0x([0-9a-f]+)/0x([0-9a-f]+)(?: (.+):(\d+))?$")
INLINE = re.compile(r"^ (\S+)(?: (.+):(\d+))? \[inline\]$")
UNKNOWN = re.compile(r"^ (0x[0-9a-f]+)(?: \((.+)\+0x[0-9a-f]+\))?$")
THREAD = re.compile(r'^thread (\d+) "(.*)" \((running|finished)\) (created by thread (\d+) at:|is the main thread)$')
UNKNOWN_THREAD = re.compile(r"^thread (\d+) \(not started through pthread_create\)$")


def parse_frames(lines, i):
    frames = []
    while i < len(lines):
        line = lines[i]
        m = INLINE.match(line)
        if m:
            frames.append({"function": m.group(1), "file": m.group(2), "line": int(m.group(3) or 0),
                           "inline": True})
        elif REAL.match(line):
            m = REAL.match(line)
            frames.append({"function": m.group(1), "offset": int(m.group(2), 16),
                           "function_size": int(m.group(3), 16), "file": m.group(4),
                           "line": int(m.group(5) or 0), "inline": False})
        elif UNKNOWN.match(line):
            frames.append({"function": None, "pc": UNKNOWN.match(line).group(1), "inline": False})
        else:
            break
        i += 1
    return frames, i


def parse_text(lines):
    """The text report in lines[] (from the BUG line to the footer) as a dict."""
    r = {"accesses": [], "threads": [], "value_change": None}
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("BUG: UCSAN: "):
            r["title"] = line[len("BUG: UCSAN: "):]
        elif ACCESS.match(line):
            m = ACCESS.match(line)
            frames, i = parse_frames(lines, i + 1)
            r["accesses"].append({"type": m.group(2), "address": m.group(3), "size": int(m.group(4)),
                                  "in_signal_handler": bool(m.group(5)), "thread": int(m.group(6)),
                                  "openmp_thread": int(m.group(7)) if m.group(7) else None,
                                  "cpu": int(m.group(8)), "frames": frames})
            r["unknown_origin"] = bool(m.group(1))
            continue
        elif line.startswith("value changed: "):
            old, new = line[len("value changed: "):].split(" -> ")
            r["value_change"] = {"old": int(old, 16), "new": int(new, 16)}
        elif line.startswith("location: "):
            r["location"] = line[len("location: "):]
            r["allocated_at"], i = parse_frames(lines, i + 1)
            continue
        elif THREAD.match(line):
            m = THREAD.match(line)
            t = {"tid": int(m.group(1)), "known": True, "name": m.group(2), "running": m.group(3) == "running",
                 "main": m.group(5) is None}
            if m.group(5):
                t["created_by"] = int(m.group(5))
                t["created_at"], i = parse_frames(lines, i + 1)
                r["threads"].append(t)
                continue
            r["threads"].append(t)
        elif UNKNOWN_THREAD.match(line):
            r["threads"].append({"tid": int(UNKNOWN_THREAD.match(line).group(1)), "known": False})
        i += 1
    return r


def compare(text, js, where):
    bad = []

    def eq(what, a, b):
        if a != b:
            bad.append("%s: %s: text %r, json %r" % (where, what, a, b))

    eq("title", text.get("title"), js.get("title"))
    eq("unknown_origin", text.get("unknown_origin"), js.get("unknown_origin"))
    eq("number of accesses", len(text["accesses"]), len(js.get("accesses", [])))
    for n, (ta, ja) in enumerate(zip(text["accesses"], js.get("accesses", []))):
        for k in ("type", "address", "size", "in_signal_handler", "thread", "openmp_thread", "cpu"):
            eq("access %d %s" % (n, k), ta[k], ja.get(k))
        eq("access %d write flag" % n, ja.get("write"), ta["type"].startswith(("write", "read-write")))
        compare_frames(eq, "access %d" % n, ta["frames"], ja.get("frames", []))
    tv, jv = text["value_change"], js.get("value_change")
    eq("value change present", tv is not None, jv is not None)
    if tv and jv:
        eq("old value", tv["old"], int(jv["old"], 16))
        eq("new value", tv["new"], int(jv["new"], 16))
    eq("location", text.get("location"), (js.get("location") or {}).get("description"))
    compare_frames(eq, "allocation", text.get("allocated_at", []), (js.get("location") or {}).get("allocated_at", []))
    eq("number of threads", len(text["threads"]), len(js.get("threads", [])))
    for n, (tt, jt) in enumerate(zip(text["threads"], js.get("threads", []))):
        for k in ("tid", "known", "name", "running", "main", "created_by"):
            if k in tt:
                eq("thread %d %s" % (n, k), tt[k], jt.get(k))
        if "created_at" in tt:
            compare_frames(eq, "thread %d creation" % n, tt["created_at"], jt.get("created_at", []))
    return bad


def compare_frames(eq, what, tframes, jframes):
    eq(what + " number of frames", len(tframes), len(jframes))
    for n, (tf, jf) in enumerate(zip(tframes, jframes)):
        for k in ("function", "file", "line", "inline", "offset", "function_size", "pc"):
            if k in tf and (tf[k] is not None or k == "function"):
                eq("%s frame %d %s" % (what, n, k), tf[k], jf.get(k))


def main():
    log = open(sys.argv[1], encoding="utf-8", errors="replace").read().split("\n")
    want = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    problems, seen = [], 0
    start = None
    for i, line in enumerate(log):
        if line.startswith("BUG: UCSAN: "):
            start = i
        elif line.startswith("{") and start is not None:
            try:
                js = json.loads(line)
            except ValueError as e:
                problems.append("report %d: JSON does not parse: %s" % (seen, e))
                start = None
                continue
            seen += 1
            problems += compare(parse_text(log[start:i]), js, "report %d" % seen)
            start = None
    if seen < want:
        problems.append("%d text reports followed by JSON, expected at least %d" % (seen, want))
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
