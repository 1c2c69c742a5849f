// Every kind of copy in one kernel (input of the ptxas test).
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
!stages = memref<3x64x64xf16, #tile.layout<(3, 64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
!tile = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
!t = memref<64x32xf16, #tile.layout<(64, 32) : (1, 64)>, #gpu.address_space<workgroup>>
!ints = memref<64x64xi32, #tile.layout<(64, 64)>, #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
  func.func @run(%a: memref<256x64xf16>, %b: memref<256x64xf16>, %c: memref<64x64xi32>,
                 %u: memref<64x64xui32>, %d: memref<32x64xf16>, %n: index) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %smem = arith.constant 65536 : i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %smem {
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %c64 = arith.constant 64 : index
      %one = arith.constant 1 : index
      %buf = tile.arena_view [0] : !stages
      %ints = tile.arena_view [24576] : !ints
      %t = tile.arena_view [40960] : !t
      %bar = nvgpu.mbarrier.create -> !bars
      %leader = arith.cmpi eq, %tx, %c0 : index
      scf.if %leader {
        nvgpu.mbarrier.init %bar[%c0], %one : !bars
      }
      gpu.barrier
      scf.for %k = %c0 to %n step %one {
        %stage = arith.remui %k, %c3 : index
        %st = tile.stage %buf[%stage] : !stages -> !tile
        %row = arith.muli %stage, %c64 : index
        scf.if %leader {
          tile.copy_async %st[0, 0] [64, 64], %a[%row, 0] [64, 64] barrier(%bar[%stage])
              {cache_hint = "evict_first"} : !tile, memref<256x64xf16>, !bars
          tile.copy_async %b[%row, 0] [64, 64], %st[0, 0] [64, 64] : memref<256x64xf16>, !tile
          tile.bulk_commit_group
          tile.bulk_wait_group 0 {read}
        }
      }
      scf.if %leader {
        tile.copy_async %c[0, 0] [64, 64], %ints[0, 0] [64, 64] {reduce = "add"} : memref<64x64xi32>, !ints
        tile.copy_async %c[0, 0] [64, 64], %ints[0, 0] [64, 64] {reduce = "xor"} : memref<64x64xi32>, !ints
        tile.copy_async %t[0, 0] [64, 32], %d[0, 0] [64, 32] barrier(%bar[%c0]) {oob = "nan"} : !t, memref<32x64xf16>, !bars
        tile.bulk_commit_group
        tile.bulk_wait_group 0
      }
      tile.copy %d[0, 0] [32, 64], %t[0, 0] [64, 32] {scope = "cta"} : memref<32x64xf16>, !t
      tile.copy %a[0, 0] [64, 64], %buf[0, 0, 0] [1, 64, 64] {scope = "warpgroup"} : memref<256x64xf16>, !stages
      gpu.terminator
    }
    return
  }
}
