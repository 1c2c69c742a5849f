#!/usr/bin/env python3
"""Writes a module whose copy's inner offset is built by a chain of index
arithmetic, the shapes unrolled code takes:

  shared N  %a(i+1) = %a(i) + %a(i): N levels of a DAG whose every value is
            used twice (2^N paths from the offset to its root);
  linear N  %a(i+1) = %a(i) + 16: N ops in one chain.

The root is 8 * %k, so both offsets are multiples of 8: provably 16-byte
aligned for f16, if the analysis looks that far.
"""
import sys


def chain(shape, count):
    """The module's text."""
    out = [
        "!bars = !nvgpu.mbarrier.group<memorySpace = "
        "#gpu.address_space<workgroup>>",
        "!s = memref<8x64xf16, #tile.layout<(8, 64)>, "
        "#gpu.address_space<workgroup>>",
        "func.func @chain(%g: memref<8x1024xf16>, %bar: !bars, %k: index) {",
        "%c0 = arith.constant 0 : index",
        "%c8 = arith.constant 8 : index",
        "%c16 = arith.constant 16 : index",
        "%s = tile.arena_view [0] : !s",
        "%a0 = arith.muli %k, %c8 : index",
    ]
    for i in range(count):
        rhs = "%%a%d" % i if shape == "shared" else "%c16"
        out.append("%%a%d = arith.addi %%a%d, %s : index" % (i + 1, i, rhs))
    out += [
        "tile.copy_async %%s[0, 0] [8, 64], %%g[0, %%a%d] [8, 64] "
        "barrier(%%bar[%%c0]) : !s, memref<8x1024xf16>, !bars" % count,
        "return",
        "}",
    ]
    return "\n".join(out) + "\n"


def compact(text):
    """The same module in fewer bytes (the fuzz corpus keeps inputs under
    8 KiB): short value names, no optional spaces."""
    for long, short in ((" = ", "="), (", ", ","), (" : index", ":index"),
                        ("%c16", "%d"), ("%a", "%")):
        text = text.replace(long, short)
    return text


def main():
    shape, count = sys.argv[1], int(sys.argv[2])
    sys.stdout.write(chain(shape, count))


if __name__ == "__main__":
    main()
