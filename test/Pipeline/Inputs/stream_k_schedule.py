"""Runs the index arithmetic gen_gemm.py --stream-k writes (the host's
choice, each CTA's work tiles, a shared tile's pieces) for whole launches and
checks it against the schedule tile::schedule::StreamKSchedule models: every
(output tile, k-step) computed once, every output tile stored once (whole, or
by the last of its pieces to arrive, in any arrival order, after every
other piece's slot was written), the slots distinct and inside the
workspace. Prints each problem's choice and CTA 0's and 1's work tiles for
FileCheck (the values unittests/Schedule/StreamKTest.cpp expects).

The arithmetic is evaluated as written: each line `%x = arith.op ...` of the
generator's text, index values as unsigned 64-bit integers."""

import os
import random
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
sys.path.insert(0, os.path.join(ROOT, "examples", "gemm"))
import gen_gemm  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from index_arith import run  # noqa: E402


def launch(M, N, K, ws_tiles, ws_counters, bk=64, sms=132, seed=0,
           host_shared=None):
    """One launch; `host_shared` replaces the entries' choice (a host other
    than ours may pass any count)."""
    bm, bn = 128, 256
    gx, gy = -(-N // bn), -(-M // bm)
    tiles = gx * gy
    ctas = max(min(tiles, sms), 1)
    dims = {("%A", 1): K, ("%partials", 0): ws_tiles * bm * bn,
            ("%counters", 0): ws_counters}
    host = {"%c0": 0, "%c1": 1, "%tiles": tiles, "%ctas": ctas, "dims": dims}
    shared = run(gen_gemm.stream_k_rule(bk, bm * bn, ""), host)["%shared"]
    if host_shared is not None:
        shared = host_shared
    ktiles = -(-K // bk)
    kernel = {"%c0": 0, "%c1": 1, "%total": tiles, "%ctas": ctas,
              "%ctas1": ctas - 1, "%ktiles": ktiles, "%shared_arg": shared,
              "dims": dims}
    share = gen_gemm.stream_k_share("", bm * bn)
    work = gen_gemm.stream_k_work_tile("", 8, starts=False)
    pieces = gen_gemm.stream_k_pieces("")
    seen = [0] * (tiles * ktiles)
    arrivals = {}  # output tile -> [(cta, slot, pieces_n)]
    stored = [0] * tiles
    listing = []
    taken = None
    for cta in range(ctas):
        env = run(share, dict(kernel, **{"%cta": cta}))
        taken = env["%shared"]
        for t in range(env["%mine"]):
            w = run(work + pieces, dict(env, **{"%t": t}))
            lin, lo, hi = w["%lin"], w["%k_first"], w["%k_end"]
            assert lin < tiles, (cta, t, lin)
            assert lo <= hi <= ktiles, (cta, t, lo, hi)
            assert w["%is_piece"] or (lo, hi) == (0, ktiles)
            for k in range(lo, hi):
                seen[lin * ktiles + k] += 1
            if cta < 2:
                listing.append(f"cta {cta} tile {t}: output tile {lin} "
                               f"k [{lo}, {hi})")
            if not w["%splitting"]:
                stored[lin] += 1
                continue
            assert hi > lo, (cta, t)
            slot = cta + w["%wj"]
            assert slot < ctas + taken, (cta, slot)
            arrivals.setdefault(lin, []).append(
                (cta, slot, w["%pieces_n"], w["%cta_first"], w["%cta_end"]))
    assert all(s == 1 for s in seen), "a (tile, k-step) not computed once"
    # The pieces arrive in a random order; the last combines and stores.
    rng = random.Random(seed)
    slots = set()
    for lin, pieces_of in arrivals.items():
        ctas_of = sorted(p[0] for p in pieces_of)
        first, end = pieces_of[0][3], pieces_of[0][4]
        assert ctas_of == list(range(first, end)), (lin, ctas_of, first, end)
        assert all(p[2] == len(pieces_of) for p in pieces_of)
        rng.shuffle(pieces_of)
        written = set()
        for i, (cta, slot, n, _, _) in enumerate(pieces_of):
            assert slot not in slots, f"slot {slot} taken twice"
            slots.add(slot)
            written.add(slot)
            if i == n - 1:
                assert written == {c + slot - cta for c in ctas_of}
                stored[lin] += 1
    assert all(s == 1 for s in stored), "an output tile not stored once"
    print(f"{M}x{N}x{K}: {tiles} tiles of {ktiles} k-steps on {ctas} CTAs, "
          f"{taken} shared, {len(arrivals)} combined"
          + (f" (the host passed {shared})" if taken != shared else ""))
    for line in listing[:10]:
        print("  " + line)


ROOMY = 4 * 1024
launch(4000, 4000, 4000, ROOMY, ROOMY)
launch(3000, 5000, 2000, ROOMY, ROOMY)
launch(1152, 3840, 1000, ROOMY, ROOMY)
launch(2000, 4000, 136, ROOMY, ROOMY)
# The workspace holds ctas + shared partial tiles and shared counters, or
# every tile is taken whole.
launch(4000, 4000, 4000, 248, 116)
launch(4000, 4000, 4000, 247, 116)
# A host other than the entries passing a count the schedule or the
# workspace cannot take: more than the tiles, too few k-steps to share, more
# than the workspace holds. The kernel takes every tile whole.
launch(4000, 4000, 4000, ROOMY, ROOMY, host_shared=600)
launch(4000, 4000, 64, ROOMY, ROOMY, host_shared=100)
launch(4000, 4000, 4000, 200, ROOMY, host_shared=116)
# Whole waves; K = 0 (no k-steps: every tile stored whole, as zeros).
launch(4096, 8448, 512, ROOMY, ROOMY)
launch(4000, 4000, 0, ROOMY, ROOMY)
# Random problems, FP8's 128-element k-steps too.
rng = random.Random(5)
for i in range(40):
    launch(rng.randint(1, 6000), rng.randint(1, 9000), rng.randint(0, 3000),
           ROOMY, ROOMY, bk=rng.choice((64, 128)), seed=i)
print("stream-K schedule: ok")
