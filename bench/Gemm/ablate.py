#!/usr/bin/env python3
"""Ablations of a generated persistent GEMM kernel's epilogue, for timing only.

Timed beside the unchanged kernel (bench.py), each bounds what a part of
the epilogue costs per tile:

  --no-c-store     drops the C tile altogether: the accumulators' scaling,
                   rounding and stores to shared memory, the proxy fence,
                   the named barrier and the TMA store (the wait for the
                   previous tile's store stays, and has nothing to wait for);
  --no-shared-c    drops only the stores to shared memory (the TMA store
                   then writes whatever the C tile holds);
  --no-tma-store   drops only the TMA store of the C tile (and its commit).

Where an ablation drops the stores to shared memory, the accumulators stay
live: their sum is compared with a value it never takes, which guards one
store to C (otherwise ptxas drops the wgmmas whose results nothing reads).
C is wrong or never written: bench.py's check fails on these kernels, and
nothing but this measurement may use them.

  python3 examples/gemm/gen_gemm.py --persistent --bf16-out --swizzle-c \\
      | python3 bench/Gemm/ablate.py --no-c-store > gemm_bf16out_abl.mlir
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Attention"))
from ablate import keep_live  # noqa: E402

ACCUMULATOR_READ = re.compile(r"= llvm\.extractvalue %accum\w*\[\d+\] : !acc$")


def epilogue(lines):
    """The first and end line of the epilogue's C tile code."""
    start = [i for i, l in enumerate(lines) if "// Epilogue: accumulator fragments" in l]
    if len(start) != 1:
        sys.exit("ablate.py: expected one epilogue storing accumulator fragments")
    ends = [i for i in range(start[0], len(lines)) if lines[i].strip() == "tile.yield"]
    if not ends:
        sys.exit("ablate.py: the epilogue does not end in tile.yield")
    return start[0], ends[0]


def live_accumulators(reads):
    indent = reads[0][:len(reads[0]) - len(reads[0].lstrip())]
    names = [l.split("=")[0].strip() for l in reads]
    sink = ("%abl_c0 = arith.constant 0 : index\n" + indent
            + "  %abl_h = arith.truncf {} : f32 to bf16\n" + indent
            + "  memref.store %abl_h, %C[%abl_c0, %abl_c0] : !C")
    return keep_live(names, indent, sink)


def without_c_store(text):
    lines = text.split("\n")
    start, end = epilogue(lines)
    reads = [l for l in lines[start:end] if ACCUMULATOR_READ.search(l)]
    if not reads:
        sys.exit("ablate.py: the epilogue reads no accumulator")
    return "\n".join(lines[:start] + reads + live_accumulators(reads) + lines[end:])


def without_shared_c(text):
    lines = text.split("\n")
    start, end = epilogue(lines)
    region = lines[start:end]
    stores = [i for i, l in enumerate(region) if re.search(r"memref\.store %\w+, %sc", l)]
    reads = [l for l in region if ACCUMULATOR_READ.search(l)]
    if not stores or not reads:
        sys.exit("ablate.py: the epilogue stores no C fragment")
    fence = [i for i, l in enumerate(region) if "nvvm.fence.proxy" in l][0]
    kept = [l for i, l in enumerate(region) if i not in stores]
    at = kept.index(region[fence])
    kept[at:at] = live_accumulators(reads)
    return "\n".join(lines[:start] + kept + lines[end:])


def without_tma_store(text):
    lines = text.split("\n")
    start, end = epilogue(lines)
    dropped = [i for i in range(start, end)
               if re.search(r"tile\.copy_async %C\[", lines[i])
               or lines[i].strip() == "tile.bulk_commit_group"]
    if not dropped:
        sys.exit("ablate.py: the epilogue has no TMA store")
    return "\n".join(l for i, l in enumerate(lines) if i not in dropped)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    form = ap.add_mutually_exclusive_group(required=True)
    form.add_argument("--no-c-store", dest="ablate", action="store_const", const=without_c_store)
    form.add_argument("--no-shared-c", dest="ablate", action="store_const", const=without_shared_c)
    form.add_argument("--no-tma-store", dest="ablate", action="store_const", const=without_tma_store)
    a = ap.parse_args()
    sys.stdout.write(a.ablate(sys.stdin.read()))


if __name__ == "__main__":
    main()
