"""The attention kernels' work-tile orders (gen_attention.py): which
(query block, head, batch) tile a CTA takes, as IR text.

- one-tile causal kernels: the grid's CTAs in longest-first order, in
  sections of heads whose K and V fit in L2 (emit_lpt_tile);
- persistent non-causal kernels: CTA c takes tiles c, c + CTAs, ...;
  with a split tail (`--split-tail`), only up to the last whole wave
  before the last partial one, and the remaining tiles' KV blocks in
  contiguous, even ranges (emit_split_share);
- persistent causal kernels: units of two neighbouring tiles of a paired
  order that levels the CTAs' KV blocks (emit_paired_walk), or
  (`--causal-walk table`) the tiles the longest-first schedule gives the
  CTA, read from the table the host entry passes (emit_table_walk).

Each function writes lines through `b` (a line writer) or `e` (an Emitter)
with the kernel's value names (%H, %Skv, %cbm, ...), which gen_attention.py
defines."""


def emit_tile_coords(e, a, indent=""):
    """The CTA's t-th work tile (persistent): non-causal, tile cta + t x CTAs
    of the (query block, head, batch) tiles, query blocks fastest, so that
    the CTAs at work together read the same heads' K and V; causal, the
    paired order's (emit_paired_walk) or the table's (emit_table_walk). In
    32 bits (see emit_narrow_tile_walk). %m0 is the causal kernel's tile
    value (the pipeline's iterations region computes it)."""
    e.line(f"{indent}%t32 = arith.index_cast %t : index to i32")
    if a.causal and a.table_walk:
        emit_table_walk(e, indent)
    elif a.causal:
        emit_paired_walk(e, indent)
    else:
        lin = "%t_lin_dp" if a.split_tail else "%t_lin"
        e.line(f"{indent}%t_stride = arith.muli %t32, %ctas32 : i32")
        e.line(f"{indent}{lin} = arith.addi %cta32, %t_stride : i32")
        if a.split_tail:
            # The CTA's whole tiles, then its pieces of the split tail:
            # tiles %skbase32, %skbase32 + 1, ... (emit_split_share).
            e.line(f"{indent}%t_piece = arith.subi %t32, %dp32 : i32")
            e.line(f"{indent}%t_lin_sk = arith.addi %skbase32, %t_piece : i32")
            e.line(f"{indent}%t_whole = arith.cmpi ult, %t32, %dp32 : i32")
            e.line(f"{indent}%t_lin = arith.select %t_whole, %t_lin_dp, %t_lin_sk : i32")
        e.line(f"{indent}%qb32 = arith.remui %t_lin, %gx32 : i32")
        e.line(f"{indent}%t_bh = arith.divui %t_lin, %gx32 : i32")
    e.line(f"{indent}%h32 = arith.remui %t_bh, %H32 : i32")
    e.line(f"{indent}%b32 = arith.divui %t_bh, %H32 : i32")
    e.line(f"{indent}%qb = arith.index_castui %qb32 : i32 to index")
    e.line(f"{indent}%h = arith.index_castui %h32 : i32 to index")
    e.line(f"{indent}%b = arith.index_castui %b32 : i32 to index")
    if not a.causal:
        e.line(f"{indent}%m0 = arith.muli %qb, %cbm : index")


