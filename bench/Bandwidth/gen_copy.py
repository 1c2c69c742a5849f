#!/usr/bin/env python3
"""Generates the bandwidth benchmark's tile-dialect module.

A non-persistent TMA copy kernel per variant: each CTA copies TILES tiles of
BM x BN f16 of an M x N matrix (global -> shared -> global) through STAGES
shared stages. Thread 0 (warp 0) is the producer: it waits for a stage to be
empty (mbarrier `empty[s]`), sets the expected bytes on `full[s]` and issues
the tile.copy_async load. Thread 32 (warp 1) is the consumer: it waits on
`full[s]`, issues the tile.copy_async store from the stage, commits the bulk
group and, when the stage will be reused, waits for the store's reads
(tile.bulk_wait_group 0 {read}) and arrives on `empty[s]`.

Each variant's host entry launches on a caller-given CUDA stream: the entry
takes a `!gpu.async.token` (a CUstream after gpu-to-llvm) and launches with
`gpu.launch_func async [%stream]`, so there is no stream creation and no
synchronisation. (MLIR 22's gpu-to-llvm drops the `<%stream : !llvm.ptr>`
async-object form of a synchronous launch and creates a stream anyway.)
`tile_copy_small` copies one 8x256 f16 tile (the launch-overhead
measurement).

With `--dynamic NAME[,NAME...]`, each named variant also gets a dynamic twin
next to it: the same kernel and tiling over `memref<?x?xf16>` buffers
(`@<name>_dyn`, host entry `<name>_dyn_entry`). Its host function reads the
matrix size with memref.dim and computes the grid from it (rounded up); the
kernel computes its tile starts as block id x constant, as the static one does,
so the planner proves the coordinates aligned and plans TMA copies whose
run-time guards (sizes, row pitch, base alignment) the host checks before each
launch, launching `@<name>_dyn_fallback` when one fails. The module then also
gets `tile_copy_small_dyn`, the 8x256 copy over `memref<?x?xf16>` (grid from
memref.dim, one 8x256 tile per CTA). The static kernels and entries are
unchanged: without `--dynamic` the output is the same as before.

`--dynamic-launch` picks how the twins launch: `async` (default) on the
caller's stream, as the static entries do; `sync` as a plain
`gpu.launch_func` (the lowering creates a stream, launches, synchronises and
destroys it in each call), for a compiler that declines an asynchronous launch
of a kernel with a fallback version. In `sync` mode the module also gets
synchronous entries of the static kernels, `<name>_sync_entry` and
`tile_copy_small_sync`, so that the twins can be compared with the same
launch path. The first line of the output names the mode
(`// dynamic-launch: async|sync`, only with `--dynamic`) for bench.py.

    gen_copy.py M N name:BM:BN:TILES:STAGES [...] [--dynamic NAMES]
                [--dynamic-launch async|sync] > copy.mlir
"""
import argparse
import sys

SMALL = """\
    gpu.func @copy_small(%in: memref<8x256xf16>, %out: memref<8x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : index
      %bytes = arith.constant 4096 : index
      %tx = gpu.thread_id x
      %bar = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      %s = tile.arena_view [0] : memref<8x256xf16, #tile.layout<(8, 256)>, #gpu.address_space<workgroup>>
      %leader = arith.cmpi eq, %tx, %c0 : index
      scf.if %leader {
        nvgpu.mbarrier.init %bar[%c0], %one : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %bytes : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        tile.copy_async %s[0, 0] [8, 256], %in[0, 0] [8, 256] barrier(%bar[%c0])
            : memref<8x256xf16, #tile.layout<(8, 256)>, #gpu.address_space<workgroup>>, memref<8x256xf16>,
              !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        %phase = arith.constant false
        %ticks = arith.constant 10000000 : index
        nvgpu.mbarrier.try_wait.parity %bar[%c0], %phase, %ticks : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        tile.copy_async %out[0, 0] [8, 256], %s[0, 0] [8, 256]
            : memref<8x256xf16>, memref<8x256xf16, #tile.layout<(8, 256)>, #gpu.address_space<workgroup>>
        tile.bulk_commit_group
        tile.bulk_wait_group 0 {read}
      }
      gpu.return
    }
"""

SMALL_HOST = """\
  func.func @tile_copy_small(%in: memref<8x256xf16>, %out: memref<8x256xf16>, %stream: !gpu.async.token)
      attributes {llvm.emit_c_interface} {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %smem = arith.constant 4096 : i32
    %done = gpu.launch_func async [%stream] @kernels::@copy_small
        blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        dynamic_shared_memory_size %smem
        args(%in : memref<8x256xf16>, %out : memref<8x256xf16>)
    return
  }
"""


