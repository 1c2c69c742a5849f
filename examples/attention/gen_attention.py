#!/usr/bin/env python3
"""Writes examples/attention/attention.mlir: forward attention
O = softmax(Q K^T * scale) V on Hopper in the tile dialect plus upstream ops,
for bf16 (or f16) Q, K, V, O of shape (batch, heads, seq, head_dim), run-time
batch, heads and sequence lengths, head_dim 64 or 128, causal (top-left, as
torch's `is_causal`) and not, grouped-query attention (K and V may have fewer
heads than Q: Q head h reads K/V head h / (heads / kv_heads)), and the
log-sum-exp of each row (natural log, f32, shape (batch, heads, seq)) for a
backward pass. scale = 1 / sqrt(head_dim), as torch's default.

One CTA computes 128 query rows of one (batch, head) with three warpgroups:
  warpgroup 0, thread 0  the producer: loads the Q tile once (its own
                         mbarrier), then the K and V tiles of each 128-row
                         KV block with `tile.copy_async` into 128B-swizzled
                         stage buffers (a `tile.pipeline`: the stages' full
                         and empty barriers, phases and byte counts are
                         generated);
  warpgroups 1 and 2     the consumers, 64 query rows each. Per KV block:
                         S = Q K^T with `wgmma.mma_async` from shared memory
                         (both K-major); the online softmax in f32 on the
                         accumulator fragments (row max and sum across the
                         four threads of a row with shuffles, exp2 with the
                         scale folded in, masking only on edge and diagonal
                         blocks); O is rescaled and O += P V with P taken
                         from registers (`tile.wgmma_a_fragment`) and V read
                         MN-major (`tile.wgmma_descriptor` with
                         `major = mn`, `tile.wgmma_register_a`).
  epilogue               O / l rounded to bf16 into the Q tile's rows (Q is
                         no longer read), one TMA store per consumer; the
                         log-sum-exp stored per row.
Loads past the sequence read zeros (the TMA's out-of-bounds fill) and the
masks make their scores -inf; the TMA store clips rows past the sequence.

Kernels are persistent by default (--persistent auto; --one-tile for one CTA
per query block): one CTA per SM (at most one per tile) walks the (query
block, head, batch) tiles, non-causal CTA c taking tiles c, c + CTAs, ...,
causal the tiles the longest-first table the runtime builds gives it
(--causal-walk table; paired: units of two tiles of a paired order,
tile_orders.py). The pipeline is persistent (`tiles`): the next
tile's K/V loads overlap this tile's last blocks and epilogue, and the Q
tile is the pipeline's `tile_loads`, loaded once per tile after the tile's
first K/V stage. The epilogue stages O in the tile's last K stage (held until the epilogue ends,
since the last P V reads that stage's V), once the other consumer's last
S = Q K^T is complete, so Q is released before the epilogue and the next
tile's Q loads during it. Measured 1.06-1.18x the one-tile kernel at
head_dim 128 non-causal, 1.09-1.12x causal from 2k (docs/attention.md, "The
persistent schedule"). The non-causal ones go further (--q-release last-s
and --carried-turns, their defaults): Q is released after the tile's last
S = Q K^T (tile.release_tile_loads), and consumer 1 hands consumer 0 the
next tile's first turn after its last block, so consumer 0 starts the next
tile during consumer 1's epilogue with its Q already loading. The one-tile
causal kernels take their tiles longest-first (--tile-order).

--kv-lag (overlapped kernels): the pipeline's read_lags = [0, 1] gives K and
V their own barriers; consume receives K of block k and V of block
max(k - 1, 0), K of block k is released after it and V a block later
(in_flight 0), so the producer loads K a block earlier and the consumer
waits for V only when its P V needs it. With --persistent, O is staged in
Q's buffer (no K stage is held through the epilogue), which the pipeline
releases after the epilogue's store has read it.

    python3 examples/attention/gen_attention.py > examples/attention/attention.mlir
"""
import argparse
import math

from tile_orders import (emit_causal_blocks, emit_lpt_section, emit_lpt_tile,
                         emit_narrow_tile_walk, emit_split_range,
                         emit_split_rule, emit_split_share, emit_tile_coords,
                         emit_walk_share)

BM, BN = 128, 128
WG = 128
# --lazy-rescale: how far (log2) a row's maximum may pass its reference
# before the reference moves; the probabilities stay below 2^LAZY_LOG2,
# well inside bf16's range.
LAZY_LOG2 = 8
# --lazy-rescale: the named barrier (plus the consumer) of the consumer
# warpgroup's vote on its rescale.
LAZY_VOTE_BARRIER = 7


class Emitter:
    """SSA text with fresh names."""

    def __init__(self, indent):
        self.lines = []
        self.indent = indent
        self.count = 0

    def fresh(self, base):
        self.count += 1
        return f"%{base}{self.count}"

    def line(self, text):
        self.lines.append(self.indent + text)

    def op(self, base, text, indent=""):
        name = self.fresh(base)
        self.line(f"{indent}{name} = {text}")
        return name

    def text(self):
        return "\n".join(self.lines)


def struct(n):
    return "!llvm.struct<(" + ", ".join(["f32"] * n) + ")>"


def row_of(i):
    """Accumulator element i of a thread: 0 for its first row, 1 for the row
    8 below (PTX wgmma D fragment: d[4j + e], e = 0, 1 row r, e = 2, 3 row
    r + 8, columns 8j + 2 (lane % 4) + e % 2)."""
    return (i % 4) // 2


