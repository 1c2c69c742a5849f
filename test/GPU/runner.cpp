//===- runner.cpp - The GPU suite's host runner ---------------------------===//
//
// Loads each case's shared library (built by tile-compile), fills its buffers
// with random data, calls `_mlir_ciface_<entry>` with memref descriptors of
// device buffers, copies the buffers back and compares them bit for bit with
// the expected result computed here: logical copies (with out-of-bounds fill
// and reduce ops) and shared-memory images from an independent model of the
// layout (shards, mixed-radix split, XOR swizzle on the absolute address).
//
// Cases of kernels with run-time guards (dynamic shapes) also check which
// version ran: the runtime's per-version launch counters are reset before the
// call and must then hold exactly the expected counts, per launch site and in
// total. TILE_LOG_FALLBACK=1 makes the runtime print each site's first failed
// guard.
//
// Links only libtile_runtime and libc (device memory through mgpuMemAlloc and
// mgpuMemcpy). Each case runs in a child process by default, so a trapping
// kernel does not take the rest of the suite with it; --no-fork runs them in
// this process (for compute-sanitizer). Without a CUDA driver the suite
// prints why and exits 0.
//
//   runner [--dir DIR] [--no-fork] [--timeout SECONDS] [--seed N]
//          [--driver-library FAKE_LIBCUDA] [FILTER | -EXCLUDE ...]
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/TileRuntime.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <optional>
#include <random>
#include <signal.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace {

enum class Kind { Int, UInt, F16, BF16, F32, F64, Raw };
// Sentinel: every byte 0xA5, for outputs (bytes no copy may write keep it).
enum class Init { Bits, Unit, Small, Sentinel };
enum class Fill { Zero, NaN };
enum class Reduce { None, Add, Min, Max, Inc, Dec, And, Or, Xor };

using Vec = std::vector<int64_t>;
using Groups = std::vector<std::vector<std::pair<int64_t, int64_t>>>;

/// A global buffer: a view (shape, strides, offset in elements) of one device
/// allocation, which spans the view's last element or allocElements, whichever
/// is more. The descriptor's aligned pointer is the allocation plus
/// alignedShift elements, and its offset field is offset - alignedShift.
struct Buf {
  int eb;
  Kind kind;
  Vec shape, strides;
  int64_t offset;
  Init init;
  int64_t allocElements = 0;
  int64_t alignedShift = 0;
};

/// Reads elements of `src` (a region, row-major order) with fill outside it.
struct Source {
  int buf;
  Vec off, sizes;
  Fill fill;
};

/// An im2col load (tile.copy_im2col) of a channels-last buffer, all lists in
/// memref order: the bounding-box corners, traversal strides and taps per
/// spatial dimension, the start [n, spatial..., c], and the tile's shape.
struct Im2col {
  Vec lower, upper, strides, start, taps;
  int64_t pixels = 0, channels = 0;
};

/// D = A x B over row-major f16 or bf16 A (m x k) and B (k x n) into a
/// row-major f32 D (m x n): a wgmma GEMM's result. The inputs are Init::Unit
/// values (multiples of 2^-7 in [-1, 1)), so every product and partial sum
/// is exact in f32 whatever order the hardware adds them in.
struct Matmul {
  int a, b;
  int64_t m, n, k;
};

struct Effect {
  bool image;
  // Set for a GEMM whose result lands in `dst`.
  std::optional<Matmul> matmul;
  // Set for an im2col load whose [pixels, channels] tile lands in `dst`.
  std::optional<Im2col> im2col;
  int dst;
  // Copy: dst region. Image: the shared buffer's region.
  Vec dstOff, dstSizes;
  Source src;
  Reduce reduce = Reduce::None;
  // Image only.
  int64_t arenaOffset = 0;
  Vec sharedShape;
  Groups groups;
  int swizzle = 0;
};

struct Case {
  Case(std::string name, std::string so, std::string doc)
      : name(std::move(name)), so(std::move(so)), doc(std::move(doc)) {}
  std::string name, so, doc;
  std::vector<Buf> bufs;
  std::vector<Effect> effects;
  std::string entry; // defaults to name
  // Launches of guarded kernels expected per version and site; when present,
  // the counters are reset before the call and compared after it.
  struct Versions {
    std::string site;
    int64_t guarded, fallback;
  };
  std::vector<Versions> versions;
  // Exact: the buffers must match. Failure: the kernel breaks a rule of the
  // asynchronous protocol on purpose (docs/async-protocol.md); the case
  // passes when it shows the failure the rule prevents: a hang (caught by
  // the timeout) or a mismatch. Such cases run only in child processes.
  enum class Expect { Exact, Failure } expect = Expect::Exact;
  // Seconds before the child is stopped (0: the runner's --timeout).
  int timeout = 0;
  // With Failure: the failure is a memory-ordering race the hardware need
  // not show on a given run; an exact result is reported, not failed.
  bool raceOnly = false;
};

Effect copyEffect(int dst, Vec dstOff, Vec dstSizes, int src, Vec srcOff,
                  Vec srcSizes, Fill fill, Reduce reduce = Reduce::None) {
  Effect e;
  e.image = false;
  e.dst = dst;
  e.dstOff = std::move(dstOff);
  e.dstSizes = std::move(dstSizes);
  e.src = Source{src, std::move(srcOff), std::move(srcSizes), fill};
  e.reduce = reduce;
  return e;
}

Effect imageEffect(int img, int64_t arenaOffset, Vec sharedShape, Groups groups,
                   int swizzle, Vec regionOff, Vec regionSizes, int src,
                   Vec srcOff, Vec srcSizes, Fill fill) {
  Effect e;
  e.image = true;
  e.dst = img;
  e.dstOff = std::move(regionOff);
  e.dstSizes = std::move(regionSizes);
  e.src = Source{src, std::move(srcOff), std::move(srcSizes), fill};
  e.arenaOffset = arenaOffset;
  e.sharedShape = std::move(sharedShape);
  e.groups = std::move(groups);
  e.swizzle = swizzle;
  return e;
}

/// The tile an im2col load of buffer `src` writes, copied to `dst`.
Effect im2colEffect(int dst, int src, Im2col params, Fill fill) {
  Effect e;
  e.image = false;
  e.dst = dst;
  e.src = Source{src, {}, {}, fill};
  e.im2col = std::move(params);
  return e;
}

Effect matmulEffect(int dst, Matmul product) {
  Effect e;
  e.image = false;
  e.dst = dst;
  e.matmul = product;
  return e;
}

#include "cases.inc"

