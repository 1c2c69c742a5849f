"""Runs the schedule gen_grouped_gemm.py --persistent writes (the CTA's share
of the real tiles, each work tile's group, rows and place found by the
iterations region, the tile starts the producer and the storing thread
compute from them) for whole launches, with the counts the kernel reads from
device memory, and checks it: every tile of every group computed and stored
exactly once (an empty group has none), by a CTA the launch has, its A rows
and C rows those of its group, its column inside N, and the storing thread's
tile the producer's. Prints each launch's tiles and CTA 0's first work tiles
for FileCheck.

The text is evaluated as written: each line of the generator's kernel
prologue and of its find_tile / tile_starts text (arith ops on unsigned
64-bit index values, the scan's scf.for with its iter_args, memref.load of
the counts, tile.grouped_tile by its definition in TileOps.td)."""

import os
import random
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
sys.path.insert(0, os.path.join(ROOT, "examples", "grouped_gemm"))
import gen_grouped_gemm as gen  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from index_arith import evaluate  # noqa: E402

ASSIGN = re.compile(r"^(%[\w:]+(?:, %\w+)*) = ([\w.]+) ?(.*)$")
FOR = re.compile(r"^(%\w+)(?::(\d+))? = scf\.for (%\w+) = (%\w+) to (%\w+) "
                 r"step (%\w+)\s+iter_args\((.*?)\)\s+-> \(.*\) \{$")


def grouped_tile(index, rows, cols, group_rows):
    """tile.grouped_tile: group_rows tile rows down one column, then the
    next column; the last group holds the rows that remain."""
    span = group_rows * cols
    first = index // span * group_rows
    height = min(rows - first, group_rows)
    within = index % span
    return first + within % height, within // height


def statements(text):
    """The text's lines with comments dropped and scf.for headers joined."""
    out, pending = [], ""
    for raw in text.splitlines():
        line = raw.split("//")[0].strip()
        if not line:
            continue
        pending = f"{pending} {line}".strip() if pending else line
        if pending.startswith("%") and "scf.for" in pending and not pending.endswith("{"):
            continue
        out.append(pending)
        pending = ""
    return out


def value(env, name):
    return env[name.strip().split(" ")[0]]


def run(lines, env, i=0):
    """Evaluates lines[i:] into env up to a closing `}`; returns the index
    after it and the values its scf.yield names."""
    while i < len(lines):
        line = lines[i]
        if line == "}":
            return i + 1, None
        if line.startswith("scf.yield"):
            names = line[len("scf.yield"):].split(" : ")[0]
            yielded = [value(env, n) for n in names.split(",")]
            assert lines[i + 1] == "}", lines[i + 1]
            return i + 2, yielded
        loop = FOR.match(line)
        if loop:
            result, count, iv, lo, hi, step, inits = loop.groups()
            pairs = [p.split("=") for p in inits.split(",")]
            carried = [value(env, v) for _, v in pairs]
            body = i + 1
            for g in range(value(env, lo), value(env, hi), value(env, step)):
                inner = dict(env)
                inner[iv] = g
                for (name, _), v in zip(pairs, carried):
                    inner[name.strip()] = v
                i, carried = run(lines, inner, body)
            if value(env, lo) >= value(env, hi):
                depth, i = 1, body
                while depth:
                    depth += lines[i].endswith("{") - (lines[i] == "}")
                    i += 1
            if count:
                for k, v in enumerate(carried):
                    env[f"{result}#{k}"] = v
            else:
                env[result] = carried[0]
            continue
        name, op, rest = ASSIGN.match(line).groups()
        args = [a.strip() for a in rest.split(" : ")[0].split(",")]
        result = evaluate(op, args, lambda n: value(env, n), env.get("dims"))
        if result is not None:
            env[name] = result
        elif op == "arith.index_cast":
            env[name] = value(env, args[0])
        elif op == "memref.load":
            buffer, index = re.match(r"(%\w+)\[(%\w+)\]", rest).groups()
            env[name] = env[buffer][value(env, index)]
        elif op in ("gpu.block_id", "gpu.grid_dim"):
            env[name] = env[op]
        elif op == "tile.grouped_tile":
            m = re.match(r"(%\w+) of \((%\w+), (%\w+)\) \{group_rows = (\d+)\}", rest)
            index, rows, cols, group = m.groups()
            row, col = grouped_tile(value(env, index), value(env, rows),
                                    value(env, cols), int(group))
            first, second = name.split(",") if "," in name else (name, None)
            env[first.strip()] = row
            env[second.strip()] = col
        else:
            raise ValueError(f"no rule for {op}: {line}")
        i += 1
    return i, None


