// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-check-pipeline-input
// RUN: not tile-opt %s -split-input-file --tile-check-pipeline-input="chip=sm_80" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not tile-opt %s -split-input-file --tile-check-pipeline-input="chip=" 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not tile-opt %s -split-input-file --tile-check-pipeline-input="format=cubin" 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not tile-opt %s -split-input-file --tile-check-pipeline-input="format=bin toolkit=/nonexistent/cuda" 2>&1 | FileCheck %s --check-prefix=TOOLKIT
// RUN: not tile-opt %s -split-input-file --tile-check-pipeline-input="format=isa toolkit=/nonexistent/cuda" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ISA

// CHIP: check-pipeline-input.mlir:{{[0-9]+}}:1: error: chip: unsupported target chip 'sm_80'; the tile lowering supports sm_90, sm_90a, sm_100, sm_100a (TMA and bulk copies need sm_90 or newer)
// EMPTY: error: chip: unsupported target chip ''; the tile lowering supports sm_90, sm_90a, sm_100, sm_100a
// FORMAT: error: format: unknown binary format 'cubin'; expected isa, bin, fatbin or none
// TOOLKIT: error: toolkit: CUDA toolkit directory '/nonexistent/cuda' does not exist; format=bin needs ptxas from it (pass toolkit=<path> or format=isa)
// PTX needs no toolkit: only the input's own errors are reported.
// ISA-NOT: toolkit:
// ISA: error: 'tile.arena_view' op placement
// ISA-NOT: toolkit:

// Tile ops in host code are never lowered: an error, not a silent success.
func.func @host(%A: memref<8x256xf16>) {
  // expected-error @+1 {{'tile.arena_view' op placement: tile ops run on the GPU; this one is in host code (move it into a gpu.launch body or a gpu.func)}}
  %s = tile.arena_view [0] : memref<8x64xf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'tile.copy_async' op placement: tile ops run on the GPU}}
  tile.copy_async %A[0, 0] [8, 64], %s[0, 0] [8, 64] : memref<8x256xf16>, memref<8x64xf16, #gpu.address_space<workgroup>>
  return
}

// -----

// nvgpu's device instructions in host code: the host lowering would turn an
// mbarrier group into a shared-memory global of the host module (and one
// outside any function crashes the upstream conversion). The descriptor
// encoding is host code and stays.
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
// expected-error @+1 {{'nvgpu.mbarrier.create' op placement: nvgpu.mbarrier.create is a device instruction; this one is in host code (move it into a gpu.launch body or a function of a gpu.module)}}
%bar = nvgpu.mbarrier.create -> !bars
func.func @host_barrier() {
  // expected-error @+1 {{'nvgpu.mbarrier.create' op placement: nvgpu.mbarrier.create is a device instruction; this one is in host code}}
  %b = nvgpu.mbarrier.create -> !bars
  return
}
gpu.module @device {
  func.func @helper() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %b = nvgpu.mbarrier.create -> !bars
    nvgpu.mbarrier.init %b[%c0], %c1 : !bars
    return
  }
}

// -----

// User functions may not take the runtime's entry-point names.
module attributes {gpu.container_module} {
  // expected-error @+1 {{'func.func' op reserved-symbol: '@mgpuLaunchKernel' is the name of a runtime entry point that the host lowering calls; rename the symbol}}
  func.func @mgpuLaunchKernel(%a: i64) -> i64 { return %a : i64 }
  // expected-error @+1 {{'func.func' op reserved-symbol: '@tileTensorMapGetCached'}}
  func.func @tileTensorMapGetCached(%a: i64) -> i64 { return %a : i64 }
  // expected-error @+1 {{'func.func' op reserved-symbol: '@tileTensorMapIm2colGetCached'}}
  func.func private @tileTensorMapIm2colGetCached(i32) -> !llvm.ptr
  // expected-error @+1 {{'llvm.func' op reserved-symbol: '@tileRuntimeInit'}}
  llvm.func @tileRuntimeInit()
  // Names that only start like a runtime prefix are the user's.
  func.func @tileTensormapper() { return }
  func.func @tileTensorMapper() { return }
  func.func @tileRuntimeish() { return }
  func.func @mgpu() { return }
  func.func @tiled() { return }
}

