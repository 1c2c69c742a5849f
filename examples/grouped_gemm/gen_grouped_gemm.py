#!/usr/bin/env python3
"""Writes examples/grouped_gemm/grouped_gemm.mlir: a grouped (mixture-of-
experts) bf16 GEMM on Hopper, in the tile dialect plus upstream ops.

For each group (expert) g of G: C_g = A_g @ B_g^T, bf16 inputs, f32
accumulation, bf16 output, with the MoE layout:
  A       [T, K] bf16   the packed tokens; group g's rows are
                        [off_g, off_g + M_g), off_g = M_0 + ... + M_{g-1}
  B       [G, N, K] bf16  one K-major (N x K, row-major) weight per expert
  C       [T, N] bf16   packed like A
  counts  [G] i32       M_g, in device memory (the host never reads them);
                        a group may be empty.
In PyTorch terms: C[off_g:off_g + M_g] = A[off_g:off_g + M_g] @ B[g].T.

The kernel is examples/gemm's 128 x 256 x 64, 3-stage, warp-specialized
tile.pipeline kernel (gen_gemm.py --bf16-out --swizzle-c: one producer
thread, 2 consumer warpgroups of wgmma m64n256k16, a 128B-swizzled bf16 C
tile stored in 64-column TMA chunks) with these changes:
  - the grid is (ceil(N / 256), ceil(T / 128) + G): an upper bound on the
    number of 128-row tiles over all groups. Each CTA scans the counts (an
    scf.for over G with running sums of ceil(M_g / 128) and of M_g) to find
    its group g, the group's first row off_g and its tile rows; CTAs past the
    last real tile skip everything (the whole pipeline is under an scf.if).
    Within a group the CTAs walk its tiles in the grouped order of
    tile.grouped_tile (8 tile rows down a column, then right), as the dense
    kernel does, so the A and B tiles neighbours share stay in L2;
  - A is loaded at rows off_g + 128 m (rows past the group read the next
    group's tokens or the TMA's zero fill: only output rows past M_g depend
    on them, and those are clipped);
  - B is a rank-3 [G, N, K] buffer: a box [1, 256, 64] at (g, n0, k0) lands
    in the 256 x 64 stage;
  - C is stored through a device map (tile.device_map %C) that the storing
    thread points at the group's rows of C (memref.reinterpret_cast: offset
    off_g * N, sizes [M_g, N], strides [N, 1]) before its stores, so the TMA
    clips the tile's rows past the group. tile-fence-device-maps puts the
    tensor-map proxy fences after the update.

    python3 examples/grouped_gemm/gen_grouped_gemm.py > examples/grouped_gemm/grouped_gemm.mlir
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "gemm"))
from gen_gemm import (SMS, WG, acc_type, emit_mma_steps,  # noqa: E402
                      fragment_rows, persistent_ctas, persistent_share)

BM, BN, BK, STAGES, GROUP_M = 128, 256, 64, 3, 8
CHUNK = 64  # bf16 columns of one 128-byte swizzle span


def scan_counts(by, indent):
    """The scan over the counts for the group whose tile rows
    [before, before + rows) hold tile row `by`: %grp, %first_tile (its first
    tile row), %off (its first row), %rows (its count; 0 where no group holds
    `by`) and %trows (its tile rows)."""
    text = f"""// The group whose tile rows [before, before + rows) hold tile row
