// RUN: tile-opt %s -split-input-file -verify-diagnostics

!smem = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>

func.func @overlap(%g: memref<8x256xf16>, %bar: !bars, %c0: index, %s: memref<8x256xf16, #tile.layout<(8, 256) : (1, 1)>, #gpu.address_space<workgroup>>) {
  // expected-error @+1 {{overlap: shared buffer layout}}
  tile.copy_async %s[0, 0] [8, 256], %g[0, 0] [8, 256] barrier(%bar[%c0])
      : memref<8x256xf16, #tile.layout<(8, 256) : (1, 1)>, #gpu.address_space<workgroup>>, memref<8x256xf16>, !bars
  return
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @swizzle_element(%g: memref<8x8xf80>, %s: memref<8x8xf80, #tile.layout<(8, 8), swizzle = 32B>, #gpu.address_space<workgroup>>, %bar: !bars, %c0: index) {
  // A 10-byte element cannot be swizzled, nor copied at all: its storage
  // size differs between host and device.
  // expected-error @+1 {{element-type: destination element type 'f80' is 80 bits wide; copies carry elements of 8, 16, 32, 64 or 128 bits}}
  tile.copy_async %s[0, 0] [8, 8], %g[0, 0] [8, 8] barrier(%bar[%c0])
      : memref<8x8xf80, #tile.layout<(8, 8), swizzle = 32B>, #gpu.address_space<workgroup>>, memref<8x8xf80>, !bars
  return
}

// -----

!smem = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @shared_outside(%g: memref<8x256xf16>, %s: !smem, %bar: !bars, %c0: index) {
  // expected-error @+1 {{smem-bounds: shared region [4, +8) leaves dimension 0 of size 8 (buffer [8, 256])}}
  tile.copy_async %s[4, 0] [8, 256], %g[0, 0] [8, 256] barrier(%bar[%c0]) : !smem, memref<8x256xf16>, !bars
  return
}

// -----

!smem = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @store_outside(%g: memref<8x256xf16>, %s: !smem) {
  // expected-error @+1 {{store-bounds: store's global region [-8, +256) leaves dimension 1 of size 256 (buffer [8, 256])}}
  tile.copy_async %g[0, -8] [8, 256], %s[0, 0] [8, 256] : memref<8x256xf16>, !smem
  return
}

// -----

!smem = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
// A load's global region may leave the tensor: no error.
func.func @load_outside_ok(%g: memref<8x256xf16>, %s: !smem, %bar: !bars, %c0: index) {
  tile.copy_async %s[0, 0] [8, 256], %g[-4, 100] [8, 256] barrier(%bar[%c0]) : !smem, memref<8x256xf16>, !bars
  return
}

// -----

!smem = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @element_types(%g: memref<8x256xbf16>, %s: !smem, %bar: !bars, %c0: index) {
  // expected-error @+1 {{element type mismatch: destination has 'f16', source has 'bf16'}}
  tile.copy_async %s[0, 0] [8, 256], %g[0, 0] [8, 256] barrier(%bar[%c0]) : !smem, memref<8x256xbf16>, !bars
  return
}

// -----

!smem = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @counts(%g: memref<8x256xf16>, %s: !smem, %bar: !bars, %c0: index) {
  // expected-error @+1 {{count-mismatch: destination region [8, 256] has 2048 elements, source region [4, 256] has 1024}}
  tile.copy_async %s[0, 0] [8, 256], %g[0, 0] [4, 256] barrier(%bar[%c0]) : !smem, memref<8x256xf16>, !bars
  return
}

// -----

func.func @both_global(%a: memref<8x256xf16>, %b: memref<8x256xf16, #gpu.address_space<global>>) {
  // expected-error @+1 {{direction: both buffers are in global memory}}
  tile.copy_async %a[0, 0] [8, 256], %b[0, 0] [8, 256] : memref<8x256xf16>, memref<8x256xf16, #gpu.address_space<global>>
  return
}

// -----

!smem = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @both_shared(%a: !smem, %b: !smem) {
  // expected-error @+1 {{direction: both buffers are in shared memory}}
  tile.copy_async %a[0, 0] [8, 256], %b[0, 0] [8, 256] : !smem, !smem
  return
}

// -----

func.func @private_space(%a: memref<8x256xf16>, %b: memref<8x256xf16, #gpu.address_space<private>>) {
  // expected-error @+1 {{direction: source memory space #gpu.address_space<private> is neither global nor shared}}
  tile.copy_async %a[0, 0] [8, 256], %b[0, 0] [8, 256] : memref<8x256xf16>, memref<8x256xf16, #gpu.address_space<private>>
  return
}

// -----

!smem = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @load_without_barrier(%g: memref<8x256xf16>, %s: !smem) {
  // expected-error @+1 {{barrier: a load (global to shared) requires barrier(%group[%i])}}
  tile.copy_async %s[0, 0] [8, 256], %g[0, 0] [8, 256] : !smem, memref<8x256xf16>
  return
}

// -----

!smem = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @store_with_barrier(%g: memref<8x256xf16>, %s: !smem, %bar: !bars, %c0: index) {
  // expected-error @+1 {{barrier: a store (shared to global) takes no barrier}}
  tile.copy_async %g[0, 0] [8, 256], %s[0, 0] [8, 256] barrier(%bar[%c0]) : memref<8x256xf16>, !smem, !bars
  return
}

// -----

!smem = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @store_multicast(%g: memref<8x256xf16>, %s: !smem, %m: i16) {
  // expected-error @+1 {{multicast: only loads can multicast to the cluster; this copy is a store}}
  tile.copy_async %g[0, 0] [8, 256], %s[0, 0] [8, 256] multicast(%m) : memref<8x256xf16>, !smem
  return
}

// -----

!smem = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @reduce_on_load(%g: memref<8x256xf16>, %s: !smem, %bar: !bars, %c0: index) {
  // expected-error @+1 {{reduce: reductions apply to stores (shared to global) only; this copy is a load}}
  tile.copy_async %s[0, 0] [8, 256], %g[0, 0] [8, 256] barrier(%bar[%c0]) {reduce = "add"} : !smem, memref<8x256xf16>, !bars
  return
}

// -----

!smem = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @reduce_type(%g: memref<8x256xf16>, %s: !smem) {
  // expected-error @+1 {{reduce-type: reduction 'inc' does not support element type 'f16'}}
  tile.copy_async %g[0, 0] [8, 256], %s[0, 0] [8, 256] {reduce = "inc"} : memref<8x256xf16>, !smem
  return
}

// -----

!smem = memref<8x64xf32, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>
func.func @reduce_and_float(%g: memref<8x64xf32>, %s: !smem) {
  // expected-error @+1 {{reduce-type: reduction 'and' does not support element type 'f32'}}
  tile.copy_async %g[0, 0] [8, 64], %s[0, 0] [8, 64] {reduce = "and"} : memref<8x64xf32>, !smem
  return
}

// -----

!smem = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @reduce_unknown(%g: memref<8x256xf16>, %s: !smem) {
  // expected-error @+1 {{reduce: unknown reduction 'mul'; expected add, min, max, inc, dec, and, or or xor}}
  tile.copy_async %g[0, 0] [8, 256], %s[0, 0] [8, 256] {reduce = "mul"} : memref<8x256xf16>, !smem
  return
}

// -----

!smem = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @oob_mode(%g: memref<8x256xf16>, %s: !smem, %bar: !bars, %c0: index) {
  // expected-error @+1 {{oob-mode: unknown out-of-bounds fill 'one'; expected "zero" or "nan"}}
  tile.copy_async %s[0, 0] [8, 256], %g[0, 0] [8, 256] barrier(%bar[%c0]) {oob = "one"} : !smem, memref<8x256xf16>, !bars
  return
}

// -----

!smem = memref<8x128xi16, #tile.layout<(8, 2, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @nan_int(%g: memref<8x128xi16>, %s: !smem, %bar: !bars, %c0: index) {
  // expected-error @+1 {{nan-fill-type: NaN fill needs f16, bf16, f32 or f64 elements, not 'i16'}}
  tile.copy_async %s[0, 0] [8, 128], %g[0, 0] [8, 128] barrier(%bar[%c0]) {oob = "nan"} : !smem, memref<8x128xi16>, !bars
  return
}

