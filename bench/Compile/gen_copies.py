#!/usr/bin/env python3
"""Generates a tile-dialect module with N tile.copy_async ops for the
compile-time benchmark.

Each kernel is a `gpu.launch` (outlined by the pipeline) holding COPIES_PER_KERNEL
copies with a realistic mix of plans: 128B-swizzled stage loads with dynamic
coordinates (equal requests share a map), the reference demo's rank-3 load, a
NaN-filled partial load that leaves the tensor, a rank-4 -> 2 reshape load from
a strided view with an offset, an evict_first load, swizzled and plain stores,
a reduce-add store, and a transposed load the `tma` variant declines and the
`simt` variant lowers. Kernels are grouped KERNELS_PER_HOST to a host function;
each host function launches its kernels in a loop (the encodes are hoisted).
Every load writes a shared region of its own and the barrier expects the
bytes of all seven loads: the kernels pass tile-verify-async, which the
pipeline runs.

    gen_copies.py N [--kernels-per-host K] > module.mlir
"""
import argparse
import sys

COPIES_PER_KERNEL = 10

HEADER = """\
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
!stages = memref<3x64x64xf16, #tile.layout<(3, 64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
!stage = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
!demo = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!f32tile = memref<32x64xf32, #tile.layout<(32, 64)>, #gpu.address_space<workgroup>>
!bftile = memref<128x64xbf16, #tile.layout<(128, 64)>, #gpu.address_space<workgroup>>
!trans = memref<64x32xf16, #tile.layout<(64, 32) : (1, 64)>, #gpu.address_space<workgroup>>
!A = memref<4096x1024xf16>
!C = memref<1024x512xf32>
!D = memref<2x32x4x64xbf16, strided<[8192, 256, 64, 1], offset: 64>>
!E = memref<64x256xf16>
!G = memref<32x64xf16>

module attributes {gpu.container_module} {
"""

# {k}: kernel index; {w}: a per-kernel column (so plans' coordinates differ).
KERNEL = """\
    gpu.launch blocks(%bx{k}, %by{k}, %bz{k}) in (%gx{k} = %c64, %gy{k} = %c1, %gz{k} = %c1)
               threads(%tx{k}, %ty{k}, %tz{k}) in (%sx{k} = %c128, %sy{k} = %c1, %sz{k} = %c1)
               dynamic_shared_memory_size %smem {{
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c64i = arith.constant 64 : index
      %tx_bytes = arith.constant 46080 : index
      %bar = nvgpu.mbarrier.create -> !bars
      %stages = tile.arena_view [0] : !stages
      %demo = tile.arena_view [24576] : !demo
      %f32 = tile.arena_view [28672] : !f32tile
      %bf = tile.arena_view [36864] : !bftile
      %tr = tile.arena_view [53248] : !trans
      %st2 = tile.arena_view [57344] : !stage
      %demo2 = tile.arena_view [65536] : !demo
      %st3 = tile.arena_view [73728] : !stage
      %row = arith.muli %bx{k}, %c64i : index
      %col = arith.addi %it, %cw{w} : index
      %colx = arith.muli %col, %c64i : index
      %s = arith.remui %bx{k}, %c3 : index
      %st = tile.stage %stages[%s] : !stages -> !stage
      %leader = arith.cmpi eq, %tx{k}, %c0 : index
      scf.if %leader {{
        nvgpu.mbarrier.init %bar[%s], %one : !bars
      }}
      gpu.barrier
      scf.if %leader {{
        tile.copy_async %st[0, 0] [64, 64], %A[%row, %colx] [64, 64] barrier(%bar[%s])
            : !stage, !A, !bars
        tile.copy_async %st2[0, 0] [64, 64], %A[%row, %cw{w}] [64, 64] barrier(%bar[%s])
            : !stage, !A, !bars
        tile.copy_async %demo[0, 0] [8, 256], %E[%row, 0] [8, 256] barrier(%bar[%s])
            : !demo, !E, !bars
        tile.copy_async %demo2[0, 128] [8, 64], %E[%row, -32] [8, 64] barrier(%bar[%s]) {{oob = "nan"}}
            : !demo, !E, !bars
        tile.copy_async %bf[0, 0] [128, 64], %D[1, 0, 0, 0] [1, 32, 4, 64] barrier(%bar[%s])
            : !bftile, !D, !bars
        tile.copy_async %st3[0, 0] [32, 64], %A[%row, 0] [32, 64] barrier(%bar[%s]) {{cache_hint = "evict_first"}}
            : !stage, !A, !bars
        tile.copy_async %tr[0, 0] [64, 32], %G[0, 0] [64, 32] barrier(%bar[%s])
            : !trans, !G, !bars
        nvgpu.mbarrier.arrive.expect_tx %bar[%s], %tx_bytes : !bars
      }}
      %phase = arith.constant false
      %ticks = arith.constant 10000000 : index
      nvgpu.mbarrier.try_wait.parity %bar[%s], %phase, %ticks : !bars
      gpu.barrier
      scf.if %leader {{
        tile.copy_async %A[%row, 0] [64, 64], %st[0, 0] [64, 64] : !A, !stage
        tile.copy_async %C[%row, 0] [32, 64], %f32[0, 0] [32, 64] : !C, !f32tile
        tile.copy_async %C[%row, %colx] [32, 64], %f32[0, 0] [32, 64] {{reduce = "add"}} : !C, !f32tile
        tile.bulk_commit_group
        tile.bulk_wait_group 0 {{read}}
      }}
      gpu.terminator
    }}
"""


def main():
    p = argparse.ArgumentParser()
    p.add_argument("copies", type=int)
    p.add_argument("--kernels-per-host", type=int, default=10)
    args = p.parse_args()
    kernels = max(1, args.copies // COPIES_PER_KERNEL)
    out = [HEADER]
    k = 0
    host = 0
    while k < kernels:
        n = min(args.kernels_per_host, kernels - k)
        out.append(f"  func.func @host{host}(%A: !A, %C: !C, %D: !D, %E: !E, %G: !G, %iters: index) {{\n")
        out.append("    %c0h = arith.constant 0 : index\n")
        out.append("    %c1 = arith.constant 1 : index\n")
        out.append("    %c64 = arith.constant 64 : index\n")
        out.append("    %c128 = arith.constant 128 : index\n")
        out.append("    %smem = arith.constant 81920 : i32\n")
        for w in range(n):
            out.append(f"    %cw{w} = arith.constant {(w % 4) * 64} : index\n")
        out.append("    scf.for %it = %c0h to %iters step %c1 {\n")
        for w in range(n):
            out.append(KERNEL.format(k=k, w=w))
            k += 1
        out.append("    }\n    return\n  }\n")
        host += 1
    out.append("}\n")
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