// -----

// Host code may declare the runtime's longest-first schedule table and call
// it (the causal attention kernels' table walk), with the one declaration
// its C-interface entry point serves.
module attributes {gpu.container_module} {
  func.func private @tileRuntimeLongestFirstTable(i64, i64, i64, i64, i64, i64)
      -> memref<?xi32> attributes {llvm.emit_c_interface}
}

// -----

module attributes {gpu.container_module} {
  // expected-error @+1 {{'func.func' op reserved-symbol: '@tileRuntimeLongestFirstTable' is the runtime's longest-first schedule table; host code declares it as `func.func private @tileRuntimeLongestFirstTable(i64, i64, i64, i64, i64, i64) -> memref<?xi32> attributes {llvm.emit_c_interface}` or not at all}}
  func.func private @tileRuntimeLongestFirstTable(i64, i64, i64, i64, i64, i64)
      -> memref<?xi32>
}

// -----

module attributes {gpu.container_module} {
  // expected-error @+1 {{'func.func' op reserved-symbol: '@tileRuntimeLongestFirstTable' is the runtime's longest-first schedule table}}
  func.func private @tileRuntimeLongestFirstTable(i64, i64, i64, i64, i64)
      -> memref<?xi32> attributes {llvm.emit_c_interface}
}

// -----

module attributes {gpu.container_module} {
  // expected-error @+1 {{'func.func' op reserved-symbol: '@tileRuntimeLongestFirstTable' is the runtime's longest-first schedule table}}
  func.func @tileRuntimeLongestFirstTable(%a: i64, %b: i64, %c: i64, %d: i64,
      %e: i64, %f: i64) -> memref<?xi32> attributes {llvm.emit_c_interface} {
    %n = arith.index_cast %a : i64 to index
    %m = memref.alloc(%n) : memref<?xi32>
    return %m : memref<?xi32>
  }
}

// -----

// A global buffer in #gpu.address_space<global> cannot be passed from the
// host (upstream host lowering has no conversion for it).
module attributes {gpu.container_module} {
  // expected-error @+1 {{'func.func' op host-type: argument #0 of host function @k has type 'memref<8x64xf16, #gpu.address_space<global>>'}}
  func.func @k(%A: memref<8x64xf16, #gpu.address_space<global>>) {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %s = tile.arena_view [0] : memref<8x64xf16, #gpu.address_space<workgroup>>
      // expected-error @+1 {{'tile.copy_async' op kernel-arg: this op uses a value of type 'memref<8x64xf16, #gpu.address_space<global>>' from outside the gpu.launch, which makes it a kernel argument: a buffer passed from the host must use the default memory space (the host lowering has no conversion for #gpu.address_space<global>); #gpu.address_space<global> is for views inside kernels}}
      tile.copy_async %A[0, 0] [8, 64], %s[0, 0] [8, 64] : memref<8x64xf16, #gpu.address_space<global>>, memref<8x64xf16, #gpu.address_space<workgroup>>
      tile.bulk_commit_group
      gpu.terminator
    }
    return
  }
}

// -----

// A global #tile.layout with several shards in a dimension is not strided:
// memref lowering cannot pass it.
module attributes {gpu.container_module} {
  // expected-error @+1 {{'func.func' op host-type: argument #0 of host function @k has type 'memref<8x64xf16, #tile.layout<(8, 2, 32) : (32, 256, 1)>>'}}
  func.func @k(%A: memref<8x64xf16, #tile.layout<(8, 2, 32) : (32, 256, 1)>>) {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %s = tile.arena_view [0] : memref<8x64xf16, #gpu.address_space<workgroup>>
      // expected-error @+1 {{kernel-arg: this op uses a value of type 'memref<8x64xf16, #tile.layout<(8, 2, 32) : (32, 256, 1)>>' from outside the gpu.launch, which makes it a kernel argument: a buffer passed from the host needs a strided layout (identity or strided<...>)}}
      tile.copy_async %A[0, 0] [8, 64], %s[0, 0] [8, 64] : memref<8x64xf16, #tile.layout<(8, 2, 32) : (32, 256, 1)>>, memref<8x64xf16, #gpu.address_space<workgroup>>
      tile.bulk_commit_group
      gpu.terminator
    }
    return
  }
}