//===-- Dynamic shapes ----------------------------------------------------===//
//
// Kernels over buffers with run-time sizes, strides and offsets: each guarded
// copy's plan holds only when its guards do, and the host launches the
// kernel's fallback version (per-thread copies) when one fails.

/// The launch site string the host code passes to the runtime.
std::string siteOf(const std::string &function) {
  return "@" + function + ": launch of @" + function + "_kernel::@" + function +
         "_kernel";
}

Vec rowMajor(const Vec &shape) {
  Vec strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;)
    strides[d - 1] = strides[d] * shape[d];
  return strides;
}

/// B = A over the whole shape: one copy effect from buffer 0 to buffer 1.
Effect wholeCopy(const Vec &shape) {
  Vec zero(shape.size(), 0);
  return copyEffect(1, zero, shape, 0, zero, shape, Fill::Zero);
}

/// A copy case of a two-argument kernel (A, B): B, filled with the sentinel,
/// must equal A inside the view and keep the sentinel everywhere else.
Case dynCopy(std::string name, std::string so, std::string function,
             std::string doc, Buf a, Buf b, int64_t guarded, int64_t fallback) {
  Case c{std::move(name), std::move(so), std::move(doc)};
  c.entry = function;
  Vec shape = a.shape;
  c.bufs.push_back(std::move(a));
  c.bufs.push_back(std::move(b));
  c.effects.push_back(wholeCopy(shape));
  c.versions.push_back({siteOf(function), guarded, fallback});
  return c;
}

Buf contiguous(int eb, Kind kind, Vec shape, Init init) {
  Vec strides = rowMajor(shape);
  return Buf{eb, kind, std::move(shape), std::move(strides), 0, init};
}

/// An f16 matrix view of rows x cols in rows of `pitch` elements, starting
/// `offset` elements into an allocation of exactly offset + rows * pitch
/// elements (the last row's padding included).
Buf paddedF16(int64_t rows, int64_t cols, int64_t pitch, int64_t offset,
              Init init) {
  Buf b{2, Kind::F16, {rows, cols}, {pitch, 1}, offset, init};
  b.allocElements = offset + rows * pitch;
  return b;
}

/// Upstream's TMA-load pair: f32 A (64x8) and B (8x128) in, OA and OB out,
/// OA = A and OB = B.
Case tmaLoadPair(std::string name, std::string doc) {
  Case c{name, name, std::move(doc)};
  c.bufs.push_back(contiguous(4, Kind::F32, {64, 8}, Init::Bits));
  c.bufs.push_back(contiguous(4, Kind::F32, {8, 128}, Init::Bits));
  c.bufs.push_back(contiguous(4, Kind::F32, {64, 8}, Init::Sentinel));
  c.bufs.push_back(contiguous(4, Kind::F32, {8, 128}, Init::Sentinel));
  c.effects.push_back(
      copyEffect(2, {0, 0}, {64, 8}, 0, {0, 0}, {64, 8}, Fill::Zero));
  c.effects.push_back(
      copyEffect(3, {0, 0}, {8, 128}, 1, {0, 0}, {8, 128}, Fill::Zero));
  return c;
}

/// One f16 input and two outputs that must both equal it.
Case copiedTwice(std::string name, std::string doc, const Vec &shape) {
  Case c{name, name, std::move(doc)};
  Vec zero(shape.size(), 0);
  c.bufs.push_back(contiguous(2, Kind::F16, shape, Init::Bits));
  for (int out = 1; out <= 2; ++out) {
    c.bufs.push_back(contiguous(2, Kind::F16, shape, Init::Sentinel));
    c.effects.push_back(
        copyEffect(out, zero, shape, 0, zero, shape, Fill::Zero));
  }
  return c;
}