def emit_paired_walk(e, indent):
    """%qb32 and %t_bh (head and batch) of the CTA's t-th tile (persistent
    causal). The order: sections of heads whose K and V fit in L2
    (emit_lpt_section), in each the query-block ranks paired, the longest
    (rank r: the last query block but r, gx - r KV blocks) with the
    shortest (rank gx - 1 - r, r + 1 blocks), the section's heads fastest:
    (r 0, head 0), (r gx - 1, head 0), (r 0, head 1), ... and, for an odd
    gx, the middle rank's tiles last. Any two neighbours there take gx + 1
    KV blocks or gx, so the CTAs deal out neighbour pairs (units):
    unit cta + (t / 2) x CTAs, its first tile for an even t, its second for
    an odd one. Each CTA walks as many units as the others or one fewer,
    each a long tile then a short one of one head; the CTAs at work together
    read the K and V of a section's heads."""
    e.line(f"{indent}%t_unit0 = arith.shrui %t32, %c1_i32 : i32")
    e.line(f"{indent}%t_half = arith.andi %t32, %c1_i32 : i32")
    e.line(f"{indent}%t_units = arith.muli %t_unit0, %ctas32 : i32")
    e.line(f"{indent}%t_unit = arith.addi %t_units, %cta32 : i32")
    e.line(f"{indent}%t_pos0 = arith.shli %t_unit, %c1_i32 : i32")
    e.line(f"{indent}%t_pos = arith.addi %t_pos0, %t_half : i32")
    emit_section_of(lambda text: e.line(indent + text), "%t_pos", "%t_",
                    "i32", "%sec32", "%sec_tiles32", "%heads32")
    e.line(f"{indent}// Paired ranks, or the middle rank's tiles after them.")
    e.line(f"{indent}%t_paired2 = arith.muli %t_width, %pair_ranks2_32 : i32")
    e.line(f"{indent}%t_in_pairs = arith.cmpi ult, %t_idx, %t_paired2 : i32")
    e.line(f"{indent}%t_pair = arith.shrui %t_idx, %c1_i32 : i32")
    e.line(f"{indent}%t_second = arith.andi %t_idx, %c1_i32 : i32")
    e.line(f"{indent}%t_pair_head = arith.remui %t_pair, %t_width : i32")
    e.line(f"{indent}%t_r = arith.divui %t_pair, %t_width : i32")
    e.line(f"{indent}%t_r_short = arith.subi %gx_last32, %t_r : i32")
    e.line(f"{indent}%t_is_short = arith.cmpi ne, %t_second, %c0_i32 : i32")
    e.line(f"{indent}%t_pair_rank = arith.select %t_is_short, %t_r_short, %t_r : i32")
    e.line(f"{indent}%t_mid_head = arith.subi %t_idx, %t_paired2 : i32")
    e.line(f"{indent}%t_head = arith.select %t_in_pairs, %t_pair_head, %t_mid_head : i32")
    e.line(f"{indent}%t_rank = arith.select %t_in_pairs, %t_pair_rank, %pair_ranks32 : i32")
    e.line(f"{indent}%t_bh = arith.addi %t_sec0, %t_head : i32")
    e.line(f"{indent}%qb32 = arith.subi %gx_last32, %t_rank : i32")


def emit_table_walk(e, indent):
    """%qb32 and %t_bh of the CTA's t-th tile under the longest-first table
    (tile/Schedule/LongestFirst.h; the kernel's %sched: CTAs + 1 offsets,
    then each CTA's tiles as (batch x heads + head) x gx + query block):
    the tile's entry, read where a region needs it (once per tile: the
    iterations region and the others' per-tile parts), not carried through
    the consumers' main loop in registers."""
    e.line(f"{indent}%t_slot32 = arith.addi %tbl_base32, %t32 : i32")
    e.line(f"{indent}%t_slot = arith.index_castui %t_slot32 : i32 to index")
    e.line(f"{indent}%t_lin = memref.load %sched[%t_slot] : memref<?xi32>")
    e.line(f"{indent}%qb32 = arith.remui %t_lin, %gx32 : i32")
    e.line(f"{indent}%t_bh = arith.divui %t_lin, %gx32 : i32")


def emit_table_share(b):
    """%mine, the CTA's count of tiles in the table, and %tbl_base32, the
    index of its first (emit_table_walk), in 32 bits: the table holds fewer
    than 2^31 values (tile::schedule::kLongestFirstMaxTiles)."""
    b("// This CTA's tiles: entries offsets[cta] .. offsets[cta + 1] of the")
    b("// tiles after the CTAs + 1 offsets.")
    b("%cta_next = arith.addi %cta, %c1 : index")
    b("%tbl_first32 = memref.load %sched[%cta] : memref<?xi32>")
    b("%tbl_end32 = memref.load %sched[%cta_next] : memref<?xi32>")
    b("%tbl_first = arith.index_castui %tbl_first32 : i32 to index")
    b("%tbl_end = arith.index_castui %tbl_end32 : i32 to index")
    b("%mine = arith.subi %tbl_end, %tbl_first : index")
    b("%tbl_offsets = arith.addi %ctas, %c1 : index")
    b("%tbl_base = arith.addi %tbl_offsets, %tbl_first : index")
    b("%tbl_base32 = arith.index_cast %tbl_base : index to i32")