// -----

// Shared buffers and mbarrier groups live in the kernel, not on the host.
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  // expected-error @+1 {{'func.func' op host-type: argument #1 of host function @host has type 'memref<8x64xf16, #gpu.address_space<workgroup>>'}}
  func.func @host(%A: memref<8x64xf16>, %S: memref<8x64xf16, #gpu.address_space<workgroup>>, %bar: !bars) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'gpu.launch_func' op kernel-arg: kernel operand #1 of type 'memref<8x64xf16, #gpu.address_space<workgroup>>': a shared-memory buffer cannot be passed from the host; carve it out of the kernel's arena with tile.arena_view}}
    gpu.launch_func @k::@load blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%A : memref<8x64xf16>, %S : memref<8x64xf16, #gpu.address_space<workgroup>>, %bar : !bars)
    return
  }
  gpu.module @k {
    gpu.func @load(%A: memref<8x64xf16>, %S: memref<8x64xf16, #gpu.address_space<workgroup>>, %bar: !bars) kernel {
      %c0 = arith.constant 0 : index
      tile.copy_async %S[0, 0] [8, 64], %A[0, 0] [8, 64] barrier(%bar[%c0]) : memref<8x64xf16, #gpu.address_space<workgroup>>, memref<8x64xf16>, !bars
      gpu.return
    }
  }
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  // expected-error @+1 {{'func.func' op host-type: argument #1 of host function @host has type '!nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>'}}
  func.func @host(%A: memref<8x64xf16>, %bar: !bars) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'gpu.launch_func' op kernel-arg: kernel operand #1 of type '!nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>': an mbarrier group lives in the kernel's shared memory; create it inside the kernel with nvgpu.mbarrier.create}}
    gpu.launch_func @k::@load blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%A : memref<8x64xf16>, %bar : !bars)
    return
  }
  gpu.module @k {
    gpu.func @load(%A: memref<8x64xf16>, %bar: !bars) kernel {
      gpu.return
    }
  }
}

// -----

// Scalars reach LLVM as values: a float type LLVM lacks cannot be one.
module attributes {gpu.container_module} {
  // expected-error @+1 {{'func.func' op host-type: argument #0 of host function @host has type 'complex<tf32>', which the host lowering cannot convert: LLVM has no type for tf32 values (pass them in a memref)}}
  func.func @host(%x: complex<tf32>) {
    return
  }
}

// -----

// A launch nested in a loop escapes upstream's kernel-name check until the
// loop is lowered; the name is checked up front.
module attributes {gpu.container_module} {
  func.func @host(%A: memref<8x64xf16>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      // expected-error @+1 {{'gpu.launch_func' op kernel-arg: @missing::@load names no kernel: @missing is not defined}}
      gpu.launch_func @missing::@load blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
          args(%A : memref<8x64xf16>)
    }
    return
  }
  gpu.module @k {
    gpu.func @load(%A: memref<8x64xf16>) kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @host(%A: memref<8x64xf16>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      // expected-error @+1 {{'gpu.launch_func' op kernel-arg: @other::@load names no kernel: @other is not a gpu.module or gpu.binary}}
      gpu.launch_func @other::@load blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
          args(%A : memref<8x64xf16>)
    }
    return
  }
  func.func @other() {
    return
  }
}

// -----