void addDynamicShapeCases(std::vector<Case> &cases) {
  // examples/dynamic_tiled_copy.mlir: @tiled_copy(memref<?x?xf16>, ...),
  // built as dyn_tiled.so.
  auto tiledCase = [](std::string name, std::string doc, Buf a, Buf b,
                      int64_t guarded, int64_t fallback) {
    return dynCopy(std::move(name), "dyn_tiled", "tiled_copy", std::move(doc),
                   std::move(a), std::move(b), guarded, fallback);
  };
  cases.push_back(tiledCase(
      "dyn_tiled",
      "examples/dynamic_tiled_copy.mlir, f16 1000x1000: every guard holds, "
      "TMA version",
      contiguous(2, Kind::F16, {1000, 1000}, Init::Bits),
      contiguous(2, Kind::F16, {1000, 1000}, Init::Sentinel), 1, 0));
  cases.push_back(
      tiledCase("dyn_tiled_fallback",
                "dynamic_tiled_copy, f16 4097x33: 66-byte rows fail "
                "stride[0]*2 % 16 == 0, fallback version",
                contiguous(2, Kind::F16, {4097, 33}, Init::Bits),
                contiguous(2, Kind::F16, {4097, 33}, Init::Sentinel), 0, 1));
  {
    // A's aligned pointer is the allocation plus 2 bytes (descriptor offset
    // 0, as memref<?x?xf16> requires): global-align fails.
    Buf a = contiguous(2, Kind::F16, {1000, 1000}, Init::Bits);
    a.offset = 1;
    a.alignedShift = 1;
    cases.push_back(tiledCase(
        "dyn_tiled_misaligned",
        "dynamic_tiled_copy, f16 1000x1000 at allocation + 2 bytes: "
        "global-align fails, fallback version",
        a, contiguous(2, Kind::F16, {1000, 1000}, Init::Sentinel), 0, 1));
  }
  // test/GPU/kernels/dyn_strided_copy.mlir: strided<[?, 1], offset: ?> views.
  cases.push_back(dynCopy(
      "dyn_strided_fallback", "dyn_strided_copy", "dyn_strided_copy",
      "f16 4097x33 views, row pitch 40, offset 8: the loads' guards hold, "
      "the store's size[1]*2 % 16 == 0 fails, fallback version; padding and "
      "the head keep the sentinel",
      paddedF16(4097, 33, 40, 8, Init::Bits),
      paddedF16(4097, 33, 40, 8, Init::Sentinel), 0, 1));
  cases.push_back(dynCopy(
      "dyn_strided_tma", "dyn_strided_copy", "dyn_strided_copy",
      "f16 1000x1000 views, row pitch 1008, offset 8: every guard holds, TMA "
      "version; padding and the head keep the sentinel",
      paddedF16(1000, 1000, 1008, 8, Init::Bits),
      paddedF16(1000, 1000, 1008, 8, Init::Sentinel), 1, 0));
  {
    // test/GPU/kernels/dyn_strided_load.mlir: TMA loads of a 4097x33 view
    // (guards hold: no store-bounds guard on a load), per-thread stores of
    // whole 64x64 tiles into C (65 x 1 tiles): A inside, zeros outside.
    Case c{"dyn_strided_load", "dyn_strided_load",
           "f16 4097x33 view, row pitch 40, offset 8: TMA loads (zero fill "
           "past the edge) into 4160x64, TMA version"};
    c.bufs.push_back(paddedF16(4097, 33, 40, 8, Init::Bits));
    c.bufs.push_back(contiguous(2, Kind::F16, {4160, 64}, Init::Sentinel));
    c.effects.push_back(
        copyEffect(1, {0, 0}, {4160, 64}, 0, {0, 0}, {4160, 64}, Fill::Zero));
    c.versions.push_back({siteOf("dyn_strided_load"), 1, 0});
    cases.push_back(c);
  }
  // test/GPU/kernels/dyn_rank3.mlir: one launch per index of dimension 0.
  cases.push_back(dynCopy(
      "dyn_rank3", "dyn_rank3", "dyn_rank3",
      "f32 3x100x72 (288-byte rows), 1x32x32 boxes, 3 launches: TMA version",
      contiguous(4, Kind::F32, {3, 100, 72}, Init::Bits),
      contiguous(4, Kind::F32, {3, 100, 72}, Init::Sentinel), 3, 0));
  cases.push_back(
      dynCopy("dyn_rank3_fallback", "dyn_rank3", "dyn_rank3",
              "f32 3x100x70 (280-byte rows), 3 launches: fallback version",
              contiguous(4, Kind::F32, {3, 100, 70}, Init::Bits),
              contiguous(4, Kind::F32, {3, 100, 70}, Init::Sentinel), 0, 3));
  // test/GPU/kernels/upstream_roundtrip.mlir (--convert-upstream-copies):
  // upstream copies through shared memory, converted to tile.copy.
  cases.push_back(dynCopy(
      "upstream_roundtrip", "upstream_roundtrip", "upstream_roundtrip",
      "f32 128x72 through 4 CTAs' shared 32x72 tiles: memref.copy of a "
      "strided subview in, linalg.copy out, both converted to tile.copy",
      contiguous(4, Kind::F32, {128, 72}, Init::Bits),
      contiguous(4, Kind::F32, {128, 72}, Init::Sentinel), 0, 0));
  {
    // test/GPU/kernels/upstream_tma_loads.mlir (--convert-upstream-copies):
    // upstream's sm90 TMA-load tests as memref.copy into shared buffers (no
    // swizzle; 128-byte swizzle through an arena view), read back by every
    // thread with memref.load.
    Case c{"upstream_tma_loads", "upstream_tma_loads",
           "f32 64x8 and 8x128 (no swizzle), f16 128x64 (128B swizzle): "
           "memref.copy through the TMA, memref.load back"};
    c.bufs.push_back(contiguous(4, Kind::F32, {64, 8}, Init::Bits));
    c.bufs.push_back(contiguous(4, Kind::F32, {8, 128}, Init::Bits));
    c.bufs.push_back(contiguous(2, Kind::F16, {128, 64}, Init::Bits));
    c.bufs.push_back(contiguous(4, Kind::F32, {64, 8}, Init::Sentinel));
    c.bufs.push_back(contiguous(4, Kind::F32, {8, 128}, Init::Sentinel));
    c.bufs.push_back(contiguous(2, Kind::F16, {128, 64}, Init::Sentinel));
    c.effects.push_back(
        copyEffect(3, {0, 0}, {64, 8}, 0, {0, 0}, {64, 8}, Fill::Zero));
    c.effects.push_back(
        copyEffect(4, {0, 0}, {8, 128}, 1, {0, 0}, {8, 128}, Fill::Zero));
    c.effects.push_back(
        copyEffect(5, {0, 0}, {128, 64}, 2, {0, 0}, {128, 64}, Fill::Zero));
    cases.push_back(c);
  }
  // test/GPU/kernels/upstream_collective_tma.mlir (--convert-upstream-copies):
  // CTA-wide copies through the TMA, three of them in a loop on one mbarrier.
  cases.push_back(dynCopy(
      "upstream_collective_tma", "upstream_collective_tma",
      "upstream_collective_tma",
      "f32 128x72 through a shared 32x72 tile: tile.copy in a loop and "
      "upstream copies of static subviews, all expanded into one thread's "
      "TMA copy",
      contiguous(4, Kind::F32, {128, 72}, Init::Bits),
      contiguous(4, Kind::F32, {128, 72}, Init::Sentinel), 0, 0));
  // test/GPU/kernels/upstream_wgmma_gemm_nvgpu.mlir: upstream's sm90 GEMM
  // (128x128x128, f16 in, f32 out) on nvgpu TMA loads and
  // nvgpu.warpgroup.mma, issued under scf.if or by predicates.
  for (const char *entry :
       {"upstream_wgmma_gemm_nvgpu", "upstream_wgmma_gemm_nvgpu_pred"}) {
    Case c{entry, "upstream_wgmma_gemm_nvgpu",
           "f16 128x128x128 GEMM into f32: nvgpu TMA loads, "
           "nvgpu.warpgroup.mma, nvgpu.warpgroup.mma.store"};
    c.entry = entry;
    c.bufs.push_back(contiguous(2, Kind::F16, {128, 128}, Init::Unit));
    c.bufs.push_back(contiguous(2, Kind::F16, {128, 128}, Init::Unit));
    c.bufs.push_back(contiguous(4, Kind::F32, {128, 128}, Init::Sentinel));
    c.effects.push_back(matmulEffect(2, {0, 1, 128, 128, 128}));
    cases.push_back(c);
  }
  {
    // test/GPU/kernels/upstream_wgmma_gemm_copy.mlir
    // (--convert-upstream-copies): the same GEMM with memref.copy of the
    // operand blocks and of the result tile, tile.wgmma_descriptor and
    // nvvm.wgmma.mma_async.
    Case c{"upstream_wgmma_gemm_copy", "upstream_wgmma_gemm_copy",
           "f16 128x128x128 GEMM into f32: memref.copy through the TMA "
           "(loads in a loop, the result tile stored), nvvm wgmma"};
    c.bufs.push_back(contiguous(2, Kind::F16, {128, 128}, Init::Unit));
    c.bufs.push_back(contiguous(2, Kind::F16, {128, 128}, Init::Unit));
    c.bufs.push_back(contiguous(4, Kind::F32, {128, 128}, Init::Sentinel));
    c.effects.push_back(matmulEffect(2, {0, 1, 128, 128, 128}));
    cases.push_back(c);
  }
  // test/GPU/kernels/upstream_tma_loads_transform.mlir: linalg.copy into
  // shared memref.globals, converted by a transform schedule
  // (transform.tile.convert_upstream_copy) before the pipeline.
  cases.push_back(tmaLoadPair(
      "upstream_tma_loads_transform",
      "f32 64x8 and 8x128 by linalg.copy, converted by "
      "transform.tile.convert_upstream_copy: TMA loads, memref.load back"));
  // test/GPU/kernels/upstream_tma_load_blocked.mlir
  // (--convert-upstream-copies): a 128x128 matrix's 2x2 grid of 64x64
  // blocks through one rank-4 TMA load and store of a strided view.
  cases.push_back(copiedTwice(
      "upstream_tma_load_blocked",
      "f16 128x128 as 2x2 blocks of 64x64 (rank-4 view, strides "
      "[8192, 64, 128, 1]): memref.copy in and out through the TMA, "
      "memref.load back",
      {128, 128}));
  // test/GPU/kernels/warpgroup_tma_copy.mlir: warpgroup-wide tile.copy
  // through the TMA, two warpgroups each on its own rows and mbarrier.
  cases.push_back(copiedTwice("warpgroup_tma_copy",
                              "f16 128x64 by two warpgroups, 32 rows each per "
                              "iteration: warpgroup-wide TMA load, generic "
                              "reads, TMA store",
                              {128, 64}));
  // test/GPU/kernels/upstream_tma_nvgpu.mlir: upstream's own TMA ops
  // (nvgpu.tma.create.descriptor on the host through the runtime's
  // mgpuTensorMapEncodeTiledMemref, nvgpu.tma.async.load on an nvgpu
  // mbarrier), untouched by the tile passes: OA equals A, OB equals B.
  cases.push_back(tmaLoadPair("upstream_tma_nvgpu",
                              "f32 64x8 and 8x128 loaded by "
                              "nvgpu.tma.async.load, copied out by every "
                              "thread"));
  // test/GPU/kernels/dyn_rank5.mlir: one launch, the grid's z over dims 0-2.
  cases.push_back(dynCopy(
      "dyn_rank5", "dyn_rank5", "dyn_rank5",
      "bf16 2x3x2x50x40 (80-byte rows), 1x1x1x32x32 boxes: TMA version",
      contiguous(2, Kind::BF16, {2, 3, 2, 50, 40}, Init::Bits),
      contiguous(2, Kind::BF16, {2, 3, 2, 50, 40}, Init::Sentinel), 1, 0));
}

