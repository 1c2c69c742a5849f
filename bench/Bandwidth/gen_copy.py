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

    gen_copy.py M N name:BM:BN:TILES:STAGES [...] > copy.mlir
"""
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


def kernel(name, M, N, BM, BN, T, S):
    bars = (f"!nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, "
            f"num_barriers = {S}>")
    stages = (f"memref<{S}x{BM}x{BN}xf16, #tile.layout<({S}, {BM}, {BN})>, "
              f"#gpu.address_space<workgroup>>")
    tile = f"memref<{BM}x{BN}xf16, #tile.layout<({BM}, {BN})>, #gpu.address_space<workgroup>>"
    G = f"memref<{M}x{N}xf16>"
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
    dev = "\n".join(L) + "\n"
    exact = S * tb
    # The barriers are static shared memory and the arena starts on a 1024-byte
    # boundary after them: ask for more than 48 KiB so the runtime raises the
    # kernel's dynamic limit when static + dynamic would pass 48 KiB. A second
    # entry, <name>_exact_entry, asks for exactly the stages' bytes (a probe of
    # the runtime's opt-in rule).
    smem = exact
    if exact + 1024 > 48 * 1024 and exact <= 48 * 1024:
        smem = 48 * 1024 + 1024
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


def main():
    M, N = int(sys.argv[1]), int(sys.argv[2])
    devs, hosts = [], []
    for spec in sys.argv[3:]:
        name, BM, BN, T, S = spec.split(":")
        BM, BN, T, S = int(BM), int(BN), int(T), int(S)
        assert M % BM == 0 and N % (BN * T) == 0
        d, h = kernel(name, M, N, BM, BN, T, S)
        devs.append(d)
        hosts.append(h)
    out = ["module attributes {gpu.container_module} {\n",
           "  gpu.module @kernels {\n"] + devs + [SMALL, "  }\n"] + hosts + [SMALL_HOST, "}\n"]
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