// {by}, from running sums of ceil(M_g / BM) (tile rows) and M_g (the
// group's first row). %rows stays 0 past the last tile.
%scan:6 = scf.for %g = %c0 to %G step %c1
    iter_args(%tb = %c0, %rb = %c0, %fg = %c0, %ft = %c0, %fo = %c0, %fm = %c0)
    -> (index, index, index, index, index, index) {{
  %cnt32 = memref.load %counts[%g] : !counts
  %cnt = arith.index_cast %cnt32 : i32 to index
  %cntp = arith.addi %cnt, %cbm1 : index
  %trows = arith.divui %cntp, %cbm : index
  %tend = arith.addi %tb, %trows : index
  %past = arith.cmpi uge, {by}, %tb : index
  %before_end = arith.cmpi ult, {by}, %tend : index
  %hit = arith.andi %past, %before_end : i1
  %fg1 = arith.select %hit, %g, %fg : index
  %ft1 = arith.select %hit, %tb, %ft : index
  %fo1 = arith.select %hit, %rb, %fo : index
  %fm1 = arith.select %hit, %cnt, %fm : index
  %rend = arith.addi %rb, %cnt : index
  scf.yield %tend, %rend, %fg1, %ft1, %fo1, %fm1 : index, index, index, index, index, index
}}
%grp = arith.addi %scan#2, %c0 : index
%first_tile = arith.addi %scan#3, %c0 : index
%off = arith.addi %scan#4, %c0 : index
%rows = arith.addi %scan#5, %c0 : index
%rows_p = arith.addi %rows, %cbm1 : index
%trows = arith.divui %rows_p, %cbm : index"""
    return indent_lines(text, indent)


def indent_lines(text, indent):
    return "\n".join(indent + line if line.strip() else line
                     for line in text.splitlines())


def find_tile(indent):
    """The persistent kernel's work tile t: tile cta + t x CTAs of the
    group-major order; its group %grp, the group's first row %off and count
    %rows, and the tile's %place in the group's grouped order."""
    return indent_lines("""// Work tile t is tile cta + t x CTAs of the group-major order.
%stride = arith.muli %t, %ctas : index
%lin = arith.addi %cta, %stride : index
%row_of = arith.divui %lin, %gx : index
""" + scan_counts("%row_of", "") + """
%base = arith.muli %first_tile, %gx : index
%place = arith.subi %lin, %base : index""", indent)


TILE_VALUES = ("grp", "off", "rows", "place")


def lead_args(prefix):
    """The persistent regions' leading arguments: the tile, then the tile
    values (named with `prefix`)."""
    return "%t: index, " + "".join(f"%{prefix}{v}: index, "
                                   for v in TILE_VALUES)


def tile_starts(group_m, indent):
    """The persistent kernel's tile starts %m0, %n0 from its tile values:
    the tile's place in its group's grouped order over the group's
    ceil(rows / BM) x ceil(N / BN) tiles."""
    return indent_lines(f"""%rows_up = arith.addi %rows, %cbm1 : index
%group_rows = arith.divui %rows_up, %cbm : index
%pid_m, %pid_n = tile.grouped_tile %place of (%group_rows, %gx) {{group_rows = {group_m}}}
%m0 = arith.muli %pid_m, %cbm : index
%n0 = arith.muli %pid_n, %cbn : index""", indent)


def header(bm, bn, bk, stages, group_m, persistent):
    ws = "#gpu.address_space<workgroup>"
    la = f"#tile.layout<({stages}, {bm}, {bk}) : ({bm * bk}, {bk}, 1), swizzle = 128B>"
    lb = f"#tile.layout<({stages}, {bn}, {bk}) : ({bn * bk}, {bk}, 1), swizzle = 128B>"
    sw = ", swizzle = 128B>"
    form = (", persistent" if persistent else "")
    return f"""// Generated by examples/grouped_gemm/gen_grouped_gemm.py (BM={bm}, BN={bn}, BK={bk}, {stages} stages, groups of {group_m}{form}):
// a grouped (MoE) GEMM, C[off_g:off_g+M_g] = A[off_g:off_g+M_g] @ B[g]^T for
// each group g, bf16 inputs, f32 accumulation, bf16 output; the counts M_g
// are read from device memory. See examples/grouped_gemm/README.md.