def emit_causal_blocks(b, indent="", result="%ntiles"):
    """The causal tile's KV blocks: up to the one holding its last query
    row (of query rows %m0 ..)."""
    b(f"{indent}%m_last = arith.addi %m0, %cbm : index")
    b(f"{indent}%diag_blocks = arith.divui %m_last, %cbn : index")
    b(f"{indent}{result} = arith.minui %kv_blocks, %diag_blocks : index")


def emit_walk_share(b, a, d):
    """%mine, the persistent CTA's count of tiles (of %total), and for the
    causal walk the section operands emit_paired_walk reads."""
    if a.causal and a.table_walk:
        emit_table_share(b)
        return
    if not a.causal:
        mine = "%mine_whole" if a.split_tail else "%mine"
        b("// This CTA's share: ceil((total - cta) / CTAs) tiles, none past the")
        b("// last tile.")
        b("%some = arith.cmpi ult, %cta, %total : index")
        b("%left = arith.subi %total, %cta : index")
        b("%ctas1 = arith.subi %ctas, %c1 : index")
        b("%left_up = arith.addi %left, %ctas1 : index")
        b("%share = arith.divui %left_up, %ctas : index")
        b(f"{mine} = arith.select %some, %share, %c0 : index")
        return
    emit_paired_walk_share(b, d)


def emit_paired_walk_share(b, d):
    """The persistent causal kernel's share of the paired order
    (emit_paired_walk): the units cta, cta + CTAs, ... below
    ceil(total / 2), two tiles each but the last unit of an odd total."""
    emit_lpt_section(b, d, "%B")
    b("%sec_tiles = arith.muli %sec, %gx : index")
    b("%pair_ranks = arith.divui %gx, %c2 : index")
    b("%pair_ranks2 = arith.muli %pair_ranks, %c2 : index")
    b("// Units of two neighbouring tiles, dealt out to the CTAs in turn.")
    b("%total_up = arith.addi %total, %c1 : index")
    b("%units = arith.divui %total_up, %c2 : index")
    b("%has_units = arith.cmpi ult, %cta, %units : index")
    b("%units_left = arith.subi %units, %cta : index")
    b("%ctas_m1 = arith.subi %ctas, %c1 : index")
    b("%units_up = arith.addi %units_left, %ctas_m1 : index")
    b("%my_units0 = arith.divui %units_up, %ctas : index")
    b("%my_units = arith.select %has_units, %my_units0, %c0 : index")
    b("%my_tiles = arith.muli %my_units, %c2 : index")
    b("// An odd total's last unit is one tile.")
    b("%odd_total = arith.andi %total, %c1 : index")
    b("%is_odd = arith.cmpi ne, %odd_total, %c0 : index")
    b("%units_m1 = arith.subi %units, %c1 : index")
    b("%last_owner = arith.remui %units_m1, %ctas : index")
    b("%owns_last = arith.cmpi eq, %cta, %last_owner : index")
    b("%short_unit = arith.andi %is_odd, %owns_last : i1")
    b("%short_i = arith.index_castui %short_unit : i1 to index")
    b("%mine = arith.subi %my_tiles, %short_i : index")


