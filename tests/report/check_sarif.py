#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Validates a SARIF file against the parts of the SARIF 2.1.0 schema
(OASIS, sarif-schema-2.1.0.json) that ucsan-report uses: the required
properties, their JSON types and enumerations, and the references between
objects (ruleIndex into the rules, relatedLocations ids). Debian 12 ships
no SARIF validator, so the schema's rules are written out here.

Usage: check_sarif.py FILE RESULTS [ARTIFACT...]
RESULTS is the number of results expected; each ARTIFACT must be the uri of
some result's location. Prints one line per problem; exit 1 if any."""
import json
import sys

LEVELS = {"none", "note", "warning", "error"}
KINDS = {"notApplicable", "pass", "fail", "review", "open", "informational"}
problems = []


def need(cond, what):
    if not cond:
        problems.append(what)
    return cond


def check_message(m, where):
    # message: an object with text or id (schema: anyOf required text / id).
    if need(isinstance(m, dict), where + ": message is not an object"):
        need(isinstance(m.get("text"), str) or isinstance(m.get("id"), str), where + ": message has no text")


def check_location(loc, where):
    if not need(isinstance(loc, dict), where + " is not an object"):
        return None
    if "id" in loc:
        need(isinstance(loc["id"], int) and loc["id"] >= -1, where + ": id must be an integer >= -1")
    if "message" in loc:
        check_message(loc["message"], where)
    phys = loc.get("physicalLocation")
    uri = None
    if phys is not None and need(isinstance(phys, dict), where + ": physicalLocation is not an object"):
        art = phys.get("artifactLocation")
        if need(isinstance(art, dict), where + ": physicalLocation needs an artifactLocation"):
            uri = art.get("uri")
            need(isinstance(uri, str) and uri, where + ": artifactLocation.uri must be a string")
            if "uriBaseId" in art:
                need(isinstance(art["uriBaseId"], str), where + ": uriBaseId must be a string")
        reg = phys.get("region")
        if reg is not None:
            need(isinstance(reg, dict) and isinstance(reg.get("startLine"), int) and reg["startLine"] >= 1,
                 where + ": region.startLine must be an integer >= 1")
    for n, ll in enumerate(loc.get("logicalLocations", [])):
        need(isinstance(ll, dict) and isinstance(ll.get("fullyQualifiedName", ""), str),
             "%s: logicalLocations[%d] malformed" % (where, n))
    return uri


def check_result(r, n, nrules):
    where = "results[%d]" % n
    if not need(isinstance(r, dict), where + " is not an object"):
        return []
    check_message(r.get("message"), where)  # required
    need(isinstance(r.get("ruleId"), str), where + ": ruleId must be a string")
    if "ruleIndex" in r:
        need(isinstance(r["ruleIndex"], int) and -1 <= r["ruleIndex"] < nrules,
             where + ": ruleIndex outside the driver's rules")
    need(r.get("level", "warning") in LEVELS, where + ": level not one of " + ",".join(sorted(LEVELS)))
    need(r.get("kind", "fail") in KINDS, where + ": kind not a SARIF result kind")
    if "occurrenceCount" in r:
        need(isinstance(r["occurrenceCount"], int) and r["occurrenceCount"] >= 1,
             where + ": occurrenceCount must be an integer >= 1")
    fps = r.get("partialFingerprints", {})
    need(isinstance(fps, dict) and all(isinstance(v, str) for v in fps.values()),
         where + ": partialFingerprints values must be strings")
    uris = []
    for k, loc in enumerate(r.get("locations", [])):
        uris.append(check_location(loc, "%s.locations[%d]" % (where, k)))
    ids = set()
    for k, loc in enumerate(r.get("relatedLocations", [])):
        check_location(loc, "%s.relatedLocations[%d]" % (where, k))
        if isinstance(loc, dict) and "id" in loc:
            need(loc["id"] not in ids, "%s.relatedLocations: id %r twice" % (where, loc["id"]))
            ids.add(loc["id"])
    for k, st in enumerate(r.get("stacks", [])):
        sw = "%s.stacks[%d]" % (where, k)
        if need(isinstance(st, dict) and isinstance(st.get("frames"), list), sw + ": frames (required) missing"):
            for f, fr in enumerate(st["frames"]):
                if need(isinstance(fr, dict), "%s.frames[%d] is not an object" % (sw, f)) and "location" in fr:
                    check_location(fr["location"], "%s.frames[%d].location" % (sw, f))
        if isinstance(st, dict) and "message" in st:
            check_message(st["message"], sw)
    return uris


def main():
    doc = json.load(open(sys.argv[1], encoding="utf-8"))
    want_results = int(sys.argv[2])
    want_uris = sys.argv[3:]
    need(doc.get("version") == "2.1.0", "version must be \"2.1.0\"")
    need(isinstance(doc.get("$schema", ""), str), "$schema must be a string")
    runs = doc.get("runs")
    if not need(isinstance(runs, list) and len(runs) == 1, "runs must be an array of one run"):
        return report()
    run = runs[0]
    driver = run.get("tool", {}).get("driver") if isinstance(run.get("tool"), dict) else None
    if not need(isinstance(driver, dict) and isinstance(driver.get("name"), str), "tool.driver.name is required"):
        return report()
    rules = driver.get("rules", [])
    need(isinstance(rules, list), "driver.rules must be an array")
    rule_ids = []
    for n, rule in enumerate(rules):
        if need(isinstance(rule, dict) and isinstance(rule.get("id"), str), "rules[%d].id is required" % n):
            rule_ids.append(rule["id"])
            for k in ("shortDescription", "fullDescription"):
                if k in rule:
                    need(isinstance(rule[k], dict) and isinstance(rule[k].get("text"), str),
                         "rules[%d].%s needs text" % (n, k))
            level = rule.get("defaultConfiguration", {}).get("level", "warning")
            need(level in LEVELS, "rules[%d].defaultConfiguration.level invalid" % n)
    need(len(set(rule_ids)) == len(rule_ids), "rule ids are not unique")
    results = run.get("results")
    if not need(isinstance(results, list), "run.results must be an array"):
        return report()
    need(len(results) == want_results, "%d results, expected %d" % (len(results), want_results))
    uris, fps = [], set()
    for n, r in enumerate(results):
        uris += check_result(r, n, len(rules))
        if isinstance(r, dict) and "ruleIndex" in r and isinstance(r.get("ruleIndex"), int) \
                and 0 <= r["ruleIndex"] < len(rule_ids):
            need(rule_ids[r["ruleIndex"]] == r.get("ruleId"), "results[%d]: ruleId does not match ruleIndex" % n)
        fp = json.dumps(r.get("partialFingerprints"), sort_keys=True) if isinstance(r, dict) else None
        need(fp not in fps, "results[%d]: same fingerprint as an earlier result" % n)
        fps.add(fp)
    for u in want_uris:
        need(any(x and x.endswith(u) for x in uris), "no result located in " + u)
    bases = run.get("originalUriBaseIds", {})
    need(isinstance(bases, dict) and all(isinstance(v, dict) and isinstance(v.get("uri"), str)
                                         and v["uri"].endswith("/") for v in bases.values()),
         "originalUriBaseIds entries need a uri ending in /")
    return report()


def report():
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