std::vector<Case> allCases() {
  std::vector<Case> cases;
  {
    Case c{"demo", "demo", "examples/copy_async_tma.mlir: B equals A"};
    c.entry = "copy_async";
    c.bufs.push_back(Buf{2, Kind::F16, {8, 256}, {256, 1}, 0, Init::Bits});
    c.bufs.push_back(Buf{2, Kind::F16, {8, 256}, {256, 1}, 0, Init::Bits});
    c.effects.push_back(
        copyEffect(1, {0, 0}, {8, 256}, 0, {0, 0}, {8, 256}, Fill::Zero));
    cases.push_back(c);
  }
  {
    Case c{"pipeline", "pipeline",
           "3-stage pipeline, 8 tiles of 64x64 f16, dynamic stage index"};
    c.bufs.push_back(Buf{2, Kind::F16, {512, 64}, {64, 1}, 0, Init::Bits});
    c.bufs.push_back(Buf{2, Kind::F16, {512, 64}, {64, 1}, 0, Init::Bits});
    c.effects.push_back(
        copyEffect(1, {0, 0}, {512, 64}, 0, {0, 0}, {512, 64}, Fill::Zero));
    cases.push_back(c);
  }
  {
    Case c{"multicast", "multicast",
           "cluster of 2: one multicast TMA load lands in both CTAs"};
    c.bufs.push_back(Buf{2, Kind::F16, {8, 256}, {256, 1}, 0, Init::Bits});
    c.bufs.push_back(Buf{2, Kind::F16, {16, 256}, {256, 1}, 0, Init::Bits});
    c.effects.push_back(
        copyEffect(1, {0, 0}, {8, 256}, 0, {0, 0}, {8, 256}, Fill::Zero));
    c.effects.push_back(
        copyEffect(1, {8, 0}, {8, 256}, 0, {0, 0}, {8, 256}, Fill::Zero));
    cases.push_back(c);
  }
  {
    Case c{"async_launch", "async_launch",
           "gpu.launch async of a TMA kernel: B and C equal A after the wait"};
    c.bufs.push_back(Buf{2, Kind::F16, {8, 256}, {256, 1}, 0, Init::Bits});
    c.bufs.push_back(Buf{2, Kind::F16, {8, 256}, {256, 1}, 0, Init::Bits});
    c.bufs.push_back(Buf{2, Kind::F16, {8, 256}, {256, 1}, 0, Init::Bits});
    c.effects.push_back(
        copyEffect(1, {0, 0}, {8, 256}, 0, {0, 0}, {8, 256}, Fill::Zero));
    c.effects.push_back(
        copyEffect(2, {0, 0}, {8, 256}, 0, {0, 0}, {8, 256}, Fill::Zero));
    cases.push_back(c);
  }
  {
    Case c{"rank0", "rank0", "rank-0 f32 load and store: B equals A"};
    c.bufs.push_back(Buf{4, Kind::F32, {}, {}, 0, Init::Bits});
    c.bufs.push_back(Buf{4, Kind::F32, {}, {}, 0, Init::Bits});
    c.effects.push_back(copyEffect(1, {}, {}, 0, {}, {}, Fill::Zero));
    cases.push_back(c);
  }
  // The protocol cases (test/GPU/kernels/async): each rule's wrong kernel,
  // compiled with --verify-async=false, and its corrected twin.
  auto protocol = [&](const std::string &rule, const std::string &doc, int rows,
                      bool withC, bool raceOnly = false) {
    for (bool wrong : {true, false}) {
      std::string name =
          "async_" + rule + (wrong ? std::string("_wrong") : "_right");
      Case c{name, name,
             doc + (wrong ? std::string(": fails (hang or mismatch)")
                          : ": B equals A")};
      c.bufs.push_back(Buf{2, Kind::F16, {rows, 256}, {256, 1}, 0, Init::Bits});
      c.bufs.push_back(Buf{2, Kind::F16, {rows, 256}, {256, 1}, 0, Init::Bits});
      if (withC)
        c.bufs.push_back(
            Buf{2, Kind::F16, {rows, 256}, {256, 1}, 0, Init::Bits});
      c.effects.push_back(copyEffect(1, {0, 0}, {rows, 256}, 0, {0, 0},
                                     {rows, 256}, Fill::Zero));
      if (wrong) {
        c.expect = Case::Expect::Failure;
        c.timeout = 10;
        c.raceOnly = raceOnly;
      }
      cases.push_back(c);
    }
  };
  protocol("tx", "async-tx-bytes, 64x256 f16 load announced twice over", 64,
           false);
  protocol("load_wait", "async-load-wait, stage read before the wait", 64,
           true);
  protocol("phase", "async-phase, parity i % 2 over two stages", 64, false);
  protocol("store_reuse", "async-store-reuse, stage refilled under a store",
           128, false);
  // A missing proxy fence lets the TMA store read shared memory before the
  // generic writes are visible to the async proxy: a race that the H200 did
  // not show in our runs (docs/gpu-results.md).
  protocol("fence", "async-proxy-fence, TMA store of generic writes", 64, true,
           /*raceOnly=*/true);
  addGeneratedCases(cases);
  addDynamicShapeCases(cases);
  return cases;
}