def emit_split_share(b):
    """The split tail's share (persistent non-causal kernels with
    --split-tail; after %kv_blocks, the tiles' KV blocks, and
    emit_narrow_tile_walk). Where the tiles fill at least one wave and the
    last wave is partial (and a tile has 2 blocks or more), the tiles of
    all but the last two waves stay whole (CTA c takes c, c + CTAs, ...;
    %dp32 of them each), and the KV blocks of the R remaining tiles (CTAs
    <= R < 2 CTAs) are dealt out as contiguous ranges of units (tile x
    blocks + block): CTA c takes units u(c) .. u(c + 1) - 1, u(c) =
    floor(c R blocks / CTAs). A range covers at least a tile's blocks, so
    each tile is cut at most once: its head (blocks 0 .. e - 1) is the last
    piece of one CTA and its tail (blocks e ..) the first of the next, and
    the CTA whose piece ends second combines the two (emit_split_combine).
    Elsewhere every tile is whole (%dp32 = the CTA's count). Defines
    %mine, %dp32, %skbase32 (the first tile of the CTA's pieces),
    %u0_rel32 (its first piece's first block), %u1_rel32 (its range's end,
    counted from that tile's first block) and %kvb32 (the blocks of a
    tile), in 32 bits: the tile count and the KV blocks are below 2^30 (K
    of 2^30 blocks of 128 rows of 64 two-byte values would be 16 TiB), so
    %u1_rel32 < 3 x blocks is too."""
    b("// Split tail: all but the last two waves whole; the rest's KV blocks")
    b("// in even, contiguous ranges over the CTAs.")
    emit_split_rule(b, "%total", "%sp_")
    b("%sp_kvb = arith.maxui %kv_blocks, %c1 : index")
    b("%sp_waves1 = arith.subi %sp_waves, %c1 : index")
    b("%sp_whole = arith.muli %sp_waves1, %ctas : index")
    b("%sp_tiles = arith.subi %total, %sp_whole : index")
    b("%sp_units = arith.muli %sp_tiles, %sp_kvb : index")
    b("%sp_q = arith.divui %sp_units, %ctas : index")
    b("%sp_r = arith.remui %sp_units, %ctas : index")
    for name, c in (("u0", "%cta"), ("u1", "%sp_cta1")):
        if name == "u1":
            b("%sp_cta1 = arith.addi %cta, %c1 : index")
        b(f"%sp_{name}q = arith.muli {c}, %sp_q : index")
        b(f"%sp_{name}r0 = arith.muli {c}, %sp_r : index")
        b(f"%sp_{name}r = arith.divui %sp_{name}r0, %ctas : index")
        b(f"%sp_{name} = arith.addi %sp_{name}q, %sp_{name}r : index")
    b("%sp_first = arith.divui %sp_u0, %sp_kvb : index")
    b("%sp_u1m = arith.subi %sp_u1, %c1 : index")
    b("%sp_last = arith.divui %sp_u1m, %sp_kvb : index")
    b("%sp_pieces0 = arith.subi %sp_last, %sp_first : index")
    b("%sp_pieces = arith.addi %sp_pieces0, %c1 : index")
    b("%sp_mine = arith.addi %sp_waves1, %sp_pieces : index")
    b("%mine = arith.select %split, %sp_mine, %mine_whole : index")
    b("%dp = arith.select %split, %sp_waves1, %mine_whole : index")
    b("%sp_base = arith.addi %sp_whole, %sp_first : index")
    b("%sp_first_unit = arith.muli %sp_first, %sp_kvb : index")
    b("%sp_u0_rel = arith.subi %sp_u0, %sp_first_unit : index")
    b("%sp_u1_rel = arith.subi %sp_u1, %sp_first_unit : index")
    b("%dp32 = arith.index_cast %dp : index to i32")
    b("%skbase32 = arith.index_cast %sp_base : index to i32")
    b("%u0_rel32 = arith.index_cast %sp_u0_rel : index to i32")
    b("%u1_rel32 = arith.index_cast %sp_u1_rel : index to i32")
    b("%kvb32 = arith.index_cast %kv_blocks : index to i32")
    b("%sp_zero32 = arith.constant 0 : i32")


