"""Runs the tile order gen_attention.py writes for its one-tile causal
kernels (the lines from `// Longest-first` to `%b = ...`), as written, for
every CTA of the grid (gx, H, B), with index_arith. Prints, per problem,
whether the CTAs take every (query block, head, batch) exactly once, the
section width (heads whose K and V fit in L2), and the first CTAs' tiles in
launch order, for FileCheck.

    attention_order.py FLAGS...   (the generator's flags)"""

import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")
sys.path.insert(0, HERE)
from index_arith import run  # noqa: E402

# (batch, heads, seq): 8 heads in one section, a seq that is no multiple of
# the block, one head, 32 heads of 4 MiB of K and V (head_dim 128: sections
# of 8), and 15 such heads (a last section of 7).
PROBLEMS = [(2, 4, 4096), (3, 2, 1000), (1, 1, 128), (2, 16, 8192),
            (3, 5, 8192)]
BLOCK_ID = re.compile(r"^(%\w+) = gpu\.(block_id|grid_dim) ([xyz])$")


def order_lines(module):
    lines = [l.strip() for l in module.splitlines()]
    start = lines.index("// Longest-first: sections of heads whose K and V fit in L2, in each")
    end = next(i for i in range(start, len(lines))
               if lines[i].startswith("%b = "))
    return lines[start:end + 1]


def tile_of(lines, grid, cta, dims):
    env = {"dims": dims}
    text = []
    for line in lines:
        m = BLOCK_ID.match(line)
        if m:
            axis = "xyz".index(m.group(3))
            env[m.group(1)] = (cta if m.group(2) == "block_id" else grid)[axis]
        elif not line.startswith("//"):
            text.append(line)
    env["%c0"], env["%c1"], env["%c2"] = 0, 1, 2
    env["%H"], env["%Skv"] = dims[("%Q", 1)], dims[("%K", 2)]
    run("\n".join(text), env)
    return (env["%qb"], env["%h"], env["%b"]), env["%sec"]


module = subprocess.run(
    [sys.executable, os.path.join(ROOT, "examples", "attention",
                                  "gen_attention.py"), *sys.argv[1:]],
    check=True, capture_output=True, text=True).stdout
lines = order_lines(module)
for B, H, S in PROBLEMS:
    gx = (S + 127) // 128
    dims = {("%Q", 0): B, ("%Q", 1): H, ("%Q", 2): S, ("%K", 2): S}
    grid = (gx, H, B)
    seen, first, sec = set(), [], None
    # The hardware's launch order: x fastest, then y, then z.
    for z in range(B):
        for y in range(H):
            for x in range(gx):
                tile, sec = tile_of(lines, grid, (x, y, z), dims)
                seen.add(tile)
                if len(first) < 6:
                    first.append(tile)
    every = seen == {(q, h, b) for q in range(gx) for h in range(H)
                     for b in range(B)}
    print(f"B={B} H={H} S={S}: {'every tile once' if every else 'NOT A PERMUTATION'},"
          f" section {sec} heads, first " +
          " ".join(f"q{q}h{h}b{b}" for q, h, b in first))