//===-- Host images of the buffers
//-----------------------------------------===//

int64_t elementCount(const Buf &b) {
  int64_t last = b.offset;
  for (size_t d = 0; d < b.shape.size(); ++d)
    last += (b.shape[d] - 1) * b.strides[d];
  return std::max(last + 1, b.allocElements);
}

size_t byteSize(const Buf &b) {
  return (static_cast<size_t>(elementCount(b)) * b.eb + 15) / 16 * 16;
}

struct Image {
  std::vector<uint8_t> bytes;
  // Where any NaN passes: at an element's first byte 1 + its Kind, on its
  // other bytes kNanCont (so raw byte images know the element's type).
  std::vector<uint8_t> nanOk;
};

constexpr uint8_t kNanCont = 0xFF;

int kindBytes(Kind kind) {
  switch (kind) {
  case Kind::F16:
  case Kind::BF16:
    return 2;
  case Kind::F32:
    return 4;
  default:
    return 8;
  }
}

uint64_t load(const uint8_t *p, int eb) {
  uint64_t v = 0;
  std::memcpy(&v, p, eb);
  return v;
}

void store(uint8_t *p, uint64_t v, int eb) { std::memcpy(p, &v, eb); }

bool isNaN(uint64_t v, Kind kind) {
  switch (kind) {
  case Kind::F16:
    return (v & 0x7C00) == 0x7C00 && (v & 0x3FF);
  case Kind::BF16:
    return (v & 0x7F80) == 0x7F80 && (v & 0x7F);
  case Kind::F32:
    return (v & 0x7F800000u) == 0x7F800000u && (v & 0x7FFFFF);
  case Kind::F64:
    return (v & 0x7FF0000000000000ull) == 0x7FF0000000000000ull &&
           (v & 0xFFFFFFFFFFFFFull);
  default:
    return false;
  }
}

uint64_t canonicalNaN(Kind kind) {
  switch (kind) {
  case Kind::F16:
    return 0x7E00;
  case Kind::BF16:
    return 0x7FC0;
  case Kind::F32:
    return 0x7FC00000u;
  default:
    return 0x7FF8000000000000ull;
  }
}

/// Row-major digits of linear index k over sizes.
Vec unflatten(int64_t k, const Vec &sizes) {
  Vec idx(sizes.size());
  for (size_t d = sizes.size(); d-- > 0;) {
    idx[d] = k % sizes[d];
    k /= sizes[d];
  }
  return idx;
}

int64_t product(const Vec &v) {
  int64_t p = 1;
  for (int64_t x : v)
    p *= x;
  return p;
}

/// Element k of a source region: value and whether it is the NaN fill.
std::pair<uint64_t, bool> readSource(const Source &s, const Buf &b,
                                     const Image &img, int64_t k) {
  Vec idx = unflatten(k, s.sizes);
  int64_t off = b.offset;
  for (size_t d = 0; d < idx.size(); ++d) {
    int64_t g = s.off[d] + idx[d];
    if (g < 0 || g >= b.shape[d])
      return s.fill == Fill::NaN ? std::make_pair(canonicalNaN(b.kind), true)
                                 : std::make_pair(uint64_t(0), false);
    off += g * b.strides[d];
  }
  return {load(&img.bytes[off * b.eb], b.eb), false};
}

int64_t signExtend(uint64_t v, int eb) {
  int shift = 64 - 8 * eb;
  return static_cast<int64_t>(v << shift) >> shift;
}

uint64_t mask(int eb) { return eb == 8 ? ~0ull : (1ull << (8 * eb)) - 1; }

