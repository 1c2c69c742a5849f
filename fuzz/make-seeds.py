#!/usr/bin/env python3
"""Regenerates the seed corpora in fuzz/corpus/ from the repository's inputs.

tile-opt: every .mlir under test/ and examples/ is split at `// -----` into
modules; comment lines (RUN, CHECK, expected-*) go, duplicates and pieces over
4 KiB are dropped, and a few lowering inputs get a `// pipeline: format=isa`
first line so the NVPTX back end is in the corpus too.
layout: every `#tile.layout<...>` body found there.
planner: a few 16-byte case selectors (the generator's seed and index).
Also: the offset chains of test/Dialect/Tile/offset-chains.test.
"""
import glob
import hashlib
import importlib.util
import os
import re
import struct

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "fuzz", "corpus")


def write(kind, text):
    data = text.encode() if isinstance(text, str) else text
    name = hashlib.sha1(data).hexdigest()[:16]
    os.makedirs(os.path.join(OUT, kind), exist_ok=True)
    with open(os.path.join(OUT, kind, name), "wb") as f:
        f.write(data)


def main():
    sources = sorted(glob.glob(os.path.join(ROOT, "test", "**", "*.mlir"),
                               recursive=True) +
                     glob.glob(os.path.join(ROOT, "examples", "*.mlir")))
    sources = [s for s in sources if "/GPU/" not in s]
    seen, layouts, lowering = set(), set(), []
    for path in sources:
        text = open(path).read()
        for layout in re.findall(r"#tile\.layout<([^<>]*)>", text):
            layouts.add(layout)
        for piece in re.split(r"^// -----\s*$", text, flags=re.M):
            lines = [l for l in piece.splitlines()
                     if not l.lstrip().startswith("//") and l.strip()]
            body = "\n".join(lines) + "\n"
            if len(lines) < 2 or len(body) > 4096 or body in seen:
                continue
            seen.add(body)
            write("tile-opt", body)
            if "gpu.launch" in body and "tile.copy_async" in body:
                lowering.append(body)
    for body in lowering[:4]:
        write("tile-opt", "// pipeline: format=isa\n" + body)
    # The offset chains of test/Dialect/Tile/offset-chains.test, as long as
    # the harness's 8 KiB inputs allow: shared subexpressions, and a linear
    # chain past the divisibility analysis's depth bound.
    spec = importlib.util.spec_from_file_location("offset_chain", os.path.join(
        ROOT, "test", "Dialect", "Tile", "Inputs", "offset-chain.py"))
    chains = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(chains)
    for shape, count in (("shared", 24), ("linear", 260)):
        write("tile-opt", chains.compact(chains.chain(shape, count)))
    for layout in sorted(layouts):
        write("layout", layout)
    for seed in range(8):
        write("planner", struct.pack("<QQ", seed, seed * 7))


if __name__ == "__main__":
    main()
