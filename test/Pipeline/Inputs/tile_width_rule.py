"""Evaluates the tile-width rule gen_gemm.py --choose writes
(fewer_waves_rule: 128 x 192 tiles where their waves finish first) as
written, on the entries' counts of 128-row tile rows and 128 x 256 tiles,
and prints each problem's width for FileCheck: the choices
tile::schedule::chooseTileWidth makes (unittests/Schedule/TileWidthTest.cpp),
with the chooser's rate for the 128 x 192 main loop; then the clustered
bf16 chooser's shapes rule (shape_rule over RING_SHAPES)."""

import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
sys.path.insert(0, os.path.join(ROOT, "examples", "gemm"))
import gen_gemm  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from index_arith import run  # noqa: E402

SHAPES = [(3000, 5000), (5000, 5000), (4096, 4096), (4000, 4000),
          (8192, 8192), (4096, 14336), (14336, 4096), (2048, 2048),
          (16384, 1024), (6144, 6144), (0, 4096)]

narrow, wide = gen_gemm.NARROW_BN, gen_gemm.BN
print(f"rate {gen_gemm.NARROW_RATE}")
for M, N in SHAPES:
    rows = -(-M // 128)
    env = run(gen_gemm.fewer_waves_rule(132),
              {"%N": N, "%rows": rows, "%tiles": rows * -(-N // wide),
               "%c0": 0})
    print(f"{M}x{N}: {narrow if env['%fewer_waves'] else wide} "
          f"(waves {env['%fw_waves0']} of {wide}, "
          f"{env['%fw_waves1']} of {narrow})")

# The clustered bf16 chooser's shapes rule (shape_rule over RING_SHAPES):
# the tile shape whose tiles finish first, as chooseTileShape picks among
# 128 x 256 at 100 % and RING_SHAPES.
shapes = [(128, wide, 100)] + list(gen_gemm.RING_SHAPES)
print("shapes " + ", ".join(f"{r}x{c} at {p}" for r, c, p in shapes))
for M, N in SHAPES + [(5000, 3000), (2500, 10000), (300, 14336),
                      (3000, 3000), (7000, 7000)]:
    rows = -(-M // 128)
    env = run(gen_gemm.shape_rule(132, gen_gemm.RING_SHAPES),
              {"%M": M, "%N": N, "%rows": rows,
               "%tiles": rows * -(-N // wide), "%c0": 0})
    waves = [env["%sr_waves0"]] + [env[f"%sr_waves{i}"] for i in
                                   range(1, len(shapes))]
    r, c, _ = shapes[env["%sr_best"]]
    print(f"{M}x{N}: {r}x{c} (waves "
          + ", ".join(f"{w} of {r}x{c}" for w, (r, c, _) in zip(waves, shapes))
          + ")")
