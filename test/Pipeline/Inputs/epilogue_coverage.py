"""Runs the epilogue of gen_gemm.py's kernel (`@gemm`: persistent, or with
--tokens-n, whose tile is C^T's and lands in C transposed) as written, for
one tile, over every consumer thread in lockstep (each line
for all threads before the next, which is what the consumers' named
barriers order), and checks what its TMA stores write: every element of
the BM x BN tile stored exactly once, each from the accumulator value the
PTX wgmma D layout puts there (warp w of consumer c: rows 64c + 16w + l/4
and + 8, columns 8i + 2 (l % 4) + 0..1 from d[4i + 0..3]).

Values are tracked as tokens (consumer, thread, accumulator index); shared
memory is a map from (buffer offset, row, column) to a token. memref.store
to the packed 32-bit views writes two columns; tile.wgmma_store_fragment
writes a warp's 16 x 16 block by its definition in TileOps.td; a
tile.copy_async from a C buffer to %C reads the buffer at that line.
Prints `ok: BM x BN, N elements stored once` or the first difference.

    epilogue_coverage.py FLAGS...   (the generator's flags)"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from generated import gemm_module  # noqa: E402
from index_arith import evaluate  # noqa: E402

DEF = re.compile(r"^(%[\w]+)(?:, (%[\w]+))? = ([\w.]+) ?(.*)$")
VIEW = re.compile(r"^(%\w+) = tile.arena_view \[(\d+)\] : (!\w+)$")
ALIAS = re.compile(r"^(!\w+) = memref<(\d+)x(\d+)x(\w+),")


def kernel_lines(module):
    """The lines of gpu.func @gemm, stripped."""
    lines, inside = [], False
    for raw in module.splitlines():
        line = raw.strip()
        if line.startswith("gpu.func @gemm("):
            inside = True
        elif inside and line.startswith("gpu.func @"):
            break
        if inside:
            lines.append(line)
    return lines


def operands(text):
    return [a.strip() for a in text.split(" : ")[0].split(",")]


class Thread:
    def __init__(self, base, tid, consumer):
        self.env = dict(base)
        # A non-persistent kernel's tile starts and its split's count of
        # shares come before its epilogue.
        self.env.update({"%tid": tid, "%local": tid % 128, "%t": 0,
                         "%cidx": consumer, "%cta": 0, "%member": 0,
                         "%ctas": 1, "%gx": 1, "%gy": 1, "%m0": 0, "%n0": 0,
                         "%gz": 2})
        self.consumer = consumer

    def value(self, name):
        if name not in self.env:
            raise KeyError(f"{name} is not defined")
        return self.env[name]


def block_of(frag_owner_lane, row, col, fragment):
    """tile.wgmma_store_fragment: lane l's eight values at rows l/4, l/4 + 8
    and columns 2 (l % 4) + 0..1, + 8 of the block at (row, col)."""
    l = frag_owner_lane
    r, c = l // 4, 2 * (l % 4)
    places = [(r, c), (r, c + 1), (r + 8, c), (r + 8, c + 1),
              (r, c + 8), (r, c + 9), (r + 8, c + 8), (r + 8, c + 9)]
    return [((row + dr, col + dc), v) for (dr, dc), v in zip(places, fragment)]


def main():
    module, _ = gemm_module(sys.argv[1:])
    transposed = "--tokens-n" in sys.argv
    aliases = {}
    for line in module.splitlines():
        m = ALIAS.match(line)
        if m:
            aliases[m.group(1)] = (int(m.group(2)), int(m.group(3)), m.group(4))
    lines = kernel_lines(module)
    base, views = {}, {}
    for line in lines:
        m = VIEW.match(line)
        if m:
            rows, cols, elem = aliases[m.group(3)]
            views[m.group(1)] = (int(m.group(2)), 2 if elem == "i32" else 1)
        m = DEF.match(line)
        if m and m.group(3) == "arith.constant" and m.group(1) not in base:
            text = m.group(4).split(" : ")[0]
            if re.fullmatch(r"-?\d+", text):
                base[m.group(1)] = int(text)
    start = lines.index("} epilogue {")
    bm = base["%cbm"]
    bn = base["%cbn"]
    consumers = bm // 64
    threads = [Thread(base, 128 + 128 * c + i, c)
               for c in range(consumers) for i in range(128)]
    smem, stored = {}, {}
    masks = [[True] * len(threads)]
    body = iter(lines[start + 2:])
    for line in body:
        if line == "tile.yield":
            break
        mask = masks[-1]
        m = re.match(r"^%accum, (%\w+) = scf\.if %splitting -> ", line)
        if m:
            # Split in shares: the combine (combine_order.py runs it) gives
            # the accumulator, here the tile's last CTA's, whose epilogue
            # runs.
            depth = 1
            while depth:
                line = next(body)
                depth += line.endswith("{") - line.startswith("}")
            for t in threads:
                t.env[m.group(1)] = 1
            continue
        m = re.match(r"^scf\.if (%\w+) \{$", line)
        if m:
            masks.append([a and bool(t.value(m.group(1)))
                          for a, t in zip(mask, threads)])
            continue
        if line == "} else {":
            outer = masks[-2]
            masks[-1] = [o and not a for o, a in zip(outer, masks[-1])]
            continue
        if line == "}":
            masks.pop()
            continue
        if line.startswith("//"):
            continue
        if line.startswith("tile.wgmma_store_fragment"):
            m = re.match(r"tile.wgmma_store_fragment (%\w+), (%\w+)\[(%\w+), "
                         r"(%\w+)\]", line)
            frag, buf, row, col = m.groups()
            offset, width = views[buf]
            for t, on in zip(threads, mask):
                if on:
                    lane = t.value("%local") % 32
                    for (r, c), v in block_of(lane, t.value(row), t.value(col),
                                              t.value(frag)):
                        smem[(offset, r, c)] = v
            continue
        if line.startswith("memref.store"):
            m = re.match(r"memref.store (%\w+), (%\w+)\[(%\w+), (%\w+)\]", line)
            value, buf, row, col = m.groups()
            offset, width = views[buf]
            for t, on in zip(threads, mask):
                if on:
                    vals = t.value(value)
                    vals = vals if isinstance(vals, list) else [vals]
                    for k, v in enumerate(vals):
                        smem[(offset, t.value(row),
                              width * t.value(col) + k)] = v
            continue
        if line.startswith("tile.copy_async %C["):
            m = re.match(r"tile.copy_async %C\[(%\w+), (%\w+)\] \[(\d+), (\d+)\], "
                         r"(%\w+)\[(\d+), (\d+)\]", line)
            gm, gn, h, w, buf, sr, sc = m.groups()
            offset, _ = views[buf]
            for t, on in zip(threads, mask):
                if not on:
                    continue
                m0, n0 = t.value(gm), t.value(gn)
                for r in range(int(h)):
                    for c in range(int(w)):
                        key = (m0 + r, n0 + c)
                        src = (offset, int(sr) + r, int(sc) + c)
                        stored.setdefault(key, []).append(smem.get(src))
            continue
        if (line.startswith("nvvm.") or line.startswith("tile.bulk_")
                or line.startswith("^bb0")):
            continue
        m = DEF.match(line)
        if not m:
            raise ValueError(f"unexpected line: {line}")
        name, name2, op, rest = m.groups()
        for t, on in zip(threads, mask):
            if not on:
                continue
            if op == "tile.grouped_tile":
                t.env[name], t.env[name2] = 0, 0
            elif op == "llvm.extractvalue":
                k = int(re.search(r"\[(\d+)\]", rest).group(1))
                t.env[name] = (t.consumer, t.value("%local"), k)
            elif op in ("arith.mulf", "arith.truncf", "vector.bitcast"):
                t.env[name] = t.value(operands(rest)[0])
            elif op == "vector.from_elements":
                t.env[name] = [t.value(a) for a in operands(rest)]
            elif op == "vector.extract":
                t.env[name] = t.value(rest.split("[")[0].strip())
            elif op == "memref.load":
                t.env[name] = 0  # FP8's scales: the tokens ignore them
            elif op in ("arith.index_cast", "arith.index_castui"):
                t.env[name] = t.value(rest.split(" : ")[0])
            else:
                args = operands(rest)
                if op == "arith.cmpi":
                    args = [args[0].strip()] + args[1:]
                v = evaluate(op, args, t.value, {})
                if v is None:
                    raise ValueError(f"cannot evaluate: {line}")
                t.env[name] = v
    for r in range(bm):
        for c in range(bn):
            # The tile's (r, c) is C's (c, r) with --tokens-n.
            place = (c, r) if transposed else (r, c)
            got = stored.get(place, [])
            warp, lane = (r % 64) // 16, ((r % 16) % 8) * 4 + (c % 8) // 2
            want = (r // 64, 32 * warp + lane,
                    4 * (c // 8) + 2 * ((r % 16) // 8) + c % 2)
            if got != [want]:
                print(f"element {place}: stored {got}, expected [{want}]")
                return 1
    if len(stored) != bm * bn:
        print(f"{len(stored) - bm * bn} elements stored outside the tile")
        return 1
    shape = f"{bn} x {bm} (C^T's {bm} x {bn})" if transposed else f"{bm} x {bn}"
    print(f"ok: {shape}, {bm * bn} elements stored once")
    return 0


if __name__ == "__main__":
    sys.exit(main())
