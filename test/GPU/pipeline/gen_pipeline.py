#!/usr/bin/env python3
"""Writes the pipelined-copy kernels the H200 check runs (check_pipeline.py):
one tile.pipeline per form and stage count, copying A to B tile by tile.

Iteration k loads rows [8k, 8k + 8) of A (64 f32 columns) into a stage with
TMA; the consumers read the stage with ordinary loads and store it to the
same rows of B; every consumer warpgroup copies the whole stage, so a stage
released before all of them finished reading shows as wrong data. Forms:
  sw      consumers = 0: 128 threads, thread 0 also loads (software-pipelined)
  ws1     consumers = 1: 256 threads, warpgroup 0 loads
  ws2     consumers = 2: 384 threads, with setmaxnreg (producer 40, consumers
          232)
The ranged kernels (`ranged_<form>_s<S>`, warp-specialized forms) are
persistent pipelines with an iterations region: work tile t copies the row
blocks [t(t+1)/2, (t+1)(t+2)/2) (clipped at n) over n + 1 work tiles, so the
tiles' lengths grow (1, 2, 3, ...), the last ones are empty, and a ring
position carried wrongly from tile to tile shows as wrong data or a hang.
Each kernel has host entries `run_<name>(A, B, n)`, launching one CTA for a
run-time trip count n and waiting for it, and `run_<name>_async(A, B, n,
stream) -> stream`, launching on the caller's stream.

The cluster kernels (`<form>_c2_s<S>`, cluster_size = 2) run one cluster of
2 CTAs: iteration k loads rows [8k, 8k + 8) of A, which both CTAs share
(multicast: each CTA issues 4 of the rows to both), and CTA r's private rows
[8(2k + r), 8(2k + r) + 8) of P; the consumers store the shared stage to rows
[16(2k + r), +8) of B and the private one to the 8 rows after. A stage
refilled before the peer CTA released it shows as wrong data in the peer's
rows. A, P and B have static shapes (room for MAX_TRIPS iterations). The
guarded cluster kernels (`<form>_c2_guarded_s<S>`) are the same with A and P
of run-time rows: their plans guard the rows and a 16-byte aligned base, and
where a guard fails the fallback version runs, in which the multicast load
is one thread's stores into both CTAs' stages through the cluster's shared
window. Entries `run_<name>(A, P, B, n)` and `run_<name>_async(..., stream)`.

    python3 test/GPU/pipeline/gen_pipeline.py > pipeline.mlir
"""

STAGES = (1, 2, 4)
FORMS = {"sw": 0, "ws1": 1, "ws2": 2}
ROWS, COLS = 8, 64


def ranged_header(stages, ws, attrs):
    """The ranged kernels' pipeline: n + 1 work tiles, tile t's iterations
    [min(t(t+1)/2, n), min((t+1)(t+2)/2, n))."""
    return f"""      %tiles = arith.addi %n, %c1 : index
      tile.pipeline tiles(%tiles) stages(%s : memref<{stages}x{ROWS}x{COLS}xf32, {ws}>)
          attributes {{{attrs}}} iterations {{
      ^bb0(%w: index):
        %c2i = arith.constant 2 : index
        %w1 = arith.addi %w, %c1 : index
        %w2 = arith.addi %w, %c2i : index
        %lo2 = arith.muli %w, %w1 : index
        %lo = arith.divui %lo2, %c2i : index
        %hi2 = arith.muli %w1, %w2 : index
        %hi = arith.divui %hi2, %c2i : index
        %first = arith.minui %lo, %n : index
        %end = arith.minui %hi, %n : index
        tile.yield %first, %end : index, index
      }}"""


