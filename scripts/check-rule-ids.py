#!/usr/bin/env python3
"""Checks the rule-id table against the code and the tests.

Every message that starts with "<id>: " in a diagnostic, decline or variant
reason under lib/ and tools/ must use an id of include/tile/Support/RuleIds.def,
and so must every `expected-error {{<id>: ...}}` of the lit tests; every id of
the table must be used somewhere (no stale rows). A diagnostic that starts
with a rule id in its own text must carry the rule as well (withRule or
emitRuleError, tile/Dialect/Tile/IR/RuleDiagnostic.h), so hosts read it as a
value.

  check-rule-ids.py <source-root> <tile-rules-doc>
"""
import os
import re
import subprocess
import sys

# A message-leading literal: "<id>: " not continuing an earlier literal.
LEADING = re.compile(r'(?<!")(?P<pre>(?:<<|\(|=|return|\?|:|,)\s*(?:std::string\()?)"(?P<id>[a-z][a-z0-9]*(?:-[a-z0-9]+)*): ')
EXPECTED = re.compile(r"expected-(?:error|warning|remark)[^{]*\{\{(?:'[^']*' op )?(?P<id>[a-z][a-z0-9]*(?:-[a-z0-9]+)*): ")
ENUM_USE = re.compile(r"RuleId::(?P<name>[A-Za-z0-9]+)")
# An MLIR diagnostic whose first streamed text is "<id>: " or whose message
# argument starts so; `withRule(` right before it attaches the rule.
UNTAGGED = re.compile(r'(?P<call>(?:[\w\]\)]+(?:\.|->))?emit(?:Op)?(?:Error|Warning|Remark)\((?:[^()"]|\([^()]*\))*?(?:\)\s*<<\s*)?)"(?P<id>[a-z][a-z0-9]*(?:-[a-z0-9]+)*): ')
# Prefixes that are not rule ids: the hardware model's verdicts (returned to
# its callers and tests, never shown as a diagnostic) and a usage banner.
NOT_RULES = {
    os.path.join("lib", "TMA", "HardwareModel.cpp"): {"model", "trap"},
    os.path.join("tools", "tile-compile", "tile-compile.cpp"): {"tile-compile"},
}
SKIP_DIRS = {os.path.join("lib", "Runtime"), os.path.join("tools", "tile-rules-doc")}


def sources(root, top, exts):
    for base, _, files in os.walk(os.path.join(root, top)):
        rel = os.path.relpath(base, root)
        if any(rel == d or rel.startswith(d + os.sep) for d in SKIP_DIRS):
            continue
        for f in sorted(files):
            if f.endswith(exts):
                yield os.path.join(base, f)


def main():
    root, tool = sys.argv[1], sys.argv[2]
    ids = subprocess.run([tool, "--ids"], check=True, text=True,
                         stdout=subprocess.PIPE).stdout.split()
    table = re.findall(r"^TILE_RULE\((\w+),", open(os.path.join(
        root, "include", "tile", "Support", "RuleIds.def")).read(), re.M)
    known = set(ids)
    errors, used = [], set()
    for path in list(sources(root, "lib", (".cpp", ".h"))) + \
            list(sources(root, "tools", (".cpp",))):
        rel = os.path.relpath(path, root)
        text = open(path).read()
        allowed = NOT_RULES.get(rel, set())
        for m in LEADING.finditer(text):
            rid = m.group("id")
            if rid in allowed:
                continue
            used.add(rid)
            if rid not in known:
                line = text.count("\n", 0, m.start()) + 1
                errors.append("%s:%d: message uses rule id '%s', which is "
                              "not in RuleIds.def" % (rel, line, rid))
        for m in UNTAGGED.finditer(text):
            if m.group("id") not in known or \
                    text[max(0, m.start() - 9):m.start()] == "withRule(":
                continue
            line = text.count("\n", 0, m.start()) + 1
            errors.append("%s:%d: diagnostic names rule '%s' only in its text; "
                          "emit it with emitRuleError or withRule"
                          % (rel, line, m.group("id")))
        for m in ENUM_USE.finditer(text):
            if m.group("name") in table:
                used.add(ids[table.index(m.group("name"))])
    for path in sources(root, "test", (".mlir",)):
        text = open(path).read()
        for m in EXPECTED.finditer(text):
            rid = m.group("id")
            if rid not in known:
                line = text.count("\n", 0, m.start()) + 1
                errors.append("%s:%d: test expects rule id '%s', which is not "
                              "in RuleIds.def" % (os.path.relpath(path, root),
                                                  line, rid))
    for rid in ids:
        if rid not in used:
            errors.append("RuleIds.def: rule id '%s' is used by no message "
                          "under lib/ or tools/" % rid)
    for e in errors:
        print(e)
    print("%d rule ids, %d used in messages, %d problems" %
          (len(ids), len(used & known), len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
