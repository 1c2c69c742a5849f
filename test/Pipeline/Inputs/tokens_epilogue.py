"""Runs the epilogue gen_gemm.py --tokens-n writes (the accumulator to the
T x 64 C tile) as written, for every thread of the consumer warpgroup: its
index arithmetic with index_arith, each memref.store's place and the
accumulator value it stores (traced through its extractvalue). Prints how
many stores there are, whether each element of the C tile is written once,
and whether each holds the wgmma accumulator's value for (row, column) =
(its column, its row): the PTX m64nNk16 D layout, warp w rows 16w..16w+15,
lane l rows l/4 and l/4 + 8, value 4i + q at column 8i + 2(l%4) + q%2, row
+ 8 for q >= 2.

    tokens_epilogue.py FLAGS...   (the generator's flags, with --tokens-n)"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from generated import gemm_module  # noqa: E402
from index_arith import LINE, evaluate  # noqa: E402

CONST = re.compile(r"^(%\w+) = arith\.constant (\d+) : index$")
TILE_C = re.compile(r"^!tileC = memref<(\d+)x(\d+)x")
EXTRACT = re.compile(r"^(%\w+) = llvm\.extractvalue %accum\[(\d+)\]")
STORE = re.compile(r"^memref\.store (%\w+), %sc\[(%\w+), (%\w+)\] : !tileC$")
USES = re.compile(r"^(%\w+) = [\w.]+ (%\w+)")


def main():
    text, lines = gemm_module(sys.argv[1:])
    rows, cols = next(tuple(map(int, TILE_C.match(l).groups()))
                      for l in lines if TILE_C.match(l))
    # From the fragments' comment (after a split kernel's combine) to the
    # fence before the TMA store.
    start = next(i for i, l in enumerate(lines)
                 if l.startswith("// Epilogue: accumulator fragments"))
    end = next(i for i in range(start, len(lines))
               if lines[i].startswith("nvvm.fence.proxy"))
    body = lines[start:end]
    consts = {m.group(1): int(m.group(2)) for l in lines
              if (m := CONST.match(l))}
    written = {}
    wrong = 0
    for local in range(128):
        env = dict(consts, **{"%local": local, "%row0": 0})
        traced = {}  # SSA name -> accumulator value index
        for line in body:
            if m := EXTRACT.match(line):
                traced[m.group(1)] = int(m.group(2))
            elif m := STORE.match(line):
                v = traced[m.group(1)]
                place = (env[m.group(2)], env[m.group(3)])
                written.setdefault(place, []).append((local, v))
                warp, lane = divmod(local, 32)
                i, q = divmod(v, 4)
                row = 16 * warp + lane // 4 + 8 * (q // 2)
                col = 8 * i + 2 * (lane % 4) + q % 2
                wrong += place != (col, row)
            elif (m := USES.match(line)) and m.group(2) in traced:
                traced[m.group(1)] = traced[m.group(2)]
            elif (m := LINE.match(line)) and not line.startswith("//"):
                args = [a.strip() for a in m.group(3).split(",")]
                value = evaluate(m.group(2), args,
                                 lambda n: env[n.split(" ")[0]], None)
                if value is not None:
                    env[m.group(1)] = value
    stores = sum(len(w) for w in written.values())
    once = (len(written) == rows * cols
            and all(len(w) == 1 for w in written.values())
            and all(0 <= r < rows and 0 <= c < cols for r, c in written))
    print(f"{rows} x {cols} C tile: {stores} stores by 128 threads, "
          f"{'each element once' if once else 'NOT each element once'}, "
          f"{wrong} not the accumulator's (column, row)")


if __name__ == "__main__":
    main()