def kernel(name, stages, consumers, ranged=False):
    ws = "#gpu.address_space<workgroup>"
    regs = (", producer_registers = 40, consumer_registers = 232"
            if consumers == 2 else "")
    per_thread = ROWS * COLS // 128
    attrs = f"consumers = {consumers}{regs}"
    header = f"""      tile.pipeline (%n) stages(%s : memref<{stages}x{ROWS}x{COLS}xf32, {ws}>)
          attributes {{{attrs}}}"""
    lead = ""
    if ranged:
        header = ranged_header(stages, ws, attrs)
        lead = "%w: index, "
    return f"""    gpu.func @{name}(%A: memref<?x{COLS}xf32>, %B: memref<?x{COLS}xf32>, %n: index) kernel {{
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant {ROWS} : index
      %c64 = arith.constant {COLS} : index
      %c128 = arith.constant 128 : index
      %each = arith.constant {per_thread} : index
      %tid = gpu.thread_id x
      %local = arith.remui %tid, %c128 : index
      %s = tile.arena_view [0] : memref<{stages}x{ROWS}x{COLS}xf32, {ws}>
{header} produce {{
      ^bb0({lead}%k: index, %t: memref<{ROWS}x{COLS}xf32, {ws}>):
        %row = arith.muli %k, %c8 : index
        tile.copy_async %t[0, 0] [{ROWS}, {COLS}], %A[%row, 0] [{ROWS}, {COLS}]
            : memref<{ROWS}x{COLS}xf32, {ws}>, memref<?x{COLS}xf32>
        tile.yield
      }} consume {{
      ^bb0({lead}%k: index, %t: memref<{ROWS}x{COLS}xf32, {ws}>, %c: index):
        %row0 = arith.muli %k, %c8 : index
        scf.for %i = %c0 to %each step %c1 {{
          %base = arith.muli %i, %c128 : index
          %e = arith.addi %base, %local : index
          %r = arith.divui %e, %c64 : index
          %col = arith.remui %e, %c64 : index
          %v = memref.load %t[%r, %col] : memref<{ROWS}x{COLS}xf32, {ws}>
          %gr = arith.addi %row0, %r : index
          memref.store %v, %B[%gr, %col] : memref<?x{COLS}xf32>
        }}
        tile.yield
      }} epilogue {{
      ^bb0({lead}%c: index):
        tile.yield
      }}
      gpu.return
    }}
"""


def host(name, stages, consumers, ranged=False):
    threads = 128 * (consumers + 1)
    smem = stages * ROWS * COLS * 4
    args = f"%A: memref<?x{COLS}xf32>, %B: memref<?x{COLS}xf32>, %n: index"
    launch = f"""    %c1 = arith.constant 1 : index
    %threads = arith.constant {threads} : index
    %smem = arith.constant {smem} : i32"""
    operands = f"""        threads in (%threads, %c1, %c1) dynamic_shared_memory_size %smem
        args(%A : memref<?x{COLS}xf32>, %B : memref<?x{COLS}xf32>, %n : index)"""
    return f"""  func.func @run_{name}({args})
      attributes {{llvm.emit_c_interface}} {{
{launch}
    gpu.launch_func @pipelines::@{name} blocks in (%c1, %c1, %c1)
{operands}
    return
  }}
  func.func @run_{name}_async({args}, %stream: !gpu.async.token)
      -> !gpu.async.token attributes {{llvm.emit_c_interface}} {{
{launch}
    %done = gpu.launch_func async [%stream] @pipelines::@{name} blocks in (%c1, %c1, %c1)
{operands}
    return %done : !gpu.async.token
  }}
"""


def names():
    """(name, stages, consumers, ranged) of every copy kernel."""
    plain = [(f"{form}_s{s}", s, c, False) for form, c in FORMS.items()
             for s in STAGES]
    ranged = [(f"ranged_{form}_s{s}", s, c, True) for form, c in FORMS.items()
              if c > 0 for s in STAGES]
    return plain + ranged


CLUSTER_FORMS = {"sw_c2": 0, "ws1_c2": 1}
CLUSTER = 2
MAX_TRIPS = 8
A_ROWS = MAX_TRIPS * ROWS
P_ROWS = MAX_TRIPS * CLUSTER * ROWS
B_ROWS = MAX_TRIPS * CLUSTER * 2 * ROWS


def cluster_names():
    """(name, stages, consumers, guarded) of every cluster kernel."""
    return [(f"{form}{'_guarded' if guarded else ''}_s{s}", s, c, guarded)
            for guarded in (False, True) for form, c in CLUSTER_FORMS.items()
            for s in (1, 2)]


def cluster_operand_types(guarded):
    """A's, P's and B's types: A and P of run-time rows where guarded."""
    a_rows, p_rows = ("?", "?") if guarded else (A_ROWS, P_ROWS)
    return (f"memref<{a_rows}x{COLS}xf32>", f"memref<{p_rows}x{COLS}xf32>",
            f"memref<{B_ROWS}x{COLS}xf32>")