# The split tail cuts tiles of this many KV blocks or more. A cut tile
# costs a second epilogue and the workspace's traffic, which short tiles
# do not earn back: round 105 (an H100, head_dim 128) timed the split at
# 0.934 and 0.975 of the whole tiles at 4 and 8 blocks (512 and 1k keys),
# round 139 at 1.009-1.016 from 16 (2k to 16k).
SPLIT_TAIL_MIN_BLOCKS = 16


def emit_split_rule(line, tiles, prefix):
    """%split: whether the split tail cuts tiles, for `tiles` tiles over
    %ctas CTAs of %kv_blocks blocks each: where they fill at least one wave,
    the last wave is partial, and a tile has SPLIT_TAIL_MIN_BLOCKS blocks
    or more (the kernel's share and the host's workspace both ask). Also
    `prefix`waves, the whole waves."""
    line(f"{prefix}waves = arith.divui {tiles}, %ctas : index")
    line(f"{prefix}rem = arith.remui {tiles}, %ctas : index")
    line(f"{prefix}partial = arith.cmpi ne, {prefix}rem, %c0 : index")
    line(f"{prefix}full = arith.cmpi uge, {prefix}waves, %c1 : index")
    line(f"{prefix}min_blocks = arith.constant {SPLIT_TAIL_MIN_BLOCKS} : index")
    line(f"{prefix}blocks = arith.cmpi uge, %kv_blocks, {prefix}min_blocks : index")
    line(f"{prefix}some = arith.andi {prefix}partial, {prefix}full : i1")
    line(f"%split = arith.andi {prefix}some, {prefix}blocks : i1")


def emit_split_range(e, indent=""):
    """The KV blocks %kfirst_t .. %kend_t - 1 of the CTA's t-th tile under
    the split tail (emit_split_share): all of a whole tile's; of its p-th
    piece, from %u0_rel32 for the first (0 after) to the range's end or
    the tile's."""
    e.line(f"{indent}%sp_t32 = arith.index_cast %t : index to i32")
    e.line(f"{indent}%sp_sk = arith.cmpi uge, %sp_t32, %dp32 : i32")
    e.line(f"{indent}%sp_p = arith.subi %sp_t32, %dp32 : i32")
    e.line(f"{indent}%sp_head = arith.cmpi eq, %sp_p, %sp_zero32 : i32")
    e.line(f"{indent}%sp_kf = arith.select %sp_head, %u0_rel32, %sp_zero32 : i32")
    e.line(f"{indent}%sp_pb = arith.muli %sp_p, %kvb32 : i32")
    e.line(f"{indent}%sp_left = arith.subi %u1_rel32, %sp_pb : i32")
    e.line(f"{indent}%sp_ke = arith.minui %sp_left, %kvb32 : i32")
    e.line(f"{indent}%kf32 = arith.select %sp_sk, %sp_kf, %sp_zero32 : i32")
    e.line(f"{indent}%ke32 = arith.select %sp_sk, %sp_ke, %kvb32 : i32")
    e.line(f"{indent}%kfirst_t = arith.index_castui %kf32 : i32 to index")
    e.line(f"{indent}%kend_t = arith.index_castui %ke32 : i32 to index")


def emit_narrow_tile_walk(b, causal=False):
    """The persistent walk's operands in 32 bits: one register each across
    the consumers' main loop instead of two, and 32-bit divisions in the
    producer's 24 registers. Every value is below the tile count, which is
    below 2^31: a tile is 128 query rows of at least 64 bf16 or f16 values
    (16 KiB of Q), so 2^31 tiles would need 32 TiB of Q."""
    b("%cta32 = arith.index_cast %cta : index to i32")
    b("%ctas32 = arith.index_cast %ctas : index to i32")
    b("%gx32 = arith.index_cast %gx : index to i32")
    b("%H32 = arith.index_cast %H : index to i32")
    b("%group32 = arith.index_cast %group : index to i32")
    if causal:
        b("%c0_i32 = arith.constant 0 : i32")
        b("%sec32 = arith.index_cast %sec : index to i32")
        b("%sec_tiles32 = arith.index_cast %sec_tiles : index to i32")
        b("%heads32 = arith.index_cast %heads : index to i32")
        b("%gx_last32 = arith.subi %gx32, %c1_i32 : i32")
        b("%pair_ranks32 = arith.index_cast %pair_ranks : index to i32")
        b("%pair_ranks2_32 = arith.index_cast %pair_ranks2 : index to i32")