// Valid input passes unchanged.
module attributes {gpu.container_module} {
  func.func @k(%A: memref<8x64xf16>, %B: memref<8x64xf16, strided<[128, 1], offset: 64>>) {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %s = tile.arena_view [0] : memref<8x64xf16, #gpu.address_space<workgroup>>
      tile.copy_async %A[0, 0] [8, 64], %s[0, 0] [8, 64] : memref<8x64xf16>, memref<8x64xf16, #gpu.address_space<workgroup>>
      tile.copy %B[0, 0] [8, 64], %s[0, 0] [8, 64] : memref<8x64xf16, strided<[128, 1], offset: 64>>, memref<8x64xf16, #gpu.address_space<workgroup>>
      tile.bulk_commit_group
      gpu.terminator
    }
    return
  }
}

// -----

// Host functions take only what the host lowering converts.
// expected-error @+1 {{'func.func' op host-type: argument #1 of host function @host_swizzled has type 'memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1)>>', which the host lowering cannot convert: a buffer passed from the host needs a strided layout}}
func.func @host_swizzled(%a: memref<8x256xf16>, %b: memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1)>>) { return }

// -----

// expected-error @+1 {{'func.func' op host-type: result #0 of host function @host_shared has type 'memref<64xf16, #gpu.address_space<workgroup>>', which the host lowering cannot convert: a shared-memory buffer cannot be passed from the host}}
func.func private @host_shared() -> memref<64xf16, #gpu.address_space<workgroup>>

// -----

// A row-major #tile.layout is strided: a valid host argument.
func.func @host_row_major(%a: memref<8x256xf16, #tile.layout<(8, 256)>>) { return }

// -----

// A launch names an existing kernel and passes one operand per argument
// (found by the tile-opt fuzzer: the host passes indexed past the operands).
module attributes {gpu.container_module} {
  func.func @host(%A: memref<8x64xf16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // Inside a loop, upstream's symbol-use verifier does not see launches.
    scf.for %i = %c0 to %c1 step %c1 {
      // expected-error @+1 {{'gpu.launch_func' op kernel-arg: the launch passes 0 operand(s) but @k::@load takes 1}}
      gpu.launch_func @k::@load blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
      // expected-error @+1 {{'gpu.launch_func' op kernel-arg: @k::@lod is not a gpu.func kernel of gpu.module @k}}
      gpu.launch_func @k::@lod blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : memref<8x64xf16>)
    }
    return
  }
  gpu.module @k {
    gpu.func @load(%A: memref<8x64xf16>) kernel {
      gpu.return
    }
  }
}

// -----

// Constant launch sizes within CUDA's limits; one past each limit is an
// error at the launch (a zero size used to reach upstream lowerings, which
// cannot express the empty thread-id range it implies).
func.func @launch_sizes() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c65 = arith.constant 65 : index
  %c1024 = arith.constant 1024 : index
  %c1025 = arith.constant 1025 : index
  %c65535 = arith.constant 65535 : index
  %c65536 = arith.constant 65536 : index
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %c1, %g1 = %c65535, %g2 = %c65535)
             threads(%t0, %t1, %t2) in (%s0 = %c1024, %s1 = %c1, %s2 = %c1) {
    gpu.terminator
  }
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %c1, %g1 = %c1, %g2 = %c1)
             threads(%t0, %t1, %t2) in (%s0 = %c1, %s1 = %c1, %s2 = %c64) {
    gpu.terminator
  }
  // expected-error @+1 {{'gpu.launch' op launch-size: grid x size 0 is outside 1..2147483647}}
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %c0, %g1 = %c1, %g2 = %c1)
             threads(%t0, %t1, %t2) in (%s0 = %c1, %s1 = %c1, %s2 = %c1) {
    gpu.terminator
  }
  // expected-error @+1 {{'gpu.launch' op launch-size: grid y size 65536 is outside 1..65535}}
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %c1, %g1 = %c65536, %g2 = %c1)
             threads(%t0, %t1, %t2) in (%s0 = %c1, %s1 = %c1, %s2 = %c1) {
    gpu.terminator
  }
  // expected-error @+1 {{'gpu.launch' op launch-size: block x size 1025 is outside 1..1024}}
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %c1, %g1 = %c1, %g2 = %c1)
             threads(%t0, %t1, %t2) in (%s0 = %c1025, %s1 = %c1, %s2 = %c1) {
    gpu.terminator
  }
  // expected-error @+1 {{'gpu.launch' op launch-size: block z size 65 is outside 1..64}}
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %c1, %g1 = %c1, %g2 = %c1)
             threads(%t0, %t1, %t2) in (%s0 = %c1, %s1 = %c1, %s2 = %c65) {
    gpu.terminator
  }
  // expected-error @+1 {{'gpu.launch' op launch-size: a block of 2048 threads exceeds CUDA's 1024}}
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %c1, %g1 = %c1, %g2 = %c1)
             threads(%t0, %t1, %t2) in (%s0 = %c1, %s1 = %c1024, %s2 = %c2) {
    gpu.terminator
  }
  return
}