def cluster_kernel(name, stages, consumers, guarded):
    ws = "#gpu.address_space<workgroup>"
    per_thread = ROWS * COLS // 128
    tile = f"memref<{ROWS}x{COLS}xf32, {ws}>"
    ring = f"memref<{stages}x{ROWS}x{COLS}xf32, {ws}>"
    ga, gp, gb = cluster_operand_types(guarded)
    return f"""    gpu.func @{name}(%A: {ga}, %P: {gp}, %B: {gb}, %n: index) kernel {{
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant {CLUSTER} : index
      %c8 = arith.constant {ROWS} : index
      %c16 = arith.constant {2 * ROWS} : index
      %c64 = arith.constant {COLS} : index
      %c128 = arith.constant 128 : index
      %each = arith.constant {per_thread} : index
      %tid = gpu.thread_id x
      %cta = gpu.block_id x
      %local = arith.remui %tid, %c128 : index
      %s = tile.arena_view [0] : {ring}
      %p = tile.arena_view [{stages * ROWS * COLS * 4}] : {ring}
      tile.pipeline (%n) stages(%s, %p : {ring}, {ring})
          attributes {{consumers = {consumers}, cluster_size = {CLUSTER}}} produce {{
      ^bb0(%k: index, %t: {tile}, %q: {tile}):
        %mask = arith.constant {(1 << CLUSTER) - 1} : i16
        %row = arith.muli %k, %c8 : index
        tile.copy_async %t[0, 0] [{ROWS}, {COLS}], %A[%row, 0] [{ROWS}, {COLS}]
            multicast(%mask) : {tile}, {ga}
        %k2 = arith.muli %k, %c2 : index
        %pk = arith.addi %k2, %cta : index
        %prow = arith.muli %pk, %c8 : index
        tile.copy_async %q[0, 0] [{ROWS}, {COLS}], %P[%prow, 0] [{ROWS}, {COLS}]
            : {tile}, {gp}
        tile.yield
      }} consume {{
      ^bb0(%k: index, %t: {tile}, %q: {tile}, %c: index):
        %k2 = arith.muli %k, %c2 : index
        %ok = arith.addi %k2, %cta : index
        %orow = arith.muli %ok, %c16 : index
        scf.for %i = %c0 to %each step %c1 {{
          %base = arith.muli %i, %c128 : index
          %e = arith.addi %base, %local : index
          %r = arith.divui %e, %c64 : index
          %col = arith.remui %e, %c64 : index
          %v = memref.load %t[%r, %col] : {tile}
          %w = memref.load %q[%r, %col] : {tile}
          %gr = arith.addi %orow, %r : index
          %gq = arith.addi %gr, %c8 : index
          memref.store %v, %B[%gr, %col] : {gb}
          memref.store %w, %B[%gq, %col] : {gb}
        }}
        tile.yield
      }} epilogue {{
      ^bb0(%c: index):
        tile.yield
      }}
      gpu.return
    }}
"""


def cluster_host(name, stages, consumers, guarded):
    threads = 128 * (consumers + 1)
    smem = 2 * stages * ROWS * COLS * 4
    ga, gp, gb = cluster_operand_types(guarded)
    args = f"%A: {ga}, %P: {gp}, %B: {gb}, %n: index"
    launch = f"""    %c1 = arith.constant 1 : index
    %c2 = arith.constant {CLUSTER} : index
    %threads = arith.constant {threads} : index
    %smem = arith.constant {smem} : i32"""
    grid = "clusters in (%c2, %c1, %c1) blocks in (%c2, %c1, %c1)"
    operands = f"""        threads in (%threads, %c1, %c1) dynamic_shared_memory_size %smem
        args(%A : {ga}, %P : {gp}, %B : {gb}, %n : index)"""
    return f"""  func.func @run_{name}({args})
      attributes {{llvm.emit_c_interface}} {{
{launch}
    gpu.launch_func @pipelines::@{name} {grid}
{operands}
    return
  }}
  func.func @run_{name}_async({args}, %stream: !gpu.async.token)
      -> !gpu.async.token attributes {{llvm.emit_c_interface}} {{
{launch}
    %done = gpu.launch_func async [%stream] @pipelines::@{name} {grid}
{operands}
    return %done : !gpu.async.token
  }}
"""


def main():
    out = ["// Generated by test/GPU/pipeline/gen_pipeline.py: pipelined copies "
           "(docs/pipelines.md).",
           "module attributes {gpu.container_module} {",
           "  gpu.module @pipelines {"]
    out += [kernel(*n) for n in names()]
    out += [cluster_kernel(*n) for n in cluster_names()]
    out.append("  }")
    out += [host(*n) for n in names()]
    out += [cluster_host(*n) for n in cluster_names()]
    out.append("}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