def col_of(i):
    """Column offset of element i inside the block, less 2 (lane % 4)."""
    return 8 * (i // 4) + i % 2


def reduce_tree(e, values, op):
    while len(values) > 1:
        nxt = []
        for a, b in zip(values[0::2], values[1::2]):
            nxt.append(e.op("r", f"{op} {a}, {b} : f32"))
        if len(values) % 2:
            nxt.append(values[-1])
        values = nxt
    return values[0]


def quad_reduce(e, value, op):
    """Combines `value` over the four threads of a row (lanes 4q .. 4q+3)."""
    for offset in ("%c1_i32", "%c2_i32"):
        other = e.fresh("sh")
        e.line(f"{other}, %{other[1:]}_ok = gpu.shuffle xor {value}, {offset}, %c32_i32 : f32")
        value = e.op("r", f"{op} {value}, {other} : f32")
    return value


def first_block(a):
    """The tile's first KV block: a split tile's piece starts at %kfirst."""
    return "%kfirst" if a.split_tail else "%c0"


def first_block_cmp(a, pred):
    """The consume body's comparison `pred` of %kt with the tile's first KV
    block (first_block); a split tile's piece compares in 32 bits
    (%kt32, %kfirst32: unpack)."""
    if a.split_tail:
        return f"arith.cmpi {pred}, %kt32, %kfirst32 : i32"
    return f"arith.cmpi {pred}, %kt, %c0 : index"


def emit_consume(e, a):
    """The consume body: S = Q K^T, the online softmax, O += P V."""
    if not a.lazy_rescale:
        emit_consume_body(e, a, True)
        return
    # --lazy-rescale: O's rescale by the previous block's alphas is skipped
    # where every alpha of the consumer warpgroup is 1. A branch around the
    # rescale alone makes ptxas serialize every wgmma of the kernel
    # (C7515), so the whole body is emitted twice, with and without it, and
    # the warpgroup (a wgmma is .aligned: its four warps run the same
    # instruction) votes which runs, on a named barrier of its 128 threads.
    e.line("%lz_a = arith.cmpf une, %alpha_a, %fone : f32")
    e.line("%lz_b = arith.cmpf une, %alpha_b, %fone : f32")
    e.line("%lz_mine = arith.ori %lz_a, %lz_b : i1")
    e.line("%lz_c32 = arith.index_cast %cidx : index to i32")
    e.line(f"%lz_id = arith.addi %lz_c32, %c{LAZY_VOTE_BARRIER}_i32 : i32")
    # (nvvm.barrier takes a reduction on barrier 0 only.)
    e.line('%lz_any = llvm.call_intrinsic "llvm.nvvm.barrier.cta.red.or.aligned.count"'
           "(%lz_id, %c128_i32, %lz_mine) : (i32, i32, i1) -> i1")
    # The same vote within the warp, which ptxas knows to be warp-uniform
    # (a branch on the barrier's result alone it takes as divergent and
    # serializes every wgmma, C7518).
    e.line("%lz_uni = nvvm.vote.sync any %full_mask, %lz_any -> i1")
    types = "!accO, f32, f32, f32, f32, !accS, f32, f32"
    e.line(f"%lz:8 = scf.if %lz_uni -> ({types}) {{")
    for rescale in (True, False):
        body = Emitter(e.indent + "  ")
        body.count = e.count
        emit_consume_body(body, a, rescale)
        # Each copy ends in an asm statement of its own, which LLVM cannot
        # merge: else it sinks the copies' common tail (from the wgmmas' wait
        # on) below a join that merges O while its wgmmas run.
        mark = "rescaled" if rescale else "kept"
        body.lines.insert(-1, f'{body.indent}llvm.inline_asm has_side_effects "// O {mark}", "" : () -> ()')
        e.lines += body.lines
        e.count = body.count
        e.line("} else {" if rescale else "}")
    # Both copies end waiting for all their groups; the body says so at its
    # end too, where tile-expand-pipelines looks (else it adds a wait of
    # its own, which ptxas takes for P V still pending at the next rescale,
    # C7517).
    if a.q_last_s:
        # Q's release belongs directly in the consume region: after the
        # copies, a softmax later than where the one-copy body has it.
        e.line("tile.release_tile_loads")
    e.line("nvvm.wgmma.wait.group.sync.aligned 0")
    e.line("tile.yield " + ", ".join(f"%lz#{i}" for i in range(8)) + f" : {types}")


def emit_consume_body(e, a, rescale):
    """emit_consume's body (with --lazy-rescale one of its two copies, ending
    in scf.yield); `rescale`: O *= the previous block's alphas first
    (overlapped kernels)."""
    d, el, causal = a.head_dim, a.dtype, a.causal
    s_vals, o_vals = a.block_n // 2, d // 2
    e.line("%row0 = arith.muli %cidx, %c64 : index")
    if a.pingpong:
        e.line("%cidx_i32 = arith.index_cast %cidx : index to i32")
        e.line("%first_consumer = arith.cmpi eq, %cidx, %c0 : index")
        e.line("%second = arith.cmpi eq, %cidx, %c1 : index")
        # Ping-pong: the two consumers take turns at the tensor cores (named
        # barriers 3 and 4: consumer c waits for its turn on 3 + c and hands
        # the turn over on 4 - c once its wgmmas are issued), so that one's
        # softmax runs while the other's GEMMs do. Consumer 1 gives consumer
        # 0 the first turn.
        e.line(f"%c0_first = {first_block_cmp(a, 'eq')}")
        e.line("%c1_first = arith.andi %c0_first, %second : i1")
        if a.carried_turns:
            # Turns carried across the CTA's tiles: only its first tile's
            # first block starts them (see the hand-over below).
            e.line("%first_tile = arith.cmpi eq, %t, %c0 : index")
            e.line("%c1_start = arith.andi %c1_first, %first_tile : i1")
            e.line("scf.if %c1_start {")
        else:
            e.line("scf.if %c1_first {")
        e.line("  nvvm.barrier.arrive id = %turn0 number_of_threads = %c256_i32")
        e.line("}")
        e.line("%my_turn = arith.addi %turn0, %cidx_i32 : i32")
    # --turn-wait issue: the rescale and the previous P's fragments come
    # before the turn, so the turn holds the wgmmas' issue alone.
    late_turn = a.pingpong and a.overlap and a.turn_wait == "issue"
    if a.pingpong and not late_turn:
        e.line("nvvm.barrier id = %my_turn number_of_threads = %c256_i32")
    if a.overlap:
        # O *= alpha of the previous block, before any wgmma of this one is
        # in flight (the fence pins it there): rescaled at the end of the
        # previous iteration, ptxas serializes every wgmma (C7515); between
        # this block's S and P V wgmmas, it injects a wait for S (C7517).
        o_pin = e.op("o_pin", "tile.wgmma_fence_operand %o : !accO")
        o_scaled = o_pin
        if rescale:
            o_scaled = emit_rescale(e, o_pin, ["%alpha_a", "%alpha_b"], o_vals)
        e.line(f"%o_scaled = tile.wgmma_fence_operand {o_scaled} : !accO")
    prev = None
    if late_turn:
        prev = emit_previous_p(e, a)
        e.line("nvvm.barrier id = %my_turn number_of_threads = %c256_i32")
    # S = Q K^T: d / 16 k-steps, the first with scale-d zero. Its (unread)
    # accumulator input gets its registers before the wgmma fence: register
    # moves between the fence and the wgmma would serialize every wgmma.
    acc = e.op("s_in", "tile.wgmma_fence_operand %zero_s : !accS")
    e.line("nvvm.wgmma.fence.aligned")
    for s in range(d // 16):
        col = f"%k{16 * s}"
        dq = e.op("dq", f"tile.wgmma_descriptor %sq[%row0, {col}] {{rows = 64, k = 16}} : !tileQ -> i64")
        dk = e.op("dk", f"tile.wgmma_descriptor %ks[%c0, {col}] {{rows = {a.block_n}, k = 16}} : !tileKV -> i64")
        scale = "zero" if s == 0 else "one"
        acc = e.op("s", f"nvvm.wgmma.mma_async {dq}, {dk}, {acc}, #nvvm.shape<m = 64, n = {a.block_n}, k = 16>, "
                   f"D[<f32>, <{scale}>], A[<{el}>, <one>, <row>], B[<{el}>, <one>, <col>] : !accS -> !accS")
    e.line("nvvm.wgmma.commit.group.sync.aligned")
    o_in = "%o"
    if a.overlap:
        # O += P V of the previous block, whose stage in_flight = 1 keeps:
        # its wgmmas run while this block's softmax does. The first block
        # has no previous one. With --first-pv guard its wgmmas carry the
        # guard predicate `if %has_prev` and are not issued there (the
        # commit stays unguarded: an empty group, so the wait for S below
        # counts the same groups in every block); with --first-pv zero they
        # multiply a zero P by the block's own loaded, finite V, adding
        # exact zeros. No branch: a branch would move the accumulator's
        # registers while the wgmma writes them, and ptxas would serialize
        # every wgmma. (A branch around the wgmmas alone, fence and commit
        # outside, assembles; round 67 timed it 1-2 % below the guard, but
        # in the first place of every round, which costs up to 7 %.)
        issue = "%has_prev" if a.first_pv == "guard" else None
        if prev is None:
            prev = emit_previous_p(e, a)
        if a.tc_sums:
            sums = emit_row_sums(e, a, prev, "")
        o_in = emit_pv(e, a, "%vs" if a.kv_lag else "%vprev", "%o_scaled",
                       prev, "", issue)
    if a.pingpong:
        e.line("%other_turn = arith.subi %turn1, %cidx_i32 : i32")
        e.line("%kt_next = arith.addi %kt, %c1 : index")
        e.line("%not_last = arith.cmpi ult, %kt_next, %ntiles : index")
        if a.carried_turns:
            # Consumer 1 hands the turn over after its tile's last block too,
            # for the next tile's first (but after the CTA's last tile), so
            # consumer 0 starts the next tile while consumer 1 runs its
            # epilogue, instead of waiting for it.
            e.line("%t_next = arith.addi %t, %c1 : index")
            e.line("%more_tiles = arith.cmpi ult, %t_next, %mine : index")
            e.line("%not_done = arith.ori %not_last, %more_tiles : i1")
            e.line("%hand_over = arith.ori %not_done, %first_consumer : i1")
        else:
            e.line("%hand_over = arith.ori %not_last, %first_consumer : i1")
        e.line("scf.if %hand_over {")
        e.line("  nvvm.barrier.arrive id = %other_turn number_of_threads = %c256_i32")
        e.line("}")
    e.line(f"nvvm.wgmma.wait.group.sync.aligned {1 if a.overlap else 0}")
    if a.q_last_s and not a.lazy_rescale:
        # This block's S = Q K^T, the last read of Q, is complete: the
        # tile's last block releases Q here, so the next tile's Q loads
        # during this block's softmax and the epilogue.
        e.line("tile.release_tile_loads")
    if a.persistent and not a.kv_lag:
        # This consumer's S of the tile's last block is complete: the other
        # consumer may stage its O in that block's K (named barrier 5 + c).
        e.line("%kt_last = arith.subi %ntiles, %c1 : index")
        e.line("%s_last = arith.cmpi eq, %kt, %kt_last : index")
        e.line("scf.if %s_last {")
        e.line("  %s_done_c = arith.index_cast %cidx : index to i32")
        e.line("  %s_done_bar = arith.addi %s_done_c, %c5_i32 : i32")
        e.line("  nvvm.barrier.arrive id = %s_done_bar number_of_threads = %c256_i32")
        e.line("}")
    # S is read after its wait: the fence keeps the reads from moving above
    # it (LLVM sees the wgmma's result as ready at the wgmma).
    acc = e.op("s_done", f"tile.wgmma_fence_operand {acc} : !accS")
    s_acc = acc
    new_l = None
    if a.tc_sums:
        # The previous block's row sums, complete with S (their group is
        # older than P V's): the sums so far, rescaled as O is, plus them,
        # where that block's P V is issued.
        new_l = emit_add_sums(e, sums, ("%l_a", "%l_b"), issue)
    # The block's first KV column; the thread's query rows.
    e.line("%n0 = arith.muli %kt, %cbn : index")
    if causal:
        e.line("%qrow_a0 = arith.addi %m0, %row0 : index")
        e.line("%qrow_a = arith.addi %qrow_a0, %trow : index")
        e.line("%qrow_b = arith.addi %qrow_a, %c8 : index")
    e.line("%kv_end = arith.addi %n0, %cbn : index")
    e.line("%edge = arith.cmpi ugt, %kv_end, %Skv : index")
    if causal:
        # A block needs the causal mask where its last column passes the
        # CTA's first query row.
        e.line("%kv_last = arith.subi %kv_end, %c1 : index")
        e.line("%diag = arith.cmpi ugt, %kv_last, %m0 : index")
        e.line("%masked = arith.ori %edge, %diag : i1")
        needs_mask = "%masked"
    else:
        needs_mask = "%edge"
    vals = [e.op("sv", f"llvm.extractvalue {s_acc}[{i}] : !accS") for i in range(s_vals)]
    # Masking, on edge (and diagonal) blocks only.
    if a.branchless_mask:
        # Every block masked with selects: no branch whose merge of the 64
        # scores ptxas could take for a write of wgmma accumulators.
        vals = emit_column_selects(e, vals, emit_column_limits(e, causal))
    else:
        vals = emit_branch_mask(e, vals, causal, s_vals, needs_mask)
    emit_softmax_rest(e, a, vals, o_in, prev if a.overlap else None, new_l)


def emit_previous_p(e, a):
    """The previous block's V view (%vprev, or the pipeline's %vs with
    --kv-lag) and the A fragments of its carried probabilities; returns the
    fragments' names (after %has_prev)."""
    if a.first_pv == "guard" or not a.kv_lag:
        e.line(f"%has_prev = {first_block_cmp(a, 'ugt')}")
    if a.kv_lag:
        # read_lags = [0, 1]: the pipeline hands consume V of block
        # max(k - 1, 0) (%vs), waited for on V's own barrier.
        return emit_p_fragments(e, a, "pf", "")
    if not a.persistent:
        e.line("%kt_m1 = arith.subi %kt, %c1 : index")
        e.line("%kprev = arith.select %has_prev, %kt_m1, %kt : index")
    # P crosses the iteration in f32 and is rounded to its fragments in
    # the iteration that issues their wgmmas (fragments carried across the
    # loop make ptxas serialize the wgmmas, C7513).
    return emit_previous_v_and_p(e, a, "%kprev", "%vprev", "pf", "")


def emit_column_limits(e, causal):
    """The thread's column limits, one per row: where the block's scores
    pass the keys' end (and, causal, the row's query), as an offset from the
    thread's first column clamped to [0, block_n] (32 bits hold it). The
    thread's values of a row sit at fixed offsets from that column, so each
    value's mask is then one 32-bit compare with a constant and a select
    (against three 64-bit operations a value when every column was compared
    with the key count and the row)."""
    e.line("%kvc0 = arith.addi %n0, %tcol : index")
    block_end = e.op("kend", "arith.addi %kvc0, %cbn : index")
    limits = []
    for r in ((0, 1) if causal else (0,)):
        if causal:
            qrow = "%qrow_a" if r == 0 else "%qrow_b"
            past_row = e.op("prow", f"arith.addi {qrow}, %c1 : index")
            end = e.op("kend", f"arith.minui %Skv, {past_row} : index")
        else:
            end = "%Skv"
        # end - kvc0 within [0, block_n]: unsigned throughout.
        end = e.op("kend", f"arith.minui {end}, {block_end} : index")
        end = e.op("kend", f"arith.maxui {end}, %kvc0 : index")
        span = e.op("klim", f"arith.subi {end}, %kvc0 : index")
        limits.append(e.op("klim", f"arith.index_cast {span} : index to i32"))
    # Non-causal, both rows end at the keys' end: one limit serves both.
    return limits if causal else limits * 2


def emit_column_selects(e, vals, limits):
    """`vals` with the scores at or past their row's column limit -inf."""
    out = []
    for i, v in enumerate(vals):
        ok = e.op("ok", f"arith.cmpi ult, %ccol{col_of(i)}_i32, {limits[row_of(i)]} : i32")
        out.append(e.op("mv", f"arith.select {ok}, {v}, %ninf : f32"))
    return out


def emit_branch_mask(e, vals, causal, s_vals, needs_mask):
    """Masking on the blocks that need it (`needs_mask`: edge, diagonal), in
    a branch."""
    masked = e.fresh("sm")
    e.line(f"{masked}:{s_vals} = scf.if {needs_mask} -> (" + ", ".join(["f32"] * s_vals) + ") {")
    inner = emit_column_selects(e, vals, emit_column_limits(e, causal))
    e.line("  scf.yield " + ", ".join(inner) + " : " + ", ".join(["f32"] * s_vals))
    e.line("} else {")
    e.line("  scf.yield " + ", ".join(vals) + " : " + ", ".join(["f32"] * s_vals))
    e.line("}")
    return [f"{masked}#{i}" for i in range(s_vals)]


def emit_softmax_rest(e, a, vals, o_in, prev, tc_l):
    """The row maxima, probabilities, sums and the P V of the block."""
    d, el = a.head_dim, a.dtype
    o_vals = d // 2
    # Row maxima across the thread's values and its row's four threads.
    new_m, alpha, ms, rows_m = [], [], [], []
    for r, old in ((0, "%m_a"), (1, "%m_b")):
        mine = [v for i, v in enumerate(vals) if row_of(i) == r]
        local = reduce_tree(e, mine, "arith.maxnumf")
        row = quad_reduce(e, local, "arith.maxnumf")
        m = e.op("m", f"arith.maxnumf {old}, {row} : f32")
        if a.lazy_rescale:
            rows_m.append((m, old))
        else:
            emit_row_reference(e, m, old, None, new_m, alpha, ms)
    if a.lazy_rescale:
        # The reference maxima move only where a row of the warp grew past
        # its reference by more than 2^LAZY_LOG2 in the exponentials (a
        # warp vote): elsewhere the probabilities exp2((s - ref) scale
        # log2 e) stay below 2^LAZY_LOG2, the alphas are exactly 1, and O /
        # l is the same.
        grew = []
        for m, old in rows_m:
            step = e.op("mstep", f"arith.subf {m}, {old} : f32")
            step = e.op("mstep", f"arith.mulf {step}, %sl2 : f32")
            grew.append(e.op("grew", f"arith.cmpf ogt, {step}, %lazy_log2 : f32"))
        mine = e.op("grew", f"arith.ori {grew[0]}, {grew[1]} : i1")
        move = e.op("move", f"nvvm.vote.sync any %full_mask, {mine} -> i1")
        refs = [(e.op("mref", f"arith.select {move}, {m}, {old} : f32"), old)
                for m, old in rows_m]
        for m, old in refs:
            emit_row_reference(e, m, old, move, new_m, alpha, ms)
    probs = []
    for i, v in enumerate(vals):
        x = e.op("x", f"llvm.intr.fma({v}, %sl2, {ms[row_of(i)]}) : (f32, f32, f32) -> f32")
        probs.append(e.op("p", f'llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"({x}) : (f32) -> f32'))
    # The row sums (given with --row-sums tensor: the tensor cores'), each
    # row's probabilities added up.
    new_l = tc_l
    if new_l is None:
        new_l = []
        for r, old in ((0, "%l_a"), (1, "%l_b")):
            mine = [p for i, p in enumerate(probs) if row_of(i) == r]
            total = reduce_tree(e, mine, "arith.addf")
            scaled = e.op("ls", f"arith.mulf {old}, {alpha[r]} : f32")
            new_l.append(e.op("l", f"arith.addf {scaled}, {total} : f32"))
    # P as an accumulator-shaped struct, then its A fragments.
    pstruct = e.op("ps", "llvm.mlir.poison : !accS")
    for i, p in enumerate(probs):
        pstruct = e.op("ps", f"llvm.insertvalue {p}, {pstruct}[{i}] : !accS")
    frags = [] if a.overlap else [
        e.op("pa", f"tile.wgmma_a_fragment {pstruct}[{s}] : !accS -> vector<8x{el}>")
        for s in range(a.block_n // 16)]
    if a.overlap:
        # The softmax is computed before P V's wait, overlapping it: the
        # fence keeps LLVM from sinking it below the wait.
        pstruct = e.op("p_done", f"tile.wgmma_fence_operand {pstruct} : !accS")
        e.line("nvvm.wgmma.wait.group.sync.aligned 0")
        # P of the previous block stays in its registers until its wgmmas
        # completed (else ptxas serializes every wgmma).
        for frag in prev:
            e.op("held", f"tile.wgmma_fence_operand {frag} : vector<8x{el}>")
        o = e.op("o_done", f"tile.wgmma_fence_operand {o_in} : !accO")
        carried = f", {pstruct}, {alpha[0]}, {alpha[1]}"
    else:
        o = emit_rescale(e, o_in, alpha, o_vals)
        o = emit_pv(e, a, "%vs", o, frags, "")
        carried = ""
    ftypes = ", !accS, f32, f32" if a.overlap else ""
    terminator = "scf.yield" if a.lazy_rescale else "tile.yield"
    e.line(f"{terminator} {o}, {new_m[0]}, {new_m[1]}, {new_l[0]}, {new_l[1]}{carried} "
           f": !accO, f32, f32, f32, f32{ftypes}")


def emit_row_reference(e, m, old, move, new_m, alpha, ms):
    """A row's new reference maximum `m` (the last one `old`): appends it to
    new_m, O's and l's rescale 2^((old - m) scale log2 e) to alpha (exactly
    1 where `move`, if given, is false) and -m scale log2 e, the
    exponentials' offset, to ms."""
    # exp2 arguments are scaled: (s - m) * scale * log2(e). A row that
    # is still all -inf uses 0 (its probabilities are 0, not NaN).
    inf = e.op("isinf", f"arith.cmpf oeq, {m}, %ninf : f32")
    msc = e.op("ms", f"arith.mulf {m}, %sl2 : f32")
    msafe = e.op("ms", f"arith.select {inf}, %fzero, {msc} : f32")
    oldsc = e.op("os", f"arith.mulf {old}, %sl2 : f32")
    diff = e.op("df", f"arith.subf {oldsc}, {msafe} : f32")
    al = e.op("alpha", f'llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"({diff}) : (f32) -> f32')
    if move:
        # Exactly 1 where the reference stayed: the rescale's skip.
        al = e.op("alpha", f"arith.select {move}, {al}, %fone : f32")
    alpha.append(al)
    new_m.append(m)
    ms.append(e.op("nms", f"arith.negf {msafe} : f32"))


def emit_add_sums(e, sums, ls, issue=None, indent=""):
    """--row-sums tensor: the row sums `ls` (one f32 per row of the thread)
    of the blocks before the one whose P the wgmmas summed into `sums`
    (complete: after their wait), rescaled by that block's alphas (the
    carried %alpha_a and %alpha_b, as O is) plus its sums; returns the new
    sums' names. Every column of `sums` holds its row's whole sum: element
    0 the thread's first row, 2 the row 8 below. Where `issue` (the P V's
    guard) is false, P was no operand of this tile: `ls` stay."""
    done = e.op("sums", f"tile.wgmma_fence_operand {sums} : !accL", indent)
    out = []
    for r, (l, alpha) in enumerate(zip(ls, ("%alpha_a", "%alpha_b"))):
        part = e.op("rs", f"llvm.extractvalue {done}[{2 * r}] : !accL", indent)
        new = e.op("l", f"llvm.intr.fma({l}, {alpha}, {part}) : (f32, f32, f32) -> f32", indent)
        if issue:
            new = e.op("l", f"arith.select {issue}, {new}, {l} : f32", indent)
        out.append(new)
    return out


def emit_rescale(e, o, alphas, count, indent=""):
    """O *= alpha over the `count` values of the accumulator, alphas[0] for
    the thread's first row, [1] for the row 8 below."""
    out = o
    for i in range(count):
        v = e.fresh("ov")
        e.line(f"{indent}{v} = llvm.extractvalue {o}[{i}] : !accO")
        v2 = e.fresh("ov")
        e.line(f"{indent}{v2} = arith.mulf {v}, {alphas[row_of(i)]} : f32")
        nxt = e.fresh("o")
        e.line(f"{indent}{nxt} = llvm.insertvalue {v2}, {out}[{i}] : !accO")
        out = nxt
    return out


def emit_row_sums(e, a, frags, indent):
    """--row-sums tensor: P's row sums on the tensor cores, as P (the A
    `frags`) times the block of ones (%d_ones, m64n8k16 per k-step), into
    an accumulator the first k-step starts (`zero_init`), in a wgmma group
    of their own issued before P V's: the wait for S (wait_group 1) then
    completes them too, and their registers are free again before the
    softmax. Not guarded (zero_init takes no guard): where the P V's guard
    is false, emit_add_sums drops them. Returns the accumulator. (Carried
    across blocks and rescaled like O, it made ptxas serialize every wgmma,
    C7511; zeroed before the wgmma fence, wait for the previous block's,
    C7517; in P V's group, live through the softmax, spill at head_dim
    128.)"""
    el = a.dtype
    e.line(indent + "nvvm.wgmma.fence.aligned")
    acc = "%zero_l"
    for s, frag in enumerate(frags):
        zero = " {zero_init}" if s == 0 else ""
        acc = e.op("lsum", f"tile.wgmma_register_a {frag}, %d_ones, {acc}{zero} "
                   f": vector<8x{el}>, !accL", indent)
    e.line(indent + "nvvm.wgmma.commit.group.sync.aligned")
    return acc


def emit_pv(e, a, view, o, frags, indent, issue=None):
    """O += P V: block_n / 16 k-steps of wgmma with P's fragments in registers and
    V (`view`) read MN-major; returns the new accumulator. With `issue` (an
    i1), each wgmma carries it as a guard predicate (`if` of
    tile.wgmma_register_a): issued only where it holds, O unchanged
    elsewhere. The fence and the commit are not guarded, so the group count
    is the same either way (an empty group where nothing is issued)."""
    d, el = a.head_dim, a.dtype
    guard = f" if {issue}" if issue else ""
    e.line(indent + "nvvm.wgmma.fence.aligned")
    for s, frag in enumerate(frags):
        dv = e.fresh("dv")
        e.line(f"{indent}{dv} = tile.wgmma_descriptor {view}[%k{16 * s}, %c0] {{rows = {d}, k = 16, "
               f"major = #tile.wgmma_major<mn>}} : !tileKV -> i64")
        nxt = e.fresh("o")
        e.line(f"{indent}{nxt} = tile.wgmma_register_a {frag}, {dv}, {o}{guard} "
               f"{{b_major = #tile.wgmma_major<mn>}} : vector<8x{el}>, !accO")
        o = nxt
    e.line(indent + "nvvm.wgmma.commit.group.sync.aligned")
    return o


def emit_held_slot(e, a, block, name, indent, last=False):
    """The stage slot `name`_slot of KV block `block` of this tile (a still
    held stage: the previous block in consume, or with `last` the tile's
    last block in the epilogue); returns its name. The one-tile kernel's
    block k is ring position k; the persistent kernel asks the pipeline
    (tile.held_stage), whose loops carry the ring position across tiles."""
    if not a.persistent:
        e.line(f"{indent}{name}_slot = arith.remui {block}, %cstages : index")
    elif last:
        # The epilogue runs after the tile's last block.
        e.line(f"{indent}{name}_slot = tile.held_stage 1")
    else:
        # consume: the previous block's stage, or the current one's in the
        # tile's first block (whose P is zero).
        e.line(f"{indent}{name}_now = tile.held_stage 0")
        e.line(f"{indent}{name}_back = tile.held_stage 1")
        e.line(f"{indent}{name}_slot = arith.select %has_prev, {name}_back, "
               f"{name}_now : index")
    return f"{name}_slot"


def emit_p_fragments(e, a, prefix, indent):
    """The A fragments of the carried probabilities %p_prev; returns their
    names."""
    frags = []
    for i in range(a.block_n // 16):
        frags.append(f"%{prefix}{i}")
        e.line(f"{indent}%{prefix}{i} = tile.wgmma_a_fragment %p_prev[{i}] : !accS -> vector<8x{a.dtype}>")
    return frags


def emit_previous_v_and_p(e, a, block, view, prefix, indent, slot=None):
    """The stage view `view` of KV block `block` (a still held stage; its
    slot where already computed) and the A fragments of the carried
    probabilities %p_prev; returns the fragments' names."""
    if slot is None:
        slot = emit_held_slot(e, a, block, view, indent)
    e.line(f"{indent}{view} = tile.stage %sv[{slot}] : !stagesKV -> !tileKV")
    return emit_p_fragments(e, a, prefix, indent)


def q_tile_bytes(d):
    """Bytes of Q's tile (BM rows of d 2-byte elements): the arena's first
    buffer, the K stages' offset."""
    return BM * d * 2


def emit_epilogue(e, a):
    d, el = a.head_dim, a.dtype
    o_vals = d // 2
    e.line("%row0 = arith.muli %cidx, %c64 : index")
    if a.persistent:
        emit_tile_coords(e, a)
    o_name = "%o"
    if a.overlap or a.persistent:
        e.line(f"%has_any = arith.cmpi ugt, %ntiles, {first_block(a)} : index")
    last_slot = None
    if a.persistent:
        # The tile's last block: its stage is still held (the last P V
        # reads its V, and O is staged in its K; with --kv-lag V's alone).
        last_slot = emit_held_slot(e, a, "%klast", "%last", "", last=True)
    if a.overlap:
        # The last block's O += P V (its stage is still held).
        # With --row-sums tensor the if also yields the sums, the last
        # block's folded in.
        fin_types = "!accO, f32, f32" if a.tc_sums else "!accO"
        e.line(f"%o_fin{':3' if a.tc_sums else ''} = scf.if %has_any -> ({fin_types}) {{")
        if last_slot is None:
            e.line("  %klast = arith.subi %ntiles, %c1 : index")
        last = emit_previous_v_and_p(e, a, "%klast", "%vlast", "pl", "  ", last_slot)
        e.line("  %o_pin = tile.wgmma_fence_operand %o : !accO")
        o_scaled = emit_rescale(e, "%o_pin", ["%alpha_a", "%alpha_b"], o_vals, "  ")
        if a.tc_sums:
            sums = emit_row_sums(e, a, last, "  ")
        o = emit_pv(e, a, "%vlast", o_scaled, last, "  ")
        e.line("  nvvm.wgmma.wait.group.sync.aligned 0")
        if a.tc_sums:
            last_l = emit_add_sums(e, sums, ("%l_a", "%l_b"), indent="  ")
        for i in range(a.block_n // 16):
            e.line(f"  %held_last{i} = tile.wgmma_fence_operand %pl{i} : vector<8x{el}>")
        e.line(f"  %o_last = tile.wgmma_fence_operand {o} : !accO")
        sums_then = f", {last_l[0]}, {last_l[1]}" if a.tc_sums else ""
        sums_else = ", %l_a, %l_b" if a.tc_sums else ""
        e.line(f"  scf.yield %o_last{sums_then} : {fin_types}")
        e.line("} else {")
        e.line(f"  scf.yield %o{sums_else} : {fin_types}")
        e.line("}")
        o_name = "%o_fin#0" if a.tc_sums else "%o_fin"
    stats = (("%l_a", "%m_a"), ("%l_b", "%m_b"))
    if a.tc_sums:
        # The sums are whole rows' already (no quad reduction below).
        stats = (("%o_fin#1", "%m_a"), ("%o_fin#2", "%m_b"))
    if a.split_tail:
        o_name, stats = emit_split_combine(e, a, o_name)
    invs, lse = [], []
    for r, (l, m) in enumerate(stats):
        total = l if a.tc_sums else quad_reduce(e, l, "arith.addf")
        pos = e.op("pos", f"arith.cmpf ogt, {total}, %fzero : f32")
        inv0 = e.op("inv", f"arith.divf %fone, {total} : f32")
        invs.append(e.op("inv", f"arith.select {pos}, {inv0}, %fzero : f32"))
        # log-sum-exp = m * scale + ln l = (m * scale * log2 e + log2 l) ln 2.
        lg = e.op("lg", f'llvm.call_intrinsic "llvm.nvvm.lg2.approx.ftz.f"({total}) : (f32) -> f32')
        msc = e.op("ms", f"arith.mulf {m}, %sl2 : f32")
        s2 = e.op("ls", f"arith.addf {msc}, {lg} : f32")
        lse.append(e.op("lse", f"arith.mulf {s2}, %ln2 : f32"))
    stage_o, stage_type = "%sq", "!tileQ"
    if a.persistent and not a.kv_lag:
        # O goes through the last block's K stage, still held (its S are
        # complete once the other consumer says so), not Q's buffer: Q is
        # released before the epilogue and the next tile's loads meanwhile.
        # A tile without blocks stages in stage 0, which no load ever fills.
        stage_o, stage_type = "%so", "!tileKV"
        e.line(f"%o_slot = arith.select %has_any, {last_slot}, %c0 : index")
        e.line("%so = tile.stage %sk[%o_slot] : !stagesKV -> !tileKV")
        # The 32-bit view, here rather than at the kernel's start: a value
        # live across the main loop costs its consumers registers.
        e.line(f"%skp = tile.arena_view [{q_tile_bytes(d)}] : !stagesKVp")
        e.line("%sop = tile.stage %skp[%o_slot] : !stagesKVp -> !tileKVp")
        e.line("scf.if %has_any {")
        e.line("  %o_other_c = arith.index_cast %cidx : index to i32")
        e.line("  %o_other_bar = arith.subi %c6_i32, %o_other_c : i32")
        e.line("  nvvm.barrier id = %o_other_bar number_of_threads = %c256_i32")
        e.line("}")
    # O / l, rounded, into this consumer's 64 rows of the Q tile (persistent:
    # of the last K stage; with --kv-lag, whose K stages go back after their
    # block, of Q's, which the pipeline then releases after the epilogue).
    e.line("%srow_a0 = arith.addi %row0, %trow : index")
    e.line("%srow_b0 = arith.addi %srow_a0, %c8 : index")
    if stage_o == "%sq":
        e.line("%sqp = tile.arena_view [0] : !tileQp")
    lane4 = "%lane4"
    if a.persistent:
        # The lane's pair column, taken through the tile index (the minimum
        # is always lane % 4): otherwise LLVM hoists the stores' 32 swizzled
        # offsets, which depend on the thread alone, out of the tile loop,
        # and the consumers hold them in registers through the main loop
        # (ptxas spilled 108 bytes at head_dim 128).
        e.line("%t_bound = arith.addi %t, %c4 : index")
        e.line("%lane4_tile = arith.minui %lane4, %t_bound : index")
        lane4 = "%lane4_tile"
    for k in sorted({col_of(i) // 2 for i in range(0, o_vals, 2)}):
        e.line(f"%cpair{k} = arith.constant {k} : index")
    # Elements 2j and 2j + 1 are one row's adjacent columns (the even one
    # first): one 4-byte store of the pair, rounded together (cvt of two
    # f32 to bf16x2), half the stores and address computations of storing
    # each element.
    for i in range(0, o_vals, 2):
        pair = []
        for j in (i, i + 1):
            v = e.op("ov", f"llvm.extractvalue {o_name}[{j}] : !accO")
            n = e.op("on", f"arith.mulf {v}, {invs[row_of(j)]} : f32")
            pair.append(e.op("ot", f"arith.truncf {n} : f32 to {el}"))
        t = e.op("op", f"vector.from_elements {pair[0]}, {pair[1]} : vector<2x{el}>")
        b = e.op("ob", f"vector.bitcast {t} : vector<2x{el}> to vector<1xi32>")
        word = e.op("ow", f"vector.extract {b}[0] : i32 from vector<1xi32>")
        # Pair column (2 (lane % 4) + 8j) / 2 = lane % 4 + 4j.
        col = e.op("oc", f"arith.addi {lane4}, %cpair{col_of(i) // 2} : index")
        row = "%srow_a0" if row_of(i) == 0 else "%srow_b0"
        e.line(f"memref.store {word}, {stage_o}p[{row}, {col}] : {stage_type}p")
    e.line("// Generic-proxy writes, then the TMA (async proxy) reads them;")
    e.line("// named barrier 1 + consumer over its 128 threads.")
    e.line("nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}")
    e.line("%cidx_e32 = arith.index_cast %cidx : index to i32")
    e.line("%bar_id = arith.addi %cidx_e32, %c1_i32 : i32")
    e.line("nvvm.barrier id = %bar_id number_of_threads = %c128_i32")
    e.line("%mrow = arith.addi %m0, %row0 : index")
    e.line("%storer = arith.cmpi eq, %local, %c0 : index")
    e.line("scf.if %storer {")
    store = (f"tile.copy_async %O[%b, %h, %mrow, 0] [1, 1, 64, {d}], "
             f"{stage_o}[%row0, 0] [64, {d}] : !O, {stage_type}")
    if a.split_tail:
        # A split tile's rows are stored by the piece that combined them.
        e.line("  scf.if %write_out {")
        e.line(f"    {store}")
        e.line("  }")
    else:
        e.line(f"  {store}")
    e.line("  tile.bulk_commit_group")
    if not a.persistent:
        e.line("  tile.bulk_wait_group 0")
    # Persistent: the store stays in flight; the pipeline waits for it to
    # read the K stage (or Q's buffer) before it goes back to the producer.
    e.line("}")
    # The log-sum-exp: lane 4q writes rows r and r + 8.
    e.line("%quad_lead = arith.cmpi eq, %lane4, %c0 : index")
    for r, row in enumerate(("%qrow_ea", "%qrow_eb")):
        base = "%mrow" if r == 0 else "%qrow_ea"
        off = "%trow" if r == 0 else "%c8"
        e.line(f"{row} = arith.addi {base}, {off} : index")
        inside = e.op("in", f"arith.cmpi ult, {row}, %S : index")
        if a.split_tail:
            inside = e.op("in", f"arith.andi {inside}, %write_out : i1")
        w = e.op("w", f"arith.andi %quad_lead, {inside} : i1")
        e.line(f"scf.if {w} {{")
        e.line(f"  memref.store {lse[r]}, %L[%b, %h, {row}] : !L")
        e.line("}")
    e.line("tile.yield")


# The split tail's shared flags: a word per consumer (and padding to 16).
SPLIT_FLAG_BYTES = 16
# --row-sums tensor: the 8 x 16 block of ones (16-bit elements).
ONES_BYTES = 256


def split_slot_floats(d):
    """A consumer's partial rows in the split tail's workspace: per thread
    its d / 2 O values, then m and l of its two rows."""
    return WG * (d // 2 + 4)


def emit_split_combine(e, a, o):
    """The split tail's combination, in the epilogue after the last P V
    (every consumer thread): a piece of a split tile (blocks from %kfirst >
    0, or ending at %ntiles before the tile's last) writes its partial rows
    (O unnormalized, the row maxima m, the thread's sums l) to its slot of
    the workspace %part, then arrives on the cut's counter in %cnt (zero
    before the launch; the second arrival resets it, so the next launch
    finds it zero); the second to arrive reads the other's, combines
    them (m' = max(m1, m2), O' = O1 2^((m1 - m') s) + O2 2^((m2 - m') s),
    l likewise; the head piece's values first, so the result does not
    depend on which arrived last) and alone stores O and the log-sum-exp
    (%write_out). The
    cut j lies between CTAs j - 1 and j: slot ((2 j + part) 2 + consumer),
    part 0 for the head piece, 1 for the tail; a slot holds the values in
    groups of four, group g of thread t at 4 (g x 128 + t), so each warp's
    16-byte accesses are contiguous. Returns the combined O's name and the
    (l, m) names of the two rows."""
    d = a.head_dim
    o_vals = d // 2
    groups = (o_vals + 4) // 4
    names = [f"%sc_o{i}" for i in range(o_vals)] + ["%m_a", "%m_b", "%l_a", "%l_b"]
    e.line("// A piece of a split tile: partial rows to the workspace, then the")
    e.line("// cut's counter; the second piece to arrive combines and stores.")
    e.line("%sc_tail = arith.cmpi ugt, %kfirst, %c0 : index")
    e.line("%sc_end32 = arith.index_cast %ntiles : index to i32")
    e.line("%sc_head = arith.cmpi ult, %sc_end32, %kvb32 : i32")
    e.line("%sc_split = arith.ori %sc_tail, %sc_head : i1")
    e.line("%sc_o, %sc_ma, %sc_mb, %sc_la, %sc_lb, %write_out = scf.if %sc_split "
           "-> (!accO, f32, f32, f32, f32, i1) {")
    e.line("  %sc_cta1 = arith.addi %cta, %c1 : index")
    e.line("  %sc_j = arith.select %sc_tail, %cta, %sc_cta1 : index")
    e.line("  %sc_part = arith.select %sc_tail, %c1, %c0 : index")
    e.line("  %sc_other = arith.subi %c1, %sc_part : index")
    e.line("  %sc_j2 = arith.muli %sc_j, %c2 : index")
    e.line("  %sc_count_at = arith.addi %sc_j2, %cidx : index")
    e.line(f"  %sc_slot = arith.constant {split_slot_floats(d)} : index")
    e.line("  %sc_t4 = arith.muli %local, %c4 : index")
    for who, part in (("mine", "%sc_part"), ("theirs", "%sc_other")):
        e.line(f"  %sc_{who}0 = arith.addi %sc_j2, {part} : index")
        e.line(f"  %sc_{who}1 = arith.muli %sc_{who}0, %c2 : index")
        e.line(f"  %sc_{who}2 = arith.addi %sc_{who}1, %cidx : index")
        e.line(f"  %sc_{who}3 = arith.muli %sc_{who}2, %sc_slot : index")
        e.line(f"  %sc_{who} = arith.addi %sc_{who}3, %sc_t4 : index")
    for i in range(o_vals):
        e.line(f"  {names[i]} = llvm.extractvalue {o}[{i}] : !accO")
    for g in range(groups):
        vals = ", ".join(names[4 * g:4 * g + 4])
        e.line(f"  %sc_w{g} = vector.from_elements {vals} : vector<4xf32>")
        e.line(f"  %sc_go{g} = arith.constant {4 * WG * g} : index")
        e.line(f"  %sc_wa{g} = arith.addi %sc_mine, %sc_go{g} : index")
        e.line(f"  vector.store %sc_w{g}, %part[%sc_wa{g}] {{alignment = 16}} : "
               "memref<?xf32>, vector<4xf32>")
    e.line("  // Every thread's partial visible device-wide before the arrival.")
    e.line("  nvvm.memory.barrier #nvvm.mem_scope<gpu>")
    e.line("  %sc_bar_c = arith.index_cast %cidx : index to i32")
    e.line("  %sc_bar = arith.addi %sc_bar_c, %c1_i32 : i32")
    e.line("  nvvm.barrier id = %sc_bar number_of_threads = %c128_i32")
    flag = f"memref<{SPLIT_FLAG_BYTES // 4}xi32, #gpu.address_space<workgroup>>"
    e.line(f"  %sc_flags = tile.arena_view [{arena_bytes(a)}] : {flag}")
    e.line("  %sc_lead = arith.cmpi eq, %local, %c0 : index")
    e.line("  scf.if %sc_lead {")
    e.line("    %sc_arrived = memref.atomic_rmw addi %c1_i32, %cnt[%sc_count_at] : "
           "(i32, memref<?xi32>) -> i32")
    e.line("    // The other piece's partial visible before this CTA reads it.")
    e.line("    nvvm.memory.barrier #nvvm.mem_scope<gpu>")
    e.line("    // The second arrival (the last of the cut's two) leaves the")
    e.line("    // counter zero for the next launch on the stream.")
    e.line("    %sc_unset = arith.constant 0 : i32")
    e.line("    %sc_was_second = arith.cmpi ne, %sc_arrived, %sc_unset : i32")
    e.line("    scf.if %sc_was_second {")
    e.line("      memref.store %sc_unset, %cnt[%sc_count_at] : memref<?xi32>")
    e.line("    }")
    e.line(f"    memref.store %sc_arrived, %sc_flags[%cidx] : {flag}")
    e.line("  }")
    e.line("  nvvm.barrier id = %sc_bar number_of_threads = %c128_i32")
    e.line(f"  %sc_seen = memref.load %sc_flags[%cidx] : {flag}")
    e.line("  %sc_none = arith.constant 0 : i32")
    e.line("  %sc_second = arith.cmpi ne, %sc_seen, %sc_none : i32")
    e.line("  %sc_co, %sc_cma, %sc_cmb, %sc_cla, %sc_clb = scf.if %sc_second "
           "-> (!accO, f32, f32, f32, f32) {")
    theirs = []
    for g in range(groups):
        e.line(f"    %sc_ra{g} = arith.addi %sc_theirs, %sc_go{g} : index")
        e.line(f"    %sc_r{g} = vector.load %part[%sc_ra{g}] {{alignment = 16}} : "
               "memref<?xf32>, vector<4xf32>")
        for j in range(4):
            v = f"%sc_x{4 * g + j}"
            e.line(f"    {v} = vector.extract %sc_r{g}[{j}] : f32 from vector<4xf32>")
            theirs.append(v)
    # The head piece's values first and the tail's second, whichever
    # arrived last: the rounding is the same in every run.
    head = [e.op("sc_hd", f"arith.select %sc_tail, {t}, {m} : f32")
            for m, t in zip(names, theirs)]
    tail = [e.op("sc_tl", f"arith.select %sc_tail, {m}, {t} : f32")
            for m, t in zip(names, theirs)]
    names, theirs = head, tail
    mine_m, their_m = names[o_vals:o_vals + 2], theirs[o_vals:o_vals + 2]
    mine_l, their_l = names[o_vals + 2:], theirs[o_vals + 2:]
    scales, merged_m, merged_l = [], [], []
    for r in range(2):
        m = e.op("sc_m", f"arith.maxnumf {mine_m[r]}, {their_m[r]} : f32")
        inf = e.op("sc_inf", f"arith.cmpf oeq, {m}, %ninf : f32")
        msc = e.op("sc_ms", f"arith.mulf {m}, %sl2 : f32")
        msafe = e.op("sc_ms", f"arith.select {inf}, %fzero, {msc} : f32")
        pair = []
        for mm in (mine_m[r], their_m[r]):
            sc = e.op("sc_s", f"arith.mulf {mm}, %sl2 : f32")
            df = e.op("sc_d", f"arith.subf {sc}, {msafe} : f32")
            pair.append(e.op("sc_f", 'llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"'
                             f"({df}) : (f32) -> f32"))
        scales.append(pair)
        merged_m.append(m)
        l1 = e.op("sc_l", f"arith.mulf {mine_l[r]}, {pair[0]} : f32")
        merged_l.append(e.op("sc_l", f"llvm.intr.fma({their_l[r]}, {pair[1]}, {l1}) : "
                             "(f32, f32, f32) -> f32"))
    out = o
    for i in range(o_vals):
        f0, f1 = scales[row_of(i)]
        v1 = e.op("sc_v", f"arith.mulf {names[i]}, {f0} : f32")
        v = e.op("sc_v", f"llvm.intr.fma({theirs[i]}, {f1}, {v1}) : (f32, f32, f32) -> f32")
        out = e.op("sc_c", f"llvm.insertvalue {v}, {out}[{i}] : !accO")
    e.line(f"    scf.yield {out}, {merged_m[0]}, {merged_m[1]}, {merged_l[0]}, "
           f"{merged_l[1]} : !accO, f32, f32, f32, f32")
    e.line("  } else {")
    e.line(f"    scf.yield {o}, %m_a, %m_b, %l_a, %l_b : !accO, f32, f32, f32, f32")
    e.line("  }")
    e.line("  scf.yield %sc_co, %sc_cma, %sc_cmb, %sc_cla, %sc_clb, %sc_second : "
           "!accO, f32, f32, f32, f32, i1")
    e.line("} else {")
    e.line("  %sc_whole = arith.constant true")
    e.line(f"  scf.yield {o}, %m_a, %m_b, %l_a, %l_b, %sc_whole : "
           "!accO, f32, f32, f32, f32, i1")
    e.line("}")
    return "%sc_o", (("%sc_la", "%sc_ma"), ("%sc_lb", "%sc_mb"))


def arena_bytes(a):
    """Q's tile and the K and V stages (the split tail's flags follow)."""
    return q_tile_bytes(a.head_dim) + 2 * a.stages * a.block_n * a.head_dim * 2


# --first-pv by-length (the non-causal overlapped kernels' default): the
# guarded kernel where the keys are at most this many 128-row blocks, the
# zero-P one beyond (rounds 66-75, docs/attention.md).
FIRST_PV_GUARD_BLOCKS = 16


def generate(a, long_a=None):
    """The module of kernel `a.name` and its host entries. With `long_a`
    (the options of a second kernel of the same arguments and buffers), the
    module holds both and the entries launch the first where the keys fill
    at most FIRST_PV_GUARD_BLOCKS blocks, `long_a.name` beyond."""
    d, el, causal, stages = a.head_dim, a.dtype, a.causal, a.stages
    panels = d // 64
    name = a.name
    smem = arena_bytes(a)
    if a.split_tail or (long_a and long_a.split_tail):
        # The consumers' "last piece" flags (emit_split_combine).
        smem += SPLIT_FLAG_BYTES
    if a.tc_sums:
        smem += ONES_BYTES
    if panels == 1:
        tile_layout = f"#tile.layout<({BM}, 64) : (64, 1), swizzle = 128B>"
        kv_layout = f"#tile.layout<({a.block_n}, 64) : (64, 1), swizzle = 128B>"
        stages_layout = f"#tile.layout<({stages}, {a.block_n}, 64) : ({a.block_n * 64}, 64, 1), swizzle = 128B>"
    else:
        tile_layout = f"#tile.layout<({BM}, {panels}, 64) : (64, {BM * 64}, 1), swizzle = 128B>"
        kv_layout = f"#tile.layout<({a.block_n}, {panels}, 64) : (64, {a.block_n * 64}, 1), swizzle = 128B>"
        stages_layout = (f"#tile.layout<({stages}, {a.block_n}, {panels}, 64) : ({a.block_n * d}, 64, {a.block_n * 64}, 1), "
                         "swizzle = 128B>")
    # The same buffers as 32-bit words (a bf16 or f16 pair each), which the
    # epilogue stores O's rounded pairs through.
    if panels == 1:
        tile_layout_p = f"#tile.layout<({BM}, 32) : (32, 1), swizzle = 128B>"
        kv_layout_p = f"#tile.layout<({a.block_n}, 32) : (32, 1), swizzle = 128B>"
        stages_layout_p = (f"#tile.layout<({stages}, {a.block_n}, 32) : "
                           f"({a.block_n * 32}, 32, 1), swizzle = 128B>")
    else:
        tile_layout_p = f"#tile.layout<({BM}, {panels}, 32) : (32, {BM * 32}, 1), swizzle = 128B>"
        kv_layout_p = (f"#tile.layout<({a.block_n}, {panels}, 32) : "
                       f"(32, {a.block_n * 32}, 1), swizzle = 128B>")
        stages_layout_p = (f"#tile.layout<({stages}, {a.block_n}, {panels}, 32) : "
                           f"({a.block_n * d // 2}, 32, {a.block_n * 32}, 1), swizzle = 128B>")
    wg = "#gpu.address_space<workgroup>"
    out = []
    w = out.append
    w(f"// Generated by examples/attention/gen_attention.py (head_dim {d}, {el}, "
      f"{'causal' if causal else 'non-causal'}, {stages} stages):")
    w("// forward attention with the log-sum-exp, for run-time batch, heads and")
    w("// sequence lengths. See docs/attention.md.")
    w("")
    w(f"!Q = memref<?x?x?x{d}x{el}>")
    w(f"!KV = memref<?x?x?x{d}x{el}>")
    w(f"!O = memref<?x?x?x{d}x{el}>")
    w("!L = memref<?x?x?xf32>")
    w(f"!tileQ = memref<{BM}x{d}x{el}, {tile_layout}, {wg}>")
    w(f"!stagesKV = memref<{stages}x{a.block_n}x{d}x{el}, {stages_layout}, {wg}>")
    w(f"!tileKV = memref<{a.block_n}x{d}x{el}, {kv_layout}, {wg}>")
    w(f"!tileQp = memref<{BM}x{d // 2}xi32, {tile_layout_p}, {wg}>")
    w(f"!stagesKVp = memref<{stages}x{a.block_n}x{d // 2}xi32, {stages_layout_p}, {wg}>")
    w(f"!tileKVp = memref<{a.block_n}x{d // 2}xi32, {kv_layout_p}, {wg}>")
    w(f"!qbar = !nvgpu.mbarrier.group<memorySpace = {wg}>")
    w(f"!accS = {struct(a.block_n // 2)}")
    w(f"!accO = {struct(d // 2)}")
    if a.tc_sums:
        w(f"!accL = {struct(4)}")
        w(f"!tileOnes = memref<8x16x{el}, #tile.layout<(8, 16) : (16, 1), swizzle = 32B>, {wg}>")
    w("")
    w("module attributes {gpu.container_module} {")
    w(f"  gpu.module @{name}_kernels {{")
    w(kernel_func(a))
    if long_a:
        w(kernel_func(long_a))
    w("  }")
    w("")
    if a.table_walk:
        w("  func.func private @tileRuntimeLongestFirstTable(i64, i64, i64, i64, i64, i64)")
        w("      -> memref<?xi32> attributes {llvm.emit_c_interface}")
        w("")
    emit_host(w, a, name, smem, long_a)
    out[-1] = "}"
    return "\n".join(out) + "\n"


def kernel_func(a):
    """The gpu.func of kernel `a.name`, in the module's kernels (its type
    aliases are generate()'s)."""
    d, causal, stages = a.head_dim, a.causal, a.stages
    q_bytes = q_tile_bytes(d)
    kv_bytes = stages * a.block_n * d * 2
    sl2 = (1.0 / math.sqrt(d)) * math.log2(math.e)
    sched = ", %sched: memref<?xi32>" if a.table_walk else ""
    if a.split_tail:
        sched = ", %part: memref<?xf32>, %cnt: memref<?xi32>"
    out = [f"    gpu.func @{a.name}(%Q: !Q, %K: !KV, %V: !KV, %O: !O, %L: !L{sched}) kernel {{"]
    body = Emitter("      ")
    b = body.line
    for v in (0, 1, 2, 4, 8, 16, 64):
        b(f"%c{v} = arith.constant {v} : index")
    b("%c32 = arith.constant 32 : index")
    b(f"%cbm = arith.constant {BM} : index")
    b(f"%cbn = arith.constant {a.block_n} : index")
    if a.split_tail:
        b("%cmask32 = arith.constant 4294967295 : index")
    b(f"%cbn1 = arith.constant {a.block_n - 1} : index")
    b(f"%cwg = arith.constant {WG} : index")
    for k in range(0, max(d, a.block_n), 16):
        b(f"%k{k} = arith.constant {k} : index")
    for c in sorted({col_of(i) for i in range(max(a.block_n, d) // 2)}):
        b(f"%ccol{c} = arith.constant {c} : index")
        b(f"%ccol{c}_i32 = arith.constant {c} : i32")
    b("%c1_i32 = arith.constant 1 : i32")
    b("%c2_i32 = arith.constant 2 : i32")
    b("%c32_i32 = arith.constant 32 : i32")
    b("%c128_i32 = arith.constant 128 : i32")
    if not a.persistent:
        # The consumers' wait for Q (the persistent form's is the pipeline's).
        b("%false = arith.constant false")
        b("%timeout = arith.constant 10000000 : index")
    b("%fzero = arith.constant 0.0 : f32")
    b("%fone = arith.constant 1.0 : f32")
    b("%ninf = arith.constant 0xFF800000 : f32")
    b(f"%sl2 = arith.constant {sl2!r} : f32")
    if a.lazy_rescale:
        b(f"%lazy_log2 = arith.constant {float(LAZY_LOG2)!r} : f32")
        b("%full_mask = arith.constant -1 : i32")
        b(f"%c{LAZY_VOTE_BARRIER}_i32 = arith.constant {LAZY_VOTE_BARRIER} : i32")
    b(f"%ln2 = arith.constant {math.log(2)!r} : f32")
    b("%zero_s = llvm.mlir.zero : !accS")
    b("%zero_o = llvm.mlir.zero : !accO")
    if a.tc_sums:
        b("%zero_l = llvm.mlir.zero : !accL")
    b(f"%cstages = arith.constant {stages} : index")
    if a.pingpong:
        b("%turn0 = arith.constant 3 : i32")
        b("%turn1 = arith.constant 4 : i32")
    if a.pingpong or a.persistent:
        b("%c256_i32 = arith.constant 256 : i32")
    if a.persistent:
        b("%c5_i32 = arith.constant 5 : i32")
        b("%c6_i32 = arith.constant 6 : i32")
    b("%tid = gpu.thread_id x")
    if a.persistent:
        b("// Persistent: the grid's CTAs walk the (query block, head, batch)")
        b("// tiles, CTA c taking tiles c, c + CTAs, c + 2 CTAs, ...")
        b("%cta = gpu.block_id x")
        b("%ctas = gpu.grid_dim x")
    elif not a.lpt:
        b("%qb = gpu.block_id x")
        b("%h = gpu.block_id y")
        b("%b = gpu.block_id z")
    b("%S = memref.dim %Q, %c2 : !Q")
    b("%H = memref.dim %Q, %c1 : !Q")
    b("%Skv = memref.dim %K, %c2 : !KV")
    if a.lpt:
        emit_lpt_tile(b, d)
    b("%Hkv = memref.dim %K, %c1 : !KV")
    b("// Grouped-query attention: Q heads per K/V head.")
    b("%group = arith.divui %H, %Hkv : index")
    if a.persistent:
        b("%B = memref.dim %Q, %c0 : !Q")
        b("%cbm1 = arith.constant 127 : index")
        b("%s_up = arith.addi %S, %cbm1 : index")
        b("%gx = arith.divui %s_up, %cbm : index")
        b("%gxh = arith.muli %gx, %H : index")
        b("%total = arith.muli %gxh, %B : index")
        emit_walk_share(b, a, d)
        emit_narrow_tile_walk(b, causal and not a.table_walk)
    else:
        b("%hkv = arith.divui %h, %group : index")
        b("%m0 = arith.muli %qb, %cbm : index")
    b("%skv_p = arith.addi %Skv, %cbn1 : index")
    b("%kv_blocks = arith.divui %skv_p, %cbn : index")
    if causal and not a.persistent:
        b("// Causal: KV blocks up to the one holding the CTA's last query row.")
        emit_causal_blocks(b)
    elif a.split_tail:
        emit_split_share(b)
    elif not causal:
        b("%ntiles = arith.addi %kv_blocks, %c0 : index")
    b("// The thread's place in its warpgroup's accumulator fragments: rows")
    b("// 16 (warp) + lane / 4 and 8 below, columns 2 (lane % 4) + 8j + 0..1.")
    b("%local = arith.remui %tid, %cwg : index")
    b("%warp = arith.divui %local, %c32 : index")
    b("%lane = arith.remui %local, %c32 : index")
    b("%wrow = arith.muli %warp, %c16 : index")
    b("%lrow = arith.divui %lane, %c4 : index")
    b("%trow = arith.addi %wrow, %lrow : index")
    b("%lane4 = arith.remui %lane, %c4 : index")
    b("%tcol = arith.muli %lane4, %c2 : index")
    b("%sq = tile.arena_view [0] : !tileQ")
    b(f"%sk = tile.arena_view [{q_bytes}] : !stagesKV")
    b(f"%sv = tile.arena_view [{q_bytes + kv_bytes}] : !stagesKV")
    if a.tc_sums:
        emit_ones(b, a)
    fr_init = ", %zero_s, %fone, %fone" if a.overlap else ""
    fr_type = ", !accS, f32, f32" if a.overlap else ""
    fr_args = ", %p_prev: !accS, %alpha_a: f32, %alpha_b: f32" if a.overlap else ""
    if not a.persistent:
        emit_q_once(b, d)
    # The persistent causal kernel's tiles differ in length: its iterations
    # region gives each its KV blocks, and its first query row and block
    # count as the tile's values. So does the split tail's: its pieces'
    # first and end blocks, packed into one value.
    ranges = a.persistent and (causal or a.split_tail)
    values = ["%kpack: index"] if a.split_tail else ["%m0: index", "%ntiles: index"]
    leading = (["%t: index"] if a.persistent else []) + (values if ranges else [])
    tile_arg = "".join(f"{arg}, " for arg in leading)
    tiles = " tiles(%mine)" if a.persistent else ""
    count = "" if ranges else " (%ntiles)"
    b(f"tile.pipeline{count}{tiles} stages(%sk, %sv : !stagesKV, !stagesKV)")
    b(f"    iter_args(%zero_o, %ninf, %ninf, %fzero, %fzero{fr_init} : !accO, f32, f32, f32, f32{fr_type})")
    # The overlap holds V of block k - 1 through consume(k): in_flight = 1
    # holds the whole stage (K too), read_lags = [0, 1] V alone.
    lags = " read_lags = array<i64: 0, 1>," if a.kv_lag else ""
    in_flight = 1 if a.overlap and not a.kv_lag else 0
    b(f"    attributes {{consumers = 2 : i64, in_flight = {in_flight} : i64,{lags} "
      "reads = #tile.consumer_reads<wgmma>,")
    # 24 + 2 x 240 is the whole of what 384 threads have at entry (168
    # each): the pool setmaxnreg moves registers within.
    b("                producer_registers = 24 : i64, consumer_registers = 240 : i64}"
      + (" iterations {" if ranges else " tile_loads {" if a.persistent else " produce {"))
    if ranges and a.split_tail:
        b("^bb0(%t: index):")
        b("  // The tile's KV blocks (a piece's of a split tile), its first")
        b("  // and end block for the other regions.")
        emit_tile_coords(body, a, "  ")
        emit_split_range(body, "  ")
        # One tile value, end << 32 | first: two would take four registers
        # through the consumers' loop, and the zero-P kernel at head_dim
        # 128 has two fewer than that to spare (it spilled 8 bytes).
        b("  %kp_hi = arith.shli %kend_t, %c32 : index")
        b("  %kpack_t = arith.ori %kp_hi, %kfirst_t : index")
        b("  tile.yield %kfirst_t, %kend_t, %kpack_t : index, index, index")
        b("} tile_loads {")
    elif ranges:
        b("^bb0(%t: index):")
        b("  // The tile's KV blocks 0 .. its diagonal; its first query row and")
        b("  // block count for the other regions.")
        emit_tile_coords(body, a, "  ")
        b("  %m0 = arith.muli %qb, %cbm : index")
        emit_causal_blocks(b, "  ", "%nblocks")
        b("  tile.yield %c0, %nblocks, %m0, %nblocks : index, index, index, index")
        b("} tile_loads {")
    if a.persistent:
        b(f"^bb0({', '.join(leading)}):")
        b("  // The tile's Q rows, once per tile (the pipeline's tile barriers).")
        emit_tile_coords(body, a, "  ")
        if a.prefetch_q:
            # The producer runs tile_loads right after the tile's first
            # K/V loads, a block or two before the previous tile's
            # consumers release Q's buffer; the prefetch does not wait for
            # that, so Q's load, after it, reads L2.
            b("  // Into L2 at once; into Q's buffer once the previous tile's")
            b("  // consumers release it.")
            b(f"  tile.copy_async %sq[0, 0] [{BM}, {d}], %Q[%b, %h, %m0, 0] [1, 1, {BM}, {d}] {{prefetch}} : !tileQ, !Q")
        b(f"  tile.copy_async %sq[0, 0] [{BM}, {d}], %Q[%b, %h, %m0, 0] [1, 1, {BM}, {d}] : !tileQ, !Q")
        b("  tile.yield")
        b("} produce {")
    b(f"^bb0({tile_arg}%kt: index, %kst: !tileKV, %vst: !tileKV):")
    if a.persistent:
        b("  // The tile's batch and K/V head (computed once per tile; its query block, unused here, folds away).")
        emit_tile_coords(body, a, "  ")
        b("  %hkv32 = arith.divui %h32, %group32 : i32")
        b("  %hkv = arith.index_castui %hkv32 : i32 to index")
    b("  %kv0 = arith.muli %kt, %cbn : index")
    b(f"  tile.copy_async %kst[0, 0] [{a.block_n}, {d}], %K[%b, %hkv, %kv0, 0] [1, 1, {a.block_n}, {d}] : !tileKV, !KV")
    b(f"  tile.copy_async %vst[0, 0] [{a.block_n}, {d}], %V[%b, %hkv, %kv0, 0] [1, 1, {a.block_n}, {d}] : !tileKV, !KV")
    b("  tile.yield")
    b("} consume {")
    b(f"^bb0({tile_arg}%kt: index, %ks: !tileKV, %vs: !tileKV, %cidx: index, %o: !accO, %m_a: f32, %m_b: f32, "
      f"%l_a: f32, %l_b: f32{fr_args}):")

    def unpack(em, consume=False):
        """The split tail's piece range from its one tile value; in the
        consume body also %kt and the piece's first block in 32 bits (KV
        blocks are below 2^30: emit_split_share). Compared in 64 bits they
        kept two more registers live through the consumers' loop, and the
        zero-P kernel at head_dim 128 spilled 8 bytes."""
        if a.split_tail:
            em.line("%kfirst = arith.andi %kpack, %cmask32 : index")
            em.line("%ntiles = arith.shrui %kpack, %c32 : index")
            if consume:
                em.line("%kt32 = arith.index_cast %kt : index to i32")
                em.line("%kfirst32 = arith.index_cast %kpack : index to i32")
    consume = Emitter(body.indent + "  ")
    unpack(consume, consume=True)
    emit_consume(consume, a)
    body.lines += consume.lines
    b("} epilogue {")
    b(f"^bb0({tile_arg}%cidx: index, %o: !accO, %m_a: f32, %m_b: f32, %l_a: f32, %l_b: f32{fr_args}):")
    epi = Emitter(body.indent + "  ")
    unpack(epi)
    epi.count = consume.count
    emit_epilogue(epi, a)
    body.lines += epi.lines
    b("}")
    b("gpu.return")
    out.append(body.text())
    out.append("    }")
    return "\n".join(out)


def emit_ones(b, a):
    """--row-sums tensor: the 8 x 16 block of ones that P's fragments are
    multiplied by (m64n8k16, B K-major) for the row sums, past the K/V
    stages. The first warpgroup's 128 threads write one element each and
    fence the writes for the tensor cores' (async) proxy; the barrier makes
    them visible to the consumers before any wgmma reads them. Every k-step
    reads the same block (ones are ones)."""
    b("// The row sums' block of ones (--row-sums tensor).")
    b(f"%s_ones = tile.arena_view [{arena_bytes(a)}] : !tileOnes")
    b("%ones_mine = arith.cmpi ult, %tid, %cwg : index")
    b("scf.if %ones_mine {")
    b("  %ones_r = arith.divui %tid, %k16 : index")
    b("  %ones_c = arith.remui %tid, %k16 : index")
    b(f"  %one_el = arith.constant 1.0 : {a.dtype}")
    b("  memref.store %one_el, %s_ones[%ones_r, %ones_c] : !tileOnes")
    b("  nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}")
    b("}")
    b("gpu.barrier")
    b("%d_ones = tile.wgmma_descriptor %s_ones[%c0, %c0] {rows = 8, k = 16} : !tileOnes -> i64")


def emit_q_once(b, d):
    """The one-tile kernel: Q once, on its own barrier."""
    b("// Q once, on its own barrier.")
    b("%qbar = nvgpu.mbarrier.create -> !qbar")
    b("%first = arith.cmpi eq, %tid, %c0 : index")
    b("scf.if %first {")
    b("  nvgpu.mbarrier.init %qbar[%c0], %c1 : !qbar")
    b("}")
    b("gpu.barrier")
    b("scf.if %first {")
    b(f"  tile.copy_async %sq[0, 0] [{BM}, {d}], %Q[%b, %h, %m0, 0] [1, 1, {BM}, {d}] barrier(%qbar[%c0]) : !tileQ, !Q, !qbar")
    b("  tile.arrive_expect_tx %qbar[%c0] : !qbar")
    b("}")
    b("// The consumers wait for Q; the producer goes on to the K/V loads.")
    b("%consumer = arith.cmpi uge, %tid, %cwg : index")
    b("scf.if %consumer {")
    b("  nvgpu.mbarrier.try_wait.parity %qbar[%c0], %false, %timeout : !qbar")
    b("}")


def emit_by_length(line, short, long, result=None):
    """The by-length module's choice of kernel (after %kv_blocks): `short()`
    emits the branch where the keys fill at most FIRST_PV_GUARD_BLOCKS
    blocks (the guarded kernel), `long()` the other. With `result` (a
    type), the scf.if yields one as %done (each branch ends in its own
    scf.yield)."""
    line(f"%guard_blocks = arith.constant {FIRST_PV_GUARD_BLOCKS} : index")
    line("%short = arith.cmpi ule, %kv_blocks, %guard_blocks : index")
    line(f"%done = scf.if %short -> ({result}) {{" if result
         else "scf.if %short {")
    short()
    line("} else {")
    long()
    line("}")


def emit_host(w, a, name, smem, long_a=None):
    """The host entries: the launch of one CTA per query block and (batch,
    head), or, persistent, one per SM (at most one per tile, causal one per
    unit of two tiles). With `long_a` (a second kernel's options), kernel
    `name` where the keys fill at most FIRST_PV_GUARD_BLOCKS blocks,
    `long_a.name` beyond."""
    long_name = long_a.name if long_a else None
    if a.split_tail or (long_a and long_a.split_tail):
        emit_split_host(w, a, name, smem, long_name,
                        whole_short=not a.split_tail)
        return
    for asyn in (True, False):
        fn = f"{name}_async" if asyn else name
        sig = ", %stream: !gpu.async.token) -> !gpu.async.token" if asyn else ")"
        w(f"  // {'Launched on `stream` (no synchronisation).' if asyn else 'Synchronous: returns when O and L are written.'}")
        w(f"  func.func @{fn}(%Q: !Q, %K: !KV, %V: !KV, %O: !O, %L: !L{sig} attributes {{llvm.emit_c_interface}} {{")
        emit_host_problem(w, smem)
        grid = "%gx, %H, %B"
        if a.persistent:
            emit_host_ctas(w, a)
            grid = "%ctas, %c1, %c1"
        sched = ", %sched : memref<?xi32>" if a.table_walk else ""
        def launch(kernel, indent, res):
            head = (f"gpu.launch_func async [%stream] @{name}_kernels::@{kernel}"
                    if asyn else f"gpu.launch_func @{name}_kernels::@{kernel}")
            w(f"{indent}{res}{head}")
            w(f"{indent}    blocks in ({grid}) threads in (%threads, %c1, %c1)")
            w(f"{indent}    dynamic_shared_memory_size %smem")
            w(f"{indent}    args(%Q : !Q, %K : !KV, %V : !KV, %O : !O, %L : !L{sched})")
        if a.table_walk:
            emit_table_launch(w, a, asyn, launch)
        elif long_name:
            w("    // The tile's first P V guarded (short keys) or a zero P (long).")
            emit_host_kv_blocks(w, a, "%kv_blocks")

            def branch(kernel, res):
                launch(kernel, "      ", f"{res} = " if asyn else "")
                if asyn:
                    w(f"      scf.yield {res} : !gpu.async.token")
            emit_by_length(lambda text: w("    " + text),
                           lambda: branch(name, "%short_done"),
                           lambda: branch(long_name, "%long_done"),
                           "!gpu.async.token" if asyn else None)
        else:
            launch(name, "    ", "%done = " if asyn else "")
        w("    return %done : !gpu.async.token" if asyn else "    return")
        w("  }")
        w("")


def emit_host_problem(w, smem):
    """The host entries' constants and problem: %B, %H, %S and %gx, the
    query blocks of BM rows."""
    for v in (0, 1, 2):
        w(f"    %c{v} = arith.constant {v} : index")
    w(f"    %cbm = arith.constant {BM} : index")
    w(f"    %cbm1 = arith.constant {BM - 1} : index")
    w("    %threads = arith.constant 384 : index")
    w(f"    %smem = arith.constant {smem} : i32")
    w("    %B = memref.dim %Q, %c0 : !Q")
    w("    %H = memref.dim %Q, %c1 : !Q")
    w("    %S = memref.dim %Q, %c2 : !Q")
    w("    %sp = arith.addi %S, %cbm1 : index")
    w("    %gx = arith.divui %sp, %cbm : index")


def emit_host_ctas(w, a):
    """The persistent grid: %tiles, and %ctas, one per SM, at most one per
    tile (causal paired: per unit of two tiles), at least one."""
    w(f"    %sms = arith.constant {a.sms} : index")
    w("    %gxh = arith.muli %gx, %H : index")
    w("    %tiles = arith.muli %gxh, %B : index")
    if a.table_walk:
        w("    // Causal, from the table: at most one CTA per tile.")
        w("    %fill = arith.minui %tiles, %sms : index")
    elif a.causal:
        w("    // Causal: the CTAs walk units of two tiles.")
        w("    %tiles_up = arith.addi %tiles, %c1 : index")
        w("    %units = arith.divui %tiles_up, %c2 : index")
        w("    %fill = arith.minui %units, %sms : index")
    else:
        w("    %fill = arith.minui %tiles, %sms : index")
    w("    // At least one CTA (the kernel takes no tile where there is none).")
    w("    %ctas = arith.maxui %fill, %c1 : index")


def emit_split_host(w, a, name, smem, long_name=None, whole_short=False):
    """The host entries of a split-tail kernel (emit_split_share): the
    asynchronous one takes the stream's workspace (tile.stream_workspace:
    the partial rows of two pieces and two consumers per cut between CTAs,
    and the cuts' counters, zero when the runtime allocates them and left
    zero by the kernel; one element each where no tile is split) and
    launches the kernel (with `long_name`, the by-length choice); where the
    runtime could not allocate it (its error recorded) it launches nothing.
    With `whole_short`, kernel `name` takes whole tiles and no workspace:
    where the keys fill at most FIRST_PV_GUARD_BLOCKS blocks the entry
    launches it and asks for no workspace, the split kernel `long_name`
    beyond. The synchronous one runs it on a stream of its own and waits
    for that stream."""
    args = "%Q, %K, %V, %O, %L"
    types = "!Q, !KV, !KV, !O, !L"
    w("  // Launched on `stream` (no synchronisation); returns `stream`.")
    w(f"  func.func @{name}_async(%Q: !Q, %K: !KV, %V: !KV, %O: !O, %L: !L, "
      "%stream: !gpu.async.token) -> !gpu.async.token attributes {llvm.emit_c_interface} {")
    emit_host_problem(w, smem)
    w("    %c4 = arith.constant 4 : index")
    emit_host_ctas(w, a)
    emit_host_kv_blocks(w, a, "%kv_blocks")

    def launch(kernel, indent, workspace=True):
        ws = (", %part : memref<?xf32>, %cnt : memref<?xi32>" if workspace
              else "")
        w(f"{indent}%{kernel}_done = gpu.launch_func async [%stream] @{name}_kernels::@{kernel}")
        w(f"{indent}    blocks in (%ctas, %c1, %c1) threads in (%threads, %c1, %c1)")
        w(f"{indent}    dynamic_shared_memory_size %smem")
        w(f"{indent}    args(%Q : !Q, %K : !KV, %V : !KV, %O : !O, %L : !L{ws})")

    def split_launch(indent, kernels):
        """The workspace and the launch of `kernels`: one name, or the
        guarded and the long-key one by length."""
        def x(text):
            w(indent + text)
        x("// Tiles are cut where the kernel cuts them (emit_split_share).")
        emit_split_rule(x, "%tiles", "%sw_")
        x("// Partial rows: 4 slots per CTA (cuts 1 .. CTAs - 1, a head and a")
        x("// tail piece each, two consumers); a counter per cut and consumer.")
        x(f"%sw_slot = arith.constant {split_slot_floats(a.head_dim)} : index")
        x("%sw_slots = arith.muli %ctas, %c4 : index")
        x("%sw_floats = arith.muli %sw_slots, %sw_slot : index")
        x("%sw_counts = arith.muli %ctas, %c2 : index")
        x("%sw_part_n = arith.select %split, %sw_floats, %c1 : index")
        x("%sw_cnt_n = arith.select %split, %sw_counts, %c1 : index")
        x("%part = tile.stream_workspace \"attention split partials\" [%stream] (%sw_part_n) : memref<?xf32>")
        x("%cnt = tile.stream_workspace \"attention split counters\" [%stream] (%sw_cnt_n) zeroed : memref<?xi32>")
        x("%part_at = memref.extract_aligned_pointer_as_index %part : memref<?xf32> -> index")
        x("%cnt_at = memref.extract_aligned_pointer_as_index %cnt : memref<?xi32> -> index")
        x("%sw_least = arith.minui %part_at, %cnt_at : index")
        x("%sw_ok = arith.cmpi ne, %sw_least, %c0 : index")
        x("%has_tiles = arith.cmpi ugt, %tiles, %c0 : index")
        x("%run = arith.andi %sw_ok, %has_tiles : i1")
        x("scf.if %run {")
        if len(kernels) == 2:
            x("  // The tile's first P V guarded (short keys) or a zero P (long).")
            emit_by_length(lambda text: x("  " + text),
                           lambda: launch(kernels[0], indent + "    "),
                           lambda: launch(kernels[1], indent + "    "))
        else:
            launch(kernels[0], indent + "  ")
        x("}")

    if whole_short:
        w("    // Short keys: whole tiles (the first P V guarded), no workspace;")
        w("    // long keys: the split tail (a zero P).")
        emit_by_length(lambda text: w("    " + text),
                       lambda: launch(name, "      ", workspace=False),
                       lambda: split_launch("      ", [long_name]))
    else:
        split_launch("    ", [name, long_name] if long_name else [name])
    w("    return %stream : !gpu.async.token")
    w("  }")
    w("")
    w("  // Synchronous: returns when O and L are written.")
    w(f"  func.func @{name}(%Q: !Q, %K: !KV, %V: !KV, %O: !O, %L: !L) "
      "attributes {llvm.emit_c_interface} {")
    w("    %stream = gpu.wait async")
    w("    // Waiting for the stream itself (the call's result is the same).")
    w(f"    %done = func.call @{name}_async({args}, %stream) : ({types}, "
      "!gpu.async.token) -> !gpu.async.token")
    w("    gpu.wait [%stream]")
    w("    return")
    w("  }")
    w("")


# The longest-first table's cost of a tile besides its KV blocks, in KV
# blocks: per tile the kernels spend about one block's time on the first
# block's softmax (no P V to overlap), the last P V and the epilogue
# (docs/attention.md, "Limits").
TABLE_TILE_COST = 1


def emit_host_kv_blocks(w, a, result):
    """`result`, the host's count of KV blocks of a.block_n keys (and %Skv,
    the keys)."""
    w("    %Skv = memref.dim %K, %c2 : !KV")
    w(f"    %cbn1 = arith.constant {a.block_n - 1} : index")
    w(f"    %cbn = arith.constant {a.block_n} : index")
    w("    %skv_up = arith.addi %Skv, %cbn1 : index")
    w(f"    {result} = arith.divui %skv_up, %cbn : index")


def emit_table_launch(w, a, asyn, launch):
    """The launch of a kernel that walks the longest-first table: the
    runtime's table for the problem (built on its first launch, then looked
    up), none for an empty problem, and no launch where the runtime could not
    give one (its error recorded)."""
    d = a.head_dim
    w("    // The longest-first schedule over the CTAs (the runtime builds it")
    w("    // once per problem); the sections as the paired walk takes them.")
    emit_host_kv_blocks(w, a, "%kv_blocks0")
    w("    // Empty keys cost their tiles' epilogues alone.")
    w("    %kv_blocks = arith.maxui %kv_blocks0, %c1 : index")
    emit_lpt_section(lambda text: w("    " + text), d, "%B")
    w(f"    %tile_cost = arith.constant {TABLE_TILE_COST} : i64")
    for v in ("gx", "kv_blocks", "heads", "sec", "ctas"):
        w(f"    %{v}_i64 = arith.index_cast %{v} : index to i64")
    w("    %has_tiles = arith.cmpi ugt, %tiles, %c0 : index")
    res = "%done = " if asyn else ""
    ty = " -> (!gpu.async.token)" if asyn else ""
    w(f"    {res}scf.if %has_tiles{ty} {{")
    w("      %sched = func.call @tileRuntimeLongestFirstTable(%gx_i64, "
      "%kv_blocks_i64, %heads_i64, %sec_i64, %ctas_i64, %tile_cost) : "
      "(i64, i64, i64, i64, i64, i64) -> memref<?xi32>")
    w("      %sched_at = memref.extract_aligned_pointer_as_index %sched : "
      "memref<?xi32> -> index")
    w("      %have_table = arith.cmpi ne, %sched_at, %c0 : index")
    w(f"      {'%ran = ' if asyn else ''}scf.if %have_table{ty} {{")
    launch(a.name, "        ", "%launched = " if asyn else "")
    if asyn:
        w("        scf.yield %launched : !gpu.async.token")
        w("      } else {")
        w("        scf.yield %stream : !gpu.async.token")
        w("      }")
        w("      scf.yield %ran : !gpu.async.token")
        w("    } else {")
        w("      scf.yield %stream : !gpu.async.token")
    else:
        w("      }")
    w("    }")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--head-dim", dest="head_dim", type=int, default=128, choices=(64, 128))
    p.add_argument("--dtype", default="bf16", choices=("bf16", "f16"))
    p.add_argument("--causal", action="store_true")
    p.add_argument("--stages", type=int, default=None,
                   help="K/V stages (default: as many as shared memory holds, at most 4)")
    # One-tile causal kernels at head_dim 128 default to the serial form:
    # measured on the H200 (docs/attention.md, round 23) the overlapped
    # one-tile causal form is 8-9% faster at head_dim 64 and no faster at 128
    # (-4% at 2k, +3% at 8k). The persistent kernels need the overlap.
    p.add_argument("--overlap", choices=("auto", "on", "off"), default="auto",
                   help="intra-warpgroup overlap of the softmax with P V "
                        "(auto: on unless a one-tile causal kernel at "
                        "head_dim 128)")
    p.add_argument("--no-overlap", dest="overlap", action="store_const", const="off")
    p.add_argument("--pingpong", choices=("auto", "on", "off"), default="auto",
                   help="ping-pong of the two consumers' GEMMs (auto: on "
                        "unless a one-tile causal kernel at head_dim 128)")
    p.add_argument("--no-pingpong", dest="pingpong", action="store_const", const="off")
    p.add_argument("--branchless-mask", dest="branchless_mask", action="store_true",
                   help="mask every block with selects instead of branching to "
                        "the masked blocks")
    p.add_argument("--block-n", dest="block_n", type=int, default=BN, choices=(128, 176),
                   help="KV rows per block (176: fewer, longer blocks for "
                        "non-causal kernels at head_dim 128, as FlashAttention-3 "
                        "takes; 2 stages, serial unless --overlap on)")
    # The persistent form is the default: measured on an H100
    # (docs/attention.md, rounds 38 and 39) it runs 1.06-1.18x the one-tile
    # kernel non-causal at head_dim 128 and 1.00-1.19x at head_dim 64
    # (TFLOP/s, 512 to 16k); causal, 1.09-1.12x the one-tile kernel at head_dim
    # 128 from 2k.
    p.add_argument("--persistent", nargs="?", choices=("auto", "on", "off"),
                   const="on", default="auto",
                   help="one CTA per SM walking the (query block, head, batch) "
                        "tiles: the next tile's K/V loads overlap this tile's "
                        "epilogue (auto: on unless --no-overlap or --block-n "
                        "176; off: one CTA per tile)")
    p.add_argument("--one-tile", dest="persistent", action="store_const",
                   const="off", help="the same as --persistent off")
    p.add_argument("--carried-turns", dest="carried_turns", nargs="?",
                   choices=("auto", "on", "off"), const="on", default="auto",
                   help="persistent ping-pong kernels: the consumers' turns "
                        "run on across the CTA's tiles (consumer 1 hands "
                        "consumer 0 the next tile's first turn after its "
                        "last block), so consumer 0 starts the next tile "
                        "during consumer 1's epilogue (auto: on for the "
                        "non-causal ones)")
    p.add_argument("--turn-wait", dest="turn_wait", default="start",
                   choices=("start", "issue"),
                   help="ping-pong kernels: where a consumer waits for its "
                        "turn at the tensor cores (start: before the block's "
                        "rescale of O; issue: after it and the previous P's "
                        "fragments, just before the wgmmas)")
    p.add_argument("--kv-lag", dest="kv_lag", action="store_true",
                   help="overlapped kernels (one-tile or --persistent): "
                        "release K and V apart (the pipeline's read_lags), K "
                        "after its block and V after the next block's P V, "
                        "so the producer loads K a block earlier")
    p.add_argument("--tile-order", dest="tile_order", default="auto",
                   choices=("auto", "longest-first", "grid"),
                   help="one-tile causal kernels: the order the CTAs take "
                        "the query blocks (auto: longest-first, the query "
                        "blocks with the most KV blocks first, in sections "
                        "of heads whose K and V fit in L2; grid: query "
                        "blocks fastest, as the grid counts)")
    p.add_argument("--prefetch-q", dest="prefetch_q", default="auto",
                   choices=("auto", "on", "off"),
                   help="persistent kernels: prefetch each tile's Q rows into "
                        "L2 when the producer starts the tile, before the "
                        "previous tile's consumers release Q's buffer (auto: "
                        "off)")
    p.add_argument("--q-release", dest="q_release", default="auto",
                   choices=("auto", "last-s", "epilogue"),
                   help="persistent kernels: where the consumers release "
                        "Q's buffer to the next tile's load: after the "
                        "tile's last S = Q K^T (last-s, tile.release_tile_"
                        "loads) or before the epilogue (epilogue; auto: "
                        "last-s for the non-causal ones)")
    p.add_argument("--first-pv", dest="first_pv", default="auto",
                   choices=("auto", "guard", "zero", "by-length"),
                   help="overlapped kernels: the tile's first block has no "
                        "previous P; guard: its P V wgmmas carry a guard "
                        "predicate and are not issued; zero: they multiply "
                        "a zero P by the block's own V; by-length: a kernel "
                        "of each, the guarded one where the keys fill at "
                        f"most {FIRST_PV_GUARD_BLOCKS} blocks (auto: guard "
                        "causal, by-length otherwise)")
    p.add_argument("--causal-walk", dest="causal_walk", default="auto",
                   choices=("auto", "paired", "table"),
                   help="persistent causal kernels: the tiles each CTA "
                        "walks; paired: units of two tiles dealt in turn "
                        "(index arithmetic); table: the longest-first "
                        "schedule the runtime builds once per problem "
                        "(auto: table)")
    p.add_argument("--split-tail", dest="split_tail", default="auto",
                   choices=("auto", "on", "off", "long"),
                   help="persistent non-causal kernels: the tiles past the "
                        "last whole wave but one are cut into even ranges of "
                        "KV blocks over the CTAs, a tile cut in two combining "
                        "its partial rows through a workspace, so the last "
                        "wave is no longer partly idle; tiles of fewer than "
                        "16 KV blocks stay whole. long: the by-length "
                        "module's long-key kernel alone (keys past 2k; "
                        "whole tiles and no workspace below). auto: off "
                        "(round 139 measured 1.009-1.016 of the whole tiles "
                        "from 2k at head_dim 128, with a spill since removed)")
    p.add_argument("--row-sums", dest="row_sums", default="alu",
                   choices=("alu", "tensor"),
                   help="overlapped kernels: the softmax's row sums as "
                        "additions in the softmax (alu), or on the tensor "
                        "cores as P times a block of ones (an m64n8k16 "
                        "wgmma per k-step, a group of their own before P "
                        "V's), which takes "
                        "62 additions a thread and block out of the softmax "
                        "(round 129, an H100: 2-7 %% slower at head_dim 128, "
                        "at head_dim 64 2-3 %% faster non-causal from 4k "
                        "keys, 0-2 %% causal)")
    p.add_argument("--lazy-rescale", dest="lazy_rescale", action="store_true",
                   help="overlapped kernels: the rows' reference maxima move "
                        f"only where a row of the warp grew by more than "
                        f"2^{LAZY_LOG2} in the exponentials, and O's rescale is "
                        "skipped where the consumer warpgroup's did not (the "
                        "consume body emitted with and without it)")
    p.add_argument("--sms", type=int, default=132,
                   help="SMs the persistent grid fills (132: H100 and H200 SXM)")
    p.add_argument("--name", default=None)
    a = p.parse_args()
    if a.block_n != BM and a.causal:
        p.error(f"--block-n {a.block_n}: causal kernels walk the diagonal in "
                f"blocks of the query tile's {BM} rows")
    # Every 128-row kernel is persistent by default (measured on an H100,
    # docs/attention.md, rounds 38 and 39), unless --no-overlap: the
    # persistent epilogue stages O in the last block's K stage, which the
    # overlap holds (in_flight = 1) through it.
    persistent_default = a.block_n == BN
    a.persistent = a.persistent == "on" or (
        a.persistent == "auto" and persistent_default and a.overlap != "off")
    # The persistent kernels and the non-causal and head_dim 64 one-tile
    # kernels overlap and ping-pong; the one-tile causal kernel at head_dim
    # 128 is serial (round 23: the overlap no faster there).
    default = not a.causal or a.head_dim == 64 or a.persistent
    # The overlap carries the previous block's P in f32 across the loop: at
    # 176-row blocks that is 88 more registers per thread, which spill.
    overlap_default = default and a.block_n == BN
    a.overlap = a.overlap == "on" or (a.overlap == "auto" and overlap_default)
    a.pingpong = a.pingpong == "on" or (a.pingpong == "auto" and default)
    if a.persistent and a.block_n != BN:
        p.error(f"--persistent stages O in a {BN}-row K stage; --block-n "
                f"{a.block_n} has no such stage")
    if a.persistent and not a.overlap:
        p.error("--persistent: the epilogue runs on the last block's stage, "
                "which only the overlapped kernel holds (use --overlap on)")
    # Measured on an H100 (round 41): +1-4 % TFLOP/s, within the run's
    # drift against cuDNN; and at head_dim 128 non-causal ptxas spills 8
    # bytes in the producer's 24 registers. Not a default.
    prefetch_default = False
    if a.prefetch_q == "on" and not a.persistent:
        p.error("--prefetch-q: the persistent kernels' tiles (a one-tile "
                "kernel loads its only Q first)")
    a.prefetch_q = a.prefetch_q == "on" or (a.prefetch_q == "auto" and
                                            prefetch_default)
    # The non-causal persistent kernels release Q after the tile's last
    # S = Q K^T and carry the consumers' turns across tiles, so consumer 0
    # starts the next tile during consumer 1's epilogue with its Q loaded
    # meanwhile. Measured side by side on an H100 (round 47): 1.005-1.051x
    # the kernel without both at 512-8k, 0.989 at 16k, head_dim 128; at
    # head_dim 64 1.00-1.05x. Causal, mixed (2k: 0.93x) and the consumers
    # spill: not there.
    early_q = a.persistent and a.overlap and not a.kv_lag
    q_default = early_q and not a.causal
    if a.q_release == "last-s" and not early_q:
        p.error("--q-release last-s: the persistent overlapped kernels' Q "
                "(one-tile kernels load it once; with --kv-lag the epilogue "
                "stages O in Q's buffer)")
    a.q_last_s = a.q_release == "last-s" or (a.q_release == "auto" and
                                             q_default)
    lpt_default = a.causal and not a.persistent
    a.lpt = a.tile_order == "longest-first" or (a.tile_order == "auto" and
                                                lpt_default)
    if a.tile_order != "auto" and (a.persistent or not a.causal):
        p.error(f"--tile-order {a.tile_order}: the one-tile causal kernels' "
                "order (the persistent causal kernel's is --causal-walk)")
    if a.causal_walk != "auto" and not (a.persistent and a.causal):
        p.error(f"--causal-walk {a.causal_walk}: the persistent causal "
                "kernels' walk")
    # Measured side by side on an H100 (docs/attention.md, round 102, two
    # runs, each kernel in two places): the table walk over the paired one,
    # head_dim 128, 1.04-1.05x at 512 and 1k, 1.01-1.03x at 2k-8k, level at
    # 16k; head_dim 64 1.00-1.04x. The default for persistent causal kernels.
    table_default = a.persistent and a.causal
    a.table_walk = a.persistent and a.causal and (
        a.causal_walk == "table" or (a.causal_walk == "auto" and table_default))
    turns_default = a.persistent and a.pingpong and not a.causal
    if a.carried_turns == "on" and not (a.persistent and a.pingpong):
        p.error("--carried-turns: the persistent ping-pong kernels' turns "
                "(a one-tile kernel has one tile)")
    a.carried_turns = a.carried_turns == "on" or (a.carried_turns == "auto"
                                                  and turns_default)
    if a.turn_wait != "start" and not (a.pingpong and a.overlap):
        p.error(f"--turn-wait {a.turn_wait}: the overlapped ping-pong "
                "kernels' turns")
    if a.lazy_rescale and not a.overlap:
        p.error("--lazy-rescale: the overlapped kernels' rescale (the serial "
                "kernel rescales O between its wgmma groups)")
    if a.kv_lag and not a.overlap:
        p.error("--kv-lag: the serial kernel reads K and V of the same block "
                "(it needs the overlap)")
    # The guard skips a wgmma group per tile (1 / (2n + 1) of a tile's wgmma
    # work at n KV blocks), but ptxas injects a warpgroup.arrive before each
    # guarded wgmma (C7519), in every block: the gain is per tile, the cost
    # per block. Measured on an H100 (docs/attention.md), head_dim 128:
    # causal, 1.00-1.03x the zero P at every length (rounds 66, 67, 75,
    # 76); non-causal, with the rounds' order controlled (round 77), 1.031 /
    # 1.018 / 1.007 at 512-2k and 0.998 / 0.990 / 0.995 at 4k-16k. So the
    # causal kernels take the guard and the non-causal ones both kernels,
    # the guarded one up to 2k keys (by-length).
    first_pv_default = "guard" if a.causal or not a.overlap else "by-length"
    if a.first_pv != "auto" and not a.overlap:
        p.error(f"--first-pv {a.first_pv}: the overlapped kernels' first "
                "block (the serial kernel's P V reads the block's own P)")
    if a.first_pv == "auto":
        a.first_pv = first_pv_default
    if a.stages is None:
        # 227 KiB of shared memory: Q and S stages of K and V.
        a.stages = min(4, (232448 - 1024 - BM * a.head_dim * 2) // (2 * a.block_n * a.head_dim * 2))
    default_name = None
    if a.name is None:
        a.name = (f"attention_d{a.head_dim}{'_causal' if a.causal else ''}"
                  f"{'' if a.overlap == overlap_default else ('_overlap' if a.overlap else '_serial')}"
                  f"{'' if a.pingpong == default else ('_pingpong' if a.pingpong else '_nopingpong')}"
                  f"{'_selects' if a.branchless_mask else ''}"
                  f"{'' if a.block_n == BN else f'_n{a.block_n}'}"
                  f"{'' if a.persistent == persistent_default else ('_persistent' if a.persistent else '_one_tile')}"
                  f"{'_kvlag' if a.kv_lag else ''}"
                  f"{'_late_turn' if a.turn_wait == 'issue' else ''}"
                  f"{'' if a.carried_turns == turns_default else ('_carried_turns' if a.carried_turns else '_turns_per_tile')}"
                  f"{'' if a.prefetch_q == prefetch_default else ('_prefetch_q' if a.prefetch_q else '_no_prefetch_q')}"
                  f"{'' if a.q_last_s == q_default else ('_q_last_s' if a.q_last_s else '_q_at_epilogue')}"
                  f"{'' if a.lpt == lpt_default else '_grid_order'}"
                  f"{'' if a.table_walk == table_default else ('_table_walk' if a.table_walk else '_paired_walk')}"
                  f"{'' if a.first_pv == first_pv_default else '_' + a.first_pv.replace('-', '_') + '_first_pv'}"
                  f"{'_tc_sums' if a.row_sums == 'tensor' else ''}"
                  f"{'_lazy_rescale' if a.lazy_rescale else ''}"
                  f"{'_f16' if a.dtype == 'f16' else ''}")
        default_name = a.name
    # Round 139 (docs/gpu-results.md): 1.009-1.016 of the whole tiles
    # from 2k at head_dim 128, the zero-P kernel then spilling 8 bytes;
    # not yet timed without the spill, so `auto` is off.
    split_long = a.split_tail == "long"
    if a.split_tail in ("on", "long") and not (a.persistent and not a.causal):
        p.error(f"--split-tail {a.split_tail}: the persistent non-causal "
                "kernels' tail (the causal ones balance their tiles with "
                "--causal-walk table)")
    if split_long and a.first_pv != "by-length":
        p.error("--split-tail long: the by-length module's long-key kernel "
                "(--first-pv by-length)")
    a.split_tail = a.split_tail in ("on", "long")
    if a.split_tail and a.kv_lag:
        p.error("--split-tail: the epilogue's pieces need the last K stage "
                "held (not --kv-lag)")
    if a.split_tail and a.name == default_name:
        a.name += "_split_long" if split_long else "_split_tail"
    a.tc_sums = a.row_sums == "tensor"
    if a.tc_sums and not a.overlap:
        p.error("--row-sums tensor: the overlapped kernels (the sums ride "
                "on the previous block's P V)")
    if a.tc_sums and a.split_tail:
        p.error("--row-sums tensor: the split tail combines its pieces' "
                "per-thread row sums (not --split-tail)")

    if a.first_pv == "by-length" and a.table_walk:
        p.error("--first-pv by-length: one kernel per module walks the table")
    if a.first_pv == "by-length":
        # The zero-P kernel for long keys, named <name>_long, in the same
        # module as the guarded one. With --split-tail long the guarded one
        # takes whole tiles: the keys fill at most FIRST_PV_GUARD_BLOCKS
        # blocks there, the split's measured gain is from 16, and its entry
        # asks for no workspace.
        long_a = argparse.Namespace(**vars(a))
        long_a.first_pv = "zero"
        long_a.name = f"{a.name}_long"
        a.first_pv = "guard"
        if split_long:
            a.split_tail = False
        print(generate(a, long_a), end="")
        return
    print(generate(a), end="")


if __name__ == "__main__":
    main()