def device(name, G, BM, BN, T, S):
    """The kernel @name over global buffers of type G (static or dynamic)."""
    bars = (f"!nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, "
            f"num_barriers = {S}>")
    stages = (f"memref<{S}x{BM}x{BN}xf16, #tile.layout<({S}, {BM}, {BN})>, "
              f"#gpu.address_space<workgroup>>")
    tile = f"memref<{BM}x{BN}xf16, #tile.layout<({BM}, {BN})>, #gpu.address_space<workgroup>>"
    tb = BM * BN * 2
    L = []
    a = L.append
    a(f"    gpu.func @{name}(%in: {G}, %out: {G}) kernel {{")
    a("      %c0 = arith.constant 0 : index")
    a("      %one = arith.constant 1 : index")
    a("      %c32 = arith.constant 32 : index")
    a(f"      %bytes = arith.constant {tb} : index")
    a("      %ticks = arith.constant 10000000 : index")
    a("      %tx = gpu.thread_id x")
    a("      %bx = gpu.block_id x")
    a("      %by = gpu.block_id y")
    a(f"      %cBM = arith.constant {BM} : index")
    a(f"      %cW = arith.constant {BN * T} : index")
    a("      %row = arith.muli %by, %cBM : index")
    a("      %colb = arith.muli %bx, %cW : index")
    a(f"      %full = nvgpu.mbarrier.create -> {bars}")
    a(f"      %empty = nvgpu.mbarrier.create -> {bars}")
    a(f"      %buf = tile.arena_view [0] : {stages}")
    for s in range(S):
        a(f"      %s{s} = arith.constant {s} : index")
        a(f"      %st{s} = tile.stage %buf[%s{s}] : {stages} -> {tile}")
    for t in range(T):
        a(f"      %off{t} = arith.constant {t * BN} : index")
        a(f"      %col{t} = arith.addi %colb, %off{t} : index")
    a("      %producer = arith.cmpi eq, %tx, %c0 : index")
    a("      %consumer = arith.cmpi eq, %tx, %c32 : index")
    a("      scf.if %producer {")
    for s in range(S):
        a(f"        nvgpu.mbarrier.init %full[%s{s}], %one : {bars}")
        a(f"        nvgpu.mbarrier.init %empty[%s{s}], %one : {bars}")
    a("      }")
    a("      gpu.barrier")
    a("      scf.if %producer {")
    for t in range(T):
        s = t % S
        if t >= S:
            ph = "true" if ((t // S) - 1) & 1 else "false"
            a(f"        %pe{t} = arith.constant {ph}")
            a(f"        nvgpu.mbarrier.try_wait.parity %empty[%s{s}], %pe{t}, %ticks : {bars}")
        a(f"        nvgpu.mbarrier.arrive.expect_tx %full[%s{s}], %bytes : {bars}")
        a(f"        tile.copy_async %st{s}[0, 0] [{BM}, {BN}], %in[%row, %col{t}] [{BM}, {BN}] "
          f"barrier(%full[%s{s}]) : {tile}, {G}, {bars}")
    a("      }")
    a("      scf.if %consumer {")
    for t in range(T):
        s = t % S
        ph = "true" if (t // S) & 1 else "false"
        a(f"        %pf{t} = arith.constant {ph}")
        a(f"        nvgpu.mbarrier.try_wait.parity %full[%s{s}], %pf{t}, %ticks : {bars}")
        a(f"        tile.copy_async %out[%row, %col{t}] [{BM}, {BN}], %st{s}[0, 0] [{BM}, {BN}] "
          f": {G}, {tile}")
        a("        tile.bulk_commit_group")
        if t + S < T:
            a("        tile.bulk_wait_group 0 {read}")
            a(f"        %tok{t} = nvgpu.mbarrier.arrive %empty[%s{s}] : {bars} -> !nvgpu.mbarrier.token")
    a("        tile.bulk_wait_group 0 {read}")
    a("      }")
    a("      gpu.return")
    a("    }")
    return "\n".join(L) + "\n"


def smem_bytes(BM, BN, S):
    """(dynamic shared memory the entries ask for, the stages' exact bytes)."""
    exact = S * BM * BN * 2
    # The barriers are static shared memory and the arena starts on a 1024-byte
    # boundary after them: ask for more than 48 KiB so the runtime raises the
    # kernel's dynamic limit when static + dynamic would pass 48 KiB. A second
    # entry, <name>_exact_entry, asks for exactly the stages' bytes (a probe of
    # the runtime's opt-in rule).
    smem = exact
    if exact + 1024 > 48 * 1024 and exact <= 48 * 1024:
        smem = 48 * 1024 + 1024
    return smem, exact


def kernel(name, M, N, BM, BN, T, S):
    G = f"memref<{M}x{N}xf16>"
    dev = device(name, G, BM, BN, T, S)
    smem, exact = smem_bytes(BM, BN, S)
    grid_x, grid_y = N // (BN * T), M // BM
    host = ""
    for entry, nbytes in [(name, smem)] + ([(name + "_exact", exact)] if smem != exact else []):
        host += f"""\
  func.func @{entry}_entry(%in: {G}, %out: {G}, %stream: !gpu.async.token)
      attributes {{llvm.emit_c_interface}} {{
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %gx = arith.constant {grid_x} : index
    %gy = arith.constant {grid_y} : index
    %smem = arith.constant {nbytes} : i32
    %done = gpu.launch_func async [%stream] @kernels::@{name}
        blocks in (%gx, %gy, %c1) threads in (%c64, %c1, %c1)
        dynamic_shared_memory_size %smem
        args(%in : {G}, %out : {G})
    return
  }}
"""
    return dev, host


def launch_op(launch):
    """The launch's opening: on the entry's stream, or a plain (synchronous)
    gpu.launch_func whose lowering makes its own stream."""
    if launch == "async":
        return "%done = gpu.launch_func async [%stream]"
    return "gpu.launch_func"


def dynamic_twin(name, BM, BN, T, S, launch):
    """The dynamic twin of variant `name`: kernel @<name>_dyn over
    memref<?x?xf16> and its host entry <name>_dyn_entry, which computes the
    grid from the matrix size; in sync mode also <name>_sync_entry, the static
    kernel launched the same synchronous way."""
    D = "memref<?x?xf16>"
    dev = device(name + "_dyn", D, BM, BN, T, S)
    smem, _ = smem_bytes(BM, BN, S)
    host = f"""\
  func.func @{name}_dyn_entry(%in: {D}, %out: {D}, %stream: !gpu.async.token)
      attributes {{llvm.emit_c_interface}} {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %m = memref.dim %in, %c0 : {D}
    %n = memref.dim %in, %c1 : {D}
    %cW = arith.constant {BN * T} : index
    %cW1 = arith.constant {BN * T - 1} : index
    %cBM = arith.constant {BM} : index
    %cBM1 = arith.constant {BM - 1} : index
    %nr = arith.addi %n, %cW1 : index
    %gx = arith.divui %nr, %cW : index
    %mr = arith.addi %m, %cBM1 : index
    %gy = arith.divui %mr, %cBM : index
    %smem = arith.constant {smem} : i32
    {launch_op(launch)} @kernels::@{name}_dyn
        blocks in (%gx, %gy, %c1) threads in (%c64, %c1, %c1)
        dynamic_shared_memory_size %smem
        args(%in : {D}, %out : {D})
    return
  }}
"""
    if launch == "sync":
        G = kernel_global_type[name]
        gx, gy = kernel_grid[name]
        host += f"""\
  func.func @{name}_sync_entry(%in: {G}, %out: {G}, %stream: !gpu.async.token)
      attributes {{llvm.emit_c_interface}} {{
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %gx = arith.constant {gx} : index
    %gy = arith.constant {gy} : index
    %smem = arith.constant {smem} : i32
    gpu.launch_func @kernels::@{name}
        blocks in (%gx, %gy, %c1) threads in (%c64, %c1, %c1)
        dynamic_shared_memory_size %smem
        args(%in : {G}, %out : {G})
    return
  }}
"""
    return dev, host


# The small copy's twin: one 8x256 tile per CTA at (block id y x 8, block id
# x x 256) of a memref<?x?xf16>, the grid from memref.dim.
SMALL_DYN = """\
    gpu.func @copy_small_dyn(%in: memref<?x?xf16>, %out: memref<?x?xf16>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : index
      %bytes = arith.constant 4096 : index
      %c8 = arith.constant 8 : index
      %c256 = arith.constant 256 : index
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %row = arith.muli %by, %c8 : index
      %col = arith.muli %bx, %c256 : index
      %bar = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      %s = tile.arena_view [0] : memref<8x256xf16, #tile.layout<(8, 256)>, #gpu.address_space<workgroup>>
      %leader = arith.cmpi eq, %tx, %c0 : index
      scf.if %leader {
        nvgpu.mbarrier.init %bar[%c0], %one : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %bytes : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        tile.copy_async %s[0, 0] [8, 256], %in[%row, %col] [8, 256] barrier(%bar[%c0])
            : memref<8x256xf16, #tile.layout<(8, 256)>, #gpu.address_space<workgroup>>, memref<?x?xf16>,
              !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        %phase = arith.constant false
        %ticks = arith.constant 10000000 : index
        nvgpu.mbarrier.try_wait.parity %bar[%c0], %phase, %ticks : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        tile.copy_async %out[%row, %col] [8, 256], %s[0, 0] [8, 256]
            : memref<?x?xf16>, memref<8x256xf16, #tile.layout<(8, 256)>, #gpu.address_space<workgroup>>
        tile.bulk_commit_group
        tile.bulk_wait_group 0 {read}
      }
      gpu.return
    }
"""


def small_dyn_host(launch):
    host = f"""\
  func.func @tile_copy_small_dyn(%in: memref<?x?xf16>, %out: memref<?x?xf16>, %stream: !gpu.async.token)
      attributes {{llvm.emit_c_interface}} {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c255 = arith.constant 255 : index
    %c256 = arith.constant 256 : index
    %m = memref.dim %in, %c0 : memref<?x?xf16>
    %n = memref.dim %in, %c1 : memref<?x?xf16>
    %nr = arith.addi %n, %c255 : index
    %gx = arith.divui %nr, %c256 : index
    %mr = arith.addi %m, %c7 : index
    %gy = arith.divui %mr, %c8 : index
    %smem = arith.constant 4096 : i32
    {launch_op(launch)} @kernels::@copy_small_dyn
        blocks in (%gx, %gy, %c1) threads in (%c32, %c1, %c1)
        dynamic_shared_memory_size %smem
        args(%in : memref<?x?xf16>, %out : memref<?x?xf16>)
    return
  }}
"""
    if launch == "sync":
        host += """\
  func.func @tile_copy_small_sync(%in: memref<8x256xf16>, %out: memref<8x256xf16>, %stream: !gpu.async.token)
      attributes {llvm.emit_c_interface} {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %smem = arith.constant 4096 : i32
    gpu.launch_func @kernels::@copy_small
        blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        dynamic_shared_memory_size %smem
        args(%in : memref<8x256xf16>, %out : memref<8x256xf16>)
    return
  }
"""
    return host


kernel_global_type = {}
kernel_grid = {}


def main():
    ap = argparse.ArgumentParser(description="the bandwidth benchmark's module")
    ap.add_argument("M", type=int)
    ap.add_argument("N", type=int)
    ap.add_argument("variants", nargs="+", metavar="name:BM:BN:TILES:STAGES")
    ap.add_argument("--dynamic", default="",
                    help="comma-separated variant names that get a dynamic twin")
    ap.add_argument("--dynamic-launch", choices=["async", "sync"], default="async",
                    help="how the twins launch (default: async, on the entry's stream)")
    args = ap.parse_args()
    M, N = args.M, args.N
    dynamic = [n for n in args.dynamic.split(",") if n]
    specs = {}
    devs, hosts = [], []
    for spec in args.variants:
        name, BM, BN, T, S = spec.split(":")
        BM, BN, T, S = int(BM), int(BN), int(T), int(S)
        assert M % BM == 0 and N % (BN * T) == 0
        specs[name] = (BM, BN, T, S)
        kernel_global_type[name] = f"memref<{M}x{N}xf16>"
        kernel_grid[name] = (N // (BN * T), M // BM)
        d, h = kernel(name, M, N, BM, BN, T, S)
        if name in dynamic:
            dd, dh = dynamic_twin(name, BM, BN, T, S, args.dynamic_launch)
            d += dd
            h += dh
        devs.append(d)
        hosts.append(h)
    unknown = [n for n in dynamic if n not in specs]
    if unknown:
        sys.exit(f"gen_copy.py: --dynamic names no variant: {', '.join(unknown)}")
    head, small_dev, small_host = [], [SMALL], [SMALL_HOST]
    if dynamic:
        head = [f"// dynamic-launch: {args.dynamic_launch}\n"]
        small_dev.append(SMALL_DYN)
        small_host.append(small_dyn_host(args.dynamic_launch))
    out = head + ["module attributes {gpu.container_module} {\n",
                  "  gpu.module @kernels {\n"] + devs + small_dev + ["  }\n"] + hosts + \
        small_host + ["}\n"]
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