!A = memref<?x?xbf16>
!B = memref<?x?x?xbf16>
!C = memref<?x?xbf16>
!counts = memref<?xi32>
!view = memref<?x?xbf16, strided<[?, 1], offset: ?>>
!map = !tile.device_map<!C>
!stagesA = memref<{stages}x{bm}x{bk}xbf16, {la}, {ws}>
!stagesB = memref<{stages}x{bn}x{bk}xbf16, {lb}, {ws}>
!tileA = memref<{bm}x{bk}xbf16, #tile.layout<({bm}, {bk}) : ({bk}, 1){sw}, {ws}>
!tileB = memref<{bn}x{bk}xbf16, #tile.layout<({bn}, {bk}) : ({bk}, 1){sw}, {ws}>
!tileCs = memref<{bm}x{CHUNK}xbf16, #tile.layout<({bm}, {CHUNK}) : ({CHUNK}, 1){sw}, {ws}>
!tileCp = memref<{bm}x{CHUNK // 2}xi32, #tile.layout<({bm}, {CHUNK // 2}) : ({CHUNK // 2}, 1){sw}, {ws}>
!acc = {acc_type(bn)}
"""


def kernel_start(bm, bn, bk):
    kconsts = "\n".join(f"      %kc{j} = arith.constant {16 * j} : index"
                        for j in range(bk // 16))
    return f"""module attributes {{gpu.container_module}} {{
  gpu.module @grouped_gemm_kernels {{
    gpu.func @grouped_gemm(%A: !A, %B: !B, %C: !C, %counts: !counts) kernel {{
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %cwg = arith.constant {WG} : index
      %cbk = arith.constant {bk} : index
      %cbk1 = arith.constant {bk - 1} : index
      %cbm = arith.constant {bm} : index
      %cbm1 = arith.constant {bm - 1} : index
      %cbn = arith.constant {bn} : index
{kconsts}
      %tid = gpu.thread_id x"""


def views(bm, bn, bk, stages):
    a_bytes = stages * bm * bk * 2
    c_off = a_bytes + stages * bn * bk * 2
    c_views = "\n".join(
        f"      %sc{j} = tile.arena_view [{c_off + j * bm * 128}] : !tileCs\n"
        f"      %scp{j} = tile.arena_view [{c_off + j * bm * 128}] : !tileCp"
        for j in range(bn // CHUNK))
    return f"""      %sa = tile.arena_view [0] : !stagesA
      %sb = tile.arena_view [{a_bytes}] : !stagesB
{c_views}"""


def fragment_stores(w, bn, indent):
    """The accumulator's fragments (PTX wgmma D layout), rounded to bf16, to
    the swizzled C chunks."""
    w(indent_lines("""%row0 = arith.muli %cidx, %c64 : index
// Accumulator fragments (PTX wgmma D layout: warp w holds rows
// 16w..16w+15; lane l rows l/4 and l/4 + 8, columns
// 8i + 2(l%4) + 0..1), rounded to bf16, to the swizzled C chunks.
""" + fragment_rows(""), indent))
    for i in range(bn // 8):
        j, pair = 8 * i // CHUNK, (8 * i % CHUNK) // 2
        w(indent_lines(f"""%cp{i} = arith.constant {pair} : index
%pc{i} = arith.addi %lcol, %cp{i} : index""", indent))
        for h, row in ((0, "%r0"), (1, "%r1")):
            v = 4 * i + 2 * h
            w(indent_lines(f"""%v{v} = llvm.extractvalue %accum[{v}] : !acc
%v{v + 1} = llvm.extractvalue %accum[{v + 1}] : !acc
%h{v} = arith.truncf %v{v} : f32 to bf16
%h{v + 1} = arith.truncf %v{v + 1} : f32 to bf16
%p{v} = vector.from_elements %h{v}, %h{v + 1} : vector<2xbf16>
%b{v} = vector.bitcast %p{v} : vector<2xbf16> to vector<1xi32>
%w{v} = vector.extract %b{v}[0] : i32 from vector<1xi32>
memref.store %w{v}, %scp{j}[{row}, %pc{i}] : !tileCp""", indent))


def map_store(bm, bn, persistent, group_m, indent):
    """The storing thread points C's map at the group's rows [off, off +
    rows) (the TMA clips the tile's rows past the group) and stores the C
    chunks through it. One tile per CTA waits for the store at once; a
    persistent CTA leaves it in flight and waits before the next update
    (the store may still read the map), and finds the group's rows and the
    tile's group, rows and starts here (find_tile)."""
    stores = "\n".join(
        f"""    %cn{j} = arith.constant {j * CHUNK} : index
    %n0_{j} = arith.addi %n0, %cn{j} : index
    tile.copy_async %C[%m0, %n0_{j}] [{bm}, {CHUNK}], %sc{j}[0, 0] [{bm}, {CHUNK}] through(%cmap : !map) : !C, !tileCs"""
        for j in range(bn // CHUNK))
    return indent_lines(f"""// Generic-proxy writes, then the async proxy (TMA) reads them.
nvvm.fence.proxy {{kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}}
%barrier_id = arith.constant 1 : i32
%consumer_threads = arith.constant {2 * WG} : i32
nvvm.barrier id = %barrier_id number_of_threads = %consumer_threads
// One thread stores the tile through C's map, pointed at the
// group's rows [off, off + rows): the TMA clips rows past the group.
scf.if %storer {{
""" + ("""  // The previous tile's store may still read the map (its C tile was
  // read before this tile's fragments were written: long done).
  tile.bulk_wait_group 0
  // The tile again: the consumers carry none of its values through the
  // main loop (with them, their registers spill), and the scan is this
  // thread's alone.
""" + find_tile("  ") + "\n" + tile_starts(group_m, "  ") + "\n"
                      if persistent else "") + f"""  %pitch = memref.dim %C, %c1 : !C
  %coff = arith.muli %off, %pitch : index
  %gview = memref.reinterpret_cast %C to offset: [%coff],
      sizes: [%rows, %pitch], strides: [%pitch, 1] : !C to !view
  %ok = tile.device_map_update %cmap to %gview : !map, !view
  scf.if %ok {{
{stores}
    tile.bulk_commit_group
""" + ("" if persistent else "    tile.bulk_wait_group 0\n") + """  }
}""", indent)


def host(bm, bn, smem, threads, persistent, sms):
    grid = f"""    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %cbm1 = arith.constant {bm - 1} : index
    %cbn1 = arith.constant {bn - 1} : index
    %cbm = arith.constant {bm} : index
    %cbn = arith.constant {bn} : index
    %threads = arith.constant {threads} : index
    %smem = arith.constant {smem} : i32
    %T = memref.dim %A, %c0 : !A
    %G = memref.dim %B, %c0 : !B
    %N = memref.dim %B, %c1 : !B
    // ceil(T / {bm}) + G tile rows: at least sum_g ceil(M_g / {bm}).
    %tp = arith.addi %T, %cbm1 : index
    %trows = arith.divui %tp, %cbm : index
    %gy = arith.addi %trows, %G : index
    %np = arith.addi %N, %cbn1 : index
    %gx = arith.divui %np, %cbn : index
"""
    blocks = "(%gx, %gy, %c1)"
    if persistent:
        grid += ("    // One CTA per SM, or per tile of that bound where there "
                 "are fewer.\n" + persistent_ctas("%gx", "%gy", sms, "%bound",
                                                   " " * 4))
        blocks = "(%ctas, %c1, %c1)"
    launch = f"""@grouped_gemm_kernels::@grouped_gemm
        blocks in {blocks} threads in (%threads, %c1, %c1)
        dynamic_shared_memory_size %smem
        args(%A : !A, %B : !B, %C : !C, %counts : !counts)"""
    return f"""  // The grouped GEMM on `stream` (no synchronisation): A [T, K], B [G, N, K],
  // C [T, N], counts [G] (int32, device memory, summing to at most T).
  func.func @grouped_gemm_async(%A: !A, %B: !B, %C: !C, %counts: !counts, %stream: !gpu.async.token)
      -> !gpu.async.token attributes {{llvm.emit_c_interface}} {{
{grid}    %done = gpu.launch_func async [%stream] {launch}
    return %done : !gpu.async.token
  }}

  // The same, synchronous: returns when C is written.
  func.func @grouped_gemm(%A: !A, %B: !B, %C: !C, %counts: !counts) attributes {{llvm.emit_c_interface}} {{
{grid}    gpu.launch_func {launch}
    return
  }}
}}"""


def emit(bn=BN, bk=BK, stages=STAGES, group_m=GROUP_M, persistent=False,
         sms=SMS, registers=None):
    bm = BM
    consumers = bm // 64
    threads = WG * (consumers + 1)
    ksteps = bk // 16
    smem = stages * (bm + bn) * bk * 2 + bm * bn * 2
    if smem > 232448:
        raise ValueError(f"{smem} bytes of shared memory: fewer --stages")
    out = [header(bm, bn, bk, stages, group_m, persistent),
           kernel_start(bm, bn, bk)]
    w = out.append
    if persistent:
        emit_persistent_start(w, bm, bn, group_m)
    else:
        emit_grid_start(w, bm, bn, stages, group_m)
    w(views(bm, bn, bk, stages))
    w("""      // C's device map: the storing thread points it at the group's rows.
      %cmap = tile.device_map %C : !C
      %local = arith.remui %tid, %cwg : index
      %storer = arith.cmpi eq, %tid, %cwg : index
      %zero = llvm.mlir.zero : !acc""")
    regs = (f", producer_registers = {registers[0]} : i64, "
            f"consumer_registers = {registers[1]} : i64" if registers else "")
    attrs = (f"attributes {{consumers = {consumers} : i64, in_flight = 1 : i64, "
             f"reads = #tile.consumer_reads<wgmma>{regs}}}")
    if persistent:
        # The tile values; the consumers use none of them (their names
        # prefixed: the storing thread defines %off and %rows itself).
        values = lead_args("")
        unused = lead_args("v_")
        w(f"""      tile.pipeline tiles(%mine) stages(%sa, %sb : !stagesA, !stagesB) iter_args(%zero : !acc)
          {attrs} iterations {{
      ^bb0(%t: index):
{find_tile(" " * 8)}
        tile.yield %c0, %ktiles, %grp, %off, %rows, %place : index, index, index, index, index, index
      }} produce {{""")
        ind = " " * 6
    else:
        values = unused = ""
        w(f"""        tile.pipeline (%ksteps) stages(%sa, %sb : !stagesA, !stagesB) iter_args(%zero : !acc)
            {attrs} produce {{""")
        ind = " " * 8
    # The persistent producer's A row, computed once per tile (the
    # expansion hoists what depends only on the tile's values).
    arow = ("\n" + tile_starts(group_m, ind + "  ") +
            f"\n{ind}  %arow = arith.addi %off, %m0 : index") if persistent else ""
    w(f"""{ind}^bb0({values}%kt: index, %a: !tileA, %b: !tileB):
{ind}  %k0 = arith.muli %kt, %cbk : index{arow}
{ind}  tile.copy_async %a[0, 0] [{bm}, {bk}], %A[%arow, %k0] [{bm}, {bk}] : !tileA, !A
{ind}  tile.copy_async %b[0, 0] [{bn}, {bk}], %B[%grp, %n0, %k0] [1, {bn}, {bk}] : !tileB, !B
{ind}  tile.yield
{ind}}} consume {{
{ind}^bb0({unused}%kt: index, %a: !tileA, %b: !tileB, %cidx: index, %acc0: !acc):
{ind}  %row0 = arith.muli %cidx, %c64 : index
{ind}  nvvm.wgmma.fence.aligned""")
    prev = emit_mma_steps(w, bn, ksteps, ind + "  ")
    w(f"""{ind}  nvvm.wgmma.commit.group.sync.aligned
{ind}  tile.yield {prev} : !acc
{ind}}} epilogue {{
{ind}^bb0({unused}%cidx: index, %accum: !acc):""")
    if persistent:
        w(f"""        // The C tile is free once the previous tile's store has read it.
        scf.if %storer {{
          tile.bulk_wait_group 0 {{read}}
        }}
        %free_id = arith.constant 1 : i32
        %free_threads = arith.constant {WG * consumers} : i32
        nvvm.barrier id = %free_id number_of_threads = %free_threads""")
        fragment_stores(w, bn, " " * 8)
        w(map_store(bm, bn, True, group_m, " " * 8))
        w("""        tile.yield
      }
      // The last tile's store completes before the kernel exits.
      scf.if %storer {
        tile.bulk_wait_group 0
      }""")
    else:
        w("""          // Only a CTA with a tile of a group stores one.
          scf.if %real {""")
        fragment_stores(w, bn, " " * 12)
        w(map_store(bm, bn, False, group_m, " " * 12))
        w("""          }
          tile.yield
        }""")
    w("""      gpu.return
    }
  }
""")
    w(host(bm, bn, smem, threads, persistent, sms))
    return "\n".join(out) + "\n"


def emit_grid_start(w, bm, bn, stages, group_m):
    """One CTA per (tile column, tile row of the bound): its group by a scan,
    its tile in the group's grouped order."""
    w(f"""      %bx = gpu.block_id x
      %by = gpu.block_id y
      %gx = gpu.grid_dim x
      %G = memref.dim %B, %c0 : !B
      %N = memref.dim %B, %c1 : !B
      %K = memref.dim %B, %c2 : !B
{scan_counts("%by", " " * 6)}
      %real = arith.cmpi ugt, %rows, %c0 : index
      %k1 = arith.addi %K, %cbk1 : index
      %ktiles = arith.divui %k1, %cbk : index""")
    w(f"""      // The group's tiles in the grouped order ({group_m} tile rows down a
      // column, then right). (A CTA past the last tile computes a tile of
      // an empty "group" of one tile row that it never loads or stores.)
      %ty = arith.subi %by, %first_tile : index
      %lin0 = arith.muli %ty, %gx : index
      %lin = arith.addi %lin0, %bx : index
      %trows1 = arith.maxui %trows, %c1 : index
      %pid_m, %pid_n = tile.grouped_tile %lin of (%trows1, %gx) {{group_rows = {group_m}}}
      // Tile starts: multiples of the tile sizes within the group.
      %m0 = arith.muli %pid_m, %cbm : index
      %n0 = arith.muli %pid_n, %cbn : index
      %arow = arith.addi %off, %m0 : index
      // tile.pipeline sits directly in the kernel's body (its barriers are
      // every thread's), so a CTA past the last tile runs it with no K steps
      // and skips its epilogue.
      %ksteps = arith.select %real, %ktiles, %c0 : index""")


def emit_persistent_start(w, bm, bn, group_m):
    """The persistent kernel's share of the real tiles: their count from the
    counts (sum_g ceil(M_g / BM) tile rows of ceil(N / BN) tiles)."""
    w(f"""      %G = memref.dim %B, %c0 : !B
      %N = memref.dim %B, %c1 : !B
      %K = memref.dim %B, %c2 : !B
      %cbn1 = arith.constant {bn - 1} : index
      %np = arith.addi %N, %cbn1 : index
      %gx = arith.divui %np, %cbn : index
      %k1 = arith.addi %K, %cbk1 : index
      %ktiles = arith.divui %k1, %cbk : index
      // The groups' tile rows, and the tiles: group-major, each group's
      // in the grouped order ({group_m} tile rows down a column, then right).
      %all_rows = scf.for %g = %c0 to %G step %c1 iter_args(%tb = %c0) -> (index) {{
        %cnt32 = memref.load %counts[%g] : !counts
        %cnt = arith.index_cast %cnt32 : i32 to index
        %cntp = arith.addi %cnt, %cbm1 : index
        %trows = arith.divui %cntp, %cbm : index
        %tend = arith.addi %tb, %trows : index
        scf.yield %tend : index
      }}
      %total = arith.muli %all_rows, %gx : index
      %cta = gpu.block_id x
      %ctas = gpu.grid_dim x
      %ctas1 = arith.subi %ctas, %c1 : index
{persistent_share(" " * 6)}""")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--bn", type=int, default=BN, choices=(128, 256))
    ap.add_argument("--stages", type=int, default=STAGES)
    ap.add_argument("--group-m", type=int, default=GROUP_M)
    ap.add_argument("--persistent", action="store_true",
                    help="one CTA per SM walks the tiles (tile.pipeline "
                         "tiles(...) with tile values)")
    ap.add_argument("--sms", type=int, default=SMS,
                    help="with --persistent: the CTAs to launch at most")
    ap.add_argument("--registers", default=None, metavar="P,C",
                    help="setmaxnreg: the producer's and the consumers' "
                         "registers (e.g. 40,232)")
    args = ap.parse_args()
    registers = (tuple(int(r) for r in args.registers.split(","))
                 if args.registers else None)
    try:
        print(emit(bn=args.bn, stages=args.stages, group_m=args.group_m,
                   persistent=args.persistent, sms=args.sms,
                   registers=registers), end="")
    except ValueError as error:
        ap.error(str(error))


if __name__ == "__main__":
    main()