def launch(T, N, K, counts, sms=132, listing=0):
    bm, bn, group_m = gen.BM, gen.BN, gen.GROUP_M
    G = len(counts)
    assert sum(counts) <= T
    gx = -(-N // bn)
    # The host's grid.
    bound = gx * (-(-T // bm) + G)
    ctas = max(min(bound, sms), 1)
    out = []
    gen.emit_persistent_start(out.append, bm, bn, group_m)
    prologue = statements("\n".join(out))
    # The emit's first lines define the shared constants; only the names
    # the schedule uses are given.
    base = {"%c0": 0, "%c1": 1, "%c2": 2, "%cbm": bm, "%cbm1": bm - 1, "%cbn": bn,
            "%cbk": 64, "%cbk1": 63, "%counts": counts,
            "dims": {("%B", 0): G, ("%B", 1): N, ("%B", 2): K},
            "gpu.grid_dim": ctas}
    find = statements(gen.find_tile(""))
    starts = statements(gen.tile_starts(group_m, ""))
    offsets = [sum(counts[:g]) for g in range(G)]
    done = {}
    total = 0
    lines = []
    for cta in range(ctas):
        env = dict(base, **{"gpu.block_id": cta})
        run(prologue, env)
        total = env["%total"]
        for t in range(env["%mine"]):
            w = dict(env, **{"%t": t})
            run(find, w)
            run(starts, w)
            g, off, rows, m0, n0 = (w["%grp"], w["%off"], w["%rows"],
                                    w["%m0"], w["%n0"])
            arow = off + m0
            # The producer's loads and the storer's store of this tile.
            assert rows == counts[g] and off == offsets[g], (cta, t)
            assert 0 <= m0 < rows and n0 < N, (cta, t, m0, n0)
            assert m0 % bm == 0 and n0 % bn == 0
            key = (g, m0 // bm, n0 // bn)
            assert key not in done, f"tile {key} twice"
            done[key] = cta
            assert arow < T
            if cta == 0 and t < listing:
                lines.append(f"  cta 0 tile {t}: group {g} rows [{off + m0}, "
                      f"{off + min(m0 + bm, rows)}) columns [{n0}, "
                      f"{min(n0 + bn, N)})")
    want = {(g, r, c) for g, m in enumerate(counts)
            for r in range(-(-m // bm)) for c in range(gx)}
    assert set(done) == want, "a tile missing or extra"
    assert total == len(want)
    shown = counts if len(counts) <= 8 else f"{len(counts)} groups"
    print(f"T={T} N={N} K={K} counts={shown}:"
          f" {len(want)} tiles on {ctas} CTAs, each once")
    for line in lines:
        print(line)


def main():
    launch(131, 256, 128, [0, 1, 130], listing=3)
    launch(577, 512, 256, [200, 0, 77, 300], listing=4)
    launch(100, 256, 64, [5, 0, 64])
    launch(1000, 1024, 1024, [129, 127, 1, 0, 256, 383, 104, 0])
    launch(4600, 1280, 192, [700, 0, 1, 1200, 129, 0, 900, 1000, 300], listing=2)
    launch(16384, 14336, 4096, [2048] * 8, listing=2)
    launch(16384, 2048, 7168, [256] * 64)
    launch(0, 256, 64, [0, 0])
    rng = random.Random(7)
    for _ in range(20):
        G = rng.randint(1, 70)
        counts = [rng.choice((0, 1, rng.randint(0, 700))) for _ in range(G)]
        launch(sum(counts) + rng.randint(0, 300), rng.choice((64, 256, 384, 1000, 4096)),
               rng.randint(0, 512), counts, sms=rng.choice((1, 7, 132)))
    print("grouped schedule: ok")


if __name__ == "__main__":
    main()