# The L2 share the longest-first order's sections keep their K and V in
# (of the H100's and H200's 50 MiB).
LPT_L2_BYTES = 32 << 20


def emit_lpt_section(b, d, batch):
    """%heads (heads x `batch`) and %sec, the heads of a section of the
    longest-first and paired orders: as many as keep their K and V (Skv
    rows of head_dim bf16 or f16 each) in LPT_L2_BYTES, at least 1, at most
    %heads."""
    b(f"%heads = arith.muli %H, {batch} : index")
    b(f"%l2_budget = arith.constant {LPT_L2_BYTES} : index")
    b(f"%kv_row_bytes = arith.constant {4 * d} : index")
    b("%head_bytes0 = arith.muli %Skv, %kv_row_bytes : index")
    b("%head_bytes = arith.maxui %head_bytes0, %c1 : index")
    b("%fit0 = arith.divui %l2_budget, %head_bytes : index")
    b("%fit1 = arith.maxui %fit0, %c1 : index")
    b("%sec = arith.minui %fit1, %heads : index")


def emit_section_of(line, pos, prefix, ty, sec, sec_tiles, heads):
    """Position `pos` of an order that takes the heads in sections of `sec`
    (`sec_tiles` tiles each; the last section may hold fewer of the `heads`):
    `prefix`idx, the position within its section, `prefix`sec0, the
    section's first head, and `prefix`width, its heads, all of type `ty`."""
    line(f"{prefix}section = arith.divui {pos}, {sec_tiles} : {ty}")
    line(f"{prefix}idx = arith.remui {pos}, {sec_tiles} : {ty}")
    line(f"{prefix}sec0 = arith.muli {prefix}section, {sec} : {ty}")
    line(f"{prefix}left = arith.subi {heads}, {prefix}sec0 : {ty}")
    line(f"{prefix}width = arith.minui {sec}, {prefix}left : {ty}")


def emit_lpt_tile(b, d):
    """The CTA's (query block, head, batch) in longest-first order (causal
    one-tile kernels): the grid's CTAs, which the hardware starts in order
    of their linear index, take the heads in sections whose K and V fit in
    LPT_L2_BYTES, and in each section the query blocks from the last (the
    most KV blocks) to the first, the section's heads fastest. The longest
    tiles start first and the short ones fill the last wave, while the CTAs
    at work together read the K and V of at most a section's heads."""
    b("// Longest-first: sections of heads whose K and V fit in L2, in each")
    b("// the query blocks from the last down, the section's heads fastest.")
    b("%bx = gpu.block_id x")
    b("%by = gpu.block_id y")
    b("%bz = gpu.block_id z")
    b("%gx_l = gpu.grid_dim x")
    b("%Bn = memref.dim %Q, %c0 : !Q")
    b("%bz_h = arith.muli %bz, %H : index")
    b("%bh_lin = arith.addi %bz_h, %by : index")
    b("%bh_gx = arith.muli %bh_lin, %gx_l : index")
    b("%lin = arith.addi %bh_gx, %bx : index")
    emit_lpt_section(b, d, "%Bn")
    b("%sec_tiles = arith.muli %sec, %gx_l : index")
    emit_section_of(b, "%lin", "%lpt_", "index", "%sec", "%sec_tiles",
                    "%heads")
    b("%qrank = arith.divui %lpt_idx, %lpt_width : index")
    b("%in_sec = arith.remui %lpt_idx, %lpt_width : index")
    b("%bh = arith.addi %lpt_sec0, %in_sec : index")
    b("%gx_last = arith.subi %gx_l, %c1 : index")
    b("%qb = arith.subi %gx_last, %qrank : index")
    b("%h = arith.remui %bh, %H : index")
    b("%b = arith.divui %bh, %H : index")
