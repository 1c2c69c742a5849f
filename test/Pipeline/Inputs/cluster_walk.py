"""Runs the tile walk gen_gemm.py --persistent --cluster C writes (the
host's grid, each CTA's share of the cluster units and its t-th work tile)
for whole launches, as written, and checks it: every output tile computed
and stored by exactly one CTA, the CTAs of a cluster walking the same units
(the same B tile column, consecutive tile rows, as many tiles each: the
multicast pipeline needs them in step), and only CTAs of the last unit row
past the last tile row (their loads read zeros, their stores are clipped).
Prints each problem's launch and CTA 0's and 1's first tiles for FileCheck."""

import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "examples", "gemm"))
import gen_gemm  # noqa: E402
sys.path.insert(0, HERE)
from grouped_schedule import run, statements  # noqa: E402


def launch(M, N, cluster, sms=gen_gemm.SMS, bn=256, group_m=gen_gemm.GROUP_M,
           quiet=False):
    rows, cols = -(-M // 128), -(-N // bn)
    host = {"%c1": 1, "%gx": cols, "%gy": rows}
    run(statements(gen_gemm.persistent_cluster_ctas("%gx", "%gy", sms,
                                                    cluster, "")), host)
    ctas = host["%ctas"]
    assert ctas % cluster == 0 and ctas <= sms, (M, N, ctas)
    walk_of = statements(gen_gemm.persistent_walk(128, bn, cluster) + "\n"
                         + gen_gemm.persistent_share(""))
    walk = statements(gen_gemm.work_tile("", group_m, cluster))
    kernel = {"%c0": 0, "%c1": 1, "%cbm": 128, "%cbn": bn,
              "dims": {("%A", 0): M, ("%Bt", 0): N}, "gpu.grid_dim": ctas}
    done = {}
    walks = {}
    listing = []
    for bx in range(ctas):
        env = dict(kernel, **{"gpu.block_id": bx})
        run(walk_of, env)
        tiles = []
        for t in range(env["%mine"]):
            w = dict(env, **{"%t": t})
            run(walk, w)
            tiles.append((w["%pid_m"], w["%pid_n"]))
        walks[bx] = tiles
        if bx < 2:
            listing.append(f"  cta {bx}: " + " ".join(
                f"({m},{n})" for m, n in tiles[:3]))
        for m, n in tiles:
            assert n < cols, (bx, m, n)
            if m >= rows:
                # Past the last tile row: only the last unit row's CTAs.
                assert m // cluster == (rows - 1) // cluster, (bx, m, n)
                continue
            assert (m, n) not in done, ("twice", m, n, done[(m, n)], bx)
            done[(m, n)] = bx
    assert len(done) == rows * cols, ("tiles missed", rows * cols - len(done))
    for first in range(0, ctas, cluster):
        lead = walks[first]
        for r in range(1, cluster):
            mate = walks[first + r]
            assert len(mate) == len(lead), (first, r)
            assert all(n == n0 and m == m0 + r and m0 % cluster == 0
                       for (m, n), (m0, n0) in zip(mate, lead)), (first, r)
    phantom = sum(len(w) for w in walks.values()) - rows * cols
    if quiet:
        return
    print(f"{M}x{N} cluster {cluster}: {ctas} CTAs, {rows}x{cols} tiles, "
          f"{phantom} past the last row")
    for line in listing:
        print(line)


for M, N in ((4096, 4096), (3000, 5000), (4000, 4000), (8192, 8192),
             (128, 256), (1, 1), (384, 768)):
    launch(M, N, 2)
launch(4000, 4000, 2, sms=128)
launch(2000, 3000, 4, bn=192, group_m=3)
rng = random.Random(5)
for _ in range(20):
    launch(rng.randint(1, 9000), rng.randint(1, 9000), rng.choice((2, 4)),
           sms=rng.choice((8, 128, 132)), group_m=rng.choice((1, 3, 8)),
           quiet=True)
print("cluster walk: ok")