// -----

!smem = memref<8x128xf8E4M3FN, #tile.layout<(8, 128), swizzle = 128B>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @nan_fp8(%g: memref<8x128xf8E4M3FN>, %s: !smem, %bar: !bars, %c0: index) {
  // expected-error @+1 {{nan-fill-type: NaN fill needs f16, bf16, f32 or f64 elements, not 'f8E4M3FN'}}
  tile.copy_async %s[0, 0] [8, 128], %g[0, 0] [8, 128] barrier(%bar[%c0]) {oob = "nan"} : !smem, memref<8x128xf8E4M3FN>, !bars
  return
}

// -----

!smem = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @oob_on_store(%g: memref<8x256xf16>, %s: !smem) {
  // expected-error @+1 {{oob-mode: out-of-bounds fill applies to loads only}}
  tile.copy_async %g[0, 0] [8, 256], %s[0, 0] [8, 256] {oob = "zero"} : memref<8x256xf16>, !smem
  return
}

// -----

!smem = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @cache_hint(%g: memref<8x256xf16>, %s: !smem, %bar: !bars, %c0: index) {
  // expected-error @+1 {{cache-hint: unknown cache policy 'evict_sometimes'; expected evict_first, evict_last or evict_normal}}
  tile.copy_async %s[0, 0] [8, 256], %g[0, 0] [8, 256] barrier(%bar[%c0]) {cache_hint = "evict_sometimes"} : !smem, memref<8x256xf16>, !bars
  return
}