// f16 and bf16 through double: the sum of two halves is exact there, so
// rounding it once (to nearest even) models the hardware's single rounding.
double halfToDouble(uint64_t bits, Kind kind) {
  if (kind == Kind::F16) {
    uint16_t h = static_cast<uint16_t>(bits);
    _Float16 f;
    std::memcpy(&f, &h, 2);
    return static_cast<double>(f);
  }
  uint32_t u = static_cast<uint32_t>(bits & 0xFFFF) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

uint64_t doubleToHalf(double d, Kind kind) {
  if (kind == Kind::F16) {
    _Float16 f = static_cast<_Float16>(d);
    uint16_t h;
    std::memcpy(&h, &f, 2);
    return h;
  }
  float f = static_cast<float>(d); // exact for sums of two bf16 values here
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u += 0x7FFF + ((u >> 16) & 1);
  return u >> 16;
}

uint64_t applyReduce(Reduce r, Kind kind, int eb, uint64_t old, uint64_t v) {
  bool half = kind == Kind::F16 || kind == Kind::BF16;
  switch (r) {
  case Reduce::None:
    return v;
  case Reduce::Add:
    if (half)
      return doubleToHalf(halfToDouble(old, kind) + halfToDouble(v, kind),
                          kind);
    if (kind == Kind::F32) {
      float a, b;
      uint32_t ai = old, bi = v;
      std::memcpy(&a, &ai, 4);
      std::memcpy(&b, &bi, 4);
      float c = a + b;
      uint32_t ci;
      std::memcpy(&ci, &c, 4);
      return ci;
    }
    if (kind == Kind::F64) {
      double a, b;
      std::memcpy(&a, &old, 8);
      std::memcpy(&b, &v, 8);
      double c = a + b;
      uint64_t ci;
      std::memcpy(&ci, &c, 8);
      return ci;
    }
    return (old + v) & mask(eb);
  case Reduce::Min:
  case Reduce::Max: {
    bool less = half ? halfToDouble(old, kind) < halfToDouble(v, kind)
                : kind == Kind::UInt ? old < v
                                     : signExtend(old, eb) < signExtend(v, eb);
    return (r == Reduce::Min) == less ? old : v;
  }
  case Reduce::Inc:
    return old >= v ? 0 : (old + 1) & mask(eb);
  case Reduce::Dec:
    return (old == 0 || old > v) ? v : old - 1;
  case Reduce::And:
    return old & v;
  case Reduce::Or:
    return old | v;
  case Reduce::Xor:
    return old ^ v;
  }
  return v;
}

/// Byte offset (arena-relative) of a logical index of the shared buffer.
int64_t sharedByteAddress(const Effect &e, int eb, const Vec &idx) {
  int64_t offset = 0;
  for (size_t d = 0; d < idx.size(); ++d) {
    int64_t i = idx[d];
    const auto &g = e.groups[d];
    for (size_t s = g.size(); s-- > 0;) {
      offset += (i % g[s].first) * g[s].second;
      i /= g[s].first;
    }
  }
  int64_t a = e.arenaOffset + offset * eb;
  if (e.swizzle) {
    int bits = e.swizzle == 32 ? 1 : e.swizzle == 64 ? 2 : 3;
    a ^= ((a >> 7) & ((1 << bits) - 1)) << 4;
  }
  return a;
}

/// The convolution's definition of an im2col column (not the lowering's
/// model): pixel p of the tile is output position first + p of the output
/// grid (row-major over [n, outputs...]), which reads input position lower +
/// o * stride + tap, channels start..start + channels - 1.
void expectIm2col(const Effect &e, const Buf &sb, const Image &src,
                  const Buf &db, Image &dst) {
  const Im2col &p = *e.im2col;
  size_t rank = sb.shape.size(), spatial = rank - 2;
  Vec outputs(spatial);
  for (size_t j = 0; j < spatial; ++j)
    outputs[j] =
        (sb.shape[j + 1] - 1 + p.upper[j] - p.lower[j]) / p.strides[j] + 1;
  int64_t first = p.start[0], scale = 1;
  for (size_t j = 0; j < spatial; ++j)
    first *= outputs[j];
  for (size_t j = spatial; j-- > 0;) {
    first += (p.start[j + 1] - p.lower[j]) / p.strides[j] * scale;
    scale *= outputs[j];
  }
  int eb = sb.eb;
  for (int64_t px = 0; px < p.pixels; ++px) {
    int64_t q = first + px;
    Vec g(rank);
    for (size_t j = spatial; j-- > 0;) {
      g[j + 1] = p.lower[j] + q % outputs[j] * p.strides[j] + p.taps[j];
      q /= outputs[j];
    }
    g[0] = q;
    for (int64_t ch = 0; ch < p.channels; ++ch) {
      g[rank - 1] = p.start[rank - 1] + ch;
      bool inside = true;
      int64_t off = sb.offset;
      for (size_t d = 0; d < rank; ++d) {
        inside = inside && g[d] >= 0 && g[d] < sb.shape[d];
        off += g[d] * sb.strides[d];
      }
      bool nan = !inside && e.src.fill == Fill::NaN;
      uint64_t value = inside ? load(&src.bytes[off * eb], eb)
                       : nan  ? canonicalNaN(sb.kind)
                              : 0;
      int64_t byte = (db.offset + px * db.strides[0] + ch * db.strides[1]) * eb;
      store(&dst.bytes[byte], value, eb);
      std::memset(&dst.nanOk[byte], nan ? kNanCont : 0, eb);
      if (nan)
        dst.nanOk[byte] = static_cast<uint8_t>(1 + static_cast<int>(sb.kind));
    }
  }
}

/// Byte offset of element `idx` of the view `b` in its allocation.
int64_t elementByte(const Buf &b, const Vec &idx) {
  int64_t off = b.offset;
  for (size_t d = 0; d < idx.size(); ++d)
    off += idx[d] * b.strides[d];
  return off * b.eb;
}

/// Why the buffers cannot carry a matmul effect (see Matmul), or "".
std::string checkMatmul(const Matmul &p, const Case &c, int dst) {
  auto isHalf = [](const Buf &b) {
    return b.eb == 2 && (b.kind == Kind::F16 || b.kind == Kind::BF16);
  };
  const Buf &a = c.bufs[p.a], &b = c.bufs[p.b], &d = c.bufs[dst];
  if (!isHalf(a) || !isHalf(b) || d.kind != Kind::F32 || d.eb != 4)
    return "a matmul effect needs f16 or bf16 operands and an f32 result";
  if (a.shape != Vec{p.m, p.k} || b.shape != Vec{p.k, p.n} ||
      d.shape != Vec{p.m, p.n})
    return "a matmul effect's buffers must be m x k, k x n and m x n";
  return "";
}

/// D = A x B for a matmul effect, computed in double: exact.
void expectMatmul(const Matmul &p, const Case &c, int dst,
                  const std::vector<Image> &init, Image &out) {
  const Buf &a = c.bufs[p.a], &b = c.bufs[p.b], &d = c.bufs[dst];
  for (int64_t i = 0; i < p.m; ++i)
    for (int64_t j = 0; j < p.n; ++j) {
      double sum = 0;
      for (int64_t l = 0; l < p.k; ++l)
        sum += halfToDouble(load(&init[p.a].bytes[elementByte(a, {i, l})], 2),
                            a.kind) *
               halfToDouble(load(&init[p.b].bytes[elementByte(b, {l, j})], 2),
                            b.kind);
      float f = static_cast<float>(sum);
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      store(&out.bytes[elementByte(d, {i, j})], bits, 4);
    }
}

std::vector<Image> expected(const Case &c, const std::vector<Image> &init) {
  std::vector<Image> out = init;
  for (const Effect &e : c.effects) {
    if (e.matmul) {
      expectMatmul(*e.matmul, c, e.dst, init, out[e.dst]);
      continue;
    }
    if (e.im2col) {
      expectIm2col(e, c.bufs[e.src.buf], init[e.src.buf], c.bufs[e.dst],
                   out[e.dst]);
      continue;
    }
    const Buf &sb = c.bufs[e.src.buf];
    const Buf &db = c.bufs[e.dst];
    Image &dst = out[e.dst];
    int64_t count = product(e.src.sizes);
    int eb = sb.eb;
    for (int64_t k = 0; k < count; ++k) {
      auto [value, nan] = readSource(e.src, sb, init[e.src.buf], k);
      Vec idx = unflatten(k, e.dstSizes);
      for (size_t d = 0; d < idx.size(); ++d)
        idx[d] += e.dstOff[d];
      int64_t byte;
      if (e.image) {
        byte = sharedByteAddress(e, eb, idx);
      } else {
        int64_t off = db.offset;
        for (size_t d = 0; d < idx.size(); ++d)
          off += idx[d] * db.strides[d];
        byte = off * eb;
      }
      uint64_t old = load(&dst.bytes[byte], eb);
      store(&dst.bytes[byte], applyReduce(e.reduce, sb.kind, eb, old, value),
            eb);
      std::memset(&dst.nanOk[byte], nan ? kNanCont : 0, eb);
      if (nan)
        dst.nanOk[byte] = static_cast<uint8_t>(1 + static_cast<int>(sb.kind));
    }
  }
  return out;
}

void fillRandom(const Buf &b, Image &img, std::mt19937_64 &rng) {
  img.bytes.resize(byteSize(b));
  img.nanOk.assign(img.bytes.size(), 0);
  if (b.init == Init::Sentinel) {
    std::fill(img.bytes.begin(), img.bytes.end(), uint8_t(0xA5));
    return;
  }
  for (auto &x : img.bytes)
    x = static_cast<uint8_t>(rng());
  if (b.init == Init::Bits)
    return;
  for (size_t i = 0; i + b.eb <= img.bytes.size(); i += b.eb) {
    if (b.init == Init::Small) {
      store(&img.bytes[i], rng() % 16, b.eb);
    } else if (b.kind == Kind::F32) {
      float f = std::ldexp(static_cast<float>(rng() % (1 << 20)), -19) - 1.0f;
      uint32_t u;
      std::memcpy(&u, &f, 4);
      store(&img.bytes[i], u, 4);
    } else if (b.kind == Kind::F16 || b.kind == Kind::BF16) {
      // Values in [-1, 1) with few mantissa bits: sums stay exact or round
      // visibly, and no NaN or infinity appears.
      double d = std::ldexp(static_cast<double>(rng() % (1 << 8)), -7) - 1.0;
      store(&img.bytes[i], doubleToHalf(d, b.kind), 2);
    }
  }
}

//===-- Running one case
//---------------------------------------------------===//

std::string lastError() { return tileRuntimeLastError(); }

using Entry1 = void (*)(void *);
using Entry2 = void (*)(void *, void *);
using Entry3 = void (*)(void *, void *, void *);
using Entry4 = void (*)(void *, void *, void *, void *);
using Entry6 = void (*)(void *, void *, void *, void *, void *, void *);

bool callEntry(void *fn, std::vector<std::vector<int64_t>> &descs) {
  std::vector<void *> a;
  for (auto &d : descs)
    a.push_back(d.data());
  switch (a.size()) {
  case 1:
    reinterpret_cast<Entry1>(fn)(a[0]);
    return true;
  case 2:
    reinterpret_cast<Entry2>(fn)(a[0], a[1]);
    return true;
  case 3:
    reinterpret_cast<Entry3>(fn)(a[0], a[1], a[2]);
    return true;
  case 4:
    reinterpret_cast<Entry4>(fn)(a[0], a[1], a[2], a[3]);
    return true;
  case 6:
    reinterpret_cast<Entry6>(fn)(a[0], a[1], a[2], a[3], a[4], a[5]);
    return true;
  default:
    return false;
  }
}

std::string hex(uint64_t v, int eb) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%0*llx", 2 * eb,
                static_cast<unsigned long long>(v));
  return buf;
}