// -----

// A kernel function's stated sizes obey the same limits: the passes that
// split a block into warpgroups size their barriers from known_block_size.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fits() kernel attributes {known_block_size = array<i32: 128, 2, 4>, known_grid_size = array<i32: 2147483647, 65535, 65535>} {
      gpu.return
    }
    // expected-error @+1 {{'gpu.func' op launch-size: known_block_size x size 2147483647 is outside 1..1024}}
    gpu.func @huge() kernel attributes {known_block_size = array<i32: 2147483647, 2147483647, 2147483647>} {
      gpu.return
    }
    // expected-error @+1 {{'gpu.func' op launch-size: known_block_size y size -2 is outside 1..1024}}
    gpu.func @negative() kernel attributes {known_block_size = array<i32: 1, -2, 1>} {
      gpu.return
    }
    // expected-error @+1 {{'gpu.func' op launch-size: known_grid_size z size 0 is outside 1..65535}}
    gpu.func @empty_grid() kernel attributes {known_grid_size = array<i32: 1, 1, 0>} {
      gpu.return
    }
    // expected-error @+1 {{'gpu.func' op launch-size: a block of 2048 threads exceeds CUDA's 1024}}
    gpu.func @too_many() kernel attributes {known_block_size = array<i32: 512, 4, 1>} {
      gpu.return
    }
  }
}

// -----

// A #tile.layout buffer lowers to a bare shared pointer that only the ops
// applying its layout address (tile ops, memref.load/store, 1-D
// vector.load/store): another upstream access of it is an error here, not a
// crash or a verifier failure deep in the lowering. A plain shared memref is
// fine.
!tile = memref<8x64xf16, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>
!plain = memref<8x64xf16, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%w: vector<2x4xf16>) kernel {
      %c0 = arith.constant 0 : index
      %v = arith.constant 1.0 : f16
      %s = tile.arena_view [0] : !tile
      memref.store %v, %s[%c0, %c0] : !tile
      %x = memref.load %s[%c0, %c0] : !tile
      %y = vector.load %s[%c0, %c0] : !tile, vector<4xf16>
      // expected-error @+1 {{'vector.store' op smem-layout: cannot access the buffer of type 'memref<8x64xf16, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>' with 'vector.store': a #tile.layout buffer is addressed by tile ops, memref.load/store and vector.load/store of 1-D vectors only (they apply the layout and its swizzle)}}
      vector.store %w, %s[%c0, %c0] : !tile, vector<2x4xf16>
      // expected-error @+1 {{'vector.transfer_read' op smem-layout: cannot access the buffer of type}}
      %z = vector.transfer_read %s[%c0, %c0], %v : !tile, vector<4xf16>
      %p = tile.arena_view [1024] : !plain
      memref.store %x, %p[%c0, %c0] : !plain
      gpu.return
    }
  }
}

// -----

