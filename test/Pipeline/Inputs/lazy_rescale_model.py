"""The online softmax of gen_attention.py --lazy-rescale, modelled in
exact arithmetic (Python floats, scores already in log2 units) against the
softmax computed whole: per block of 128 keys a row's maximum m, its warp's
vote (16 rows) whether any row grew past its reference by more than
2^LAZY_LOG2, the references moved where it did (alpha = 2^(ref - m), else
exactly 1), the probabilities 2^(s - ref), l and O rescaled by alpha. Prints
per case the largest probability, how many blocks after a warpgroup's
(64 rows') first rescale O, and whether O / l and the log-sum-exp equal the
whole softmax's (to 1e-12 relative).

    lazy_rescale_model.py   (no arguments)"""

import math
import os
import random
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
sys.path.insert(0, os.path.join(ROOT, "examples", "attention"))
from gen_attention import LAZY_LOG2  # noqa: E402

ROWS, KEYS, BLOCK, WARP_ROWS, WG_ROWS, VDIM = 128, 2048, 128, 16, 64, 2


def scores(ramp, causal, seed):
    """Scores in log2 units: normal with the spread of q.k / sqrt(d) log2 e
    for unit normal q and k, or with bench.py's ramp (keys' scale 1 to 3
    along the sequence, rows' 0.5 to 1.44 over 16 rows); causal: key j of
    row i masked past 16 i (so that the first rows' later blocks are all
    masked)."""
    rng = random.Random(seed)
    out = []
    for i in range(ROWS):
        row_scale = (0.5 + (i % 16) / 16) if ramp else 1.0
        row = []
        for j in range(KEYS):
            key_scale = (1 + 2 * j / KEYS) if ramp else 1.0
            s = rng.gauss(0.0, 1.0) * row_scale * key_scale * math.log2(math.e)
            row.append(-math.inf if causal and j > 16 * i else s)
        out.append(row)
    return out


def whole(srow, vals):
    m = max(srow)
    w = [2.0 ** (s - m) for s in srow]
    l = sum(w)
    return [sum(wj * v[c] for wj, v in zip(w, vals)) / l for c in range(VDIM)], m + math.log2(l)


def lazy(sc, vals):
    ref = [-math.inf] * ROWS
    l = [0.0] * ROWS
    o = [[0.0] * VDIM for _ in range(ROWS)]
    top, rescales = 0.0, 0
    for b0 in range(0, KEYS, BLOCK):
        block = [row[b0:b0 + BLOCK] for row in sc]
        m = [max(r, max(blk)) for r, blk in zip(ref, block)]
        grew = [(mi - r) > LAZY_LOG2 if mi != -math.inf else False
                for mi, r in zip(m, ref)]
        alpha = [1.0] * ROWS
        for w in range(0, ROWS, WARP_ROWS):
            if any(grew[w:w + WARP_ROWS]):
                for i in range(w, w + WARP_ROWS):
                    safe = 0.0 if m[i] == -math.inf else m[i]
                    alpha[i] = 2.0 ** (ref[i] - safe)
                    ref[i] = m[i]
        if b0:
            rescales += sum(any(a != 1.0 for a in alpha[g:g + WG_ROWS])
                            for g in range(0, ROWS, WG_ROWS))
        for i in range(ROWS):
            safe = 0.0 if ref[i] == -math.inf else ref[i]
            p = [2.0 ** (s - safe) for s in block[i]]
            top = max(top, max(p))
            l[i] = l[i] * alpha[i] + sum(p)
            for c in range(VDIM):
                o[i][c] = o[i][c] * alpha[i] + sum(
                    pj * v[c] for pj, v in zip(p, vals[b0:b0 + BLOCK]))
    return [[x / li for x in oi] for oi, li in zip(o, l)], [
        r + math.log2(li) for r, li in zip(ref, l)], top, rescales


def main():
    rng = random.Random(1)
    vals = [[rng.gauss(0.0, 1.0) for _ in range(VDIM)] for _ in range(KEYS)]
    blocks = (ROWS // WG_ROWS) * (KEYS // BLOCK - 1)
    for name, ramp, causal in (("normal", False, False), ("ramp", True, False),
                               ("ramp causal", True, True)):
        sc = scores(ramp, causal, 7)
        o, lse, top, rescales = lazy(sc, vals)
        same = True
        for i in range(ROWS):
            ref_o, ref_lse = whole(sc[i], vals)
            same &= all(abs(x - y) <= 1e-12 * max(1.0, abs(y)) for x, y in zip(o[i], ref_o))
            same &= abs(lse[i] - ref_lse) <= 1e-12 * max(1.0, abs(ref_lse))
        print(f"{name}: largest probability {top:.3g} (bound 2^{LAZY_LOG2}), "
              f"{rescales} of {blocks} warpgroup blocks after the first "
              f"rescale O, softmax {'same' if same else 'DIFFERENT'}")


if __name__ == "__main__":
    main()
