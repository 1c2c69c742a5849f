#!/usr/bin/env python3
"""Checks the plan-report snippets of the docs against the tool.

Every ```json block of the given Markdown files is read as a sequence of JSON
objects; each object with a "loc" of the form "<file>:<line>:<col>" must equal
the report line `tile-opt <file> --tile-report-copy-plans` writes for that
location (file paths relative to the repository root). Prints one line per
checked object and exits 1 on the first difference.

    check-doc-reports.py --tile-opt build/bin/tile-opt --root . docs/*.md
"""
import argparse
import json
import re
import subprocess
import sys


def doc_objects(path):
    text = open(path).read()
    for block in re.findall(r"```json\n(.*?)```", text, re.S):
        decoder, pos = json.JSONDecoder(), 0
        while True:
            while pos < len(block) and block[pos].isspace():
                pos += 1
            if pos >= len(block):
                break
            obj, pos = decoder.raw_decode(block, pos)
            if isinstance(obj, dict) and "loc" in obj:
                yield obj


def report(tile_opt, root, source):
    out = subprocess.run(
        [tile_opt, source, "--tile-report-copy-plans", "-o", "/dev/null"],
        cwd=root, check=True, capture_output=True, text=True).stdout
    return {json.loads(line)["loc"]: json.loads(line)
            for line in out.splitlines() if line.strip()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tile-opt", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("docs", nargs="+")
    args = ap.parse_args()
    reports, checked = {}, 0
    for doc in args.docs:
        for obj in doc_objects(doc):
            source = obj["loc"].rsplit(":", 2)[0]
            if source not in reports:
                reports[source] = report(args.tile_opt, args.root, source)
            actual = reports[source].get(obj["loc"])
            if actual != obj:
                print("%s: the report for %s differs from the tool's:\n"
                      "  doc:  %s\n  tool: %s" % (doc, obj["loc"],
                                                  json.dumps(obj),
                                                  json.dumps(actual)))
                return 1
            checked += 1
            print("%s: %s matches" % (doc, obj["loc"]))
    if checked == 0:
        print("no report snippets found")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
