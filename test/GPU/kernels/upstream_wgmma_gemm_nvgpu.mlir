// What upstream's sm90 GEMM integration tests compute (D = A x B, 128x128x128,
// f16 operands, f32 accumulation, one CTA of one warpgroup, K in two
// 64-wide stages), written against upstream's own ops: nvgpu.tma loads into
// 128-byte swizzled shared tiles, nvgpu mbarriers, nvgpu.warpgroup.mma on
// descriptors from nvgpu.warpgroup.generate.descriptor, and
// nvgpu.warpgroup.mma.store of the accumulator into D. No tile op appears:
// the pipeline leaves these ops to upstream's lowering and only encodes the
// host's descriptors through its runtime.
//
// @upstream_wgmma_gemm_nvgpu issues the loads from thread 0 under scf.if;
// @upstream_wgmma_gemm_nvgpu_pred issues the same ops with their predicate
// operands instead (upstream's predicated variant). A is M x K and B is K x N,
// both row-major: B is read N-major (transposeB), in two 64-column halves
// because a 128-byte swizzle span holds 64 f16.
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
!smemA = memref<128x64xf16, #gpu.address_space<workgroup>>
!smemB = memref<64x128xf16, #gpu.address_space<workgroup>>
!smemHalfB = memref<64x64xf16, #gpu.address_space<workgroup>>
!mapA = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!mapB = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!descA = !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
!descB = !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>

