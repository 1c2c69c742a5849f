#!/usr/bin/env python3
"""Writes examples/gemm/gemm.mlir: a bf16 GEMM C = A @ B (f32 accumulation and
output) for run-time M, N, K on Hopper, in the tile dialect plus upstream ops.

B is passed as its transpose Bt (N x K, row-major): both operands are then
K-major, the layout wgmma reads from shared memory without transposing (and
the layout cuBLAS's "TN" GEMM reads). In PyTorch terms: C = A @ Bt.T.

One CTA computes a BM x BN tile of C with three warpgroups:
  warpgroup 0, thread 0  the producer: for each K step it loads the A and B
                         tiles with `tile.copy_async` into 128B-swizzled
                         K-major stage buffers;
  warpgroups 1 and 2     the consumers: each issues BK / 16
                         `wgmma.mma_async` m64nBNk16 on its 64 rows of the
                         stage (descriptors from `tile.wgmma_descriptor`),
                         keeping one wgmma group in flight, then stores its
                         accumulator fragments to a shared C tile; one thread
                         stores the tile with `tile.copy_async` (edge tiles
                         clip).
The main loop is a `tile.pipeline` (docs/pipelines.md): the stages' full and
empty barriers, their phases, the byte counts and the release of a stage once
its wgmma reads completed are generated. `--protocol handwritten` writes the
same kernel with that protocol spelled out (mbarriers, parities,
`arrive.expect_tx`), as the example was before the construct.
Loads past M, N or K read zeros (the TMA's out-of-bounds fill), so the K
tail and the edge tiles need no special code.

    python3 examples/gemm/gen_gemm.py > examples/gemm/gemm.mlir
"""
import argparse
import re

BM, BN, BK, STAGES = 128, 256, 64, 3
GROUP_M = 8  # tile rows per group of the CTA order
WG = 128  # threads per warpgroup
CONSUMERS = BM // 64