// -----

!smem = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @region_rank(%g: memref<8x256xf16>, %s: !smem, %bar: !bars, %c0: index) {
  // expected-error @+1 {{source region has 1 offsets but the buffer has rank 2}}
  tile.copy_async %s[0, 0] [8, 256], %g[0] [2048] barrier(%bar[%c0]) : !smem, memref<8x256xf16>, !bars
  return
}

// -----

!smem = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @region_size(%g: memref<8x256xf16>, %s: !smem, %bar: !bars, %c0: index) {
  // expected-error @+1 {{destination region size 0 in dimension 0 is not positive}}
  tile.copy_async %s[0, 0] [0, 256], %g[0, 0] [0, 256] barrier(%bar[%c0]) : !smem, memref<8x256xf16>, !bars
  return
}

// -----

func.func @copy_scope(%a: memref<8x256xf16>, %b: memref<8x256xf16>) {
  // expected-error @+1 {{scope: unknown scope 'grid'; expected thread, warp, warpgroup or cta}}
  tile.copy %a[0, 0] [8, 256], %b[0, 0] [8, 256] {scope = "grid"} : memref<8x256xf16>, memref<8x256xf16>
  return
}

// -----

// A warp- or warpgroup-wide copy in a block with a partial warp or warpgroup:
// its barrier would wait for threads that do not exist. Whole ones, and a
// block that states no size, are fine.
gpu.module @scope_blocks {
  gpu.func @partial_warpgroup(%a: memref<8x256xf16>, %b: memref<8x256xf16>) kernel
      attributes {known_block_size = array<i32: 96, 2, 1>} {
    // expected-error @+1 {{scope: a warpgroup-wide copy needs a block of whole warpgroups (128 threads), but the kernel's block is 96 x 2 x 1 = 192 threads}}
    tile.copy %a[0, 0] [8, 256], %b[0, 0] [8, 256] {scope = "warpgroup"} : memref<8x256xf16>, memref<8x256xf16>
    gpu.return
  }
  gpu.func @partial_warp(%a: memref<8x256xf16>, %b: memref<8x256xf16>) kernel
      attributes {known_block_size = array<i32: 48, 1, 1>} {
    // expected-error @+1 {{scope: a warp-wide copy needs a block of whole warps (32 threads), but the kernel's block is 48 x 1 x 1 = 48 threads}}
    tile.copy %a[0, 0] [8, 256], %b[0, 0] [8, 256] {scope = "warp"} : memref<8x256xf16>, memref<8x256xf16>
    gpu.return
  }
  gpu.func @whole(%a: memref<8x256xf16>, %b: memref<8x256xf16>) kernel
      attributes {known_block_size = array<i32: 64, 4, 1>} {
    tile.copy %a[0, 0] [8, 256], %b[0, 0] [8, 256] {scope = "warpgroup"} : memref<8x256xf16>, memref<8x256xf16>
    tile.copy %a[0, 0] [8, 256], %b[0, 0] [8, 256] {scope = "warp"} : memref<8x256xf16>, memref<8x256xf16>
    tile.copy %a[0, 0] [8, 256], %b[0, 0] [8, 256] {scope = "thread"} : memref<8x256xf16>, memref<8x256xf16>
    gpu.return
  }
  gpu.func @unstated(%a: memref<8x256xf16>, %b: memref<8x256xf16>) kernel {
    tile.copy %a[0, 0] [8, 256], %b[0, 0] [8, 256] {scope = "warpgroup"} : memref<8x256xf16>, memref<8x256xf16>
    gpu.return
  }
}

// -----

func.func @partial_warpgroup_launch(%a: memref<8x256xf16>, %b: memref<8x256xf16>) {
  %c1 = arith.constant 1 : index
  %c160 = arith.constant 160 : index
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %c1, %g1 = %c1, %g2 = %c1)
             threads(%t0, %t1, %t2) in (%s0 = %c160, %s1 = %c1, %s2 = %c1) {
    // expected-error @+1 {{scope: a warpgroup-wide copy needs a block of whole warpgroups (128 threads), but the kernel's block is 160 x 1 x 1 = 160 threads}}
    tile.copy %a[0, 0] [8, 256], %b[0, 0] [8, 256] {scope = "warpgroup"} : memref<8x256xf16>, memref<8x256xf16>
    gpu.terminator
  }
  return
}

