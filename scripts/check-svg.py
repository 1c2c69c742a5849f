#!/usr/bin/env python3
"""Checks pictures of layouts and copy plans (tile/Draw/Draw.h).

Each SVG must parse as XML, render to a PNG with rsvg-convert (Debian's
librsvg2-bin), and agree with itself: every element that names a box sits
in one of the chunks that box's outline covers, and no two elements share
bytes of a chunk. Prints "<file>: valid (<elements> elements, <boxes>
boxes)" per file; exits 1 when a file fails.

    scripts/check-svg.py [--no-render] FILE.svg...
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def render(path, tmp):
    """Renders `path` to a PNG; returns an error text or None."""
    exe = shutil.which("rsvg-convert")
    if exe is None:
        return ("rsvg-convert not found (install librsvg2-bin: "
                "scripts/install-deps.sh)")
    png = os.path.join(tmp, os.path.basename(path) + ".png")
    proc = subprocess.run([exe, "-o", png, path], capture_output=True,
                          text=True)
    if proc.returncode != 0:
        return "rsvg-convert failed: " + proc.stderr.strip()
    with open(png, "rb") as f:
        data = f.read()
    if not data.startswith(PNG_SIGNATURE) or len(data) < 100:
        return "rsvg-convert wrote no PNG"
    return None


def check_content(root):
    """Returns (error or None, element count, box count)."""
    if root.tag != SVG + "svg":
        return "the root is <%s>, not <svg>" % root.tag, 0, 0
    boxes = {}
    for path in root.iter(SVG + "path"):
        if "data-box" in path.attrib:
            chunks = path.get("data-chunks", "").split()
            boxes[path.get("data-box")] = {int(c) for c in chunks}
    elements = 0
    seen = {}
    for rect in root.iter(SVG + "rect"):
        if "data-element" not in rect.attrib:
            continue
        elements += 1
        chunk = int(rect.get("data-chunk"))
        x = rect.get("x")
        key = (chunk, x, rect.get("y"))
        if key in seen:
            return ("elements %s and %s are drawn at the same bytes"
                    % (seen[key], rect.get("data-element"))), 0, 0
        seen[key] = rect.get("data-element")
        box = rect.get("data-box")
        if box is None:
            continue
        if box not in boxes:
            return ("element %s names box %s, which has no outline"
                    % (rect.get("data-element"), box)), 0, 0
        if chunk not in boxes[box]:
            return ("element %s sits in chunk %d, outside the outline of "
                    "box %s" % (rect.get("data-element"), chunk, box)), 0, 0
    return None, elements, len(boxes)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-render", action="store_true",
                        help="skip the rsvg-convert rendering")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for path in args.files:
            name = os.path.basename(path)
            try:
                root = ET.parse(path).getroot()
            except ET.ParseError as e:
                print("%s: not valid XML: %s" % (name, e))
                failed = True
                continue
            error, elements, boxes = check_content(root)
            if error is None and not args.no_render:
                error = render(path, tmp)
            if error:
                print("%s: %s" % (name, error))
                failed = True
            else:
                print("%s: valid (%d elements, %d boxes)"
                      % (name, elements, boxes))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
