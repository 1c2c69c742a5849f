"""Runs the tile order gen_attention.py writes for its causal kernels, as
written, with index_arith, and prints per problem whether the CTAs take
every (query block, head, batch) exactly once, for FileCheck:

- one-tile kernels (--one-tile; the lines from `// Longest-first` to
  `%b = ...`), for every CTA of the grid (gx, H, B): the section width
  (heads whose K and V fit in L2) and the first CTAs' tiles in launch
  order;
- the persistent kernel (the default; the kernel's lines up to its
  KV block count, then the pipeline's iterations region for each of the
  CTA's tiles): the KV blocks each CTA walks, least and most. The table
  walk (--causal-walk table, the default) reads its tiles from a table in
  the runtime's format, built here by the longest-first rule
  (tile/Schedule/LongestFirst.h, which its unit test checks; this checks
  the kernel's reading of it).

    attention_order.py FLAGS...   (the generator's flags)"""

import heapq
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
# of 8), 15 such heads (a last section of 7), and 16k tokens at seq 2k.
PROBLEMS = [(2, 4, 4096), (3, 2, 1000), (1, 1, 128), (2, 16, 8192),
            (3, 5, 8192), (8, 16, 2048)]
# The split tail's: 2048 tiles of 16 blocks (15.5 waves), 2112 (whole
# waves: nothing split), 153 of 17 blocks, the last partial (one wave and
# 21 tiles), 210 of 15 blocks (fewer than SPLIT_TAIL_MIN_BLOCKS: nothing
# split), 100 (under a wave: nothing split), 264 tiles of one block
# (nothing split).
SPLIT_PROBLEMS = [(16, 8, 2048), (33, 4, 2048), (1, 9, 2100), (1, 14, 1920),
                  (1, 10, 1280), (2, 132, 128)]
SMS = 132
GPU_ID = re.compile(r"^(%\w+) = gpu\.(block_id|grid_dim) ([xyz])$")
# The index and i32 arithmetic the walk is made of (not f32 constants).
INTEGER = re.compile(r"^%\w+ = (memref\.dim .*|arith\..*"
                     r"(: index|: i32|: i1|to index|to i32))$")


TABLE_LOAD = re.compile(r"^(%\w+) = memref\.load %sched\[(%\w+)\] : memref<\?xi32>$")
# L2 bytes the sections' K and V fill (tile_orders.LPT_L2_BYTES), the
# table's cost of a tile besides its blocks (gen_attention.TABLE_TILE_COST).
L2_BYTES = 32 << 20
TILE_COST = 1


def integer_lines(lines):
    return "\n".join(l for l in lines if INTEGER.match(l))


def run_lines(lines, env):
    """run() over the integer lines, and the table's loads from env["table"]."""
    for line in lines:
        m = TABLE_LOAD.match(line)
        if m:
            env[m.group(1)] = env["table"][env[m.group(2)]]
        elif INTEGER.match(line):
            run(line, env)


def longest_first_table(gx, heads, sec, ctas):
    """The runtime's table: ctas + 1 offsets, then each CTA's tiles as
    head x gx + query block; the tiles longest first (sections of `sec`
    heads, in each the query blocks from the last down, the heads fastest),
    each to the CTA with the least blocks and costs so far."""
    loads = [(0, c) for c in range(ctas)]
    heapq.heapify(loads)
    mine = [[] for _ in range(ctas)]
    for first in range(0, heads, sec):
        width = min(sec, heads - first)
        for qb in reversed(range(gx)):
            for head in range(first, first + width):
                load, c = heapq.heappop(loads)
                mine[c].append(head * gx + qb)
                heapq.heappush(loads, (load + qb + 1 + TILE_COST, c))
    offsets = [0]
    for tiles in mine:
        offsets.append(offsets[-1] + len(tiles))
    return offsets + [t for tiles in mine for t in tiles]