module attributes {gpu.container_module} {
  func.func @upstream_wgmma_gemm_nvgpu(%A: memref<128x128xf16>,
                                       %B: memref<128x128xf16>,
                                       %D: memref<128x128xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %smem_bytes = arith.constant 65536 : i32
    %ua = memref.cast %A : memref<128x128xf16> to memref<*xf16>
    %ub = memref.cast %B : memref<128x128xf16> to memref<*xf16>
    %ma = nvgpu.tma.create.descriptor %ua box[%c128, %c64] : memref<*xf16> -> !mapA
    %mb = nvgpu.tma.create.descriptor %ub box[%c64, %c64] : memref<*xf16> -> !mapB
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %smem_bytes {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c8192 = arith.constant 8192 : index
      %c16384 = arith.constant 16384 : index
      %c32768 = arith.constant 32768 : index
      // Per stage: A's 128x64 tile (16 KiB) and B's two 64x64 halves.
      %stage_bytes = arith.constant 32768 : index
      %ticks = arith.constant 10000000 : index
      %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %bar = nvgpu.mbarrier.create -> !bars
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        nvgpu.mbarrier.init %bar[%c0], %c1 : !bars
        nvgpu.mbarrier.init %bar[%c1], %c1 : !bars
        nvgpu.tma.prefetch.descriptor %ma : !mapA
        nvgpu.tma.prefetch.descriptor %mb : !mapB
      }
      gpu.barrier
      // Both stages are issued up front: stage s holds K columns 64s..64s+63.
      scf.if %first {
        scf.for %s = %c0 to %c2 step %c1 {
          %k = arith.muli %s, %c64 : index
          %a_at = arith.muli %s, %c16384 : index
          %b_at = arith.addi %a_at, %c32768 : index
          %b2_at = arith.addi %b_at, %c8192 : index
          %ta = memref.view %smem[%a_at][] : memref<?xi8, #gpu.address_space<workgroup>> to !smemA
          %tb0 = memref.view %smem[%b_at][] : memref<?xi8, #gpu.address_space<workgroup>> to !smemHalfB
          %tb1 = memref.view %smem[%b2_at][] : memref<?xi8, #gpu.address_space<workgroup>> to !smemHalfB
          nvgpu.mbarrier.arrive.expect_tx %bar[%s], %stage_bytes : !bars
          nvgpu.tma.async.load %ma[%k, %c0], %bar[%s] to %ta : !mapA, !bars -> !smemA
          nvgpu.tma.async.load %mb[%c0, %k], %bar[%s] to %tb0 : !mapB, !bars -> !smemHalfB
          nvgpu.tma.async.load %mb[%c64, %k], %bar[%s] to %tb1 : !mapB, !bars -> !smemHalfB
        }
      }
      %zero = nvgpu.warpgroup.mma.init.accumulator -> !acc
      %sum = scf.for %s = %c0 to %c2 step %c1 iter_args(%acc = %zero) -> (!acc) {
        %parity = arith.constant false
        nvgpu.mbarrier.try_wait.parity %bar[%s], %parity, %ticks : !bars
        %a_at = arith.muli %s, %c16384 : index
        %b_at = arith.addi %a_at, %c32768 : index
        %ta = memref.view %smem[%a_at][] : memref<?xi8, #gpu.address_space<workgroup>> to !smemA
        %tb = memref.view %smem[%b_at][] : memref<?xi8, #gpu.address_space<workgroup>> to !smemB
        %da = nvgpu.warpgroup.generate.descriptor %ta, %ma : !smemA, !mapA -> !descA
        %db = nvgpu.warpgroup.generate.descriptor %tb, %mb : !smemB, !mapB -> !descB
        %next = nvgpu.warpgroup.mma %da, %db, %acc {transposeB} : !descA, !descB, !acc -> !acc
        scf.yield %next : !acc
      }
      nvvm.wgmma.wait.group.sync.aligned 0
      nvgpu.warpgroup.mma.store %sum, %D : !acc to memref<128x128xf32>
      gpu.terminator
    }
    return
  }

  func.func @upstream_wgmma_gemm_nvgpu_pred(%A: memref<128x128xf16>,
                                            %B: memref<128x128xf16>,
                                            %D: memref<128x128xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %smem_bytes = arith.constant 65536 : i32
    %ua = memref.cast %A : memref<128x128xf16> to memref<*xf16>
    %ub = memref.cast %B : memref<128x128xf16> to memref<*xf16>
    %ma = nvgpu.tma.create.descriptor %ua box[%c128, %c64] : memref<*xf16> -> !mapA
    %mb = nvgpu.tma.create.descriptor %ub box[%c64, %c64] : memref<*xf16> -> !mapB
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %smem_bytes {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c8192 = arith.constant 8192 : index
      %c16384 = arith.constant 16384 : index
      %c32768 = arith.constant 32768 : index
      %stage_bytes = arith.constant 32768 : index
      %ticks = arith.constant 10000000 : index
      %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %bar = nvgpu.mbarrier.create -> !bars
      // Every thread runs each op; only thread 0's predicate is true.
      %first = arith.cmpi eq, %tx, %c0 : index
      nvgpu.mbarrier.init %bar[%c0], %c1, predicate = %first : !bars
      nvgpu.mbarrier.init %bar[%c1], %c1, predicate = %first : !bars
      nvgpu.tma.prefetch.descriptor %ma, predicate = %first : !mapA
      nvgpu.tma.prefetch.descriptor %mb, predicate = %first : !mapB
      gpu.barrier
      scf.for %s = %c0 to %c2 step %c1 {
        %k = arith.muli %s, %c64 : index
        %a_at = arith.muli %s, %c16384 : index
        %b_at = arith.addi %a_at, %c32768 : index
        %b2_at = arith.addi %b_at, %c8192 : index
        %ta = memref.view %smem[%a_at][] : memref<?xi8, #gpu.address_space<workgroup>> to !smemA
        %tb0 = memref.view %smem[%b_at][] : memref<?xi8, #gpu.address_space<workgroup>> to !smemHalfB
        %tb1 = memref.view %smem[%b2_at][] : memref<?xi8, #gpu.address_space<workgroup>> to !smemHalfB
        nvgpu.mbarrier.arrive.expect_tx %bar[%s], %stage_bytes, predicate = %first : !bars
        nvgpu.tma.async.load %ma[%k, %c0], %bar[%s] to %ta, predicate = %first : !mapA, !bars -> !smemA
        nvgpu.tma.async.load %mb[%c0, %k], %bar[%s] to %tb0, predicate = %first : !mapB, !bars -> !smemHalfB
        nvgpu.tma.async.load %mb[%c64, %k], %bar[%s] to %tb1, predicate = %first : !mapB, !bars -> !smemHalfB
      }
      %zero = nvgpu.warpgroup.mma.init.accumulator -> !acc
      %sum = scf.for %s = %c0 to %c2 step %c1 iter_args(%acc = %zero) -> (!acc) {
        %parity = arith.constant false
        nvgpu.mbarrier.try_wait.parity %bar[%s], %parity, %ticks : !bars
        %a_at = arith.muli %s, %c16384 : index
        %b_at = arith.addi %a_at, %c32768 : index
        %ta = memref.view %smem[%a_at][] : memref<?xi8, #gpu.address_space<workgroup>> to !smemA
        %tb = memref.view %smem[%b_at][] : memref<?xi8, #gpu.address_space<workgroup>> to !smemB
        %da = nvgpu.warpgroup.generate.descriptor %ta, %ma : !smemA, !mapA -> !descA
        %db = nvgpu.warpgroup.generate.descriptor %tb, %mb : !smemB, !mapB -> !descB
        %next = nvgpu.warpgroup.mma %da, %db, %acc {transposeB} : !descA, !descB, !acc -> !acc
        scf.yield %next : !acc
      }
      nvvm.wgmma.wait.group.sync.aligned 0
      nvgpu.warpgroup.mma.store %sum, %D : !acc to memref<128x128xf32>
      gpu.terminator
    }
    return
  }
}