def acc_type(n):
    return "!llvm.struct<(" + ", ".join(["f32"] * (n // 2)) + ")>"


def grouped_order(unit, cols, row, col, group_m):
    """The grouped order (tile.grouped_tile) of `unit` (a CTA's or a
    cluster's index) over a grid of `%gy` rows and `cols` columns, in groups
    of `group_m` rows: its row in `row` and column in `col`."""
    return (f"      {row}, {col} = tile.grouped_tile {unit} of (%gy, {cols}) "
            f"{{group_rows = {group_m}}}")


# The non-persistent kernels' tile grid is the launch grid.
GRID_IDS = """      %bx = gpu.block_id x
      %by = gpu.block_id y
      %gx = gpu.grid_dim x
      %gy = gpu.grid_dim y
"""

# Tile starts: multiples of the tile sizes, so the planner proves the TMA
# coordinates aligned.
TILE_STARTS = """      // Tile starts: multiples of the tile sizes, so the planner proves the
      // TMA coordinates aligned.
      %m0 = arith.muli %pid_m, %cbm : index
      %n0 = arith.muli %pid_n, %cbn : index"""


def persistent_ctas(gx, gy, sms, tiles, indent, walkers="%ctas"):
    """The host's count of walkers (`walkers`, the CTAs) for a persistent
    kernel over gx x gy tiles (their count in `tiles`): one per SM, or per
    tile where there are fewer, and at least one."""
    return (f"{indent}%sms = arith.constant {sms} : index\n"
            f"{indent}{tiles} = arith.muli {gx}, {gy} : index\n"
            f"{indent}%fill = arith.minui {tiles}, %sms : index\n"
            f"{indent}{walkers} = arith.maxui %fill, %c1 : index\n")


def persistent_cluster_ctas(gx, gy, sms, cluster, indent):
    """The host's %ctas for a persistent kernel in clusters of `cluster` CTAs
    over gx x gy tiles: the clusters walk units of `cluster` tile rows of one
    column, one cluster per `cluster` SMs or per unit where there are fewer,
    and at least one (the launch's clusters in %ccl)."""
    lines = f"""%ccl = arith.constant {cluster} : index
%ccl1 = arith.constant {cluster - 1} : index
%gyp = arith.addi {gy}, %ccl1 : index
%units_m = arith.divui %gyp, %ccl : index"""
    return ("".join(f"{indent}{line}\n" for line in lines.splitlines())
            + persistent_ctas(gx, "%units_m", sms // cluster, "%units",
                              indent, walkers="%clusters")
            + f"{indent}%ctas = arith.muli %clusters, %ccl : index\n")


def persistent_walk(bm, bn, cluster=1):
    """The persistent kernel's walk: the tile grid %gx x %gy, the walkers'
    count %total of units, this walker's index %cta of %ctas (%ctas1 is
    %ctas - 1). One CTA walks tiles; in clusters of `cluster` CTAs a cluster
    walks units of `cluster` consecutive tile rows of one tile column (%gy
    counts unit rows) and its CTA of rank %member takes the unit's row
    %member, so every CTA of a cluster walks the same units in step and
    shares (multicasts) their column's B tile; a CTA past the last tile row
    loads zeros and its store is clipped away."""
    if cluster == 1:
        rows = "      %gy = arith.divui %mp, %cbm : index"
        walker = """      %cta = gpu.block_id x
      %ctas = gpu.grid_dim x"""
    else:
        rows = f"""      %ccl = arith.constant {cluster} : index
      %ccl1 = arith.constant {cluster - 1} : index
      %rows = arith.divui %mp, %cbm : index
      %rows_up = arith.addi %rows, %ccl1 : index
      %gy = arith.divui %rows_up, %ccl : index"""
        walker = """      %bx = gpu.block_id x
      %gdx = gpu.grid_dim x
      %cta = arith.divui %bx, %ccl : index
      %member = arith.remui %bx, %ccl : index
      %ctas = arith.divui %gdx, %ccl : index"""
    return f"""      // Persistent: the grid's CTAs walk the output tiles, CTA c taking
      // tiles c, c + CTAs, c + 2 CTAs, ... in the grouped order below.
      %M = memref.dim %A, %c0 : !A
      %N = memref.dim %Bt, %c0 : !Bt
      %cbm1 = arith.constant {bm - 1} : index
      %cbn1 = arith.constant {bn - 1} : index
      %mp = arith.addi %M, %cbm1 : index
{rows}
      %np = arith.addi %N, %cbn1 : index
      %gx = arith.divui %np, %cbn : index
      %total = arith.muli %gx, %gy : index
{walker}
      %ctas1 = arith.subi %ctas, %c1 : index"""


def persistent_share(indent):
    """Lines defining %mine, CTA %cta's share of %total tiles walked
    %cta, %cta + %ctas, ... (%ctas1 is %ctas - 1)."""
    lines = """// This CTA's share: ceil((total - cta) / CTAs) tiles, none past the
// last tile.
%some = arith.cmpi ult, %cta, %total : index
%left = arith.subi %total, %cta : index
%left_up = arith.addi %left, %ctas1 : index
%share = arith.divui %left_up, %ctas : index
%mine = arith.select %some, %share, %c0 : index"""
    return "\n".join(indent + line for line in lines.splitlines())


def starts_of(lin, indent, group_m, cluster=1):
    """Output tile `lin` (its index before rasterization) in the grouped
    order, and its starts %m0, %n0. In clusters of `cluster` CTAs, `lin`
    is a cluster's unit of `cluster` consecutive tile rows and %member (the
    CTA's rank) picks its row."""
    if cluster == 1:
        order = grouped_order(lin, "%gx", "%pid_m", "%pid_n", group_m)
    else:
        order = (grouped_order(lin, "%gx", "%unit_m", "%pid_n", group_m)
                 + "\n      %unit_row = arith.muli %unit_m, %ccl : index"
                 "\n      %pid_m = arith.addi %unit_row, %member : index")
    text = order + "\n" + TILE_STARTS
    return "\n".join(indent + line[6:] if line.strip() else line
                     for line in text.splitlines())


def work_tile(indent, group_m, cluster=1):
    """The persistent kernel's t-th work tile: output tile (or cluster
    unit) cta + t x CTAs in the grouped order, and its starts %m0, %n0."""
    return (f"{indent}%stride = arith.muli %t, %ctas : index\n"
            f"{indent}%lin = arith.addi %cta, %stride : index\n"
            + starts_of("%lin", indent, group_m, cluster))


def workspace_holds(prefix, slots, counters, tile_elems):
    """Lines defining %{prefix}_holds (i1): the workspace (%partials,
    %counters) holds `slots` partial tiles of `tile_elems` f32 values and
    `counters` counters."""
    return f"""%{prefix}_elems = arith.constant {tile_elems} : index
%{prefix}_need = arith.muli {slots}, %{prefix}_elems : index
%{prefix}_have = memref.dim %partials, %c0 : memref<?xf32>
%{prefix}_counters = memref.dim %counters, %c0 : memref<?xi32>
%{prefix}_fit = arith.cmpi ule, %{prefix}_need, %{prefix}_have : index
%{prefix}_fit_c = arith.cmpi ule, {counters}, %{prefix}_counters : index
%{prefix}_holds = arith.andi %{prefix}_fit, %{prefix}_fit_c : i1"""


# Stream-K's schedule divides in 32 bits: a 64-bit division is a call of a
# long routine in the SASS, and the kernel with its index divisions in 64
# bits ran 16-25% slower than the persistent one (round 22; with every one
# in 32 bits, near its speed; with the schedule's alone, part of the way:
# docs/gemm.md). The host and the kernel take a count of shared tiles only
# where every dividend fits (stream_k_fits): (units + k-steps) x CTAs below
# 2^31, k-steps below 2^31 and fewer shared tiles than twice the CTAs
# (tile::schedule::kStreamKNarrowLimit).
NARROW_LIMIT = 1 << 31


def narrow_div(result, x, y, op="divui"):
    """`result` = x / y (or x % y) in 32 bits, for index values the stream-K
    rule keeps below 2^31."""
    p = result[1:]
    return f"""%{p}_x = arith.index_castui {x} : index to i32
%{p}_y = arith.index_castui {y} : index to i32
%{p}_q = arith.{op} %{p}_x, %{p}_y : i32
{result} = arith.index_castui %{p}_q : i32 to index"""


def stream_k_fits(shared, ksteps, tile_elems):
    """Lines defining %sk_fits (i1): the schedule can take `shared` shared
    tiles of `ksteps` k-steps on %ctas CTAs (the host's rule and the
    kernel's check of the count it is passed): at least one shared k-step
    per CTA, a workspace of ctas + shared partial tiles of `tile_elems`
    values and shared counters, and every dividend within narrow_div's
    reach."""
    return f"""%sk_units = arith.muli {shared}, {ksteps} : index
%sk_enough = arith.cmpi uge, %sk_units, %ctas : index
%sk_slots = arith.addi %ctas, {shared} : index
{workspace_holds("sk", "%sk_slots", shared, tile_elems)}
%sk_lim = arith.constant {NARROW_LIMIT} : index
%sk_two = arith.addi %ctas, %ctas : index
%sk_few = arith.cmpi ult, {shared}, %sk_two : index
%sk_kfit = arith.cmpi ult, {ksteps}, %sk_lim : index
%sk_span = arith.addi %sk_units, {ksteps} : index
%sk_span_ctas = arith.muli %sk_span, %ctas : index
%sk_spanfit = arith.cmpi ult, %sk_span_ctas, %sk_lim : index
%sk_narrow0 = arith.andi %sk_few, %sk_kfit : i1
%sk_narrow = arith.andi %sk_narrow0, %sk_spanfit : i1
%sk_fits0 = arith.andi %sk_enough, %sk_holds : i1
%sk_fits = arith.andi %sk_fits0, %sk_narrow : i1"""


def stream_k_share(indent, tile_elems):
    """The stream-K kernel's shape of work (tile::schedule::StreamKSchedule),
    from %total tiles, %ktiles k-steps per tile, the CTAs and the host's
    %shared_arg: the CTA's whole tiles (%mine_whole), its share [%u_lo,
    %u_hi) of the shared k-steps, the shared tile it starts in (%j_first)
    and its work tiles (%mine). A count the schedule cannot take (more than
    the tiles, fewer shared k-steps than CTAs, more than the workspace
    holds: a host other than the entries may pass anything) shares
    nothing."""
    text = f"""// The host's count of shared tiles, where the schedule and the
// workspace can take it; else every tile whole.
{stream_k_fits("%shared_arg", "%ktiles", tile_elems)}
%sk_some = arith.cmpi ule, %shared_arg, %total : index
%sk_ok = arith.andi %sk_some, %sk_fits : i1
%shared = arith.select %sk_ok, %shared_arg, %c0 : index
""" + f"""// Stream-K: the last %shared tiles are not taken whole; their k-steps,
// end to end, are cut into one share per CTA (tile::schedule::
// StreamKSchedule), so the CTAs finish together instead of the last wave
// leaving SMs idle. First the CTA's whole tiles: cta, cta + CTAs, ...
%whole_n = arith.subi %total, %shared : index
%has_whole = arith.cmpi ult, %cta, %whole_n : index
%wleft = arith.subi %whole_n, %cta : index
%wleft_up = arith.addi %wleft, %ctas1 : index
%wshare = arith.divui %wleft_up, %ctas : index
%mine_whole = arith.select %has_whole, %wshare, %c0 : index
// Then one piece per shared tile the share [u_lo, u_hi) touches.
%units = arith.muli %shared, %ktiles : index
%u_lo_n = arith.muli %cta, %units : index
{narrow_div("%u_lo", "%u_lo_n", "%ctas")}
%cta_next = arith.addi %cta, %c1 : index
%u_hi_n = arith.muli %cta_next, %units : index
{narrow_div("%u_hi", "%u_hi_n", "%ctas")}
%ktiles_nz = arith.maxui %ktiles, %c1 : index
%has_share = arith.cmpi ugt, %u_hi, %u_lo : index
%u_last = arith.subi %u_hi, %c1 : index
{narrow_div("%j_first", "%u_lo", "%ktiles_nz")}
{narrow_div("%j_last", "%u_last", "%ktiles_nz")}
%j_span = arith.subi %j_last, %j_first : index
%j_count = arith.addi %j_span, %c1 : index
%pieces = arith.select %has_share, %j_count, %c0 : index
%mine = arith.addi %mine_whole, %pieces : index"""
    return "".join(indent + line + "\n" for line in text.splitlines())


def stream_k_work_tile(indent, group_m, starts=True):
    """The stream-K kernel's t-th work tile: whole tile cta + t x CTAs, or
    the piece of shared tile %wj in the CTA's share; its k-steps
    [%k_first, %k_end) and, with `starts`, the output tile's starts %m0,
    %n0 in the grouped order."""
    text = """%is_piece = arith.cmpi uge, %t, %mine_whole : index
%wstride = arith.muli %t, %ctas : index
%lin_whole = arith.addi %cta, %wstride : index
%piece = arith.subi %t, %mine_whole : index
%wj = arith.addi %j_first, %piece : index
%lin_piece = arith.addi %whole_n, %wj : index
%lin = arith.select %is_piece, %lin_piece, %lin_whole : index
%j_start = arith.muli %wj, %ktiles : index
%j_end = arith.addi %j_start, %ktiles : index
%lo_abs = arith.maxui %u_lo, %j_start : index
%hi_abs = arith.minui %u_hi, %j_end : index
%lo_rel = arith.subi %lo_abs, %j_start : index
%hi_rel = arith.subi %hi_abs, %j_start : index
%k_first = arith.select %is_piece, %lo_rel, %c0 : index
%k_end = arith.select %is_piece, %hi_rel, %ktiles : index"""
    out = "".join(indent + line + "\n" for line in text.splitlines())
    return out + (starts_of("%lin", indent, group_m) + "\n" if starts else "")


def cta_of(next_unit, result):
    """`result` = StreamKSchedule::ctaOf(u), the CTA whose share holds
    shared k-step u, from `next_unit` = u + 1: ((u + 1) CTAs - 1) / units."""
    p = result[1:]
    return f"""%{p}_n = arith.muli {next_unit}, %ctas : index
%{p}_n1 = arith.subi %{p}_n, %c1 : index
{narrow_div(result, f"%{p}_n1", "%units_nz")}"""


def stream_k_pieces(indent):
    """A shared tile's pieces: the CTAs firstCta..lastCta
    (StreamKSchedule::ctaOf), %pieces_n of them; the CTA's piece of it
    combines through the workspace where there are two or more."""
    text = f"""// The CTAs whose shares touch shared tile wj: those of its first and
// last k-steps, and every one between.
%units_nz = arith.maxui %units, %c1 : index
%first_u = arith.muli %wj, %ktiles : index
%first_u1 = arith.addi %first_u, %c1 : index
{cta_of("%first_u1", "%cta_first")}
%last_u1 = arith.addi %first_u, %ktiles : index
{cta_of("%last_u1", "%cta_last")}
%cta_end = arith.addi %cta_last, %c1 : index
%pieces_n = arith.subi %cta_end, %cta_first : index
%shared_tile = arith.cmpi ugt, %pieces_n, %c1 : index
%splitting = arith.andi %is_piece, %shared_tile : i1"""
    return "".join(indent + line + "\n" for line in text.splitlines())


# Stream-K's kernel argument after the workspace: how many of the last tiles
# the CTAs share (0: every tile whole), the host's choice.
STREAM_K_DECL = ", %shared_arg: index"
STREAM_K_USE = ", %shared : index"


def stream_k_rule(bk, tile_elems, indent, tiles="%tiles"):
    """The host's %shared (tile::schedule::chooseStreamKTiles) for `tiles`
    output tiles on %ctas CTAs: the last partial wave (with one whole wave
    more where it is under half the CTAs), where its k-steps are at least
    the CTAs and the workspace holds ctas + shared partial tiles and shared
    counters; else 0."""
    text = f"""%sk_K = memref.dim %A, %c1 : !A
%sk_bk1 = arith.constant {bk - 1} : index
%sk_bk = arith.constant {bk} : index
%sk_kp = arith.addi %sk_K, %sk_bk1 : index
%sk_ksteps = arith.divui %sk_kp, %sk_bk : index
%sk_part = arith.remui {tiles}, %ctas : index
%sk_partial = arith.cmpi ne, %sk_part, %c0 : index
%sk_part2 = arith.addi %sk_part, %sk_part : index
%sk_small = arith.cmpi ult, %sk_part2, %ctas : index
%sk_plus = arith.addi %sk_part, %ctas : index
%sk_want = arith.select %sk_small, %sk_plus, %sk_part : index
{stream_k_fits("%sk_want", "%sk_ksteps", tile_elems)}
%sk_ok = arith.andi %sk_partial, %sk_fits : i1
%shared = arith.select %sk_ok, %sk_want, %c0 : index"""
    return "".join(indent + line + "\n" for line in text.splitlines())


# Split-K through a workspace (bf16 or FP8 output): the kernel's arguments
# after C and its scales. `partials` holds S f32 partial tiles per output
# tile, `counters` one i32 per output tile; the counters must be zero before
# the first launch, and every launch leaves them zero (a tile's last CTA
# resets its counter). One workspace per stream: launches that run at the
# same time must not share one.
WORKSPACE_PARAMS = [("%partials", "memref<?xf32>"), ("%counters", "memref<?xi32>")]
WORKSPACE_DECL = "".join(f", {name}: {ty}" for name, ty in WORKSPACE_PARAMS)
WORKSPACE_USE = "".join(f", {name} : {ty}" for name, ty in WORKSPACE_PARAMS)


def split_fits(gx, gy, want, tile_elems, result, indent):
    """The host's split count: `want` shares where the workspace holds
    gx x gy x want partial tiles of `tile_elems` values and gx x gy counters,
    else 1."""
    text = f"""%ws_tiles = arith.muli {gx}, {gy} : index
%ws_slots = arith.muli %ws_tiles, {want} : index
{workspace_holds("ws", "%ws_slots", "%ws_tiles", tile_elems)}
{result} = arith.select %ws_holds, {want}, %c1 : index"""
    return "".join(indent + line + "\n" for line in text.splitlines())


# The two ways CTAs share an output tile's k-steps through the workspace:
# where a CTA's partial goes, which counter it arrives on, how many arrive,
# and whose partials the last one adds (shares %zz in [lo, hi) but `me`;
# "oslot" computes share %zz's slot into %oslot, and emit_split_combine
# renames both names for each share of a trip).
SPLIT_K_SHARES = {
    "splitting": "%splitting = arith.cmpi ugt, %gz, %c1 : index",
    "slot": """%slot_first = arith.muli %pid, %gz : index
%slot = arith.addi %slot_first, %bz : index""",
    "counter": "%pid", "arrivals": "%gz", "lo": "%c0", "hi": "%gz",
    "me": "%bz", "oslot": "%oslot = arith.addi %slot_first, %zz : index",
}
STREAM_K_SHARES = {
    "splitting": None,  # stream_k_pieces computes it
    "slot": "%slot = arith.addi %cta, %wj : index",
    "counter": "%wj", "arrivals": "%pieces_n", "lo": "%cta_first",
    "hi": "%cta_end", "me": "%cta",
    "oslot": "%oslot = arith.addi %zz, %wj : index",
}


# The shares whose partials the last CTA of a tile loads in one trip of its
# combine loop, all before the trip's additions, and the most values a
# thread loads in a trip: read one share a trip, each share's loads wait out
# a device-memory round trip after the previous share's (seven in a row at
# eight shares; docs/gemm.md, "Decode rows: the tokens as wgmma's N").
COMBINE_SHARES = 4
COMBINE_LOADED = 128


def emit_split_combine(w, bn, consumers, shares=SPLIT_K_SHARES):
    """Split-K's (and stream-K's) combination, at the top of the epilogue
    (every consumer thread, its partial accumulator in %accum_part): each
    CTA writes its partial to its workspace slot (split-K: tile * S + share,
    tile::schedule::splitKSlot; stream-K: StreamKSchedule::slot) and arrives
    on the tile's counter; the last
    to arrive adds the other shares' partials to its own in increasing share
    order (splitKCombineOrder) and alone runs the epilogue (%last), with the
    sum in %accum. A slot holds the partial in fragment order: value group g
    (the thread's values 4g..4g+3) of consumer thread t at
    g x 4 x threads + 4t, so each warp's 16-byte accesses cover 512
    contiguous bytes."""
    threads = WG * consumers
    groups = bn // 8  # 4-value groups of the bn / 2 values per thread
    tile_elems = threads * bn // 2
    # Shares combined a trip: their loads in flight together, at most
    # COMBINE_LOADED values a thread.
    unroll = max(1, min(COMBINE_SHARES, COMBINE_LOADED // (bn // 2)))
    inner = []
    outer = w
    w = inner.append
    w(f"""        // Split-K: this CTA's partial tile to its workspace slot, then
        // the tile's counter; the last CTA of the tile combines.
        %ct_base = arith.muli %cidx, %cwg : index
        %ct = arith.addi %ct_base, %local : index
        %ct4 = arith.muli %ct, %c4 : index
{pad(shares["slot"], 8)}
        %tile_elems = arith.constant {tile_elems} : index
        %slot_at = arith.muli %slot, %tile_elems : index
        %mine_at = arith.addi %slot_at, %ct4 : index""")
    for g in range(groups):
        vals = ", ".join(f"%pv{4 * g + j}" for j in range(4))
        lines = [f"%pv{4 * g + j} = llvm.extractvalue %accum_part[{4 * g + j}] : !acc"
                 for j in range(4)]
        lines += [f"%pq{g} = vector.from_elements {vals} : vector<4xf32>",
                  f"%po{g} = arith.constant {4 * threads * g} : index",
                  f"%pa{g} = arith.addi %mine_at, %po{g} : index",
                  f"vector.store %pq{g}, %partials[%pa{g}] {{alignment = 16}} : memref<?xf32>, vector<4xf32>"]
        w("\n".join(" " * 8 + line for line in lines))
    w(f"""        // Every thread's partial is visible device-wide before the
        // arrival (fence, then the consumers' barrier).
        nvvm.memory.barrier #nvvm.mem_scope<gpu>
        %ws_bar = arith.constant 1 : i32
        %ws_threads = arith.constant {threads} : i32
        nvvm.barrier id = %ws_bar number_of_threads = %ws_threads
        %arriver = arith.cmpi eq, %tid, %cwg : index
        scf.if %arriver {{
          %one = arith.constant 1 : i32
          %arrived = memref.atomic_rmw addi %one, %counters[{shares["counter"]}] : (i32, memref<?xi32>) -> i32
          %arrivals_i = arith.index_cast {shares["arrivals"]} : index to i32
          %arrivals_last = arith.subi %arrivals_i, %one : i32
          %is_last = arith.cmpi eq, %arrived, %arrivals_last : i32
          // The last arrival resets the counter for the next launch.
          %zero_i = arith.constant 0 : i32
          scf.if %is_last {{
            memref.store %zero_i, %counters[{shares["counter"]}] : memref<?xi32>
            nvvm.memory.barrier #nvvm.mem_scope<gpu>
          }}
          %is_last_i = arith.extui %is_last : i1 to i32
          memref.store %is_last_i, %flag[%c0] : memref<4xi32, #gpu.address_space<workgroup>>
        }}
        nvvm.barrier id = %ws_bar number_of_threads = %ws_threads
        %last_i = memref.load %flag[%c0] : memref<4xi32, #gpu.address_space<workgroup>>
        %last_cta = arith.trunci %last_i : i32 to i1
        %combined = scf.if %last_cta -> (!acc) {{
          %c_unroll = arith.constant {unroll} : index
          %sum = scf.for %zz = {shares["lo"]} to {shares["hi"]} step %c_unroll iter_args(%s0 = %accum_part) -> (!acc) {{""")
    # `unroll` shares a trip, each share's loads issued before any of the
    # trip's additions: a share whose slot is past the range or is this
    # CTA's own reads this CTA's slot instead and its sum is not taken, so
    # the loads need no branch and the additions keep increasing share
    # order (splitKCombineOrder). With one share a trip (a wide tile's),
    # its loads and additions stay in a branch taken for the other shares
    # only, each group's loads just before its additions: as few values
    # live as the accumulator allows, and the CTA's own slot not read.
    for u in range(unroll):
        # The trip's first share is in the range (the loop's bound); the
        # others may be past it.
        if u == 0:
            zz, lines = "%zz", [f"%take0 = arith.cmpi ne, %zz, {shares['me']} : index"]
        else:
            zz = f"%zz_{u}"
            lines = [f"%cu{u} = arith.constant {u} : index",
                     f"{zz} = arith.addi %zz, %cu{u} : index",
                     f"%in{u} = arith.cmpi ult, {zz}, {shares['hi']} : index",
                     f"%ne{u} = arith.cmpi ne, {zz}, {shares['me']} : index",
                     f"%take{u} = arith.andi %in{u}, %ne{u} : i1"]
        lines += shares["oslot"].replace("%zz", zz).replace(
            "%oslot", f"%oslot{u}").splitlines()
        # In a trip of several shares a share not taken reads this CTA's
        # slot; a single share is read in its branch only.
        slot = f"%oslot{u}"
        if unroll > 1:
            slot = f"%pick{u}"
            lines.append(f"%pick{u} = arith.select %take{u}, %oslot{u}, %slot : index")
        lines += [f"%oslot_at{u} = arith.muli {slot}, %tile_elems : index",
                  f"%theirs_at{u} = arith.addi %oslot_at{u}, %ct4 : index"]
        w("\n".join(" " * 12 + line for line in lines))

    def loads(u, g):
        return [f"%qa{u}_{g} = arith.addi %theirs_at{u}, %po{g} : index",
                f"%qv{u}_{g} = vector.load %partials[%qa{u}_{g}] {{alignment = 16}} : memref<?xf32>, vector<4xf32>"]
    if unroll > 1:
        w("\n".join(" " * 12 + line for u in range(unroll)
                     for g in range(groups) for line in loads(u, g)))
    else:
        w("            %next = scf.if %take0 -> (!acc) {")
    prev = "%s0"
    for u in range(unroll):
        lines = []
        for g in range(groups):
            lines += loads(u, g) if unroll == 1 else []
            for j in range(4):
                v = 4 * g + j
                lines += [f"%qe{u}_{v} = vector.extract %qv{u}_{g}[{j}] : f32 from vector<4xf32>",
                          f"%qs{u}_{v} = llvm.extractvalue {prev}[{v}] : !acc",
                          f"%qt{u}_{v} = arith.addf %qs{u}_{v}, %qe{u}_{v} : f32"]
                if unroll > 1:
                    lines += [f"%qk{u}_{v} = arith.select %take{u}, %qt{u}_{v}, %qs{u}_{v} : f32",
                              f"%qi{u}_{v} = llvm.insertvalue %qk{u}_{v}, {prev}[{v}] : !acc"]
                else:
                    lines.append(f"%qi{u}_{v} = llvm.insertvalue %qt{u}_{v}, {prev}[{v}] : !acc")
                prev = f"%qi{u}_{v}"
        w("\n".join(" " * (12 if unroll > 1 else 14) + line for line in lines))
    if unroll == 1:
        w(f"""              scf.yield {prev} : !acc
            }} else {{
              scf.yield %s0 : !acc
            }}""")
        prev = "%next"
    w(f"""            scf.yield {prev} : !acc
          }}
          scf.yield %sum : !acc
        }} else {{
          scf.yield %accum_part : !acc
        }}
        scf.yield %combined, %last_cta : !acc, i1""")
    # Unsplit (one share, e.g. where the workspace is too small): no slot,
    # no counter.
    body = "\n".join(inner).splitlines()
    if shares["splitting"]:
        outer(pad(shares["splitting"], 8))
    outer("""        %accum, %last = scf.if %splitting -> (!acc, i1) {
""" + "\n".join("  " + line if line.strip() else line for line in body) + """
        } else {
          %whole = arith.constant true
          scf.yield %accum_part, %whole : !acc, i1
        }""")


def pad(text, n):
    """`text`'s lines indented by n spaces."""
    return "\n".join(" " * n + line for line in text.splitlines())


def zero_a_rows(stages, bm, bk, a_rows, ebytes):
    """Zeros in every stage's A rows from `a_rows` on, which its box does not
    load (they feed only C's rows past M, which no store writes; zeroed so
    that what the wgmmas read is defined), written once in 16-byte stores by
    every thread through a flat view of the stages, then made visible to
    the wgmmas (the async proxy) before any is issued. A stage's rows are 128 bytes each, and the 128B swizzle
    moves a row's 16-byte chunks within its own 128 bytes, so those rows are
    the stage's bytes from a_rows x 128 on."""
    row_chunks = bk * ebytes // 16
    return f"""      // A's box loads {a_rows} of the tile's {bm} rows: the others are zero.
      %za_view = tile.arena_view [0] : memref<{stages * bm * row_chunks}x4xi32, #gpu.address_space<workgroup>>
      %za_zero = arith.constant dense<0> : vector<4xi32>
      %za_first = arith.constant {a_rows * row_chunks} : index
      %za_stage_chunks = arith.constant {bm * row_chunks} : index
      %za_per_stage = arith.constant {(bm - a_rows) * row_chunks} : index
      %za_count = arith.constant {stages * (bm - a_rows) * row_chunks} : index
      %za_threads = gpu.block_dim x
      scf.for %za = %tid to %za_count step %za_threads {{
        %za_stage = arith.divui %za, %za_per_stage : index
        %za_in = arith.remui %za, %za_per_stage : index
        %za_base = arith.muli %za_stage, %za_stage_chunks : index
        %za_from = arith.addi %za_base, %za_first : index
        %za_chunk = arith.addi %za_from, %za_in : index
        vector.store %za_zero, %za_view[%za_chunk, %c0] : memref<{stages * bm * row_chunks}x4xi32, #gpu.address_space<workgroup>>, vector<4xi32>
      }}
      nvvm.fence.proxy {{kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}}
      gpu.barrier"""


def emit(bm=BM, bn=BN, bk=BK, stages=STAGES, group_m=GROUP_M,
         protocol="pipeline", registers=None, cluster=1, fp8=False,
         split_k=1, bf16_out=False, persistent=False, sms=None,
         swizzle_c=False, stream_k=False, pingpong=False,
         store_chunks=False, c_buffers=None, stagger=0, stmatrix=False,
         own_rows=False, in_flight=1, c_by_threads=False, a_rows=None,
         tokens_n=False):
    # Cooperative: each consumer warpgroup computes 64 rows of every tile.
    # Pingpong: two consumers take the tiles in turn, each computing all BM
    # rows of its tile into its own C tile, so one's epilogue overlaps the
    # other's main loop.
    consumers = 2 if pingpong else bm // 64
    if stream_k and registers is None:
        registers = STREAM_K_REGISTERS
    # FP8: e4m3 operands (1 byte: a 128-element K step fills the 128-byte
    # swizzle span, a wgmma k-step is 32 elements), per-tensor scales applied
    # to the f32 accumulator, bf16 output.
    elem, ebytes = ("f8E4M3FN", 1) if fp8 else ("bf16", 2)
    # bf16 output (always with FP8): the f32 accumulator scaled (alpha, or
    # FP8's scale_a * scale_b) and rounded, half the output traffic.
    bf16_out = bf16_out or fp8
    if pingpong and not (persistent and bf16_out and swizzle_c
                         and not stream_k and split_k == 1
                         and protocol == "pipeline"):
        raise ValueError("--pingpong is a persistent tile.pipeline kernel "
                         "with bf16 or FP8 output and --swizzle-c")
    if store_chunks and not (persistent and swizzle_c and not pingpong
                             and not stream_k and split_k == 1):
        raise ValueError("--store-chunks is a persistent cooperative kernel's "
                         "epilogue with --swizzle-c (no split-K or stream-K)")
    if stagger and not (store_chunks and bm == 128 and cluster <= 2
                        and protocol == "pipeline"
                        and 1 <= stagger <= stages - 2):
        raise ValueError("--stagger L: the consumers of a persistent 128-row "
                         "kernel with --store-chunks apart by L k-steps, "
                         f"1 to stages - 2 ({stages - 2})")
    if in_flight != 1 and protocol != "pipeline":
        raise ValueError("--in-flight is the tile.pipeline's in_flight (the "
                         "handwritten protocol keeps one group in flight)")
    # --own-rows applies where the two consumers of a 128-row tile store C
    # chunk by chunk (in --choose, those of its kernels); --stagger implies
    # it.
    halves = bool(stagger) or (own_rows and store_chunks and bm == 128
                               and not pingpong)
    # --stmatrix applies where C goes through swizzled bf16 chunks from a
    # cooperative persistent kernel of 64 or 128 rows (in --choose, those of
    # its kernels): the 192-row kernel's consumers, at 152 registers, spill
    # with it (its fallback version, 16 bytes).
    stmatrix = stmatrix and persistent and swizzle_c and not pingpong and (
        bf16_out or fp8) and bm <= 128
    if c_by_threads and not (store_chunks and c_buffers is not None
                             and not halves and split_k == 1):
        raise ValueError("--c-by-threads copies the C chunks of a persistent "
                         "cooperative kernel's ring (--store-chunks "
                         "--c-buffers N, without --own-rows)")
    if c_buffers is not None and not (store_chunks and 1 <= c_buffers):
        raise ValueError("--c-buffers N (at least 1) rings the chunks of "
                         "--store-chunks through N buffers")
    if pingpong and bm // 64 * bn > 256:
        raise ValueError(f"--pingpong: a consumer holds the whole {bm} x {bn} "
                         f"accumulator, {bm * bn // 128} registers per thread; "
                         "bm x bn at most 128 x 128")
    out_elem, obytes = ("bf16", 2) if bf16_out else ("f32", 4)
    # --a-rows R: A's box is R of a 64-row tile's rows, for M <= R (decode
    # rows): the copy engine takes as long to fill a box row past M with
    # zeros as to load one (round 121, docs/gemm.md, "Decode rows").
    if a_rows is not None and not (bm == 64 and protocol == "pipeline"
                                   and 8 <= a_rows < bm and a_rows % 8 == 0):
        raise ValueError(f"--a-rows {a_rows}: A's box rows of a 64-row "
                         "tile.pipeline kernel (--bm 64), a multiple of 8 "
                         "below 64")
    box_a = a_rows or bm
    # --tokens-n: C^T's tiles, for decode rows (M at most BN tokens): a
    # tile is 64 of Bt's rows (the weights', C's columns) as wgmma's M by BN
    # of A's rows (the tokens) as its N, so a stage holds 64 + BN box rows
    # where the decode kernel with A's box cut to 32 rows holds 32 + 64
    # (docs/gemm.md, "Decode rows: the tokens as wgmma's N"). The
    # accumulator goes to a plain BN x 64 C tile transposed. The kernel's
    # %m0 is the tile's first row of Bt, %n0 its first row of A.
    if tokens_n and not (bm == 64 and protocol == "pipeline"
                         and not persistent and cluster == 1
                         and a_rows is None and not stream_k
                         and not swizzle_c):
        raise ValueError("--tokens-n is a 64-row (--bm 64), one-CTA, "
                         "non-persistent tile.pipeline kernel with a plain "
                         "C tile (without --a-rows, --stream-k or "
                         "--swizzle-c)")
    if tokens_n and bn not in TOKENS_N:
        raise ValueError(f"--tokens-n: --bn {bn} is the tokens' width, "
                         "wgmma's N: one of " + ", ".join(map(str, TOKENS_N)))
    if not (8 <= bn <= 256 and bn % 8 == 0):
        raise ValueError(f"--bn {bn}: a tile is one wgmma's N wide, 8 to 256 "
                         "columns in multiples of 8")
    # --swizzle-c: C in 128-byte column chunks, the last one narrower where
    # the chunks do not divide BN (its TMA box narrower, its rows still 128
    # bytes apart, as the swizzle lays them out).
    chunk = 128 // obytes
    chunks = -(-bn // chunk)
    last_chunk = bn - (chunks - 1) * chunk
    if pingpong and last_chunk != chunk:
        raise ValueError(f"--pingpong: its C slots hold whole 128-byte "
                         f"chunks; --bn {bn} is not a multiple of {chunk}")
    kstep = 32 // ebytes
    threads = WG * (consumers + 1)
    acc = acc_type(bn)
    a_stage_bytes = bm * bk * ebytes
    b_stage_bytes = bn * bk * ebytes
    a_bytes = stages * a_stage_bytes
    b_bytes = stages * b_stage_bytes
    c_off = a_bytes + b_bytes
    # The C tiles: one, or one per consumer in turns.
    c_tiles = consumers if pingpong else 1
    c_bytes = c_tiles * bm * (chunks * 128 if swizzle_c else bn * obytes)
    # With --c-buffers, the chunks (128 bytes of each row) take turns in a
    # ring of that many chunk buffers, which leaves room for a stage more.
    ring = c_buffers is not None and c_buffers < chunks
    if ring and chunks % c_buffers:
        # Chunk j goes to buffer j mod N from every tile's first chunk on, so
        # the wait before it covers the previous tile's last store from that
        # buffer only where the chunks fill the ring a whole number of times.
        raise ValueError(f"--c-buffers {c_buffers}: the {chunks} "
                         f"chunks of a {bn}-column C tile do not fill a ring "
                         f"of {c_buffers} a whole number of times")
    if ring:
        c_bytes = c_buffers * bm * 128
    # Without room for a separate C tile, it reuses the stages once every
    # consumer's last wgmma has completed (a consumer barrier first).
    alias_c = c_off + c_bytes > 232448
    if alias_c and persistent:
        # The producer loads the next tile's stages while the epilogue
        # writes C, so C needs its own buffer.
        raise ValueError(
            f"a persistent {bm} x {bn} kernel needs {c_off + c_bytes}"
            " bytes of shared memory (stages and a C tile); use --bf16-out, "
            "fewer --stages, a smaller --bn or C through a ring of chunk "
            "buffers (--store-chunks --c-buffers 2)")
    if alias_c:
        c_off = 0
    smem = max(c_off + c_bytes, a_bytes + b_bytes)
    # Split-K with bf16 (or FP8) output: the shares' f32 partial tiles meet in
    # a workspace and the tile's last CTA combines them (no reduce-add into a
    # bf16 C). Its CTA-wide "last" flag lives in one word past the C tile.
    if stream_k and not (persistent and bf16_out and cluster == 1
                         and split_k == 1 and protocol == "pipeline"):
        raise ValueError("stream-K is a persistent one-CTA tile.pipeline "
                         "kernel with bf16 or FP8 output (its partial tiles "
                         "meet in a workspace)")
    workspace = (split_k > 1 or stream_k) and bf16_out
    if split_k > 1 and workspace and (persistent or cluster > 1
                                      or protocol != "pipeline"):
        raise ValueError("split-K through a workspace is a one-CTA, "
                         "non-persistent tile.pipeline kernel")
    flag_off = (smem + 15) // 16 * 16
    if workspace:
        smem = flag_off + 16
    ksteps = bk // kstep
    ws = "#gpu.address_space<workgroup>"
    la = f"#tile.layout<({stages}, {bm}, {bk}) : ({bm * bk}, {bk}, 1), swizzle = 128B>"
    lb = f"#tile.layout<({stages}, {bn}, {bk}) : ({bn * bk}, {bk}, 1), swizzle = 128B>"
    ta = f"memref<{bm}x{bk}x{elem}, #tile.layout<({bm}, {bk}) : ({bk}, 1), swizzle = 128B>, {ws}>"
    tb = f"memref<{bn}x{bk}x{elem}, #tile.layout<({bn}, {bk}) : ({bk}, 1), swizzle = 128B>, {ws}>"
    reuse = ("""        // The C tile reuses the stages: wait until both consumers are done
        // reading them.
        %reuse_id = arith.constant 1 : i32
        %reuse_threads = arith.constant """ + str(WG * consumers) + """ : i32
        nvvm.barrier id = %reuse_id number_of_threads = %reuse_threads
""") if alias_c else ""
    # The K offsets of the wgmma steps inside a stage.
    kconsts = "\n".join(f"      %kc{j} = arith.constant {kstep * j} : index"
                         for j in range(ksteps))
    if persistent:
        raster = persistent_walk(bm, bn, cluster)
        if not stream_k:
            raster += "\n" + persistent_share(" " * 6)
    elif cluster == 1:
        raster = f"""      // Grouped tile order: consecutive CTAs walk {group_m} tile rows down one
      // tile column before moving right, so the A and B tiles they share stay
      // in L2.
      %pid0 = arith.muli %by, %gx : index
      %pid = arith.addi %pid0, %bx : index
""" + grouped_order("%pid", "%gx", "%pid_m", "%pid_n", group_m)
    else:
        raster = f"""      // Clusters of {cluster} CTAs along x share one B tile (the pipeline
      // multicasts it) and take {cluster} consecutive tile rows. The grouped
      // order walks clusters: {group_m} cluster rows down one tile column,
      // then right. The grid is ({cluster} x tile columns, cluster rows); a
      // CTA past the last tile row loads zeros and stores nothing.
      %ccl = arith.constant {cluster} : index
      %pid0 = arith.muli %by, %gx : index
      %pid = arith.addi %pid0, %bx : index
      %pair = arith.divui %pid, %ccl : index
      %member = arith.remui %pid, %ccl : index
      %gxp = arith.divui %gx, %ccl : index
""" + grouped_order("%pair", "%gxp", "%pair_m", "%pid_n", group_m) + """
      %pid_mc = arith.muli %pair_m, %ccl : index
      %pid_m = arith.addi %pid_mc, %member : index"""
    # Split-K: grid z splits the K steps (tile::schedule::splitKRange); with
    # f32 output each split adds its partial tile into C with a TMA
    # reduce-add store (C zeroed first by the host), with bf16 output the
    # partials meet in the workspace (below).
    split = """      %ktiles = arith.divui %k63, %cbk : index""" + (
        "\n" + stream_k_share(" " * 6, bm * bn).rstrip("\n") if stream_k
        else ""
    ) if split_k == 1 else """      %ktiles_all = arith.divui %k63, %cbk : index
      // Split-K: this CTA's share [lo, hi) of the K steps.
      %bz = gpu.block_id z
      %gz = gpu.grid_dim z
      %lo_n = arith.muli %bz, %ktiles_all : index
      %kt_lo = arith.divui %lo_n, %gz : index
      %bz1 = arith.addi %bz, %c1 : index
      %hi_n = arith.muli %bz1, %ktiles_all : index
      %kt_hi = arith.divui %hi_n, %gz : index
      %ktiles = arith.subi %kt_hi, %kt_lo : index"""
    # The C tile: plain row-major (its fragment stores conflict 8-way on the
    # banks), or with --swizzle-c in 128-byte column chunks, 128B-swizzled
    # (conflict-free), each stored by its own TMA store. Fragment pairs go in
    # as one packed word through a second view of the same bytes.
    packed = "i32" if obytes == 2 else "i64"
    c_types = ""
    c_views = f"      %sc = tile.arena_view [{c_off}] : !tileC"
    if swizzle_c:
        sw = ", swizzle = 128B>"
        c_types = (f"\n!tileCs = memref<{bm}x{chunk}x{out_elem}, #tile.layout<"
                   f"({bm}, {chunk}) : ({chunk}, 1){sw}, {ws}>\n"
                   f"!tileCp = memref<{bm}x{chunk // 2}x{packed}, #tile.layout<"
                   f"({bm}, {chunk // 2}) : ({chunk // 2}, 1){sw}, {ws}>")
        c_views = "\n".join(
            f"      %sc{j} = tile.arena_view [{c_off + j * bm * 128}] : !tileCs\n"
            f"      %scp{j} = tile.arena_view [{c_off + j * bm * 128}] : !tileCp"
            for j in range(c_buffers if ring else chunks))
        if pingpong:
            # Chunk j of consumer c's C tile: slot c of a buffer whose slots
            # lie one C tile apart.
            c_types += (
                f"\n!slotsCs = memref<{c_tiles}x{bm}x{chunk}x{out_elem}, #tile.layout<"
                f"({c_tiles}, {bm}, {chunk}) : ({bm * bn}, {chunk}, 1){sw}, {ws}>\n"
                f"!slotsCp = memref<{c_tiles}x{bm}x{chunk // 2}x{packed}, #tile.layout<"
                f"({c_tiles}, {bm}, {chunk // 2}) : ({bm * bn // 2}, {chunk // 2}, 1){sw}, {ws}>")
            c_views = "\n".join(
                f"      %scs{j} = tile.arena_view [{c_off + j * bm * 128}] : !slotsCs\n"
                f"      %scps{j} = tile.arena_view [{c_off + j * bm * 128}] : !slotsCp"
                for j in range(chunks))
    c_shape = f"{bn}x{bm}" if tokens_n else f"{bm}x{bn}"
    out = []
    w = out.append
    what = ("C = scale_a * scale_b * (A @ Bt^T), e4m3 inputs, f32 "
            "accumulation, bf16 output" if fp8 else
            "C = alpha * (A @ Bt^T) in bf16 with f32 accumulation, bf16 output"
            if bf16_out else "C = A @ Bt^T in bf16 with f32 accumulation")
    if tokens_n:
        what += f"; tiles of C^T, {bm} of Bt's rows by {bn} of A's"
    scale_decl = (", %scale_a: memref<1xf32>, %scale_b: memref<1xf32>"
                  if fp8 else ", %alpha: f32" if bf16_out else "")
    scale_use = (", %scale_a : memref<1xf32>, %scale_b : memref<1xf32>"
                 if fp8 else ", %alpha : f32" if bf16_out else "")
    if workspace:
        scale_decl += WORKSPACE_DECL
        scale_use += WORKSPACE_USE
    # The kernel's arguments: the entry's, then stream-K's choice.
    kernel_decl = scale_decl + (STREAM_K_DECL if stream_k else "")
    scale_use += STREAM_K_USE if stream_k else ""
    w(f"""// Generated by examples/gemm/gen_gemm.py (BM={bm}, BN={bn}, BK={bk}, {stages} stages, groups of {group_m}):
// {what}, for run-time M, N, K.
// See docs/gemm.md.

!A = memref<?x?x{elem}>
!Bt = memref<?x?x{elem}>
!C = memref<?x?x{out_elem}>
!stagesA = memref<{stages}x{bm}x{bk}x{elem}, {la}, {ws}>
!stagesB = memref<{stages}x{bn}x{bk}x{elem}, {lb}, {ws}>
!tileA = {ta}
!tileB = {tb}
!tileC = memref<{c_shape}x{out_elem}, {ws}>{c_types}
!bars = !nvgpu.mbarrier.group<memorySpace = {ws}, num_barriers = {stages}>
!acc = {acc}

module attributes {{gpu.container_module}} {{
  gpu.module @gemm_kernels {{
    gpu.func @gemm(%A: !A, %Bt: !Bt, %C: !C{kernel_decl}) kernel {{
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c63 = arith.constant {bk - 1} : index
      %c64 = arith.constant 64 : index
      %cwg = arith.constant {WG} : index
      %cstages = arith.constant {stages} : index
      %cbk = arith.constant {bk} : index
      %cbm = arith.constant {bm} : index
      %cbn = arith.constant {bn} : index
{kconsts}
      %tid = gpu.thread_id x
{"" if persistent else GRID_IDS}{raster}
{"" if persistent else TILE_STARTS}
      %K = memref.dim %A, %c1 : !A
      %k63 = arith.addi %K, %c63 : index
{split}
      %sa = tile.arena_view [0] : !stagesA
      %sb = tile.arena_view [{a_bytes}] : !stagesB
{c_views}""")
    if workspace:
        w(f"""      %flag = tile.arena_view [{flag_off}] : memref<4xi32, {ws}>""")
    if a_rows is not None:
        w(zero_a_rows(stages, bm, bk, a_rows, ebytes))
    if protocol == "pipeline":
        emit_pipeline_loop(w, bm, bn, bk, consumers, ksteps, registers,
                           cluster, fp8, split_k, persistent, group_m,
                           "%accum_part" if workspace else "%accum",
                           stream_k, pingpong, stagger, in_flight, box_a,
                           tokens_n)
    else:
        emit_handwritten_loop(w, bm, bn, bk, consumers, ksteps, fp8)
    if stream_k:
        # The work tile, and whether its piece combines through the
        # workspace, before the combination.
        w(stream_k_work_tile(" " * 8, group_m).rstrip("\n"))
        w(stream_k_pieces(" " * 8).rstrip("\n"))
    # The threads that write a C tile, their named barrier and the thread
    # that stores it: the consumers together, or in turns each consumer
    # alone (barrier 1 + its index) with its C tile.
    own_group = f"""        %cidx32 = arith.index_cast %cidx : index to i32
        %c1_i32 = arith.constant 1 : i32
        %c_bar = arith.addi %cidx32, %c1_i32 : i32
        %c_threads = arith.constant {WG} : i32
        %storer = arith.cmpi eq, %local, %c0 : index
"""
    if pingpong:
        c_group = own_group + "\n".join(
            f"""        %sc{j} = tile.stage %scs{j}[%cidx] : !slotsCs -> !tileCs
        %scp{j} = tile.stage %scps{j}[%cidx] : !slotsCp -> !tileCp"""
            for j in range(chunks))
    elif halves:
        # Each consumer writes and stores its own 64 rows, with its own
        # named barrier (1 + its index) and storing thread.
        c_group = own_group + \
            "        %upper = arith.cmpi eq, %cidx, %c0 : index"
    else:
        c_group = f"""        %c_bar = arith.constant 1 : i32
        %c_threads = arith.constant {WG * consumers} : i32
        %storer = arith.cmpi eq, %tid, %cwg : index"""
        if c_by_threads:
            # The consumer thread's index, and C's own bounds (the copy
            # clips at them, as the TMA store did).
            c_group += f"""
        %cthread = arith.subi %tid, %cwg : index
        %cthreads = arith.constant {WG * consumers} : index
        %c_rows = memref.dim %C, %c0 : !C
        %c_cols = memref.dim %C, %c1 : !C"""
    if ring:
        # Each chunk waits for its buffer (below).
        w(c_group)
    elif persistent:
        w(c_group + """
        // The C tile is free once the previous tile's store has read it.
        scf.if %storer {
          tile.bulk_wait_group 0 {read}
        }
        nvvm.barrier id = %c_bar number_of_threads = %c_threads""")
    if workspace:
        emit_split_combine(w, bn, consumers,
                           STREAM_K_SHARES if stream_k else SPLIT_K_SHARES)
    epilogue_start = len(out)
    w(f"""{reuse}        // Epilogue: accumulator fragments (PTX wgmma D layout: warp w holds
        // rows 16w..16w+15; lane l rows l/4 and l/4 + 8, columns
        // 8i + 2(l%4) + 0..1) to the shared C tile, then one TMA store.
{fragment_rows(" " * 8)}
        %col0 = arith.muli %lcol, %c2 : index""")
    lcol = "%lcol"
    if persistent and swizzle_c:
        # The lane's pair column, taken through the tile index (the minimum
        # is always lane % 4): otherwise LLVM hoists the stores' swizzled
        # offsets, which depend on the thread alone, out of the tile loop,
        # and the consumers hold them in registers through the main loop.
        w("""        %c4_t = arith.constant 4 : index
        %t_bound = arith.addi %t, %c4_t : index
        %lcol_tile = arith.minui %lcol, %t_bound : index""")
        lcol = "%lcol_tile"
    if fp8:
        w("""        // The per-tensor scales, applied to the f32 accumulator.
        %sa0 = memref.load %scale_a[%c0] : memref<1xf32>
        %sb0 = memref.load %scale_b[%c0] : memref<1xf32>
        %alpha = arith.mulf %sa0, %sb0 : f32""")
    # The 64-row blocks a consumer writes: its own, or in turns all of them
    # (block b's rows 64b on, from accumulator %accum_<b>).
    blocks = [("", "%r0", "%r1")]
    if pingpong:
        blocks = [("_0", "%r0", "%r1")] + [
            (f"_{b}", f"%r0_{b}", f"%r1_{b}") for b in range(1, bm // 64)]
        for b, (tag, r0, r1) in enumerate(blocks[1:], 1):
            w(f"""        %rb{tag} = arith.constant {64 * b} : index
        {r0} = arith.addi %r0, %rb{tag} : index
        {r1} = arith.addi %r1, %rb{tag} : index""")
    buffers = c_buffers if ring else chunks
    if store_chunks:
        # Each chunk stored as soon as it is written: its TMA store runs
        # while the consumers write the next chunks.
        w(work_tile(" " * 8, group_m, cluster))
    if stmatrix:
        # The warp's first row, through the tile index (the minimum is
        # always the row) for the reason of %lcol_tile above.
        w(f"""        %cbm_t = arith.constant {bm} : index
        %wrow_bound = arith.addi %t, %cbm_t : index
        %wrow_tile = arith.minui %r0a, %wrow_bound : index""")
    for i in range(bn // 8) if swizzle_c else ():
        # Columns 8i + 2(l%4) + 0..1: the pair (l%4) + (8i % chunk) / 2 of
        # chunk 8i / chunk.
        j, pair = 8 * i // chunk, (8 * i % chunk) // 2
        if store_chunks and i > 0 and pair == 0:
            emit_chunk_store(w, j - 1, bm, chunk, buffers, ring, chunk,
                             halves=halves, by_threads=c_by_threads,
                             threads=WG * consumers)
        if ring and pair == 0:
            # Buffer j % N is free once at most N - 1 chunk stores (the
            # ones after its last) are still reading. Every consumer thread
            # waits (a thread without bulk groups passes at once), so that
            # tile-verify-async sees the wait on each thread's path.
            # With --c-by-threads no bulk group to wait for: the barrier
            # alone (every thread has read the buffer's last chunk before
            # it). With two buffers or more the copy's own barrier of the
            # chunk in between already orders that; the barrier stays, as
            # measured (round 99).
            if not c_by_threads:
                w(f"        tile.bulk_wait_group {c_buffers - 1} {{read}}")
            w("        nvvm.barrier id = %c_bar number_of_threads = %c_threads")
        if stmatrix and i % 2 == 1:
            continue  # stored with column group i - 1
        if stmatrix and i + 1 < bn // 8:
            # Column groups i and i + 1: the warp's 16 x 16 block.
            w(fragment_store(i, f"%sc{j % buffers}", 8 * i % chunk))
            continue
        w(f"""        %cp{i} = arith.constant {pair} : index
        %pc{i} = arith.addi {lcol}, %cp{i} : index""")
        for tag, r0, r1 in blocks:
            for h, row in ((0, r0), (1, r1)):
                v, x = 4 * i + 2 * h, tag
                if bf16_out:
                    w(f"""        %v{v}{x} = llvm.extractvalue %accum{x}[{v}] : !acc
        %v{v + 1}{x} = llvm.extractvalue %accum{x}[{v + 1}] : !acc
        %s{v}{x} = arith.mulf %v{v}{x}, %alpha : f32
        %s{v + 1}{x} = arith.mulf %v{v + 1}{x}, %alpha : f32
        %h{v}{x} = arith.truncf %s{v}{x} : f32 to bf16
        %h{v + 1}{x} = arith.truncf %s{v + 1}{x} : f32 to bf16
        %p{v}{x} = vector.from_elements %h{v}{x}, %h{v + 1}{x} : vector<2xbf16>""")
                else:
                    w(f"""        %v{v}{x} = llvm.extractvalue %accum{x}[{v}] : !acc
        %v{v + 1}{x} = llvm.extractvalue %accum{x}[{v + 1}] : !acc
        %p{v}{x} = vector.from_elements %v{v}{x}, %v{v + 1}{x} : vector<2x{out_elem}>""")
                w(f"""        %b{v}{x} = vector.bitcast %p{v}{x} : vector<2x{out_elem}> to vector<1x{packed}>
        %w{v}{x} = vector.extract %b{v}{x}[0] : {packed} from vector<1x{packed}>
        memref.store %w{v}{x}, %scp{j % buffers if swizzle_c else j}[{row}, %pc{i}] : !tileCp""")
    if store_chunks:
        emit_chunk_store(w, chunks - 1, bm, chunk, buffers, ring, last_chunk,
                         last=True, halves=halves, by_threads=c_by_threads,
                         threads=WG * consumers)
    for i in range(0 if swizzle_c else bn // 8):
        w(f"""        %cc{i} = arith.constant {8 * i} : index
        %col{i}_0 = arith.addi %col0, %cc{i} : index
        %col{i}_1 = arith.addi %col{i}_0, %c1 : index""")
        for q in range(4):
            v = 4 * i + q
            row = "%r0" if q < 2 else "%r1"
            col = f"%col{i}_{q % 2}"
            if tokens_n:
                row, col = col, row  # C^T: the token is C's row
            if bf16_out:
                w(f"""        %v{v} = llvm.extractvalue %accum[{v}] : !acc
        %s{v} = arith.mulf %v{v}, %alpha : f32
        %h{v} = arith.truncf %s{v} : f32 to bf16
        memref.store %h{v}, %sc[{row}, {col}] : !tileC""")
            else:
                w(f"""        %v{v} = llvm.extractvalue %accum[{v}] : !acc
        memref.store %v{v}, %sc[{row}, {col}] : !tileC""")
    # The host entries' grid: one CTA per BM x BN tile of C (of C^T with
    # --tokens-n: its rows are Bt's).
    dims = ("""    %M = memref.dim %A, %c0 : !A
    %N = memref.dim %Bt, %c0 : !Bt
""")
    if tokens_n:
        dims = ("""    // C^T's tiles: rows over Bt's rows, columns over A's.
    %M = memref.dim %Bt, %c0 : !Bt
    %N = memref.dim %A, %c0 : !A
""")
    grid = f"""    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cbm1 = arith.constant {bm - 1} : index
    %cbn1 = arith.constant {bn - 1} : index
    %cbm = arith.constant {bm} : index
    %cbn = arith.constant {bn} : index
    %threads = arith.constant {threads} : index
    %smem = arith.constant {smem} : i32
{dims}    %mp = arith.addi %M, %cbm1 : index
    %gy = arith.divui %mp, %cbm : index
    %np = arith.addi %N, %cbn1 : index
    %gx = arith.divui %np, %cbn : index
"""
    launch_grid = "blocks in (%gx, %gy, %c1)"
    if persistent and cluster > 1:
        grid += persistent_cluster_ctas("%gx", "%gy", sms or SMS, cluster,
                                        " " * 4)
        launch_grid = "clusters in (%ccl, %c1, %c1) blocks in (%ctas, %c1, %c1)"
    elif persistent:
        grid += persistent_ctas("%gx", "%gy", sms or SMS, "%tiles", " " * 4)
        launch_grid = "blocks in (%ctas, %c1, %c1)"
    if stream_k:
        grid += stream_k_rule(bk, bm * bn, " " * 4)
    if split_k > 1:
        grid += f"""    %csplit = arith.constant {split_k} : index
"""
        launch_grid = "blocks in (%gx, %gy, %csplit)"
    if workspace and not stream_k:
        # The S shares need S partial tiles per tile and a counter per tile;
        # with a smaller workspace the kernel runs unsplit.
        grid += split_fits("%gx", "%gy", "%csplit", bm * bn, "%splits", " " * 4)
        launch_grid = "blocks in (%gx, %gy, %splits)"
    if cluster > 1 and not persistent:
        grid += f"""    %ccl = arith.constant {cluster} : index
    %ccl1 = arith.constant {cluster - 1} : index
    %gxc = arith.muli %gx, %ccl : index
    %gyp = arith.addi %gy, %ccl1 : index
    %gyc = arith.divui %gyp, %ccl : index
"""
        launch_grid = "clusters in (%ccl, %c1, %c1) blocks in (%gxc, %gyc, %c1)"
    end_consumers = "        tile.yield\n" if protocol == "pipeline" else ""
    reduce = ' {reduce = "add"}' if split_k > 1 and not workspace else ""
    # The store; a persistent kernel leaves it in flight while the next tile
    # runs (the epilogue waits for its read before reusing the C tile) and
    # waits for the last one before exiting.
    stores = f"""          tile.copy_async %C[%m0, %n0] [{bm}, {bn}], %sc[0, 0] [{bm}, {bn}]{reduce} : !C, !tileC"""
    if tokens_n:
        stores = f"""          tile.copy_async %C[%n0, %m0] [{bn}, {bm}], %sc[0, 0] [{bn}, {bm}]{reduce} : !C, !tileC"""
    if swizzle_c:
        stores = "\n".join(
            chunk_store(j, bm, chunk, last_chunk if j == chunks - 1 else chunk,
                        f"%sc{j}", reduce)
            for j in range(chunks))
    store = f"""        %storer = arith.cmpi eq, %tid, %cwg : index
        scf.if %storer {{
{stores}
          tile.bulk_commit_group
          tile.bulk_wait_group 0
        }}
"""
    drain = ""
    if persistent:
        starts = ("" if stream_k
                  else work_tile(" " * 8, group_m, cluster) + "\n")
        store = f"""{starts}        scf.if %storer {{
{stores}
          tile.bulk_commit_group
        }}
"""
        drain = """      %last_storer = arith.cmpi eq, %tid, %cwg : index
      scf.if %last_storer {
        tile.bulk_wait_group 0
      }
"""
        if pingpong or halves:
            # Each consumer's first thread stored its own tiles (or rows).
            drain = """      %last_first = arith.cmpi eq, %local, %c0 : index
      %last_consumer = arith.cmpi uge, %tid, %cwg : index
      %last_storer = arith.andi %last_first, %last_consumer : i1
      scf.if %last_storer {
        tile.bulk_wait_group 0
      }
"""
    # Split-K adds into C: the host zeroes it first, on the launch's stream.
    zero_async, after = "", "%stream"
    if split_k > 1 and not workspace:
        zero_async = """    %f0 = arith.constant 0.0 : f32
    %zeroed = gpu.memset async [%stream] %C, %f0 : !C, f32
"""
        after = "%zeroed"
    sync_launch = f"""    gpu.launch_func @gemm_kernels::@gemm
        {launch_grid} threads in (%threads, %c1, %c1)
        dynamic_shared_memory_size %smem
        args(%A : !A, %Bt : !Bt, %C : !C{scale_use})
"""
    if split_k > 1 and not workspace:
        sync_launch = f"""    %s0 = gpu.wait async
    %f0 = arith.constant 0.0 : f32
    %zeroed = gpu.memset async [%s0] %C, %f0 : !C, f32
    %done = gpu.launch_func async [%zeroed] @gemm_kernels::@gemm
        {launch_grid} threads in (%threads, %c1, %c1)
        dynamic_shared_memory_size %smem
        args(%A : !A, %Bt : !Bt, %C : !C{scale_use})
    gpu.wait [%done]
"""
    # The C tile's writers meet before its store (a persistent kernel named
    # them with the free-tile wait).
    barrier = ("        nvvm.barrier id = %c_bar number_of_threads = %c_threads"
               if persistent else f"""        %barrier_id = arith.constant 1 : i32
        %consumer_threads = arith.constant {WG * consumers} : i32
        nvvm.barrier id = %barrier_id number_of_threads = %consumer_threads""")
    if not store_chunks:
        w(f"""        // Generic-proxy writes, then the async proxy (TMA) reads them.
        nvvm.fence.proxy {{kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}}
{barrier}
{store}""".rstrip("\n"))
    if workspace:
        # Only the tile's last CTA runs the epilogue.
        body = "\n".join(out[epilogue_start:]).splitlines()
        del out[epilogue_start:]
        w("        scf.if %last {\n" + "\n".join(
            "  " + line if line.strip() else line for line in body)
          + "\n        }")
    w(f"""{end_consumers}      }}
{drain}      gpu.return
    }}
  }}

  // C = A @ Bt^T, launched on `stream` (no synchronisation); the token
  // returned is `stream` itself.
  func.func @gemm_async(%A: !A, %Bt: !Bt, %C: !C{scale_decl}, %stream: !gpu.async.token)
      -> !gpu.async.token attributes {{llvm.emit_c_interface}} {{
{grid}{NONEMPTY_C}    scf.if %run {{
{indent(zero_async)}      %done = gpu.launch_func async [{after}] @gemm_kernels::@gemm
          {launch_grid} threads in (%threads, %c1, %c1)
          dynamic_shared_memory_size %smem
          args(%A : !A, %Bt : !Bt, %C : !C{scale_use})
    }}
    return %stream : !gpu.async.token
  }}

  // The same, synchronous: returns when C is written.
  func.func @gemm(%A: !A, %Bt: !Bt, %C: !C{scale_decl}) attributes {{llvm.emit_c_interface}} {{
{grid}{NONEMPTY_C}    scf.if %run {{
{indent(sync_launch)}    }}
    return
  }}
}}""")
    return "\n".join(out) + "\n"



# The single-kernel entries launch only where C has elements: a grid of no
# tile rows or columns is a launch the driver refuses.
NONEMPTY_C = """    // An empty C (M or N = 0) needs no launch.
    %mn_least = arith.minui %M, %N : index
    %run = arith.cmpi ne, %mn_least, %c0 : index
"""


def indent(text):
    """pad(text, 2) for lines that end in newlines (empty stays empty)."""
    return pad(text, 2) + "\n" if text else ""


def chunk_store(j, bm, chunk, width, buffer, reduce=""):
    """The TMA store of C chunk j (columns j x `chunk` on, `width` of them:
    fewer in a last chunk that BN does not fill) from `buffer`, as lines of
    the storing thread's branch."""
    return f"""          %cn{j} = arith.constant {j * chunk} : index
          %n0_{j} = arith.addi %n0, %cn{j} : index
          tile.copy_async %C[%m0, %n0_{j}] [{bm}, {width}], {buffer}[0, 0] [{bm}, {width}]{reduce} : !C, !tileCs"""


def fragment_store(i, buffer, col):
    """--stmatrix: the warp's 16 x 16 block of column groups i and i + 1
    (accumulator values 4i .. 4i + 7), scaled by alpha, rounded to bf16 and
    stored by one tile.wgmma_store_fragment to `buffer` at the warp's first
    row and column `col`."""
    values = range(4 * i, 4 * i + 8)
    lines = [f"        %fc{i} = arith.constant {col} : index"]
    lines += [f"        %v{k} = llvm.extractvalue %accum[{k}] : !acc" for k in values]
    lines += [f"        %s{k} = arith.mulf %v{k}, %alpha : f32" for k in values]
    lines += [f"        %h{k} = arith.truncf %s{k} : f32 to bf16" for k in values]
    lines.append(f"        %f{i} = vector.from_elements "
                 + ", ".join(f"%h{k}" for k in values) + " : vector<8xbf16>")
    lines.append(f"        tile.wgmma_store_fragment %f{i}, {buffer}[%wrow_tile, %fc{i}]"
                 " : vector<8xbf16>, !tileCs")
    return "\n".join(lines)


def half_chunk_store(j, chunk, width, buffer):
    """The TMA store of C chunk j's 64 rows of this consumer (--own-rows: the
    upper rows from consumer 0, the lower from consumer 1), as lines of its
    storing thread's branch."""
    box = f"[64, {width}]"
    return f"""          %cn{j} = arith.constant {j * chunk} : index
          %n0_{j} = arith.addi %n0, %cn{j} : index
          scf.if %upper {{
            tile.copy_async %C[%m0, %n0_{j}] {box}, {buffer}[0, 0] {box} : !C, !tileCs
          }} else {{
            %m0_{j}_low = arith.addi %m0, %c64 : index
            tile.copy_async %C[%m0_{j}_low, %n0_{j}] {box}, {buffer}[64, 0] {box} : !C, !tileCs
          }}"""


def emit_chunk_store(w, j, bm, chunk, buffers, ring, width, last=False,
                     halves=False, by_threads=False, threads=2 * WG):
    """The persistent cooperative epilogue's store of C chunk j (--store-
    chunks; `width` of its `chunk` columns, fewer in a last chunk that BN
    does not fill) from buffer j % `buffers`: the consumers' writes of it made
    visible to the async proxy, then its TMA store by the storing thread.
    The last chunk's closes the tile's bulk group; in a ring of buffers
    (`ring`) each chunk's store is a group of its own, which the ring waits
    for apart. With `by_threads` (--c-by-threads) the consumer threads copy
    the chunk to C themselves instead, element by element."""
    if by_threads:
        w(threads_chunk_store(j, bm, chunk, width, f"%sc{j % buffers}",
                              threads))
        return
    w(f"""        nvvm.fence.proxy {{kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}}
        nvvm.barrier id = %c_bar number_of_threads = %c_threads
        scf.if %storer {{
{(half_chunk_store(j, chunk, width, f"%sc{j % buffers}") if halves
  else chunk_store(j, bm, chunk, width, f"%sc{j % buffers}"))}""")
    if last and not ring:
        w("          tile.bulk_commit_group")
    w("        }")
    if ring:
        # Every consumer thread commits (an empty group but the storing
        # thread's), so the groups line up on every thread's path for the
        # ring's waits and for tile-verify-async.
        w("        tile.bulk_commit_group")


def threads_chunk_store(j, bm, chunk, width, buffer, threads):
    """--c-by-threads: C chunk j (columns j x `chunk` on, `width` of them)
    copied from `buffer` to C by the consumer threads once all have written
    it (their barrier): consumer thread t takes elements t, t + threads, ...
    in row-major order, so a warp's stores cover 32 consecutive columns of a
    row, each element inside C stored alone (C's rows need no alignment and
    no tensor map). Where the threads fill whole rows of the chunk, a
    thread keeps one column and steps over rows. The ring's barrier before
    the buffer's next chunk keeps it from being overwritten while a thread
    still reads it."""
    head = f"""        nvvm.barrier id = %c_bar number_of_threads = %c_threads
        %cn{j} = arith.constant {j * chunk} : index
        %n0_{j} = arith.addi %n0, %cn{j} : index
        %cw{j} = arith.constant {width} : index"""
    # Element (%er, %ec) of the chunk to C, where it lies inside C.
    copy = f"""          %rin{j} = arith.cmpi ult, %gr{j}, %c_rows : index
          %in{j} = arith.andi %rin{j}, %cin{j} : i1
          scf.if %in{j} {{
            %cv{j} = memref.load {buffer}[%er{j}, %ec{j}] : !tileCs
            memref.store %cv{j}, %C[%gr{j}, %gc{j}] : !C
          }}
        }}"""
    if threads % width == 0:
        return head + f"""
        %ec{j} = arith.remui %cthread, %cw{j} : index
        %er0_{j} = arith.divui %cthread, %cw{j} : index
        %cstep{j} = arith.constant {threads // width} : index
        %crows{j} = arith.constant {bm} : index
        %gc{j} = arith.addi %n0_{j}, %ec{j} : index
        %cin{j} = arith.cmpi ult, %gc{j}, %c_cols : index
        scf.for %er{j} = %er0_{j} to %crows{j} step %cstep{j} {{
          %gr{j} = arith.addi %m0, %er{j} : index
""" + copy
    return head + f"""
        %ce{j} = arith.constant {bm * width} : index
        scf.for %e{j} = %cthread to %ce{j} step %cthreads {{
          %er{j} = arith.divui %e{j}, %cw{j} : index
          %ec{j} = arith.remui %e{j}, %cw{j} : index
          %gr{j} = arith.addi %m0, %er{j} : index
          %gc{j} = arith.addi %n0_{j}, %ec{j} : index
          %cin{j} = arith.cmpi ult, %gc{j}, %c_cols : index
""" + copy


def fragment_rows(indent):
    """A consumer thread's rows %r0, %r1 and pair column %lcol of the wgmma
    accumulator (its warp's 16 rows from %row0; lane l: rows l/4 and
    l/4 + 8, columns 8i + 2(l%4) + 0..1)."""
    lines = """%warp = arith.divui %local, %c32 : index
%lane = arith.remui %local, %c32 : index
%wrow = arith.muli %warp, %c16 : index
%lrow = arith.divui %lane, %c4 : index
%r0a = arith.addi %row0, %wrow : index
%r0 = arith.addi %r0a, %lrow : index
%r1 = arith.addi %r0, %c8 : index
%lcol = arith.remui %lane, %c4 : index"""
    return "\n".join(indent + line for line in lines.splitlines())


def emit_mma_steps(w, bn, ksteps, indent, fp8=False, row="%row0",
                   tag="", b_descriptors=True):
    """One stage's wgmma steps on %a (64 rows from `row`) and %b,
    accumulating from %acc0{tag}; returns the last accumulator's name. B's
    descriptors %db<j> are made once (`b_descriptors`) for every row block."""
    prev = f"%acc0{tag}"
    k, t = (32, "e4m3") if fp8 else (16, "bf16")
    for j in range(ksteps):
        lines = [
            f"%da{j}{tag} = tile.wgmma_descriptor %a[{row}, %kc{j}] {{rows = 64, k = {k}}} : !tileA -> i64"]
        if b_descriptors:
            lines.append(f"%db{j} = tile.wgmma_descriptor %b[%c0, %kc{j}] {{rows = {bn}, k = {k}}} : !tileB -> i64")
        lines += [
            f"%acc{j + 1}{tag} = nvvm.wgmma.mma_async %da{j}{tag}, %db{j}, {prev},",
            f"    #nvvm.shape<m = 64, n = {bn}, k = {k}>,",
            f"    D[<f32>, <one>], A[<{t}>, <one>, <row>], B[<{t}>, <one>, <col>]",
            "    : !acc -> !acc"]
        w("\n".join(indent + line for line in lines))
        prev = f"%acc{j + 1}{tag}"
    return prev


def emit_handwritten_loop(w, bm, bn, bk, consumers, ksteps, fp8=False):
    """The main loop with its protocol written out: mbarriers, parities,
    arrive.expect_tx and the stage release."""
    tx = (bm + bn) * bk * (1 if fp8 else 2)
    w(f"""      %tx_bytes = arith.constant {tx} : index
      %ticks = arith.constant 10000000 : index
      %full = nvgpu.mbarrier.create -> !bars
      %empty = nvgpu.mbarrier.create -> !bars
      // The warpgroup index, made warp-uniform by a shuffle from lane 0 so
      // that ptxas sees the producer/consumer branch as uniform and does
      // not serialize the wgmma instructions in it.
      %wgv = arith.divui %tid, %cwg : index
      %wgi = arith.index_cast %wgv : index to i32
      %lane0 = arith.constant 0 : i32
      %width = arith.constant 32 : i32
      %wgu, %wgok = gpu.shuffle idx %wgi, %lane0, %width : i32
      %wg = arith.index_cast %wgu : i32 to index
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {{
        %consumers = arith.constant {consumers} : index
        scf.for %s = %c0 to %cstages step %c1 {{
          nvgpu.mbarrier.init %full[%s], %c1 : !bars
          nvgpu.mbarrier.init %empty[%s], %consumers : !bars
        }}
      }}
      gpu.barrier
      %producer = arith.cmpi eq, %wg, %c0 : index
      scf.if %producer {{
        scf.if %first {{
          scf.for %kt = %c0 to %ktiles step %c1 {{
            %s = arith.remui %kt, %cstages : index
            %round = arith.divui %kt, %cstages : index
            // From the second round on, wait until both consumers released
            // the stage (completion `round - 1` of empty[s]).
            %reuse = arith.cmpi uge, %kt, %cstages : index
            scf.if %reuse {{
              %prev = arith.subi %round, %c1 : index
              %pbit = arith.remui %prev, %c2 : index
              %parity = arith.cmpi ne, %pbit, %c0 : index
              nvgpu.mbarrier.try_wait.parity %empty[%s], %parity, %ticks : !bars
            }}
            %a = tile.stage %sa[%s] : !stagesA -> !tileA
            %b = tile.stage %sb[%s] : !stagesB -> !tileB
            %k0 = arith.muli %kt, %cbk : index
            tile.copy_async %a[0, 0] [{bm}, {bk}], %A[%m0, %k0] [{bm}, {bk}] barrier(%full[%s])
                : !tileA, !A, !bars
            tile.copy_async %b[0, 0] [{bn}, {bk}], %Bt[%n0, %k0] [{bn}, {bk}] barrier(%full[%s])
                : !tileB, !Bt, !bars
            nvgpu.mbarrier.arrive.expect_tx %full[%s], %tx_bytes : !bars
          }}
        }}
      }} else {{
        %cwg1 = arith.subi %wg, %c1 : index
        %row0 = arith.muli %cwg1, %c64 : index
        %local = arith.remui %tid, %cwg : index
        %signal = arith.cmpi eq, %local, %c0 : index
        %zero = llvm.mlir.zero : !acc
        %accum = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc0 = %zero) -> (!acc) {{
          %s = arith.remui %kt, %cstages : index
          %round = arith.divui %kt, %cstages : index
          %rbit = arith.remui %round, %c2 : index
          %parity = arith.cmpi ne, %rbit, %c0 : index
          nvgpu.mbarrier.try_wait.parity %full[%s], %parity, %ticks : !bars
          %a = tile.stage %sa[%s] : !stagesA -> !tileA
          %b = tile.stage %sb[%s] : !stagesB -> !tileB
          nvvm.wgmma.fence.aligned""")
    prev = emit_mma_steps(w, bn, ksteps, " " * 10, fp8)
    w(f"""          nvvm.wgmma.commit.group.sync.aligned
          // Keep this step's group in flight; the previous one is done, so
          // its stage goes back to the producer.
          nvvm.wgmma.wait.group.sync.aligned 1
          %started = arith.cmpi ugt, %kt, %c0 : index
          %release = arith.andi %started, %signal : i1
          scf.if %release {{
            %kp = arith.subi %kt, %c1 : index
            %sp = arith.remui %kp, %cstages : index
            %token = nvgpu.mbarrier.arrive %empty[%sp] : !bars -> !nvgpu.mbarrier.token
          }}
          scf.yield {prev} : !acc
        }}
        nvvm.wgmma.wait.group.sync.aligned 0""")


# --l2-hints: the L2 policy of the pipelined kernels' loads of each global
# operand (tile.copy_async's cache_hint), by the operand's name; none where
# absent.
L2_HINTS = {}


def l2_hint(src):
    """The attribute dictionary of a load from `src` (its L2 policy), or
    nothing."""
    hint = L2_HINTS.get(src)
    return f' {{cache_hint = "evict_{hint}"}}' if hint else ""


def emit_pipeline_loop(w, bm, bn, bk, consumers, ksteps, registers=None,
                       cluster=1, fp8=False, split_k=1, persistent=False,
                       group_m=GROUP_M, accum="%accum", stream_k=False,
                       pingpong=False, stagger=0, in_flight=1, box_a=None,
                       tokens_n=False):
    """The main loop as a tile.pipeline: the protocol is generated. In a
    cluster, the B tile the cluster's CTAs share is multicast. Stream-K
    gives each work tile its k-steps (the iterations region). With
    `pingpong` the consumers take the tiles in turn, each computing all BM
    rows of its tile (one accumulator per 64 rows, %acc0_<h>). A's box is
    `box_a` of the tile's rows (all of them by default)."""
    box_a = box_a or bm
    # --tokens-n: wgmma's A is the weights' (Bt's) tile, its B the tokens'.
    a_src, a_type, b_src, b_type = (("%Bt", "!Bt", "%A", "!A") if tokens_n
                                    else ("%A", "!A", "%Bt", "!Bt"))
    regs = (f", producer_registers = {registers[0]} : i64, "
            f"consumer_registers = {registers[1]} : i64" if registers else "")
    if pingpong:
        regs += ", schedule = #tile.consumer_schedule<pingpong>"
    blocks = bm // 64 if pingpong else 1
    tags = [f"_{h}" if pingpong else "" for h in range(blocks)]
    if cluster > 1:
        regs += f", cluster_size = {cluster} : i64"
    mask = (f"""
        %all = arith.constant {(1 << cluster) - 1} : i16""" if cluster > 1
            else "")
    multicast = " multicast(%all)" if cluster > 1 else ""
    kglobal = ("""
        %ktg = arith.addi %kt, %kt_lo : index""" if split_k > 1 else "")
    kvar = "%ktg" if split_k > 1 else "%kt"
    tiles, targ = (" tiles(%mine)", "%t: index, ") if persistent else ("", "")
    count, iterations = "(%ktiles)", ""
    if stream_k:
        count = ""
        kglobal += "\n" + stream_k_work_tile(" " * 8, group_m).rstrip("\n")
        iterations = (" iterations {\n      ^bb0(%t: index):\n"
                      + stream_k_work_tile(" " * 8, group_m, starts=False)
                      + "        tile.yield %k_first, %k_end : index, index\n"
                      "      }")
    elif persistent:
        kglobal += "\n" + work_tile(" " * 8, group_m, cluster)
    zeros = ", ".join(["%zero"] * blocks)
    acc_types = ", ".join(["!acc"] * blocks)
    # In turns, the accumulators enter as %acc_in<h> and take their
    # registers before the wgmma fence (tile.wgmma_fence_operand): a zeroed
    # accumulator moved into place between the fence and its first wgmma
    # makes ptxas insert waits between the row blocks' wgmmas.
    acc_args = ", ".join(f"%acc{'_in' if pingpong else '0'}{tag}: !acc"
                         for tag in tags)
    accum_args = ", ".join(f"{accum}{tag}: !acc" for tag in tags)
    if stagger:
        w(STAGGER_SETUP.format(lag=stagger).rstrip("\n"))
    w(f"""      %local = arith.remui %tid, %cwg : index
      %zero = llvm.mlir.zero : !acc
      tile.pipeline {count}{tiles} stages(%sa, %sb : !stagesA, !stagesB) iter_args({zeros} : {acc_types})
          attributes {{consumers = {consumers} : i64, in_flight = {in_flight} : i64, reads = #tile.consumer_reads<wgmma>{regs}}}{iterations} produce {{
      ^bb0({targ}%kt: index, %a: !tileA, %b: !tileB):{mask}{kglobal}
        %k0 = arith.muli {kvar}, %cbk : index
        tile.copy_async %a[0, 0] [{box_a}, {bk}], {a_src}[%m0, %k0] [{box_a}, {bk}]{l2_hint(a_src)} : !tileA, {a_type}
        tile.copy_async %b[0, 0] [{bn}, {bk}], {b_src}[%n0, %k0] [{bn}, {bk}]{multicast}{l2_hint(b_src)} : !tileB, {b_type}
        tile.yield
      }} consume {{
      ^bb0({targ}%kt: index, %a: !tileA, %b: !tileB, %cidx: index, {acc_args}):""")
    if pingpong:
        # Every row block of the tile: rows 64h, with B's descriptors once.
        w("\n".join(f"        %row0{tag} = arith.constant {64 * h} : index\n"
                     f"        %acc0{tag} = tile.wgmma_fence_operand %acc_in{tag} : !acc"
                     for h, tag in enumerate(tags)))
    else:
        w("        %row0 = arith.muli %cidx, %c64 : index")
    if stagger:
        w(STAGGER_START)
    w("        nvvm.wgmma.fence.aligned")
    last = [emit_mma_steps(w, bn, ksteps, " " * 8, fp8,
                           row=f"%row0{tag}", tag=tag, b_descriptors=h == 0)
            for h, tag in enumerate(tags)]
    w("        nvvm.wgmma.commit.group.sync.aligned")
    if stagger:
        w(STAGGER_LEAD)
    w(f"""        tile.yield {", ".join(last)} : {acc_types}
      }} epilogue {{
      ^bb0({targ}%cidx: index, {accum_args}):
        %row0 = {"arith.constant 0" if pingpong else "arith.muli %cidx, %c64"} : index""")

# --stagger L: the two consumers of a tile apart by L k-steps, so that one's
# epilogue runs while the other still issues wgmmas. Consumer 1 starts a
# tile once consumer 0 has issued its first L + 1 k-steps (or all, where
# the tile has fewer), barrier 3; consumer 0 starts the next tile once
# consumer 1 has started this one, barrier 4, so the barriers' phases
# alternate however far either runs ahead.
# The barriers and the lead's k-step, once before the pipeline.
STAGGER_SETUP = """      %pair_threads = arith.constant 256 : i32
      %lag_bar = arith.constant 3 : i32
      %started_bar = arith.constant 4 : i32
      %lag_max = arith.constant {lag} : index
      %ktiles_1 = arith.subi %ktiles, %c1 : index
      %lag_k = arith.minui %lag_max, %ktiles_1 : index
"""
STAGGER_START = """        // Apart: consumer 1 starts a tile after consumer 0's first k-steps
        // of it, consumer 0 the next tile after consumer 1 started this one.
        %lead = arith.cmpi eq, %cidx, %c0 : index
        %first_k = arith.cmpi eq, %kt, %c0 : index
        scf.if %first_k {
          scf.if %lead {
            %later = arith.cmpi ugt, %t, %c0 : index
            scf.if %later {
              nvvm.barrier id = %started_bar number_of_threads = %pair_threads
            }
          } else {
            nvvm.barrier id = %lag_bar number_of_threads = %pair_threads
            %t_next = arith.addi %t, %c1 : index
            %more = arith.cmpi ult, %t_next, %mine : index
            scf.if %more {
              nvvm.barrier.arrive id = %started_bar number_of_threads = %pair_threads
            }
          }
        }"""
STAGGER_LEAD = """        %at_lag = arith.cmpi eq, %kt, %lag_k : index
        %lead_at_lag = arith.andi %lead, %at_lag : i1
        scf.if %lead_at_lag {
          nvvm.barrier.arrive id = %lag_bar number_of_threads = %pair_threads
        }"""
SMS = 132  # SMs of an H100 or H200 SXM
# --pingpong: a consumer holds a whole 128 x 128 tile's accumulator (128 f32
# per thread), which needs the consumers' registers raised.
# Four 32 KiB stages and the two consumers' C tiles (64 KiB) fill 192 KiB.
PINGPONG_BN = 128
PINGPONG_STAGES = 4
PINGPONG_REGISTERS = (40, 232)
# The narrower kernel of --choose --by-waves: 128 x 192 tiles, 4 stages of
# 40 KiB and a 48 KiB bf16 C tile (208 KiB). Its main loop's rate in percent
# of the BN-wide kernel's weighs its waves in the tile-width rule
# (fewer_waves_rule); an estimate until measured (docs/gemm.md).
NARROW_BN = 192
NARROW_STAGES = 4
NARROW_RATE = 97


def fewer_waves_rule(sms, narrow=NARROW_BN, rate=NARROW_RATE):
    """%fewer_waves: 128 x `narrow` tiles finish before the 128 x 256 ones,
    the shapes rule (shape_rule) over the two, the narrow one at `rate`
    percent (tile::schedule::chooseTileWidth)."""
    return (shape_rule(sms, [(BM, narrow, rate)], prefix="fw") +
            "\n%fewer_waves = arith.cmpi ne, %fw_best, %c0 : index")


def shape_rule(sms, candidates, wide=BN, prefix="sr"):
    """%`prefix`_best: the index of the tile shape whose tiles finish first,
    tile::schedule::chooseTileShape over `candidates` ((rows, columns, rate
    in percent) after 128 x `wide` at 100; index 0 is 128 x `wide`): the
    least waves (ceil(tiles / SMs)) x rows x columns / rate, compared as
    time(a) x rate(b) < time(b) x rate(a), a tie keeping the earlier
    candidate. %tiles and %rows are the entries' counts of 128 x `wide`
    tiles and of 128-row tile rows; %M and %N the problem's. Every value
    it defines starts with %`prefix`_, so that two rules can share an
    entry; the last comparison's select is %`prefix`_best itself."""
    lines = [f"%sr_sms = arith.constant {sms} : index",
             f"%sr_sms1 = arith.constant {sms - 1} : index",
             "%sr_up0 = arith.addi %tiles, %sr_sms1 : index",
             "%sr_waves0 = arith.divui %sr_up0, %sr_sms : index",
             f"%sr_area0 = arith.constant {BM * wide} : index",
             "%sr_time0 = arith.muli %sr_waves0, %sr_area0 : index",
             "%sr_rate0 = arith.constant 100 : index",
             "%sr_best0 = arith.constant 0 : index"]
    best, time, rate = "%sr_best0", "%sr_time0", "%sr_rate0"
    for i, (rows, columns, percent) in enumerate(candidates, 1):
        last = i == len(candidates)
        down = "%rows"
        if rows != BM:
            down = f"%sr_down{i}"
            lines += [f"%sr_bm{i} = arith.constant {rows} : index",
                      f"%sr_bm{i}_1 = arith.constant {rows - 1} : index",
                      f"%sr_m{i} = arith.addi %M, %sr_bm{i}_1 : index",
                      f"{down} = arith.divui %sr_m{i}, %sr_bm{i} : index"]
        lines += [
            f"%sr_bn{i} = arith.constant {columns} : index",
            f"%sr_bn{i}_1 = arith.constant {columns - 1} : index",
            f"%sr_n{i} = arith.addi %N, %sr_bn{i}_1 : index",
            f"%sr_across{i} = arith.divui %sr_n{i}, %sr_bn{i} : index",
            f"%sr_tiles{i} = arith.muli {down}, %sr_across{i} : index",
            f"%sr_up{i} = arith.addi %sr_tiles{i}, %sr_sms1 : index",
            f"%sr_waves{i} = arith.divui %sr_up{i}, %sr_sms : index",
            f"%sr_area{i} = arith.constant {rows * columns} : index",
            f"%sr_t{i} = arith.muli %sr_waves{i}, %sr_area{i} : index",
            f"%sr_r{i} = arith.constant {percent} : index",
            f"%sr_lhs{i} = arith.muli %sr_t{i}, {rate} : index",
            f"%sr_rhs{i} = arith.muli {time}, %sr_r{i} : index",
            f"%sr_wins{i} = arith.cmpi ult, %sr_lhs{i}, %sr_rhs{i} : index",
            f"%sr_i{i} = arith.constant {i} : index",
            f"%sr_best{'' if last else i} = arith.select %sr_wins{i}, "
            f"%sr_i{i}, {best} : index"]
        if not last:
            # The time and rate to beat; the last candidate's are not read.
            lines += [
                f"%sr_time{i} = arith.select %sr_wins{i}, %sr_t{i}, {time} : index",
                f"%sr_rate{i} = arith.select %sr_wins{i}, %sr_r{i}, {rate} : index"]
        best, time, rate = f"%sr_best{i}", f"%sr_time{i}", f"%sr_rate{i}"
    if not candidates:
        lines[-1] = "%sr_best = arith.constant 0 : index"
    return "\n".join(lines).replace("%sr_", f"%{prefix}_")


def shape_name(rows, columns):
    """The rule and kernel names of a tile shape of the shapes rule."""
    return f"shape_{rows}x{columns}", (f"_n{columns}" if rows == BM
                                       else f"_m{rows}n{columns}")


# The kernels of --choose, each with the rule that picks it (tried in order,
# the last taken otherwise); measured on the H200 (docs/gemm.md): a 64-row
# tile where M fills at most one 128-row tile (one consumer warpgroup; 64
# columns for M <= 64, 128 for M <= 128, so more CTAs stream B; 64 columns
# also where the 64 x 128 tiles would fill at most half the SMs) or where the
# 64 x 128 tiles fit in one wave of SMs (M = 256, N = 4096: 128 CTAs where
# 128 x 128 tiles leave half the SMs idle; measured on an H100, round 38,
# 487 against 340 TFLOP/s and 542 against 420 at K = 14336), 128 x 128
# where there are fewer 128 x 256 tiles than half the SMs, else 128 x 256.
# The 128 x 128 kernel is one tile per CTA (its tiles fill at most the SMs)
# with 6 stages where the C tile is bf16 (6 x 32 KiB + 32 KiB fit): nearly
# every B tile it loads comes from device memory once, and 4 stages did not
# hide that latency (256 x 8192 x 8192, bf16 out: 584 TFLOP/s with 4 stages,
# 675 with 6, cuBLAS 679; persistent with 6 stages 496).
# The 64 x 128 kernel's stages: measured on an H100 (docs/gemm.md, round
# 38), 8 stages ran 4-13% faster than 6 on every small-M shape (128 x 4096 x
# 4096: 254 against 233 TFLOP/s; 256 x 4096 x 4096: 487 against 444).
M64_STAGES = 8
# Where the 64 x 128 tiles make more than one wave but the 64 x 192 ones fit
# in one, 64 x 192 (one consumer warpgroup; 6 stages of 32 KiB and a 24 KiB
# bf16 C tile). Measured on an H100 (round 43, docs/gemm.md): 320 x 4096 x
# 4096 (110 tiles) 467 TFLOP/s against 411 with the 128 x 128 kernel the
# chooser took (96 tiles, a sixth of their rows past M), 320 x 4096 x 14336
# 481 against 393.
M64N192_STAGES = 6
# Decode rows, M <= 32: the 64 x 64 kernel with A's box of 32 rows
# (--a-rows 32; the tile's other rows zero), where the copy engine spent as
# long filling A's rows past M with zeros as loading B's. Measured on an
# H100 (round 121, docs/gemm.md, "Decode rows"): 8 x 14336 x 4096 21
# TFLOP/s against 16 with the 64-row box, 8 x 8192 x 8192 22 against 19,
# 32 x 14336 x 4096 82 against 73 (cuBLAS 21, 22, 83).
DECODE_ROWS = 32
# --decode-tokens-n: the decode rows' kernels with the tokens as wgmma's N
# (emit's tokens_n), one per width in TOKENS_N, each taken where M fits it;
# a stage is 64 weight rows and TOKENS_N_STAGES of them are in flight
# (16, as cuBLAS's 64 x 8 kernel: on an H100, round 137, 8 x 2048 x 8192
# 9.3 us a call in a CUDA graph against 10.4 at 12 stages and cuBLAS's 10.0).
TOKENS_N = (8, 16, DECODE_ROWS)
TOKENS_N_STAGES = 16
CHOICES = (
    (f"_m64n64_a{DECODE_ROWS}", {"bm": 64, "bn": 64, "stages": 8,
                                 "persistent": False, "a_rows": DECODE_ROWS},
     "decode_rows"),
    ("_m64n64", {"bm": 64, "bn": 64, "stages": 8, "persistent": False},
     "m64_narrow"),
    ("_m64n128", {"bm": 64, "bn": 128, "stages": M64_STAGES,
                  "persistent": False}, "m64_tiles"),
    ("_m64n192", {"bm": 64, "bn": 192, "stages": M64N192_STAGES,
                  "persistent": False}, "m64n192_one_wave"),
    ("_n128", {"bn": 128, "stages": 6, "persistent": False},
     "few_wide_tiles"),
    ("", {}, None),
)
# With --choose --by-waves, before the default: the 128 x 192 kernel where
# its waves finish first.
WAVE_CHOICE = (f"_n{NARROW_BN}", {"bn": NARROW_BN, "stages": NARROW_STAGES},
               "fewer_waves")
# With --choose --cluster C, before the fewer-waves rule: where the 128 x 256
# tiles fill at most one wave of SMs (each CTA one tile, nothing to walk),
# the persistent 128 x 256 kernel without clusters. Measured on an H100
# (docs/gemm.md, round 24): 2048^3 (128 tiles) ran 3-8% slower in clusters
# of 2, the shapes of several waves as fast or faster (5000^3: +20%).
ONE_WAVE_CHOICE = ("_single", {}, "one_wave")
# With --choose --by-waves --cluster C, before ONE_WAVE_CHOICE: where the
# 128 x 256 tiles fill at most one wave and the 128 x 192 ones finish first
# (the width rule), the 128 x 192 kernel without clusters. Measured on an
# H100 (docs/gemm.md, round 28): 384 x 8192 x 8192 (96 wide tiles, 129
# narrow ones) 681 TFLOP/s against 578 with the wide kernel, 640 x 4096 x
# 8192 629 against 508; in clusters of 2, 3 tile rows walk as 4.
ONE_WAVE_NARROW_CHOICE = (f"_single_n{NARROW_BN}",
                          {"bn": NARROW_BN, "stages": NARROW_STAGES},
                          "narrow_one_wave")
# The persistent kernels' register split with --choose --cluster: the
# producer warpgroup down to 40, the consumers up to 232 (setmaxnreg);
# 1-4% faster on the same run's shapes but 8192^3 unclustered.
CLUSTER_REGISTERS = (40, 232)
# The FP8 chooser's --c-by-threads kernel: 3 stages of 48 KiB (128-element
# K steps) and its ring of two 16 KiB C chunks, the registers split 40 / 232
# (without the split its consumers spill 12 bytes).
FP8_BY_THREADS_STAGES = 3
# The clustered 128 x 256 kernel of --choose --cluster with bf16 output: 4
# stages, made room for by storing C through a ring of 2 chunk buffers (32
# KiB instead of the 64 KiB C tile; --store-chunks --c-buffers 2). Measured
# on an H100 (round 57, docs/gemm.md) against 3 stages and the whole C
# tile: 5000^3 625 against 575 TFLOP/s, 3000 x 5000 x 2000 627 against 586,
# 4000^3 737 against 709, 16384 x 1024 x 4096 766 against 736, level at
# 8192^3 and 2048^3; with 3 stages the ring alone gained 0-3 %. FP8 (its
# kernels unclustered) ran 0-2 % slower with it and keeps 3 stages. The
# one-wave 128 x 256 kernel (unclustered, a tile per CTA) takes them too:
# round 62, 1-3 % on five one-wave problems (512 x 8192 x 8192 761 against
# 736, 2048^3 629 against 622).
RING_STAGES = 4
RING_BUFFERS = 2
# The 128 x 192 kernel's main loop rate in percent of that 128 x 256 one's,
# for the tile-width rule of the clustered bf16 chooser (NARROW_RATE is the
# others'): from round 57 and 58, where they ran 5000^3 (9 waves of 192
# columns against 7 of 256) at 559 and 625 TFLOP/s, and 3000 x 5000 x 2000
# (5 waves against 4) at 616 and 627: rates of 86 and 92 percent.
RING_NARROW_RATE = 90
# The clustered bf16 chooser's tile shapes (with --by-waves), after 128 x
# 256: tiles whose count fills whole waves where 128 x 256 leaves the last
# one mostly idle, as cuBLAS does (rounds 71 and 75: 3000 x 5000 x 2000 in
# 152 x 256 tiles, 3000^3 in 192 x 192, each in whole waves). (rows,
# columns, main loop rate in percent of the 128 x 256 one's): 128 x 232 and
# 128 x 224, each with the 256 kernel's ring (four 128-byte chunks, the
# last narrower); 192 x 192 (three consumer warpgroups at 152 registers, 4
# stages, C through one chunk buffer); then 128 x 192. Measured on an H100
# (rounds 73 and 78, docs/gemm.md): 3000 x 5000 x 2000 656 TFLOP/s at 128 x
# 232 (528 tiles, 4 whole waves) against 622 at 128 x 256, 5000^3 658 at
# 128 x 224 (920 tiles, 6.97 waves) against 606: rates of about 95 %;
# 3000^3 645 at 192 x 192 (256 tiles, 2 waves) against the chooser's 576,
# 6144^3 745 against 740 (both 8 or 9 full waves): a rate near 100 %,
# taken as 97.
RING_SHAPES = ((BM, 232, 95), (BM, 224, 95), (192, 192, 97),
               (BM, NARROW_BN, RING_NARROW_RATE))
# The 192-row kernel's register split: four warpgroups share the 64K
# registers (40 + 3 x 152 per thread, 128 threads each).
M192_REGISTERS = (40, 152)
# The stream-K kernel's register split (--stream-k, also in --choose): the
# producer warpgroup down to 40, the consumers up to 232. Measured on the
# H200 (round 22b, docs/gemm.md): 3-13% faster than without on all six
# shapes; with the pipeline's carried ring position its consumers assemble
# with no spills (108 bytes without the split, ptxas 13.0).
STREAM_K_REGISTERS = (40, 232)
# Stages of the 128 x 128 kernel with an f32 C tile (64 KiB): 6 would leave
# no room for it.
N128_F32_STAGES = 4


# With --choose --split-k S (bf16 or FP8 output), first: the 64 x 64 kernel
# split into as many shares as fill the SMs (tile::schedule::chooseSplitK's
# rule), where its tiles fill at most half of them and K is long enough for
# two shares. Measured on an H100 (round 44, docs/gemm.md): 128 x 2048 x
# 8192 220 TFLOP/s in 2 shares against 162 unsplit, 64 x 2048 x 8192 148 in
# 4 against 81, 128 x 1024 x 8192 153 in 4 against 84, 256 x 1024 x 8192
# 231 in 2 against 169. Where the 64 x 64 tiles fill half the SMs or more,
# the 64 x 128 kernel split in 2 was mixed (256 x 2048 x 8192 358 against
# 322; 64 x 8192 x 8192 158 against 174 and 128 x 4096 x 4096 264 against
# 268, round 46 and 45), and the 128 x 256 kernel split the same way, which
# the chooser took where its tiles filled at most half the SMs, lost to the
# 128 x 128 kernel wherever it ran (256 x 8192 x 8192: H200 round 12 533
# against 586 TFLOP/s, FP8 798 against 928; H100 round 45 450 against 591,
# round 46 FP8 691 against 1021): neither is a choice of the chooser.
M64_SPLIT_CHOICE = ("_m64n64_splitk", {"bm": 64, "bn": 64, "stages": 8,
                                       "persistent": False}, "m64n64_split")
SPLIT_MIN_KSTEPS = 8  # k-steps per share at least
# --decode-split where the tiles fill more than a quarter of the SMs: k-steps
# per share at least (m64n64_split_rule).
DECODE_SHARE_KSTEPS = 64
# The same with --decode-tokens-n: the tokens kernels' split pays with two
# shares of 32 k-steps (round 137, an H100: 8 x 4096 x 4096, 64 tiles, 9.7
# us a call in a CUDA graph against 12.5 unsplit and cuBLAS's 10.6). Not
# FP8's: its two shares of 56 k-steps lost to the whole tiles (round 139,
# an H100: 32 x 4096 x 14336 133 TFLOP/s against 148, 8 x 4096 x 14336 35
# against 38), so FP8 keeps DECODE_SHARE_KSTEPS.
TOKENS_SHARE_KSTEPS = 32


PAD_THREADS = 256
# The padded copies' rows: a multiple of 128 bytes (of a k-step's bytes
# where those are fewer), not only the 16 a tensor map needs. A TMA box row
# of 128 bytes that starts 16 or 48 bytes into a 128-byte line loads at a
# fraction of the rate of one that starts on a line (measured on an H100,
# rounds 116-118, docs/gemm.md, "Rows off 128-byte lines"); rounded up
# within a k-step, K' takes the k-steps K does, and the copy costs about
# the same.
PAD_ROW_BYTES = 128
PAD_MAX_BLOCKS_X = (1 << 31) - 1  # the grid's limits
PAD_MAX_BLOCKS_Y = 65535


def misaligned(result, buffers, row_elements, element_bytes, alignment=16):
    """%result: the base of one of `buffers` (SSA names of memrefs, with
    their types) or their rows of `row_elements` (an index SSA name)
    elements of `element_bytes` bytes not `alignment`-byte aligned (16: as a
    TMA map needs them, its global address and strides)."""
    lines = [f"%{result}_ptr{i} = memref.extract_aligned_pointer_as_index "
             f"{name} : {ty} -> index"
             for i, (name, ty) in enumerate(buffers)]
    lines += [f"%{result}_esize = arith.constant {element_bytes} : index",
              f"%{result}_row = arith.muli {row_elements}, %{result}_esize : index"]
    bits = f"%{result}_row"
    for i in range(len(buffers)):
        lines.append(f"%{result}_bits{i} = arith.ori {bits}, %{result}_ptr{i} : index")
        bits = f"%{result}_bits{i}"
    lines += [f"%{result}_c{alignment - 1} = arith.constant {alignment - 1} : index",
              f"%{result}_low = arith.andi {bits}, %{result}_c{alignment - 1} : index",
              f"%{result} = arith.cmpi ne, %{result}_low, %c0 : index"]
    return "\n".join(lines)


def pad_kernel(element, vector):
    """@gemm_pad_k: copies `src` (rows x K) into `dst` (rows x Kp, Kp >= K a
    multiple of `vector` elements, 16 bytes), the columns past K zero. Block
    (x, y) takes rows x, x + (grid's x), ... and in each the 16-byte groups
    y x 256 + t, y x 256 + t + 256 x (grid's y), ...: each thread reads its
    group's elements one by one (the source rows are not 16-byte aligned)
    and writes the group with one 16-byte store."""
    loads = "\n".join(
        f"""        %pc{j} = arith.addi %pcol, %poff{j} : index
        %pin{j} = arith.cmpi ult, %pc{j}, %pk : index
        %pcl{j} = arith.minui %pc{j}, %pklast : index
        %pld{j} = memref.load %src[%prow, %pcl{j}] : !A
        %pv{j} = arith.select %pin{j}, %pld{j}, %pzero : {element}"""
        for j in range(vector))
    offsets = "\n".join(f"      %poff{j} = arith.constant {j} : index"
                         for j in range(vector))
    values = ", ".join(f"%pv{j}" for j in range(vector))
    return f"""    // The operands padded to rows of a multiple of 16 bytes (the entries
    // run it where A's or Bt's rows or base are not 16-byte aligned).
    gpu.func @gemm_pad_k(%src: !A, %dst: !A) kernel {{
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %pvec = arith.constant {vector} : index
{offsets}
      %pzero = arith.constant 0.0 : {element}
      %px = gpu.block_id x
      %pgx = gpu.grid_dim x
      %py = gpu.block_id y
      %pgy = gpu.grid_dim y
      %pt = gpu.thread_id x
      %pthreads = gpu.block_dim x
      %prows = memref.dim %src, %c0 : !A
      %pk = memref.dim %src, %c1 : !A
      %pklast = arith.subi %pk, %c1 : index
      %pkp = memref.dim %dst, %c1 : !A
      %pgroups = arith.divui %pkp, %pvec : index
      %pfirst0 = arith.muli %py, %pthreads : index
      %pfirst = arith.addi %pfirst0, %pt : index
      %pstep = arith.muli %pgy, %pthreads : index
      scf.for %prow = %px to %prows step %pgx {{
      scf.for %pg = %pfirst to %pgroups step %pstep {{
        %pcol = arith.muli %pg, %pvec : index
{loads}
        %pgroup = vector.from_elements {values} : vector<{vector}x{element}>
        vector.store %pgroup, %dst[%prow, %pcol] {{alignment = 16}} : !A, vector<{vector}x{element}>
      }}
      }}
      gpu.return
    }}"""


def pad_operands(element_bytes, step_bytes):
    """The entry's padding: where A's or Bt's base, or their rows (K
    elements), are not 16-byte aligned, and no dimension is 0, the operand
    is copied into a stream-ordered buffer whose rows are K' (K rounded up
    to PAD_ROW_BYTES, or to `step_bytes`, a k-step's, where fewer, where
    the rows are not aligned; K where only a base is: %k_pad), zero-filled
    past K (which changes no product), and
    the entry runs on the copy (%A, %Bt); rows not aligned copy both, a base
    not aligned only its operand. %a_padded and %bt_padded say which.
    %run says the entry launches: not where C is empty, nor where an
    allocation was refused (an error the runtime recorded)."""
    vector = 16 // element_bytes
    line = min(PAD_ROW_BYTES, step_bytes) // element_bytes
    checks = "\n".join(
        misaligned(result, [(name, ty)], "%K_in", element_bytes)
        for result, name, ty in (("a_unaligned", "%A_in", "!A"),
                                 ("bt_unaligned", "%Bt_in", "!Bt")))
    checks = "\n".join("    " + line for line in checks.splitlines())
    copies = "".join(f"""    %{mem[1:]}, %{flag}_padded = scf.if %pad_{flag} -> ({ty}, i1) {{
      %{flag}_copy, %{flag}_copy_token = gpu.alloc async [%stream] ({rows}, %k_pad) : {ty}
      %{flag}_yes = arith.constant 1 : i1
      scf.yield %{flag}_copy, %{flag}_yes : {ty}, i1
    }} else {{
      %{flag}_no = arith.constant 0 : i1
      scf.yield {mem}_in, %{flag}_no : {ty}, i1
    }}
""" for mem, flag, ty, rows in (("%A", "a", "!A", "%M"),
                                ("%Bt", "bt", "!Bt", "%N")))
    return f"""    // A's or Bt's rows or base not 16-byte aligned: no tensor map reads
    // them, so the problem runs on copies with rows padded to 16 bytes.
    %K_in = memref.dim %A_in, %c1 : !A
{checks}
    %mn_least = arith.minui %M, %N : index
    %mnk_least = arith.minui %mn_least, %K_in : index
    %ab_nonempty = arith.cmpi ne, %mnk_least, %c0 : index
    %pad_a = arith.andi %a_unaligned, %ab_nonempty : i1
    %pad_bt = arith.andi %bt_unaligned, %ab_nonempty : i1
    %kvec = arith.constant {vector} : index
    %kvec1 = arith.constant {vector - 1} : index
    %kline = arith.constant {line} : index
    %kline1 = arith.constant {line - 1} : index
    // Rows not 16-byte aligned (both operands copied): K' a whole number
    // of lines; else K (only a base is off, one operand copied).
    %k_off = arith.andi %K_in, %kvec1 : index
    %k_rows_off = arith.cmpi ne, %k_off, %c0 : index
    %k_up = arith.addi %K_in, %kline1 : index
    %k_lines = arith.divui %k_up, %kline : index
    %k_round = arith.muli %k_lines, %kline : index
    %k_pad = arith.select %k_rows_off, %k_round, %K_in : index
    %k_groups = arith.divui %k_pad, %kvec : index
{copies}    %a_ptr = memref.extract_aligned_pointer_as_index %A : !A -> index
    %bt_ptr = memref.extract_aligned_pointer_as_index %Bt : !Bt -> index
    %ab_least = arith.minui %a_ptr, %bt_ptr : index
    %ab_null = arith.cmpi eq, %ab_least, %c0 : index
    %padded = arith.ori %a_padded, %bt_padded : i1
    %pad_lost = arith.andi %padded, %ab_null : i1
    %pad_true = arith.constant 1 : i1
    %pad_kept = arith.xori %pad_lost, %pad_true : i1
    // An empty C (M or N = 0) needs no launch.
    %mn_nonempty = arith.cmpi ne, %mn_least, %c0 : index
    %run = arith.andi %pad_kept, %mn_nonempty : i1
"""


def pad_launches():
    """The copies of pad_operands' operands (@gemm_pad_k, a block per row
    and up to 65535 per row's 16-byte groups), on the entry's stream, where
    any is copied, each where its operand is."""
    copies = "".join(f"""      scf.if %{flag}_padded {{
        %pad_gx_{flag} = arith.minui {rows}, %pad_max_x : index
        %pad_{flag}_done = gpu.launch_func async [%stream] @gemm_kernels::@gemm_pad_k
            blocks in (%pad_gx_{flag}, %pad_gy, %c1) threads in (%pad_threads, %c1, %c1)
            args({mem}_in : {ty}, {mem} : {ty})
      }}
""" for mem, flag, ty, rows in (("%A", "a", "!A", "%M"),
                                ("%Bt", "bt", "!Bt", "%N")))
    return f"""      scf.if %padded {{
        %pad_threads = arith.constant {PAD_THREADS} : index
        %pad_threads1 = arith.constant {PAD_THREADS - 1} : index
        %pad_max_y = arith.constant {PAD_MAX_BLOCKS_Y} : index
        %pad_gy_up = arith.addi %k_groups, %pad_threads1 : index
        %pad_gy_all = arith.divui %pad_gy_up, %pad_threads : index
        %pad_gy = arith.minui %pad_gy_all, %pad_max_y : index
        %pad_max_x = arith.constant {PAD_MAX_BLOCKS_X} : index
{pad(copies, 2)}
      }}
"""


# The padded copies freed after the kernels that read them, on the stream
# (a copy the runtime could not allocate is null, which the free skips).
FREE_PADDED = """    scf.if %a_padded {
      %a_freed = gpu.dealloc async [%stream] %A : !A
    }
    scf.if %bt_padded {
      %bt_freed = gpu.dealloc async [%stream] %Bt : !Bt
    }
"""


def m64n64_split_rule(bk, sms, max_split, result, own_workspace=False,
                      share_ksteps=DECODE_SHARE_KSTEPS):
    """%`result`: the 64 x 64 kernel split, and %splits its shares: as many as
    fill the SMs, at most `max_split`, each of at least SPLIT_MIN_KSTEPS
    k-steps, where the tiles fill at most half the SMs, and the caller's
    workspace (%partials, %counters) holds the partials and counters; with
    `own_workspace` (the stream's, --decode-split) only where M is at most
    DECODE_ROWS (%decode_rows, the decode_rows rule), and where the tiles
    fill at most a quarter of the SMs or each share has `share_ksteps`
    k-steps or more: a share's partial tile and its combine cost about as
    much as a short share saves (round 131, an H100: two shares of 32
    k-steps, 8 x 4096 x 4096, ran 0.95x the unsplit kernel; of 112, 8 x 4096
    x 14336, 1.05x; four shares of 32, 8 x 2048 x 8192, 1.7x)."""
    rule = f"""%n64_up = arith.addi %N, %c63 : index
%n64_cols = arith.divui %n64_up, %c64 : index
%m64n64_tiles = arith.muli %m64_rows, %n64_cols : index
%cbk_split = arith.constant {bk} : index
%cbk_split1 = arith.constant {bk - 1} : index
%K = memref.dim %A, %c1 : !A
%kp = arith.addi %K, %cbk_split1 : index
%ksteps = arith.divui %kp, %cbk_split : index
%sms_split = arith.constant {sms} : index
%c2s = arith.constant 2 : index
%tiles2 = arith.muli %m64n64_tiles, %c2s : index
%half_full = arith.cmpi ule, %tiles2, %sms_split : index
%tiles1 = arith.maxui %m64n64_tiles, %c1 : index
%per_sm = arith.divui %sms_split, %tiles1 : index
%min_k = arith.constant {SPLIT_MIN_KSTEPS} : index
%by_k = arith.divui %ksteps, %min_k : index
%max_split = arith.constant {max_split} : index
%by_sm = arith.minui %max_split, %per_sm : index
%want = arith.minui %by_sm, %by_k : index
"""
    if own_workspace:
        return rule + f"""%splits = arith.maxui %want, %c1 : index
%two_plus = arith.cmpi uge, %splits, %c2s : index
%split_fill = arith.andi %half_full, %two_plus : i1
%c4s = arith.constant 4 : index
%tiles4 = arith.muli %m64n64_tiles, %c4s : index
%quarter_full = arith.cmpi ule, %tiles4, %sms_split : index
%share_ksteps = arith.divui %ksteps, %splits : index
%long_min = arith.constant {share_ksteps} : index
%long_shares = arith.cmpi uge, %share_ksteps, %long_min : index
%split_pays = arith.ori %quarter_full, %long_shares : i1
%split_worth = arith.andi %split_fill, %split_pays : i1
%{result} = arith.andi %split_worth, %decode_rows : i1"""
    return rule + f"""{split_fits("%n64_cols", "%m64_rows", "%want", 64 * 64, "%splits", "").rstrip()}
%two_plus = arith.cmpi uge, %splits, %c2s : index
%{result} = arith.andi %half_full, %two_plus : i1"""


def tokens_n_choices(choices):
    """`choices` with the decode rows' kernel (rule decode_rows) and its
    split form (decode_split), where present, each replaced by a
    tokens-as-N kernel per width of TOKENS_N, narrowest first, each taken
    where M is at most its width (rule tokens_<T>, and decode_split_<T> for
    the split ones); the widest, DECODE_ROWS, under the replaced rule."""
    out = []
    for name, kwargs, rule in choices:
        if rule not in ("decode_rows", "decode_split"):
            out.append((name, kwargs, rule))
            continue
        split = {"split_k": kwargs["split_k"]} if "split_k" in kwargs else {}
        for t in TOKENS_N:
            out.append((f"_t{t}" + ("_split" if split else ""),
                        dict(bm=64, bn=t, stages=TOKENS_N_STAGES,
                             persistent=False, swizzle_c=False,
                             tokens_n=True, **split),
                        rule if t == DECODE_ROWS
                        else f"{rule}_{t}" if split else f"tokens_{t}"))
    return tuple(out)


def rows_off32_rule(element_bytes):
    """%rows_off32: A's or Bt's rows, as the kernels read them (%A, %Bt after
    pad_operands, rows of %k_pad elements), or their bases not 32-byte
    aligned."""
    return misaligned("rows_off32", [("%A", "!A"), ("%Bt", "!Bt")], "%k_pad",
                      element_bytes, 32)


def own_workspace_launch(suffix, tile_elems, launch):
    """`launch` (a split kernel's, over %gx`suffix` x %gy`suffix` tiles in
    %splits shares) with the workspace the runtime keeps for the stream
    (tile.stream_workspace): the partial tiles, and the counters, zero when
    allocated and left zero by the kernel (each tile's last arrival resets
    its counter), so a call allocates, zeroes and frees nothing once the
    stream's buffers are large enough. Where the runtime cannot allocate them
    (it records the driver's error), nothing is launched."""
    lines = "\n".join("  " + line for line in launch.splitlines())
    return f"""      %ws_tiles = arith.muli %gx{suffix}, %gy{suffix} : index
      %ws_slots = arith.muli %ws_tiles, %splits : index
      %ws_tile = arith.constant {tile_elems} : index
      %ws_elems = arith.muli %ws_slots, %ws_tile : index
      %partials = tile.stream_workspace "gemm split partials" [%stream] (%ws_elems) : memref<?xf32>
      %counters = tile.stream_workspace "gemm split counters" [%stream] (%ws_tiles) zeroed : memref<?xi32>
      %ws_p = memref.extract_aligned_pointer_as_index %partials : memref<?xf32> -> index
      %ws_c = memref.extract_aligned_pointer_as_index %counters : memref<?xi32> -> index
      %ws_least = arith.minui %ws_p, %ws_c : index
      %ws_got = arith.cmpi ne, %ws_least, %c0 : index
      scf.if %ws_got {{
{lines}
      }}"""


def emit_chooser(choices=CHOICES, sms=SMS, common=None, split_k=1,
                 stream_k=False, by_waves=False, cluster=1, cluster_off32=1,
                 decode_split=1, decode_tokens_n=False):
    """One module with a kernel per tile shape and entries that pick one per
    problem by the rules of CHOICES. `common` holds the options every kernel
    takes (bf16 output, FP8, persistent, swizzled C); a choice may override
    them. With split_k > 1 (bf16 or FP8 output), a split-K kernel of up to
    split_k shares joins them and the entries take its workspace. With
    stream_k (persistent, bf16 or FP8 output), the default 128 x 256 kernel
    is the stream-K one, and the entries take the workspace too. With
    by_waves, a 128 x 192 kernel joins them, taken before the default where
    its waves finish first. With cluster > 1 (persistent), the 128 x 256
    kernel (and the 128 x 192 one) run in clusters of that many CTAs that
    share their B tile. With cluster_off32 > 1 (persistent, unclustered),
    those kernels also in clusters of that many CTAs, which the entries take
    where the operands' rows are not 32-byte aligned. Persistent with
    swizzled C, the default kernel's
    --c-by-threads form (_cthreads) comes first, for C rows the TMA cannot
    write. With decode_tokens_n, the decode rows' kernel (and its split
    form) is one with the tokens as wgmma's N per width of TOKENS_N, the
    narrowest that holds M."""
    common = dict(common or {})
    narrow_rate = NARROW_RATE
    if by_waves:
        choices = choices[:-1] + (WAVE_CHOICE,) + choices[-1:]
    if cluster > 1:
        if not common.get("persistent") or stream_k:
            raise ValueError("--choose --cluster clusters the persistent "
                             "128 x 256 kernel (and 128 x 192): use "
                             "--persistent, without --stream-k")
        clustered = {"cluster": cluster, "registers": CLUSTER_REGISTERS}
        ring = {}
        if (common.get("bf16_out") and common.get("swizzle_c")
                and not common.get("fp8")):
            ring = {"stages": RING_STAGES, "store_chunks": True,
                    "c_buffers": RING_BUFFERS}
            narrow_rate = RING_NARROW_RATE
        choices = tuple(
            (name, dict(kwargs, **clustered, **(ring if rule is None else {})),
             rule)
            if rule in (None, "fewer_waves") else (name, kwargs, rule)
            for name, kwargs, rule in choices)
        if ring and by_waves:
            # The shapes rule instead of the two-width one: each shape's
            # kernel where its tiles finish first (shape_rule).
            at = next(i for i, c in enumerate(choices)
                      if c[2] == "fewer_waves")
            shapes = []
            for rows, columns, _ in RING_SHAPES:
                rule, name = shape_name(rows, columns)
                if (rows, columns) == (BM, NARROW_BN):
                    name, kwargs, _ = choices[at]
                elif rows == BM:
                    kwargs = dict(clustered, **ring, bn=columns)
                else:
                    kwargs = dict(clustered, bm=rows, bn=columns,
                                  registers=M192_REGISTERS,
                                  stages=RING_STAGES, store_chunks=True,
                                  c_buffers=1)
                shapes.append((name, kwargs, rule))
            choices = choices[:at] + tuple(shapes) + choices[at + 1:]
        single = ((ONE_WAVE_NARROW_CHOICE,) if by_waves else ()) + (
            ONE_WAVE_CHOICE,)
        at = next(i for i, c in enumerate(choices)
                  if c[2] in ("fewer_waves", None)
                  or c[2].startswith("shape_"))
        choices = (choices[:at] + tuple(
            (name, dict(kwargs, registers=CLUSTER_REGISTERS,
                        **(ring if rule == "one_wave" else {})), rule)
            for name, kwargs, rule in single) + choices[at:])
    if cluster_off32 > 1:
        if cluster > 1 or not common.get("persistent") or stream_k:
            raise ValueError("--cluster-off32 clusters an unclustered "
                             "chooser's persistent 128 x 256 (and 128 x "
                             "192) kernels: use --persistent, without "
                             "--cluster or --stream-k")
        clustered = {"cluster": cluster_off32, "registers": CLUSTER_REGISTERS}
        twinned = []
        for name, kwargs, rule in choices:
            if rule in (None, "fewer_waves"):
                twin_rule = ("off32_narrow" if rule == "fewer_waves"
                             else "rows_off32")
                twinned.append((f"{name}_c{cluster_off32}",
                                dict(kwargs, **clustered), twin_rule))
            twinned.append((name, kwargs, rule))
        choices = tuple(twinned)
    if stream_k and not (common.get("persistent") and
                         (common.get("bf16_out") or common.get("fp8"))):
        raise ValueError("--choose --stream-k shares the 128 x 256 "
                         "persistent kernel's last wave through a workspace: "
                         "use --persistent with --bf16-out or --fp8")
    if split_k > 1:
        if not (common.get("bf16_out") or common.get("fp8")):
            raise ValueError("--choose --split-k combines partials in a "
                             "workspace: use --bf16-out or --fp8")
        name, kwargs, rule = M64_SPLIT_CHOICE
        choices = ((name, dict(kwargs, split_k=split_k), rule),) + choices
    if decode_split > 1:
        if split_k > 1 or not (common.get("bf16_out") or common.get("fp8")):
            raise ValueError("--decode-split combines partials in the "
                             "stream's workspace: use --bf16-out or --fp8, "
                             "without --split-k (whose workspace the caller "
                             "passes)")
        name, kwargs, _ = next(c for c in choices if c[2] == "decode_rows")
        choices = ((f"{name}_split", dict(kwargs, split_k=decode_split),
                    "decode_split"),) + choices
    if decode_tokens_n:
        choices = tokens_n_choices(choices)
    if common.get("persistent") and common.get("swizzle_c"):
        # Where C's rows or base are not 16-byte aligned no TMA store can
        # write C, and the kernels' fallback versions would copy every
        # operand by one thread: the default 128 x 256 kernel with its C
        # chunks copied by the consumer threads instead
        # (--c-by-threads, a ring of two chunk buffers), A and Bt still
        # through TMA, before any other choice.
        name, kwargs, _ = next(c for c in choices if c[2] is None)
        by_threads = dict(kwargs, c_by_threads=True, store_chunks=True,
                          c_buffers=kwargs.get("c_buffers", RING_BUFFERS),
                          own_rows=False)
        if common.get("fp8"):
            by_threads.update(stages=FP8_BY_THREADS_STAGES,
                              registers=CLUSTER_REGISTERS)
        choices = (("_cthreads", by_threads, "c_unaligned"),) + choices
    aliases = ("stagesA", "stagesB", "tileA", "tileB", "tileCs", "tileCp",
               "tileC", "bars", "acc")
    heads, kernels, launches = [], [], []
    for suffix, kwargs, rule in choices:
        options = dict(common, **kwargs)
        if stream_k and rule is None:
            options["stream_k"] = True
        if suffix == "_n128" and not (options.get("bf16_out") or
                                      options.get("fp8")):
            options["stages"] = N128_F32_STAGES
        if not options.get("persistent") or options.get("stream_k"):
            # Chunked stores are the persistent cooperative epilogue's.
            options.pop("store_chunks", None)
        text = emit(**options)
        for name in aliases:
            text = re.sub(rf"!{name}\b", f"!{name}{suffix}", text)
        heads += [line for line in text.splitlines()
                  if line.startswith("!") and line.split(" ")[0] not in
                  {h.split(" ")[0] for h in heads}]
        body = text[text.index("    gpu.func @gemm("):
                    text.index("\n  }\n\n  // C = A @ Bt^T, launched")]
        kernels.append(body.replace("gpu.func @gemm(", f"gpu.func @gemm{suffix}(", 1))
        smem = re.search(r"%smem = arith.constant (\d+) : i32", text).group(1)
        threads = re.search(r"%threads = arith.constant (\d+) : index",
                            text).group(1)
        launches.append((suffix, rule, options.get("bm", BM),
                         options.get("bn", BN), smem, threads,
                         options.get("persistent", False),
                         options.get("split_k", 1) > 1,
                         options.get("stream_k", False),
                         options.get("cluster", 1),
                         decode_split > 1 and options.get("split_k", 1) > 1,
                         options.get("tokens_n", False)))
    fp8 = common.get("fp8", False)
    # The entries' arguments after C: (name, type), the scales or alpha, then
    # the workspace where a kernel takes one (its launch passes it).
    params = ([("%scale_a", "memref<1xf32>"), ("%scale_b", "memref<1xf32>")]
              if fp8 else [("%alpha", "f32")] if common.get("bf16_out")
              else [])
    extra_use = "".join(f", {name} : {ty}" for name, ty in params)
    if split_k > 1 or stream_k:
        params += WORKSPACE_PARAMS
    extra = "".join(f", {name}: {ty}" for name, ty in params)
    bk = common.get("bk", BK)
    split_rule = m64n64_split_rule(bk, sms, split_k, "m64n64_split")
    decode_split_rule = m64n64_split_rule(
        bk, sms, decode_split, "decode_split", own_workspace=True,
        share_ksteps=(TOKENS_SHARE_KSTEPS if decode_tokens_n and not fp8
                      else DECODE_SHARE_KSTEPS))
    # The rules, on M and the count of 128 x 256 tiles.
    conditions = {
        "m64_count": """%m64_up = arith.addi %M, %c63 : index
%m64_rows = arith.divui %m64_up, %c64 : index
%n128_up = arith.addi %N, %c127 : index
%n128_cols = arith.divui %n128_up, %c128 : index
%m64_tiles_n = arith.muli %m64_rows, %n128_cols : index""",
        "m64_narrow": """%m_le_64 = arith.cmpi ule, %M, %c64 : index
%m64_half_wave = arith.cmpi ule, %m64_tiles_n, %half_sms : index
%m64_narrow = arith.ori %m_le_64, %m64_half_wave : i1""",
        "m64_tiles": f"""%m_le_128 = arith.cmpi ule, %M, %c128 : index
%sms_m64 = arith.constant {sms} : index
%m64_one_wave = arith.cmpi ule, %m64_tiles_n, %sms_m64 : index
%m64_tiles = arith.ori %m_le_128, %m64_one_wave : i1""",
        "m64n192_one_wave": f"""%n192_up = arith.addi %N, %c191 : index
%n192_cols = arith.divui %n192_up, %c192 : index
%m64n192_tiles = arith.muli %m64_rows, %n192_cols : index
%sms_m64n192 = arith.constant {sms} : index
%m64n192_one_wave = arith.cmpi ule, %m64n192_tiles, %sms_m64n192 : index""",
        "decode_rows": f"""%decode_m = arith.constant {DECODE_ROWS} : index
%decode_rows = arith.cmpi ule, %M, %decode_m : index""",
        **{f"tokens_{t}": f"""%tokens_{t}_m = arith.constant {t} : index
%tokens_{t} = arith.cmpi ule, %M, %tokens_{t}_m : index""" for t in TOKENS_N[:-1]},
        **{f"decode_split_{t}":
           f"%decode_split_{t} = arith.andi %decode_split, %tokens_{t} : i1"
           for t in TOKENS_N[:-1]},
        "few_wide_tiles": "%few_wide_tiles = arith.cmpi ult, %tiles, %half_sms : index",
        # The unclustered one-wave kernels where the operands' rows (as the
        # kernels read them, padded or not) start 32-byte aligned: rows 16
        # bytes off load at a fraction of the rate, and the clustered
        # kernels, which load a CTA's B rows half as often, lose less
        # (docs/gemm.md, "Rows off 128-byte lines").
        "one_wave": f"""%sms_one = arith.constant {sms} : index
%one_wave_tiles = arith.cmpi ule, %tiles, %sms_one : index
%one_wave_true = arith.constant 1 : i1
%one_wave_rows = arith.xori %rows_off32, %one_wave_true : i1
%one_wave = arith.andi %one_wave_tiles, %one_wave_rows : i1""",
        "rows_off32": rows_off32_rule(1 if fp8 else 2),
        "fewer_waves": fewer_waves_rule(sms, rate=narrow_rate),
        "m64n64_split": split_rule,
        "decode_split": decode_split_rule,
    }
    # C's rows (its columns' bytes) or base not 16-byte aligned.
    conditions["c_unaligned"] = "%c_cols = memref.dim %C, %c1 : !C\n" + \
        misaligned("c_unaligned", [("%C", "!C")], "%c_cols",
                    2 if common.get("bf16_out") or fp8 else 4)
    conditions["narrow_one_wave"] = (
        "%narrow_one_wave = arith.andi %one_wave, %fewer_waves : i1")
    conditions["off32_narrow"] = (
        "%off32_narrow = arith.andi %rows_off32, %fewer_waves : i1")
    conditions["shape_choice"] = shape_rule(sms, RING_SHAPES)
    for i, (rows, columns, _) in enumerate(RING_SHAPES, 1):
        rule = shape_name(rows, columns)[0]
        conditions[rule] = (
            f"%{rule}_i = arith.constant {i} : index\n"
            f"%{rule} = arith.cmpi eq, %sr_best, %{rule}_i : index")
    # The rules a rule's condition reads, computed first where no enclosing
    # rule computed them (the rules after it, in its else branch, see them).
    requires = {"narrow_one_wave": ("fewer_waves", "one_wave"),
                "one_wave": ("rows_off32",),
                "off32_narrow": ("rows_off32", "fewer_waves"),
                "m64_narrow": ("m64_count",), "m64_tiles": ("m64_count",),
                "m64n192_one_wave": ("m64_count",),
                "m64n64_split": ("m64_count",),
                "decode_split": ("m64_count", "decode_rows"),
                **{f"decode_split_{t}": ("decode_split", f"tokens_{t}")
                   for t in TOKENS_N[:-1]},
                **{shape_name(rows, columns)[0]: ("shape_choice",)
                   for rows, columns, _ in RING_SHAPES}}

    def with_requirements(rule):
        """`rule` after the rules its condition reads, theirs first."""
        order = []
        for r in requires.get(rule, ()):
            order += [x for x in with_requirements(r) if x not in order]
        return order + [rule]

    def launch(suffix, bm, bn, smem, threads, persistent, split, streamed,
               clustered, own_workspace=False, tokens_n=False):
        """Launch of one kernel over its own grid of bm x bn tiles: one CTA
        per tile, or for a persistent kernel one per SM (at most one per
        tile); a stream-K kernel also gets the workspace and the count of
        tiles it shares. A tokens-as-N kernel's tiles are C^T's (rows over
        N, columns over M)."""
        rows, cols = ("%N", "%M") if tokens_n else ("%M", "%N")
        grid = f"""      %cbm{suffix} = arith.constant {bm} : index
      %cbn{suffix} = arith.constant {bn} : index
      %mp{suffix} = arith.addi {rows}, %cbm{suffix} : index
      %mq{suffix} = arith.subi %mp{suffix}, %c1 : index
      %gy{suffix} = arith.divui %mq{suffix}, %cbm{suffix} : index
      %np{suffix} = arith.addi {cols}, %cbn{suffix} : index
      %nq{suffix} = arith.subi %np{suffix}, %c1 : index
      %gx{suffix} = arith.divui %nq{suffix}, %cbn{suffix} : index
"""
        blocks = f"blocks in (%gx{suffix}, %gy{suffix}, %c1)"
        args = extra_use
        if split:
            blocks = f"blocks in (%gx{suffix}, %gy{suffix}, %splits)"
            args += WORKSPACE_USE
        if persistent and clustered > 1:
            grid += persistent_cluster_ctas(f"%gx{suffix}", f"%gy{suffix}",
                                            sms, clustered, " " * 6)
            blocks = "clusters in (%ccl, %c1, %c1) blocks in (%ctas, %c1, %c1)"
        elif persistent:
            grid += persistent_ctas(f"%gx{suffix}", f"%gy{suffix}", sms,
                                    "%all", " " * 6)
            blocks = "blocks in (%ctas, %c1, %c1)"
        if streamed:
            grid += stream_k_rule(bk, bm * bn, " " * 6, tiles="%all")
            args += WORKSPACE_USE + STREAM_K_USE
        text = f"""      %threads = arith.constant {threads} : index
      %smem = arith.constant {smem} : i32
      %t = gpu.launch_func async [%stream] @gemm_kernels::@gemm{suffix}
          {blocks} threads in (%threads, %c1, %c1)
          dynamic_shared_memory_size %smem
          args(%A : !A, %Bt : !Bt, %C : !C{args})"""
        if own_workspace:
            text = own_workspace_launch(suffix, bm * bn, text)
        return grid + text

    def select(rest, depth, computed=frozenset()):
        """Nested scf.if over the rules, in order; the last kernel is the
        default. `computed`: the rules whose conditions enclosing branches
        hold already."""
        suffix, rule, *shape = rest[0]
        pad = "  " * depth
        body = launch(suffix, *shape)
        if len(rest) == 1:
            return "\n".join(pad + line for line in body.splitlines())
        needed = [r for r in with_requirements(rule) if r not in computed]
        inner = select(rest[1:], depth + 1, computed | set(needed))
        text = "\n".join(pad + line for line in body.splitlines())
        condition = "".join(f"{pad}    {line}\n" for r in needed
                            for line in conditions[r].splitlines())
        return (f"{condition}{pad}    scf.if %{rule} {{\n"
                f"{pad}  {text.lstrip()}\n{pad}    }} else {{\n"
                f"{inner}\n{pad}    }}")

    def async_entry():
        """@gemm_async: the operands padded where the TMA cannot read them,
        then the kernel the rules pick, on `stream`."""
        return f"""  func.func @gemm_async(%A_in: !A, %Bt_in: !Bt, %C: !C{extra}, %stream: !gpu.async.token) -> !gpu.async.token attributes {{llvm.emit_c_interface}} {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %c127 = arith.constant 127 : index
    %c128 = arith.constant 128 : index
    %c191 = arith.constant 191 : index
    %c192 = arith.constant 192 : index
    %c255 = arith.constant 255 : index
    %c256 = arith.constant 256 : index
    %half_sms = arith.constant {sms // 2} : index
    %M = memref.dim %A_in, %c0 : !A
    %N = memref.dim %Bt_in, %c0 : !Bt
{pad_operands(1 if fp8 else 2, bk * (1 if fp8 else 2))}    scf.if %run {{
{pad_launches()}      // The count of 128 x 256 tiles.
      %mw = arith.addi %M, %c128 : index
      %mw1 = arith.subi %mw, %c1 : index
      %rows = arith.divui %mw1, %c128 : index
      %nw = arith.addi %N, %c255 : index
      %cols = arith.divui %nw, %c256 : index
      %tiles = arith.muli %rows, %cols : index
{select(launches, 1)}
    }}
{FREE_PADDED}    return %stream : !gpu.async.token
  }}
"""

    def sync_entry():
        """@gemm: @gemm_async on a stream of its own, waited for."""
        args = "".join(f", {name}" for name, _ in params)
        arg_types = "".join(f", {ty}" for _, ty in params)
        return f"""  func.func @gemm(%A: !A, %Bt: !Bt, %C: !C{extra}) attributes {{llvm.emit_c_interface}} {{
    %stream = gpu.wait async
    // The token gemm_async returns is %stream itself: waiting for the stream
    // (not the call's result, which the lowering would take for an event).
    %done = func.call @gemm_async(%A, %Bt, %C{args}, %stream) : (!A, !Bt, !C{arg_types}, !gpu.async.token) -> !gpu.async.token
    gpu.wait [%stream]
    return
  }}
"""

    flags = "".join(f" --{k.replace('_', '-')}" for k, v in common.items()
                    if v is True)
    out = [f"// Generated by examples/gemm/gen_gemm.py --choose{flags}: a "
           "kernel per tile shape",
           "// (" + ", ".join(f"{bm}x{bn}" for _, rule, bm, bn, *_ in launches)
           + "), the entries pick one per problem. See docs/gemm.md.", ""]
    out += heads + ["", "module attributes {gpu.container_module} {",
                    "  gpu.module @gemm_kernels {"]
    out += kernels
    out += [pad_kernel("f8E4M3FN" if fp8 else "bf16", 16 if fp8 else 8)]
    out += ["  }", "",
            "  // C = A @ Bt^T on `stream`, with the tile shape for M and N.",
            async_entry(),
            "  // The same, synchronous: returns when C is written.",
            sync_entry(),
            "}"]
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--bm", type=int, default=BM, choices=(64, 128, 192, 256),
                    help="tile rows: 64 per consumer warpgroup")
    ap.add_argument("--bn", type=int, default=None,
                    help=f"tile columns ({BN}; {PINGPONG_BN} with --pingpong)")
    ap.add_argument("--stages", type=int, default=None,
                    help=f"pipeline stages ({STAGES}; {PINGPONG_STAGES} with "
                         "--pingpong)")
    ap.add_argument("--group-m", type=int, default=GROUP_M)
    ap.add_argument("--protocol", choices=["pipeline", "handwritten"],
                    default="pipeline",
                    help="generate the main loop as a tile.pipeline, or with "
                         "its mbarrier protocol written out")
    ap.add_argument("--fp8", action="store_true",
                    help="e4m3 operands (BK 128 by default), per-tensor scales "
                         "(scale_a, scale_b: memref<1xf32>), bf16 output")
    ap.add_argument("--choose", action="store_true",
                    help="one module with 128x256 and 128x128 kernels and "
                         "entries that pick one per problem")
    ap.add_argument("--by-waves", action="store_true",
                    help="with --choose: also a 128x192 kernel, taken where "
                         "its waves of SMs finish before the 128x256 tiles' "
                         "(tile::schedule::chooseTileWidth)")
    ap.add_argument("--bf16-out", action="store_true",
                    help="bf16 output C = alpha * (A @ Bt^T), alpha an f32 "
                         "argument after C")
    ap.add_argument("--bk", type=int, default=None)
    ap.add_argument("--split-k", type=int, default=1, metavar="S",
                    help="with the pipeline: S CTAs (grid z) share each "
                         "tile's K steps; with f32 output they add their "
                         "partial tiles into C (TMA reduce-add; the entry "
                         "zeroes C), with bf16 or FP8 output they meet in a "
                         "workspace (partials, counters: arguments after the "
                         "scales) and the tile's last CTA combines them. "
                         "With --choose: the 64 x 64 kernel in up to S "
                         "shares where its tiles fill at most half the SMs "
                         "(the rule in docs/gemm.md)")
    ap.add_argument("--cluster", type=int, default=1, metavar="C",
                    help="with the pipeline: clusters of C CTAs along M that "
                         "share (multicast) their B tile; with --persistent "
                         "the clusters walk units of C tile rows; with "
                         "--choose --persistent the 128x256 and 128x192 "
                         "kernels run in clusters (setmaxnreg 40,232), and "
                         "one-wave problems unclustered")
    ap.add_argument("--a-rows", type=int, default=None, metavar="R",
                    help="with --bm 64: A's box loads R rows (a multiple of "
                         "8), the tile's others zero, for M <= R")
    ap.add_argument("--tokens-n", action="store_true",
                    help="with --bm 64 and --bn T (8, 16 or 32): C^T's "
                         "tiles, the weights' (Bt's) 64 rows as wgmma's M "
                         "and T of A's rows (the tokens) as its N; any M, "
                         "meant for decode rows (M <= T)")
    ap.add_argument("--decode-tokens-n", action="store_true",
                    help="with --choose: for M <= 32, the --tokens-n kernel "
                         "of the narrowest width in 8, 16, 32 that holds M "
                         "(and its split form with --decode-split)")
    ap.add_argument("--decode-split", type=int, default=1, metavar="S",
                    help="with --choose, bf16 or FP8 output: for M <= 32 "
                         "where the 64 x 64 tiles fill at most half the SMs, "
                         "the decode kernel split in up to S shares of K, "
                         "their partials meeting in the stream's workspace "
                         "(tile.stream_workspace)")
    ap.add_argument("--cluster-off32", type=int, default=1, metavar="C",
                    help="with --choose --persistent, without --cluster: the "
                         "128x256 and 128x192 kernels also in clusters of C "
                         "(setmaxnreg 40,232), which the entries take where "
                         "A's or Bt's rows or bases are not 32-byte aligned")
    ap.add_argument("--persistent", action="store_true",
                    help="with the pipeline: one CTA per SM walks the output "
                         "tiles (tile.pipeline tiles(...)); the epilogue's "
                         "store overlaps the next tile")
    ap.add_argument("--stream-k", action="store_true",
                    help="with --persistent and bf16 or FP8 output: where "
                         "the tiles leave the last wave partial, the last "
                         "tiles' k-steps are shared out evenly over the CTAs "
                         "(their partials meet in the workspace: partials, "
                         "counters, then the shared tile count, arguments "
                         "after the scales; the entries choose it); "
                         "setmaxnreg 40,232 unless --registers says "
                         "otherwise")
    ap.add_argument("--sms", type=int, default=SMS,
                    help="with --persistent: the CTAs to launch at most "
                         "(the GPU's SM count)")
    ap.add_argument("--swizzle-c", action="store_true",
                    help="a 128B-swizzled C tile in 128-byte column chunks "
                         "(conflict-free fragment stores, one TMA store per "
                         "chunk)")
    ap.add_argument("--store-chunks", dest="store_chunks", action="store_true",
                    help="with --persistent and --swizzle-c (cooperative): "
                         "store each C chunk as soon as it is written")
    ap.add_argument("--c-buffers", dest="c_buffers", type=int, default=None,
                    metavar="N",
                    help="with --store-chunks: the chunks take turns in N "
                         "chunk buffers (128 bytes of each row) instead of "
                         "a whole C tile, which leaves room for more stages")
    ap.add_argument("--stagger", type=int, default=0, metavar="L",
                    help="persistent 128-row kernels with --store-chunks: "
                         "the two consumers L k-steps apart, each storing "
                         "its own 64 rows, so their epilogues do not "
                         "coincide")
    ap.add_argument("--own-rows", dest="own_rows", action="store_true",
                    help="persistent 128-row kernels with --store-chunks: "
                         "each consumer writes and stores its own 64 rows "
                         "of every C chunk (its own named barrier and "
                         "storing thread), so neither waits for the other "
                         "in the epilogue")
    ap.add_argument("--in-flight", dest="in_flight", type=int, default=1,
                    choices=(0, 1), metavar="F",
                    help="with the pipeline: the wgmma groups each consumer "
                         "leaves pending at the end of a k-step (1; 0 waits "
                         "for them, releasing the stage a k-step sooner)")
    ap.add_argument("--c-by-threads", dest="c_by_threads",
                    action="store_true",
                    help="with --store-chunks --c-buffers N: the consumer "
                         "threads copy each C chunk to C themselves, element "
                         "by element, instead of a TMA store (C's rows need "
                         "no alignment; --choose --persistent --swizzle-c "
                         "takes it where they lack it)")
    ap.add_argument("--l2-hints", default=None, metavar="A:B",
                    help="the L2 policy of the pipelined kernels' loads of A "
                         "and of Bt, each first, last, normal or none "
                         "(tile.copy_async's cache_hint evict_first, ...)")
    ap.add_argument("--stmatrix", action="store_true",
                    help="--persistent --swizzle-c: the epilogue writes C "
                         "16 x 16 blocks at a time (tile.wgmma_store_fragment, "
                         "stmatrix) instead of 32-bit stores")
    ap.add_argument("--pingpong", action="store_true",
                    help="with --persistent, bf16 or FP8 output and "
                         "--swizzle-c: the two consumer warpgroups take the "
                         "tiles in turn (tile.pipeline schedule = pingpong), "
                         "each computing a whole tile (BN 128 by default) "
                         "into its own C tile, so one's epilogue overlaps "
                         "the other's main loop; setmaxnreg 40,232 unless "
                         "--registers says otherwise")
    ap.add_argument("--registers", default=None, metavar="P,C",
                    help="with the pipeline: setmaxnreg the producer down to "
                         "P and the consumers up to C registers per thread")
    args = ap.parse_args()
    registers = (tuple(int(r) for r in args.registers.split(","))
                 if args.registers else None)
    bn = args.bn or (PINGPONG_BN if args.pingpong else BN)
    stages = args.stages or (PINGPONG_STAGES if args.pingpong else STAGES)
    if args.pingpong:
        registers = registers or PINGPONG_REGISTERS
    if args.decode_split > 1 and not args.choose:
        ap.error("--decode-split adds a kernel to --choose's: use it with "
                 "--choose")
    if args.cluster_off32 > 1 and not args.choose:
        ap.error("--cluster-off32 adds kernels to --choose's: use it with "
                 "--choose")
    if args.by_waves and not args.choose:
        ap.error("--by-waves adds a kernel to --choose's: use it with --choose")
    if args.decode_tokens_n and not args.choose:
        ap.error("--decode-tokens-n picks --choose's decode kernels: use it "
                 "with --choose")
    if args.choose and args.tokens_n:
        ap.error("--tokens-n is one kernel's form: with --choose, use "
                 "--decode-tokens-n")
    if args.choose and args.c_by_threads:
        ap.error("--c-by-threads: --choose takes its kernel with C copied by "
                 "the threads where C's rows are not 16-byte aligned")
    if args.choose and args.c_buffers is not None:
        ap.error("--c-buffers: --choose rings the C chunks of the kernels "
                 "it measured that for (the clustered bf16 chooser's 128 x 256 "
                 "ones)")
    if args.choose and args.store_chunks and not (args.persistent
                                                  and args.swizzle_c):
        ap.error("--choose --store-chunks stores the chunks of the persistent "
                 "kernels: use --persistent --swizzle-c")
    if args.l2_hints:
        hints = args.l2_hints.split(":")
        kinds = ("first", "last", "normal", "none")
        if len(hints) != 2 or any(h not in kinds for h in hints):
            ap.error(f"--l2-hints {args.l2_hints}: A's and Bt's policies, "
                     f"each one of {', '.join(kinds)}, as A:B")
        L2_HINTS.update({src: h for src, h in zip(("%A", "%Bt"), hints)
                         if h != "none"})
    if args.choose:
        common = {k: True for k in ("bf16_out", "fp8", "persistent",
                                    "swizzle_c", "store_chunks", "stmatrix",
                                    "own_rows")
                  if getattr(args, k)}
        if args.fp8:
            common["bk"] = args.bk or 128
        if args.in_flight != 1:
            common["in_flight"] = args.in_flight
        try:
            print(emit_chooser(common=common, split_k=args.split_k,
                               stream_k=args.stream_k,
                               by_waves=args.by_waves,
                               cluster=args.cluster,
                               cluster_off32=args.cluster_off32,
                               decode_split=args.decode_split,
                               decode_tokens_n=args.decode_tokens_n), end="")
        except ValueError as error:
            ap.error(str(error))
        return
    if args.stmatrix and not (args.persistent and args.swizzle_c
                              and not args.pingpong and args.bm <= 128
                              and (args.bf16_out or args.fp8)):
        ap.error("--stmatrix writes the swizzled bf16 C chunks of a "
                 "persistent cooperative kernel of 64 or 128 rows "
                 "(--persistent --swizzle-c with --bf16-out or --fp8)")
    if args.own_rows and not (args.store_chunks and args.bm == 128
                              and not args.pingpong):
        ap.error("--own-rows splits the C chunks of a persistent 128-row "
                 "cooperative kernel between its consumers (--store-chunks, "
                 "--bm 128)")
    if args.persistent and (args.split_k > 1 or args.protocol != "pipeline"):
        ap.error("--persistent is a tile.pipeline kernel (no --split-k or "
                 "handwritten protocol)")
    bk = args.bk or (128 if args.fp8 else BK)
    try:
        text = emit(bm=args.bm, bn=bn, bk=bk, stages=stages,
                    group_m=args.group_m, protocol=args.protocol,
                    registers=registers, cluster=args.cluster, fp8=args.fp8,
                    split_k=args.split_k, bf16_out=args.bf16_out,
                    persistent=args.persistent, sms=args.sms,
                    swizzle_c=args.swizzle_c, stream_k=args.stream_k,
                    pingpong=args.pingpong, store_chunks=args.store_chunks,
                    c_buffers=args.c_buffers, stagger=args.stagger,
                    stmatrix=args.stmatrix, own_rows=args.own_rows,
                    in_flight=args.in_flight, c_by_threads=args.c_by_threads,
                    a_rows=args.a_rows, tokens_n=args.tokens_n)
    except ValueError as error:
        ap.error(str(error))
    print(text, end="")


if __name__ == "__main__":
    main()