def with_ids(lines, env, ids, grid):
    for line in lines:
        m = GPU_ID.match(line)
        if m:
            axis = "xyz".index(m.group(3))
            env[m.group(1)] = (ids if m.group(2) == "block_id" else grid)[axis]


def one_tile(lines, B, H, S, dims):
    start = lines.index("// Longest-first: sections of heads whose K and V fit in L2, in each")
    end = next(i for i in range(start, len(lines))
               if lines[i].startswith("%b = "))
    order = lines[start:end + 1]
    gx = (S + 127) // 128
    seen, first, sec = [], [], None
    # The hardware's launch order: x fastest, then y, then z.
    for z in range(B):
        for y in range(H):
            for x in range(gx):
                env = {"dims": dims, "%c0": 0, "%c1": 1, "%c2": 2,
                       "%H": H, "%Skv": S}
                with_ids(order, env, (x, y, z), (gx, H, B))
                run(integer_lines(order), env)
                seen.append((env["%qb"], env["%h"], env["%b"]))
                sec = env["%sec"]
    return seen, (f"section {sec} heads, first " +
                  " ".join(f"q{q}h{h}b{b}" for q, h, b in seen[:6]))


def kernel_parts(lines, kernel_end, region_end):
    """The first kernel's body, its lines up to the one starting with
    `kernel_end` (the walk's share), and its pipeline's iterations region
    up to the yield starting with `region_end`."""
    body = lines[lines.index(next(l for l in lines
                                  if l.startswith("gpu.func @"))) + 1:]
    kernel = body[:next(i for i, l in enumerate(body)
                        if l.startswith(kernel_end)) + 1]
    start = body.index("^bb0(%t: index):")
    region = body[start + 1:next(i for i in range(start, len(body))
                                 if body[i].startswith(region_end))]
    return body, kernel, region


def walk_tiles(kernel, region, ctas, dims, table=None):
    """Each CTA's kernel lines, then its iterations region for each of its
    %mine tiles: yields (cta, the tile's environment)."""
    for cta in range(ctas):
        env = {"dims": dims, "table": table}
        with_ids(kernel, env, (cta, 0, 0), (ctas, 1, 1))
        run_lines(kernel, env)
        for t in range(env["%mine"]):
            tile_env = dict(env, **{"%t": t})
            run_lines(region, tile_env)
            yield cta, tile_env