/// Compares one buffer; returns "" or a description of the mismatches (the
/// count and the first few byte offsets with got/expected values).
std::string compare(const Buf &b, const Image &got, const Image &want) {
  int64_t bad = 0;
  std::string shown;
  for (size_t i = 0; i < got.bytes.size(); i += b.eb) {
    uint64_t g = load(&got.bytes[i], b.eb), w = load(&want.bytes[i], b.eb);
    if (g == w)
      continue;
    if (want.nanOk[i]) {
      // The whole element (of the source's type) must be a NaN.
      size_t start = i;
      while (start > 0 && want.nanOk[start] == kNanCont)
        --start;
      Kind kind = static_cast<Kind>(want.nanOk[start] - 1);
      if (want.nanOk[start] != kNanCont &&
          start + kindBytes(kind) <= got.bytes.size() &&
          isNaN(load(&got.bytes[start], kindBytes(kind)), kind))
        continue;
    }
    if (++bad <= 4)
      shown += " @" + std::to_string(i) + " got " + hex(g, b.eb) + " want " +
               hex(w, b.eb);
  }
  if (!bad)
    return "";
  return std::to_string(bad) + " of " +
         std::to_string(got.bytes.size() / b.eb) + " elements differ:" + shown;
}

/// Compares the launch counters with the case's expectations: each site's
/// count per version, and the totals over all sites (so a launch counted at
/// another site shows too). Returns "" or what differs.
std::string checkVersions(const Case &c) {
  if (c.versions.empty())
    return "";
  std::string why;
  auto note = [&](const std::string &where, const char *version, int64_t got,
                  int64_t want) {
    if (got != want)
      why += (why.empty() ? "" : "; ") + where + ": " + version + " launches " +
             std::to_string(got) + ", expected " + std::to_string(want);
  };
  int64_t guarded = 0, fallback = 0;
  for (const Case::Versions &v : c.versions) {
    note(
        v.site, "guarded",
        tileRuntimeSiteLaunchVersionCount(v.site.c_str(), TILE_VERSION_GUARDED),
        v.guarded);
    note(v.site, "fallback",
         tileRuntimeSiteLaunchVersionCount(v.site.c_str(),
                                           TILE_VERSION_FALLBACK),
         v.fallback);
    guarded += v.guarded;
    fallback += v.fallback;
  }
  note("all sites", "guarded",
       tileRuntimeLaunchVersionCount(TILE_VERSION_GUARDED), guarded);
  note("all sites", "fallback",
       tileRuntimeLaunchVersionCount(TILE_VERSION_FALLBACK), fallback);
  return why;
}

