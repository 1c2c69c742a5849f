// An sm90 program written against upstream's own TMA ops (no tile op): the
// host encodes two descriptors with nvgpu.tma.create.descriptor; one thread
// loads a 64x8 and an 8x128 f32 tile into shared memory with
// nvgpu.tma.async.load, completing on an nvgpu mbarrier; then every thread
// copies both tiles back out. It compiles and runs through the tile pipeline
// unchanged (upstream's lowering takes the ops the tile dialect does not own).
!barrierType = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!tileA = memref<64x8xf32, #gpu.address_space<workgroup>>
!tileB = memref<8x128xf32, #gpu.address_space<workgroup>>
!mapA = !nvgpu.tensormap.descriptor<tensor = !tileA, swizzle = none, l2promo = none, oob = zero, interleave = none>
!mapB = !nvgpu.tensormap.descriptor<tensor = !tileB, swizzle = none, l2promo = none, oob = zero, interleave = none>

module attributes {gpu.container_module} {
  memref.global "private" @smemA : !tileA {alignment = 128}
  memref.global "private" @smemB : !tileB {alignment = 128}

  func.func @upstream_tma_nvgpu(%A: memref<64x8xf32>, %B: memref<8x128xf32>,
                                %OA: memref<64x8xf32>, %OB: memref<8x128xf32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %ua = memref.cast %A : memref<64x8xf32> to memref<*xf32>
    %ub = memref.cast %B : memref<8x128xf32> to memref<*xf32>
    %da = nvgpu.tma.create.descriptor %ua box[%c64, %c8] : memref<*xf32> -> !mapA
    %db = nvgpu.tma.create.descriptor %ub box[%c8, %c128] : memref<*xf32> -> !mapB
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %c0 = arith.constant 0 : index
      %ticks = arith.constant 10000000 : index
      %bytes = arith.constant 6144 : index
      %sa = memref.get_global @smemA : !tileA
      %sb = memref.get_global @smemB : !tileB
      %bar = nvgpu.mbarrier.create -> !barrierType
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        nvgpu.mbarrier.init %bar[%c0], %c1 : !barrierType
        nvgpu.tma.prefetch.descriptor %da : !mapA
        nvgpu.tma.prefetch.descriptor %db : !mapB
      }
      gpu.barrier
      scf.if %first {
        nvgpu.tma.async.load %da[%c0, %c0], %bar[%c0] to %sa : !mapA, !barrierType -> !tileA
        nvgpu.tma.async.load %db[%c0, %c0], %bar[%c0] to %sb : !mapB, !barrierType -> !tileB
        nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %bytes : !barrierType
      }
      %phase = arith.constant false
      nvgpu.mbarrier.try_wait.parity %bar[%c0], %phase, %ticks : !barrierType
      // Thread t copies row t of A (t < 64) and column t of B.
      %in_a = arith.cmpi ult, %tx, %c64 : index
      scf.if %in_a {
        scf.for %j = %c0 to %c8 step %c1 {
          %v = memref.load %sa[%tx, %j] : !tileA
          memref.store %v, %OA[%tx, %j] : memref<64x8xf32>
        }
      }
      scf.for %i = %c0 to %c8 step %c1 {
        %v = memref.load %sb[%i, %tx] : !tileB
        memref.store %v, %OB[%i, %tx] : memref<8x128xf32>
      }
      gpu.terminator
    }
    return
  }
}