def persistent(lines, B, H, S, dims):
    body, kernel, region = kernel_parts(lines, "%kv_blocks = ",
                                        "tile.yield %c0")
    gx = (S + 127) // 128
    tiles = gx * H * B
    table = None
    if any(TABLE_LOAD.match(l) for l in kernel):
        # The host's grid: a CTA per SM, at most one per tile; its table.
        ctas = max(min(tiles, SMS), 1)
        row_bytes = 4 * (64 if "64" in sys.argv[1:] else 128)
        sec = min(max(L2_BYTES // (S * row_bytes), 1), H * B)
        table = longest_first_table(gx, H * B, sec, ctas)
    else:
        # A CTA per unit of two tiles, at most one per SM.
        ctas = max(min((tiles + 1) // 2, SMS), 1)
    seen, blocks = [], [0] * ctas
    for cta, tile_env in walk_tiles(kernel, region, ctas, dims, table):
        seen.append((tile_env["%qb"], tile_env["%h"], tile_env["%b"]))
        blocks[cta] += tile_env["%nblocks"]
    return seen, (f"{ctas} CTAs, KV blocks per CTA {min(blocks)} to "
                  f"{max(blocks)}")


def split_tail(lines, B, H, S, dims):
    """The split tail (--split-tail on): the kernel's lines up to its
    share, then its iterations region for each of the CTA's tiles (the
    tile and its blocks %kfirst_t .. %kend_t - 1), and the epilogue's
    workspace arithmetic for each piece (its counter and its and the other
    piece's slot, consumer 0, thread 0). Returns the (tile, block) pairs
    walked, and a summary: the CTAs' blocks, least and most, the split
    tiles, and whether each split tile's two pieces share a counter and
    read each other's slot."""
    body, kernel, region = kernel_parts(lines, "%sp_zero32 = ",
                                        "tile.yield %kfirst_t")
    # The consumers' unpacking of the piece's one tile value, then the
    # combination's arithmetic up to the other piece's slot.
    unpack = [l for l in body if l.startswith(("%kfirst = ", "%ntiles = "))]
    combine = [l for l in body if l.startswith("%sc_") and INTEGER.match(l)]
    combine = combine[:next(i for i, l in enumerate(combine)
                            if l.startswith("%sc_theirs = ")) + 1]
    gx = (S + 127) // 128
    tiles = gx * H * B
    ctas = max(min(tiles, SMS), 1)
    seen, blocks, pieces = [], [0] * ctas, {}
    for cta, tile_env in walk_tiles(kernel, region, ctas, dims):
        tile = (tile_env["%qb"], tile_env["%h"], tile_env["%b"])
        kf, ke = tile_env["%kfirst_t"], tile_env["%kend_t"]
        seen += [(tile, k) for k in range(kf, ke)]
        blocks[cta] += ke - kf
        piece_env = dict(tile_env, **{"%kpack": tile_env["%kpack_t"],
                                      "%cidx": 0, "%local": 0})
        run_lines(unpack + combine, piece_env)
        if (piece_env["%kfirst"], piece_env["%ntiles"]) != (kf, ke):
            sys.exit(f"unpacked ({piece_env['%kfirst']}, "
                     f"{piece_env['%ntiles']}), yielded ({kf}, {ke})")
        pieces.setdefault(tile, []).append(
            (piece_env["%sc_split"], piece_env.get("%sc_count_at"),
             piece_env.get("%sc_mine"), piece_env.get("%sc_theirs")))
    split = [p for p in pieces.values() if len(p) > 1]
    paired = all(len(p) == 2 and all(q[0] for q in p) and p[0][1] == p[1][1]
                 and p[0][2] == p[1][3] and p[0][3] == p[1][2]
                 and p[0][2] != p[1][2] for p in split)
    whole = all(not p[0][0] for p in pieces.values() if len(p) == 1)
    slot = int(next(l for l in combine if l.startswith("%sc_slot = "))
               .split()[3])
    inside = all(q[2] + slot <= 4 * ctas * slot for p in split for q in p)
    return seen, (f"{ctas} CTAs, KV blocks per CTA {min(blocks)} to "
                  f"{max(blocks)}, {len(split)} tiles split"
                  + (", pieces paired" if paired and whole and inside
                     else ", PIECES NOT PAIRED"))


module = subprocess.run(
    [sys.executable, os.path.join(ROOT, "examples", "attention",
                                  "gen_attention.py"), *sys.argv[1:]],
    check=True, capture_output=True, text=True).stdout
lines = [l.strip() for l in module.splitlines()]
walk = one_tile if "--one-tile" in sys.argv[1:] else persistent
if "--split-tail" in sys.argv[1:]:
    walk = split_tail
for B, H, S in PROBLEMS + (SPLIT_PROBLEMS if walk is split_tail else []):
    dims = {("%Q", 0): B, ("%Q", 1): H, ("%Q", 2): S, ("%K", 1): H,
            ("%K", 2): S}
    seen, text = walk(lines, B, H, S, dims)
    gx = (S + 127) // 128
    tiles = [(q, h, b) for q in range(gx) for h in range(H) for b in range(B)]
    if walk is split_tail:
        every = sorted(seen) == sorted((t, k) for t in tiles
                                       for k in range(gx))
        what = "every tile's every block once"
    else:
        every = sorted(seen) == sorted(tiles)
        what = "every tile once"
    print(f"B={B} H={H} S={S}: "
          f"{what if every else 'NOT A PERMUTATION'}, {text}")
