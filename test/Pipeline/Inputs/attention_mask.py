"""Runs the score mask gen_attention.py writes (the column limits and the
selects, as written, with index_arith) for every consumer thread of a
block, and prints per case how many of the block's scores it keeps and
whether they are exactly the ones the definition keeps: key column c of
query row q kept where c < Skv and, causal, c <= q (top-left, as torch's
is_causal).

    attention_mask.py FLAGS...   (the generator's flags)"""

import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")
sys.path.insert(0, HERE)
from index_arith import run  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "examples", "attention"))
from gen_attention import col_of, row_of  # noqa: E402

CONSTANT = re.compile(r"^%\w+ = arith\.constant -?\d+ : (index|i32)$")
EXTRACT = re.compile(r"^(%\w+) = llvm\.extractvalue %\w+\[(\d+)\] : !accS$")
SELECT = re.compile(r"^(%\w+) = arith\.select (%\w+), (%\w+), %ninf : f32$")
# (keys, first query row of the tile, first key of the block): the edge
# block of 300 keys (part, whole, none of it), the diagonal block, both at
# once, and a key count past 32 bits (the limits are clamped before they
# are narrowed).
CASES = [(300, 0, 256), (300, 0, 128), (300, 0, 384), (1000, 256, 256),
         (300, 256, 256), (1 << 40, 512, 512), (1 << 40, 512, 384),
         (130, 128, 128)]
WARPS, LANES, CONSUMERS, ROWS = 4, 32, 2, 64


def mask_lines(text):
    """The mask's lines: from the thread's first column to its last select."""
    lines = [l.strip() for l in text.splitlines()]
    start = next(i for i, l in enumerate(lines)
                 if l == "%kvc0 = arith.addi %n0, %tcol : index")
    end = max(i for i, l in enumerate(lines[:start + 400]) if SELECT.match(l))
    return lines[start:end + 1]


def main():
    flags = sys.argv[1:]
    causal = "--causal" in flags
    text = subprocess.run(
        [sys.executable, os.path.join(ROOT, "examples", "attention", "gen_attention.py")]
        + flags, check=True, capture_output=True, text=True).stdout
    lines = [l.strip() for l in text.splitlines()]
    constants = [l for l in lines if CONSTANT.match(l)]
    values = {}
    for l in lines:
        m = EXTRACT.match(l)
        if m:
            values.setdefault(m.group(1), int(m.group(2)))
    mask = mask_lines(text)
    for keys, m0, n0 in CASES:
        kept = wrong = 0
        first_wrong = None
        for cons in range(CONSUMERS):
            for warp in range(WARPS):
                for lane in range(LANES):
                    trow = 16 * warp + lane // 4
                    tcol = 2 * (lane % 4)
                    qrow = m0 + cons * ROWS + trow
                    env = {"%n0": n0, "%tcol": tcol, "%Skv": keys,
                           "%qrow_a": qrow, "%qrow_b": qrow + 8, "%ninf": -1}
                    env.update({name: i for name, i in values.items()})
                    run("\n".join(constants), env)
                    for line in mask:
                        m = SELECT.match(line)
                        if m:
                            env[m.group(1)] = (env[m.group(3)] if env[m.group(2)]
                                               else -1)
                        else:
                            run(line, env)
                    for line in mask:
                        m = SELECT.match(line)
                        if not m:
                            continue
                        i = values[m.group(3)]
                        col = n0 + tcol + col_of(i)
                        row = qrow + 8 * row_of(i)
                        want = col < keys and (not causal or col <= row)
                        got = env[m.group(1)] == i
                        kept += got
                        if got != want:
                            wrong += 1
                            first_wrong = first_wrong or (row, col, got)
        verdict = ("as defined" if not wrong else
                   f"{wrong} wrong, first at row {first_wrong[0]} column "
                   f"{first_wrong[1]} ({'kept' if first_wrong[2] else 'masked'})")
        print(f"keys={keys} m0={m0} n0={n0}: {kept} kept, {verdict}")


if __name__ == "__main__":
    main()