/// Runs one case; prints its line; returns true when it passed.
bool runCase(const Case &c, const std::string &dir, uint64_t seed) {
  auto failLine = [&](const std::string &why) {
    std::printf("FAIL %-24s %s\n", c.name.c_str(), why.c_str());
    std::fflush(stdout);
    return false;
  };
  tileRuntimeClearError();
  std::string path = dir + "/" + c.so + ".so";
  void *lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    return failLine(std::string("dlopen: ") + dlerror());
  if (tileRuntimeConsumeStatus() != TILE_SUCCESS)
    return failLine("module load: " + lastError());
  std::string entryName =
      "_mlir_ciface_" + (c.entry.empty() ? c.name : c.entry);
  void *fn = dlsym(lib, entryName.c_str());
  if (!fn)
    return failLine("no symbol " + entryName);

  for (const Effect &e : c.effects)
    if (e.matmul) {
      std::string why = checkMatmul(*e.matmul, c, e.dst);
      if (!why.empty())
        return failLine(why);
    }
  std::mt19937_64 rng(seed);
  std::vector<Image> init(c.bufs.size());
  std::vector<void *> dev(c.bufs.size());
  std::vector<std::vector<int64_t>> descs;
  for (size_t i = 0; i < c.bufs.size(); ++i) {
    const Buf &b = c.bufs[i];
    fillRandom(b, init[i], rng);
    dev[i] = mgpuMemAlloc(init[i].bytes.size(), nullptr, false);
    if (!dev[i])
      return failLine("mgpuMemAlloc: " + lastError());
    mgpuMemcpy(dev[i], init[i].bytes.data(), init[i].bytes.size(), nullptr);
    std::vector<int64_t> d = {reinterpret_cast<int64_t>(dev[i]),
                              reinterpret_cast<int64_t>(dev[i]) +
                                  b.alignedShift * b.eb,
                              b.offset - b.alignedShift};
    d.insert(d.end(), b.shape.begin(), b.shape.end());
    d.insert(d.end(), b.strides.begin(), b.strides.end());
    descs.push_back(d);
  }
  mgpuStreamSynchronize(nullptr);
  if (tileRuntimeConsumeStatus() != TILE_SUCCESS)
    return failLine("upload: " + lastError());

  if (!c.versions.empty())
    tileRuntimeResetLaunchVersionCounts();
  if (!callEntry(fn, descs))
    return failLine("unsupported argument count");
  if (tileRuntimeConsumeStatus() != TILE_SUCCESS)
    return failLine("launch: " + lastError());
  std::string why = checkVersions(c);

  std::vector<Image> got(c.bufs.size());
  for (size_t i = 0; i < c.bufs.size(); ++i) {
    got[i].bytes.resize(init[i].bytes.size());
    mgpuMemcpy(got[i].bytes.data(), dev[i], got[i].bytes.size(), nullptr);
  }
  mgpuStreamSynchronize(nullptr);
  for (void *p : dev)
    mgpuMemFree(p, nullptr);
  if (tileRuntimeConsumeStatus() != TILE_SUCCESS)
    return failLine("download: " + lastError());

  std::vector<Image> want = expected(c, init);
  for (size_t i = 0; i < c.bufs.size(); ++i) {
    std::string d = compare(c.bufs[i], got[i], want[i]);
    if (!d.empty())
      why += (why.empty() ? "" : "; ") + std::string("arg ") +
             std::to_string(i) + ": " + d;
  }
  if (c.expect == Case::Expect::Failure) {
    if (why.empty() && c.raceOnly) {
      std::printf("PASS %-24s %s: exact on this run: the race the rule "
                  "guards against did not show\n",
                  c.name.c_str(), c.doc.c_str());
      std::fflush(stdout);
      return true;
    }
    if (why.empty())
      return failLine("the result is exact, but this kernel breaks the "
                      "protocol on purpose and should hang or mismatch");
    std::printf("PASS %-24s %s: mismatch, as expected (%s)\n", c.name.c_str(),
                c.doc.c_str(), why.substr(0, 160).c_str());
    std::fflush(stdout);
    return true;
  }
  if (!why.empty())
    return failLine(why);
  std::printf("PASS %-24s %s\n", c.name.c_str(), c.doc.c_str());
  std::fflush(stdout);
  return true;
}

/// Filters select cases whose name contains them; "-NAME" excludes.
bool matches(const Case &c, const std::vector<std::string> &filters) {
  bool any = false, hit = false;
  for (const std::string &f : filters) {
    if (!f.empty() && f[0] == '-') {
      if (c.name.find(f.substr(1)) != std::string::npos)
        return false;
      continue;
    }
    any = true;
    hit = hit || c.name.find(f) != std::string::npos;
  }
  return !any || hit;
}

constexpr int kNoDriverExit = 77;

} // namespace

int main(int argc, char **argv) {
  std::string dir = ".";
  bool fork_ = true;
  int timeout = 60;
  uint64_t seed = 0x5EED;
  std::vector<std::string> filters;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--dir" && i + 1 < argc)
      dir = argv[++i];
    else if (a == "--driver-library" && i + 1 < argc)
      tileRuntimeSetDriverLibraryForTesting(argv[++i]); // plumbing tests
    else if (a == "--no-fork")
      fork_ = false;
    else if (a == "--timeout" && i + 1 < argc)
      timeout = std::atoi(argv[++i]);
    else if (a == "--seed" && i + 1 < argc)
      seed = std::strtoull(argv[++i], nullptr, 0);
    else
      filters.push_back(a);
  }

  int passed = 0, failed = 0;
  std::vector<Case> cases = allCases();
  if (!fork_) {
    if (tileRuntimeInit() != TILE_SUCCESS) {
      std::printf("SKIP GPU suite: %s\n", tileRuntimeLastError());
      return 0;
    }
    for (const Case &c : cases) {
      if (!matches(c, filters))
        continue;
      if (c.expect == Case::Expect::Failure) {
        std::printf("SKIP %-24s may hang; runs only in a child process\n",
                    c.name.c_str());
        continue;
      }
      (runCase(c, dir, seed) ? passed : failed)++;
    }
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
  }

  // One child per case: the driver is initialised only in the children.
  for (const Case &c : cases) {
    if (!matches(c, filters))
      continue;
    std::fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
      std::perror("fork");
      return 2;
    }
    if (pid == 0) {
      alarm(c.timeout > 0 ? c.timeout : timeout);
      if (tileRuntimeInit() != TILE_SUCCESS) {
        std::printf("SKIP GPU suite: %s\n", tileRuntimeLastError());
        std::fflush(stdout);
        _exit(kNoDriverExit);
      }
      _exit(runCase(c, dir, seed) ? 0 : 1);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == kNoDriverExit)
      return 0;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
      ++passed;
      continue;
    }
    int limit = c.timeout > 0 ? c.timeout : timeout;
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM &&
        c.expect == Case::Expect::Failure) {
      std::printf("PASS %-24s %s: timed out after %d s, as expected\n",
                  c.name.c_str(), c.doc.c_str(), limit);
      ++passed;
      continue;
    }
    ++failed;
    if (WIFSIGNALED(status))
      std::printf(
          "FAIL %-24s %s\n", c.name.c_str(),
          WTERMSIG(status) == SIGALRM
              ? ("timed out after " + std::to_string(limit) + " s").c_str()
              : strsignal(WTERMSIG(status)));
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
