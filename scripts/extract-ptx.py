#!/usr/bin/env python3
"""Prints the PTX held by `gpu.binary` ops (format=isa) of an MLIR file.

    tile-opt in.mlir --tile-to-binary=format=isa | extract-ptx.py [-o out.ptx]
"""
import argparse
import re
import sys


def unescape(text):
    # MLIR string attributes escape bytes as \XX (hex) and \\ / \".
    return re.sub(r'\\([0-9A-Fa-f]{2}|\\|")',
                  lambda m: m.group(1) if m.group(1) in ('\\', '"')
                  else chr(int(m.group(1), 16)), text)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("input", nargs="?", default="-")
    parser.add_argument("-o", "--output", default="-")
    args = parser.parse_args()
    src = sys.stdin.read() if args.input == "-" else open(args.input).read()
    chunks = [unescape(m.group(1)) for m in
              re.finditer(r'assembly = "((?:[^"\\]|\\.)*)"', src)]
    if not chunks:
        sys.exit("extract-ptx: no gpu.binary with assembly found")
    out = sys.stdout if args.output == "-" else open(args.output, "w")
    out.write("\n".join(chunks))


if __name__ == "__main__":
    main()
