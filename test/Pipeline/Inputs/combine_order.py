"""Runs the combine loop gen_gemm.py writes for a split-K kernel (the tile's
last CTA adding the other shares' partials to its own) as written: its
index arithmetic with index_arith, its loads, extracts, additions, selects
and inserts on values that record which share's partial they hold. For
each count of shares S and share b of the last CTA, prints the order in
which the shares' partials are summed into every value of its accumulator
(its own first), whether each load read the thread's own place in a slot,
and which slots were read.

    combine_order.py FLAGS...   (the generator's flags, with --split-k)"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from generated import gemm_module  # noqa: E402
from index_arith import LINE, evaluate  # noqa: E402

FOR = re.compile(r"^%sum = scf\.for %zz = (%\w+) to (%\w+) step (%\w+) "
                 r"iter_args\(%s0 = %accum_part\)")
CONST = re.compile(r"^(%\w+) = arith\.constant (\d+) : index$")
TILE_ELEMS = re.compile(r"%tile_elems = arith\.constant (\d+) : index")
ACC = re.compile(r"^!acc = !llvm\.struct<\((.*)\)>$", re.M)
PIECES = {
    "load": re.compile(r"^(%\w+) = vector\.load %partials\[(%\w+)\]"),
    "extract": re.compile(r"^(%\w+) = vector\.extract (%\w+)\[(\d+)\]"),
    "extractvalue": re.compile(r"^(%\w+) = llvm\.extractvalue (%\w+)\[(\d+)\]"),
    "addf": re.compile(r"^(%\w+) = arith\.addf (%\w+), (%\w+) : f32$"),
    "selectf": re.compile(r"^(%\w+) = arith\.select (%\w+), (%\w+), (%\w+) : f32$"),
    "insertvalue": re.compile(r"^(%\w+) = llvm\.insertvalue (%\w+), (%\w+)\[(\d+)\]"),
}
THREAD = 5  # a consumer thread: its place in a slot is 4 x THREAD


IF = re.compile(r"^(%\w+) = scf\.if (%\w+) -> \(!acc\) \{$")
YIELD = re.compile(r"^scf\.yield (%\w+) : !acc$")


def body_of(lines):
    """The combine loop's header and body (to its closing brace)."""
    start = next(i for i, l in enumerate(lines) if FOR.match(l))
    depth, body = 1, []
    for line in lines[start + 1:]:
        depth += line.endswith("{") - line.startswith("}")
        if depth == 0:
            return lines[start], body
        body.append(line)
    raise ValueError("no end of the combine loop")


def execute(body, env, tile_elems, offsets, slots):
    """Runs straight-line `body` with nested `scf.if ... -> (!acc)` blocks
    in `env`; returns the name its scf.yield yields."""
    i = 0
    while i < len(body):
        line = body[i]
        if m := YIELD.match(line):
            return env[m.group(1)]
        if m := IF.match(line):
            # The then and else blocks, each to its yield.
            depth, then, other, block = 1, [], [], None
            block = then
            i += 1
            while depth:
                line = body[i]
                if line == "} else {" and depth == 1:
                    block = other
                else:
                    depth += line.endswith("{") - line.startswith("}")
                    if depth:
                        block.append(line)
                i += 1
            taken = then if env[m.group(2)] else other
            env[m.group(1)] = execute(taken, env, tile_elems, offsets, slots)
            continue
        step(line, env, tile_elems, offsets, slots)
        i += 1
    raise ValueError("a block without scf.yield")


def step(line, env, tile_elems, offsets, slots):
    """One op of the loop on `env`."""
    if m := PIECES["load"].match(line):
        slot, offset = divmod(env[m.group(2)], tile_elems)
        slots.append(slot)
        offsets.add(offset - 4 * THREAD)
        env[m.group(1)] = [(slot,)] * 4
    elif m := PIECES["extract"].match(line):
        env[m.group(1)] = env[m.group(2)][int(m.group(3))]
    elif m := PIECES["extractvalue"].match(line):
        env[m.group(1)] = env[m.group(2)][int(m.group(3))]
    elif m := PIECES["addf"].match(line):
        env[m.group(1)] = env[m.group(2)] + env[m.group(3)]
    elif m := PIECES["selectf"].match(line):
        env[m.group(1)] = (env[m.group(3)] if env[m.group(2)]
                           else env[m.group(4)])
    elif m := PIECES["insertvalue"].match(line):
        whole = list(env[m.group(3)])
        whole[int(m.group(4))] = env[m.group(2)]
        env[m.group(1)] = whole
    elif m := LINE.match(line):
        args = [a.strip() for a in m.group(3).split(",")]
        value = evaluate(m.group(2), args, lambda n: env[n.split(" ")[0]],
                         None)
        if value is None:
            raise ValueError(f"no rule for {line}")
        env[m.group(1)] = value
    else:
        raise ValueError(f"unexpected line: {line}")


def combine(lines, consts, tile_elems, values, shares, me, first, tile=3):
    """The sums of one thread of the last CTA of `tile`, share `me` of
    `shares` (split-K: the tile's slots from tile x shares; stream-K: the
    CTAs first to first + shares - 1 share it, their slots at CTA + 5):
    the list of slots per accumulator value, the loads' offsets within
    their slots, and the slots read."""
    head, body = body_of(lines)
    lo, hi, step_name = FOR.match(head).groups()
    env = dict(consts)
    env["%ct4"] = 4 * THREAD
    if lo == "%cta_first":
        env.update({"%cta_first": first, "%cta_end": first + shares,
                    "%cta": first + me, "%wj": 5})
        env["%slot"] = first + me + 5
    else:
        env.update({"%gz": shares, "%bz": me, "%pid": tile})
        env["%slot_first"] = tile * shares
        env["%slot"] = env["%slot_first"] + me
    acc = [(env["%slot"],)] * values
    offsets, slots = set(), []
    z = env[lo]
    while z < env[hi]:
        env["%zz"], env["%s0"] = z, acc
        acc = execute(body, env, tile_elems, offsets, slots)
        z += env[step_name]
    return acc, offsets, slots


def main():
    text, lines = gemm_module(sys.argv[1:])
    consts = {m.group(1): int(m.group(2)) for l in lines
              if (m := CONST.match(l))}
    tile_elems = int(TILE_ELEMS.search(text).group(1))
    values = len(ACC.search(text).group(1).split(","))
    streamed = "%cta_first" in text
    for first in (0, 7) if streamed else (0,):
        for shares in (2, 3, 4, 5, 8):
            for me in sorted({0, 1, shares // 2, shares - 1}):
                acc, offsets, slots = combine(lines, consts, tile_elems,
                                              values, shares, me, first)
                # Slots as shares of the tile: 0 to shares - 1.
                base = first + 5 if streamed else 3 * shares
                orders = {tuple(s - base for s in value) for value in acc}
                order = ", ".join(map(str, next(iter(orders))))
                same = "every value" if len(orders) == 1 else "values DIFFER"
                where = f"CTAs from {first}, " if streamed else ""
                print(f"{where}{shares} shares, last {me}: {order} ({same}; "
                      f"{len(slots)} loads in slots "
                      f"{min(slots) - base}..{max(slots) - base}, "
                      f"offsets {sorted(offsets)[:2]}..{max(offsets)})")


if __name__ == "__main__":
    main()
