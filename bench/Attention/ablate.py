#!/usr/bin/env python3
"""Ablations of a generated persistent attention kernel, for timing only.

Each removes one part of the per-tile work that is not the KV blocks' main
loop, so that timing the module beside the unchanged one (bench.py
--side-by-side) bounds what that part costs per tile. The results are
wrong by construction: bench.py's check fails on them, and nothing but this
measurement may use them.

  --q-rows R    loads R rows of each tile's Q instead of 128 (R = 8: Q's
                load latency, which the tile's first S waits for, nearly
                gone);
  --no-o-store  drops the epilogue's O: the registers-to-shared stores, the
                wait for the other consumer's last S before them, the proxy
                fence, the named barrier and the TMA store (the 1 / l and
                the log-sum-exp stay). O's values stay live: their sum is
                compared with a value it never takes, which guards one store
                to L (otherwise ptxas drops the P V wgmmas whose results
                nothing reads);
  --no-o-tma    drops only the TMA store of O (and its commit): the stores
                to shared memory, the fence and the barriers stay.

The module must hold one kernel: gen_attention.py's non-causal default
holds two (--first-pv by-length), so pass --first-pv guard or zero.

  python3 examples/attention/gen_attention.py --first-pv zero --name attention_d128_abl_q8 \\
      | python3 bench/Attention/ablate.py --q-rows 8 > q8.mlir
"""
import argparse
import re
import sys


def fewer_q_rows(text, rows):
    """The tile_loads copy of Q with `rows` rows instead of the tile's."""
    pattern = re.compile(r"(tile\.copy_async %sq\[0, 0\] )\[(\d+), (\d+)\]"
                         r"(, %Q\[[^\]]*\] )\[1, 1, \d+, (\d+)\]")
    new, count = pattern.subn(
        lambda m: f"{m.group(1)}[{rows}, {m.group(3)}]{m.group(4)}"
                  f"[1, 1, {rows}, {m.group(5)}]", text)
    if count != 1:
        sys.exit(f"ablate.py: expected one copy of Q in tile_loads, found {count}"
                 " (one kernel per module: gen_attention.py --first-pv guard"
                 " or zero)")
    return new


def keep_live(values, indent, sink):
    """Lines that add `values` (f32 SSA names) and store the sum with `sink`
    (a format string of the sum) where it equals a value it never takes."""
    out, level, n = [], list(values), 0
    while len(level) > 1:
        nxt = []
        for i in range(0, len(level) - 1, 2):
            out.append(f"{indent}%abl_s{n} = arith.addf {level[i]}, {level[i + 1]} : f32")
            nxt.append(f"%abl_s{n}")
            n += 1
        level = nxt + level[len(level) - len(level) % 2:]
    out.append(f"{indent}%abl_never = arith.constant 1.0e+38 : f32")
    out.append(f"{indent}%abl_hit = arith.cmpf oeq, {level[0]}, %abl_never : f32")
    out.append(f"{indent}scf.if %abl_hit {{")
    out.append(f"{indent}  " + sink.format(level[0]))
    out.append(f"{indent}}}")
    return out


def without_o_store(text):
    """The epilogue from O's staging slot to its TMA store removed, but for
    the query row the log-sum-exp's stores read; O kept live."""
    lines = text.split("\n")
    start = [i for i, l in enumerate(lines) if "%o_slot = arith.select" in l]
    end = [i for i, l in enumerate(lines) if "%quad_lead = arith.cmpi" in l]
    if len(start) != 1 or len(end) != 1 or end[0] < start[0]:
        sys.exit("ablate.py: not a persistent kernel's epilogue (one O slot, "
                 "then the log-sum-exp)")
    region = lines[start[0]:end[0]]
    kept = [l for l in region if "%mrow = " in l]
    reads = [l for l in region if re.search(r"= llvm\.extractvalue %\w+\[\d+\] : !accO", l)]
    if len(kept) != 1 or not reads:
        sys.exit("ablate.py: the epilogue's query row or O's values are not where expected")
    indent = kept[0][:len(kept[0]) - len(kept[0].lstrip())]
    names = [l.split("=")[0].strip() for l in reads]
    live = keep_live(names, indent, "memref.store {}, %L[%b, %h, %mrow] : !L")
    return "\n".join(lines[:start[0]] + reads + kept + live + lines[end[0]:])


def without_o_tma(text):
    """The epilogue's TMA store of O and its commit removed."""
    lines = text.split("\n")
    dropped = [i for i, l in enumerate(lines)
               if re.search(r"tile\.copy_async %O\[", l)]
    if len(dropped) != 1 or lines[dropped[0] + 1].strip() != "tile.bulk_commit_group":
        sys.exit("ablate.py: expected one TMA store of O, then its commit")
    dropped.append(dropped[0] + 1)
    return "\n".join(l for i, l in enumerate(lines) if i not in dropped)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--q-rows", dest="q_rows", type=int, default=None)
    ap.add_argument("--no-o-store", dest="no_o_store", action="store_true")
    ap.add_argument("--no-o-tma", dest="no_o_tma", action="store_true")
    a = ap.parse_args()
    text = sys.stdin.read()
    if a.q_rows is not None:
        text = fewer_q_rows(text, a.q_rows)
    if a.no_o_store:
        text = without_o_store(text)
    if a.no_o_tma:
        text = without_o_tma(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