// -----

func.func @copy_global_read_outside(%a: memref<8x256xf16>, %b: memref<8x256xf16>) {
  // expected-error @+1 {{global-bounds: global region [1, +8) leaves dimension 0 of size 8 (buffer [8, 256])}}
  tile.copy %a[0, 0] [8, 256], %b[1, 0] [8, 256] : memref<8x256xf16>, memref<8x256xf16>
  return
}

// -----

func.func @arena_space() {
  // expected-error @+1 {{result must be in shared memory (#gpu.address_space<workgroup>)}}
  %v = tile.arena_view [0] : memref<8x256xf16>
  return
}

// -----

func.func @arena_swizzle_align() {
  // expected-error @+1 {{smem-align: a 128B swizzled view must start on a multiple of 1024 bytes, not at offset 512}}
  %v = tile.arena_view [512] : memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @arena_element_align() {
  // expected-error @+1 {{smem-align: offset 6 is not a multiple of the element size 4}}
  %v = tile.arena_view [6] : memref<64xf32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @stage_multi_shard(%i: index) {
  %b = tile.arena_view [0] : memref<4x64xf16, #tile.layout<(2, 2, 64) : (128, 64, 1)>, #gpu.address_space<workgroup>>
  // expected-error @+1 {{the outermost dimension of}}
  %s = tile.stage %b[%i] : memref<4x64xf16, #tile.layout<(2, 2, 64) : (128, 64, 1)>, #gpu.address_space<workgroup>> -> memref<64xf16, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @stage_layout(%i: index) {
  %b = tile.arena_view [0] : memref<2x64x64xf16, #tile.layout<(2, 64, 64) : (4096, 64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
  // expected-error @+1 {{must be the source layout without its outermost dimension, i.e. #tile.layout<(64, 64), swizzle = 128B>}}
  %s = tile.stage %b[%i] : memref<2x64x64xf16, #tile.layout<(2, 64, 64) : (4096, 64, 1), swizzle = 128B>, #gpu.address_space<workgroup>> -> memref<64x64xf16, #tile.layout<(64, 64)>, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @stage_swizzle_align(%i: index) {
  %b = tile.arena_view [0] : memref<2x4x64xf16, #tile.layout<(2, 4, 64) : (256, 64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
  // expected-error @+1 {{smem-align: stage stride 512 B is not a multiple of the 128B swizzle repeat 1024 B}}
  %s = tile.stage %b[%i] : memref<2x4x64xf16, #tile.layout<(2, 4, 64) : (256, 64, 1), swizzle = 128B>, #gpu.address_space<workgroup>> -> memref<4x64xf16, #tile.layout<(4, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
  return
}

// -----

!smem = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @prefetch_store(%g: memref<8x256xf16>, %s: !smem) {
  // expected-error @+1 {{prefetch: only loads (global to shared) have a prefetch form; this copy is a store}}
  tile.copy_async %g[0, 0] [8, 256], %s[0, 0] [8, 256] {prefetch} : memref<8x256xf16>, !smem
  return
}

// -----

!smem = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @prefetch_barrier(%g: memref<8x256xf16>, %s: !smem, %bar: !bars, %c0: index) {
  // expected-error @+1 {{prefetch: a prefetch completes nothing; it takes no barrier}}
  tile.copy_async %s[0, 0] [8, 256], %g[0, 0] [8, 256] barrier(%bar[%c0]) {prefetch} : !smem, memref<8x256xf16>, !bars
  return
}

// -----

!smem = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @prefetch_multicast(%g: memref<8x256xf16>, %s: !smem, %m: i16) {
  // expected-error @+1 {{prefetch: a prefetch fills the L2 cache, not the cluster's shared memory; it takes no multicast}}
  tile.copy_async %s[0, 0] [8, 256], %g[0, 0] [8, 256] multicast(%m) {prefetch} : !smem, memref<8x256xf16>
  return
}

// -----

!smem = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @prefetch_fill(%g: memref<8x256xf16>, %s: !smem) {
  // expected-error @+1 {{prefetch: a prefetch writes no shared memory; it takes no oob fill}}
  tile.copy_async %s[0, 0] [8, 256], %g[-2, 0] [8, 256] {oob = "nan", prefetch} : !smem, memref<8x256xf16>
  return
}