// Kernel outlining takes the outermost module's gpu.launch ops only: one in
// a nested module is an error here, not IR that fails to verify after the
// host lowering (a fuzzer finding).
module attributes {gpu.container_module} {
  module attributes {gpu.container_module} {
    func.func @nested(%A: memref<8x256xf16>) {
      %c1 = arith.constant 1 : index
      // expected-error @+1 {{'gpu.launch' op placement: a gpu.launch in a nested module is not outlined by the pipeline; move its host function into the outermost module}}
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
                 threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
        gpu.terminator
      }
      return
    }
  }
}

// -----

// The device lowering runs on the outermost module's gpu.modules only: one
// in a nested module is an error here, not a kernel left unlowered beside a
// host launch that no longer matches it (a fuzzer finding).
module attributes {gpu.container_module} {
  module attributes {gpu.container_module} {
    // expected-error @+1 {{'gpu.module' op placement: a gpu.module in a nested module is not lowered by the pipeline (it lowers the outermost module's gpu.modules); move it and its host functions into the outermost module}}
    gpu.module @k {
      gpu.func @load(%A: memref<8x256xf16>) kernel {
        gpu.return
      }
    }
  }
}

// -----

// A workgroup memref.alloca would be a stack slot in shared memory; shared
// buffers come from workgroup attributions, which pass.
func.func @shared_alloca(%A: memref<64x64xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
             workgroup(%W : memref<64x64xf32, #gpu.address_space<workgroup>>) {
    // expected-error @+1 {{'memref.alloca' op shared-alloca: memref.alloca of 'memref<64x64xf32, #gpu.address_space<workgroup>>' would be a stack slot in shared memory, which the GPU cannot address; take shared memory from a workgroup attribution (gpu.launch workgroup(...), gpu.func workgroup(...)), tile.arena_view or a memref.global}}
    %S = memref.alloca() : memref<64x64xf32, #gpu.address_space<workgroup>>
    %P = memref.alloca() : memref<4xf32>
    memref.copy %A, %W : memref<64x64xf32> to memref<64x64xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

// A workgroup attribution typed with a #tile.layout: upstream's GPU lowering
// has no memref descriptor for it (it crashed); such buffers come from the
// arena.
func.func @layout_attribution(%A: memref<128x64xf16>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'gpu.launch' op smem-layout: the attribution 'memref<128x64xf16, #tile.layout<(128, 64), swizzle = 128B>, #gpu.address_space<workgroup>>' has a #tile.layout, which the GPU lowering cannot give a memref descriptor; take a buffer with a layout from the arena (tile.arena_view) and keep attributions strided}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
             workgroup(%W : memref<128x64xf16, #tile.layout<(128, 64) : (64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>) {
    gpu.terminator
  }
  return
}

// -----

// A linalg op left in a kernel (here a global-to-global linalg.copy, which
// the upstream-copy conversion does not take, and a linalg.fill) would reach
// the LLVM translation unlowered; one in host code is the host's business.
func.func @kernel_linalg(%A: memref<64xf32>, %B: memref<64xf32>, %x: f32) {
  %c1 = arith.constant 1 : index
  linalg.copy ins(%A : memref<64xf32>) outs(%B : memref<64xf32>)
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{'linalg.copy' op kernel-op: linalg.copy in a kernel is not lowered by the pipeline, which lowers no linalg op; a copy between global and shared memory that every thread runs becomes a tile.copy with convert-upstream-copies=true (its remark says why it did not); otherwise lower it to loops before the pipeline (convert-linalg-to-loops)}}
    linalg.copy ins(%A : memref<64xf32>) outs(%B : memref<64xf32>)
    // expected-error @+1 {{'linalg.fill' op kernel-op: linalg.fill in a kernel is not lowered by the pipeline, which lowers no linalg op; lower it to loops before the pipeline (convert-linalg-to-loops)}}
    linalg.fill ins(%x : f32) outs(%A : memref<64xf32>)
    gpu.terminator
  }
  return
}
