//===- TileOps.td - tile dialect operations ----------------*- tablegen -*-===//

#ifndef TILE_OPS_TD
#define TILE_OPS_TD

include "tile/Dialect/Tile/IR/TileDialect.td"
include "tile/Dialect/Tile/IR/TileAttrs.td"
include "tile/Dialect/Tile/IR/TileTypes.td"
include "mlir/Dialect/GPU/IR/GPUBase.td"
include "mlir/Dialect/NVGPU/IR/NVGPUTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ViewLikeInterface.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

//===----------------------------------------------------------------------===//
// tile.copy_async
//===----------------------------------------------------------------------===//

def Tile_CopyAsyncOp : Tile_Op<"copy_async", [AttrSizedOperandSegments]> {
  let summary = "Asynchronous copy of a region between global and shared memory";
  let description = [{
    Copies the region `%src[offsets] [sizes]` into `%dst[offsets] [sizes]`.
    Exactly one side is global memory (no memory space or
    `#gpu.address_space<global>`) and the other shared memory
    (`#gpu.address_space<workgroup>`); the direction follows. Offsets are
    static or dynamic, sizes static. Both regions hold the same number of
    elements of the same type; elements correspond in row-major order of the
    two regions, so one region may be a reshape of the other.

    The op is issued by the thread that executes it and emits no completion:
    a load (global to shared) names the mbarrier that completes it
    (`barrier(%group[%i])`, an `nvgpu` mbarrier group) and completes
    `element count x element bytes` transaction bytes, out-of-bounds elements
    included. Stores take no barrier; they complete through
    `tile.bulk_commit_group` / `tile.bulk_wait_group`.

    The global region of a load may extend past the tensor on any side; those
    elements are filled per `oob` (`"zero"` by default, `"nan"` for
    f16/bf16/f32/f64). The global region of a store must lie inside the
    tensor. `multicast(%mask)` (loads only) delivers the data to the CTAs of
    the cluster named in the 16-bit mask. `reduce` (stores only) combines the
    data with global memory (`add`, `min`, `max`, `inc`, `dec`, `and`, `or`,
    `xor`, with the element types the hardware supports). `cache_hint` is one
    of `evict_first`, `evict_last`, `evict_normal`. `dispatch` restricts the
    lowering to the named variant (checked when the dispatch runs).
    `through(%m : !tile.device_map<T>)` issues the copy through the device
    map `%m` (`tile.device_map`) instead of the map the host encodes: the
    global operand is the map's template buffer, the coordinates index the
    tensor the map was last pointed at (`tile.device_map_update`), and only
    a variant that copies through a tensor map may lower it.

    ```mlir
    tile.copy_async %smem[0, 0] [8, 256], %A[0, 0] [8, 256]
        barrier(%bar[%c0]) {dispatch = "tma"}
        : memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>,
                 #gpu.address_space<workgroup>>,
          memref<8x256xf16>,
          !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
    ```

    `prefetch` turns a load into its L2 prefetch
    (`cp.async.bulk.prefetch.tensor`): the global region the load would read
    is brought into the L2 cache, nothing is written to shared memory and
    nothing completes. It is planned exactly as the load (so a prefetch and
    the load of the same region share one tensor map) and takes no barrier,
    no multicast and no `oob`; `cache_hint` applies. Only the `tma` variant
    prefetches; in the fallback version of a kernel whose guards fail, a
    prefetch is dropped.

    ```mlir
    tile.copy_async %smem[0, 0] [8, 256], %A[%next, 0] [8, 256] {prefetch}
        : memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>,
                 #gpu.address_space<workgroup>>,
          memref<8x256xf16>
    ```

    Two forms need chip sm_100a (or sm_100f: the target of the enclosing
    `gpu.module`, the pipeline's `chip` option) and the `tma` variant:

    `cta_group = 2` (or 1) on a load emits the `.cta_group::2` form of
    `cp.async.bulk.tensor` for pair-CTA (`cta_group::2`) kernels: the
    mbarrier it completes on may then be the peer CTA's. The plan is the
    load's.

    `rows(%r0, %r1, %r2, %r3)` gathers (load, `tile::gather4`) or scatters
    (store, `tile::scatter4`) four rows of a 2D global tensor: the global
    region is `[0, %col] [4, n]` and its row `i` is the tensor's row `%ri`.
    The shared region is a dense `4 x n` box (rows `n` elements apart, or one
    swizzle span apart when swizzled). One instruction moves all four rows;
    the tensor map has box `[n, 1]`.

    ```mlir
    tile.copy_async %smem[0, 0] [4, 64], %E[0, 0] [4, 64]
        rows(%r0, %r1, %r2, %r3) barrier(%bar[%c0])
        : memref<4x64xf16, #tile.layout<(4, 64), swizzle = 128B>,
                 #gpu.address_space<workgroup>>,
          memref<1024x64xf16>,
          !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins
    AnyMemRef:$dst,
    Variadic<Index>:$dst_offsets,
    DenseI64ArrayAttr:$static_dst_offsets,
    DenseI64ArrayAttr:$dst_sizes,
    AnyMemRef:$src,
    Variadic<Index>:$src_offsets,
    DenseI64ArrayAttr:$static_src_offsets,
    DenseI64ArrayAttr:$src_sizes,
    Optional<NVGPU_MBarrierGroup>:$barrier,
    Optional<Index>:$barrier_index,
    Optional<I16>:$multicast_mask,
    Variadic<Index>:$rows,
    Optional<Tile_DeviceMapType>:$map,
    OptionalAttr<StrAttr>:$dispatch,
    OptionalAttr<StrAttr>:$cache_hint,
    OptionalAttr<StrAttr>:$oob,
    OptionalAttr<StrAttr>:$reduce,
    UnitAttr:$prefetch,
    OptionalAttr<I32Attr>:$cta_group);
  let assemblyFormat = [{
    $dst `` custom<DynamicIndexList>($dst_offsets, $static_dst_offsets)
    $dst_sizes `,`
    $src `` custom<DynamicIndexList>($src_offsets, $static_src_offsets)
    $src_sizes
    (`rows` `(` $rows^ `)`)?
    (`barrier` `(` $barrier^ `[` $barrier_index `]` `)`)?
    (`multicast` `(` $multicast_mask^ `)`)?
    (`through` `(` $map^ `:` type($map) `)`)?
    attr-dict `:` type($dst) `,` type($src) (`,` type($barrier)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// True for global -> shared copies (false for shared -> global). Only
    /// meaningful on a verified op.
    bool isLoad();
    ::mlir::TypedValue<::mlir::MemRefType> getGlobal() {
      return ::llvm::cast<::mlir::TypedValue<::mlir::MemRefType>>(
          isLoad() ? getSrc() : getDst());
    }
    ::mlir::TypedValue<::mlir::MemRefType> getShared() {
      return ::llvm::cast<::mlir::TypedValue<::mlir::MemRefType>>(
          isLoad() ? getDst() : getSrc());
    }
    ::llvm::SmallVector<::mlir::OpFoldResult> getMixedDstOffsets();
    ::llvm::SmallVector<::mlir::OpFoldResult> getMixedSrcOffsets();
    /// Transaction bytes the copy completes (element count x element bytes).
    int64_t getTransactionBytes();
    /// The string attributes as enums (TileEnums.td). The fill is Zero
    /// without `oob`; the reduction and the hint are nullopt when absent.
    /// Each is nullopt for a name outside its enum, which only an op that
    /// fails to verify has.
    std::optional<::mlir::tile::OobMode> getOobKind();
    std::optional<::mlir::tile::ReduceMode> getReduceKind();
    std::optional<::mlir::tile::CacheHint> getCacheHintKind();
    /// True for the four-row forms (`rows(...)`: tile::gather4 loads,
    /// tile::scatter4 stores).
    bool isRowGather() { return !getRows().empty(); }
    /// The sm_100a-only form of cp.async.bulk.tensor the copy uses, if any.
    ::mlir::tile::Sm100Form getSm100Form();
    /// The form as diagnostics name it ("cta_group = 2", "tile::gather4",
    /// "tile::scatter4"); "" for Sm100Form::None.
    std::string describeSm100Form();
  }];
}

//===----------------------------------------------------------------------===//
// tile.copy_im2col
//===----------------------------------------------------------------------===//

def Tile_CopyIm2colOp : Tile_Op<"copy_im2col", [AttrSizedOperandSegments]> {
  let summary = "Loads a convolution's input patch column through TMA im2col";
  let description = [{
    Loads one column of a convolution's implicit im2col matrix from a
    channels-last global tensor (`[N, W, C]`, `[N, H, W, C]` or
    `[N, D, H, W, C]`) into a `[pixels, channels]` tile of shared memory
    with one `cp.async.bulk.tensor ... .im2col` instruction.

    The window's base positions are walked W fastest, with the traversal
    `strides` (the convolution's strides), inside the bounding box
    `[lower, size - 1 + upper]` of each spatial dimension (for padding `p`
    and a filter of `r` taps, `lower = -p`, `upper = p - (r - 1)`); past the
    box's end a dimension restarts at `lower` and the next one steps, then
    the image. The walk starts at the coordinates `[n, (d,) (h,) w, c]`,
    whose spatial part must lie inside the box (the instruction traps
    otherwise). For each of the tile's pixels the instruction loads
    `channels` channels from `c` on at the position plus `offsets` (the
    filter tap, one per spatial dimension, memref order). Elements outside
    the tensor are filled per `oob` (`"zero"`, or `"nan"` for float types).

    The load completes `pixels x channels x element bytes` transaction bytes
    on `barrier`. The tile's layout is the one the hardware writes: rows of
    `channels` elements one after another, or under a swizzle
    (`#tile.layout<..., swizzle = 128B>`) rows of at least the swizzle span,
    swizzled. The tensor map is encoded on the host before the launch, as
    for `tile.copy_async`; sizes and strides other than the channels' may be
    dynamic.

    ```mlir
    // A 3x3 filter with padding 1 and stride 1: tap (kh, kw) of 64 output
    // pixels starting at (n, h, w) = (%n, %h, %w), channels %c..%c+63.
    tile.copy_im2col %tile, %input[%n, %h, %w, %c] offsets [%kh, %kw]
        barrier(%bar[%c0])
        {lower = array<i64: -1, -1>, upper = array<i64: -1, -1>}
        : memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>,
                 #gpu.address_space<workgroup>>,
          memref<8x56x56x64xf16>,
          !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins
    AnyMemRef:$dst,
    AnyMemRef:$src,
    Variadic<Index>:$coords,
    Variadic<Index>:$offsets,
    NVGPU_MBarrierGroup:$barrier,
    Index:$barrier_index,
    DenseI64ArrayAttr:$lower,
    DenseI64ArrayAttr:$upper,
    OptionalAttr<DenseI64ArrayAttr>:$strides,
    OptionalAttr<StrAttr>:$oob,
    OptionalAttr<StrAttr>:$cache_hint);
  let assemblyFormat = [{
    $dst `,` $src `[` $coords `]` `offsets` ` ` `[` $offsets `]`
    `barrier` `(` $barrier `[` $barrier_index `]` `)`
    attr-dict `:` type($dst) `,` type($src) `,` type($barrier)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The traversal strides (1 per spatial dimension when absent).
    ::llvm::SmallVector<int64_t> getTraversalStrides();
    /// Transaction bytes of the load (pixels x channels x element bytes).
    int64_t getTransactionBytes();
  }];
}

//===----------------------------------------------------------------------===//
// tile.copy
//===----------------------------------------------------------------------===//

def Tile_CopyOp : Tile_Op<"copy", [AttrSizedOperandSegments]> {
  let summary = "Synchronous collective copy of a region";
  let description = [{
    Copies `%src[offsets] [sizes]` into `%dst[offsets] [sizes]`; all threads
    of `scope` (`"thread"`, `"warp"`, `"warpgroup"` or `"cta"`, the default)
    take part and the copy is complete when they all return. Any combination
    of global and shared memory; swizzled `#tile.layout` buffers are
    addressed through their swizzle. The regions follow the same rules as
    `tile.copy_async` (equal element types and counts, row-major
    correspondence, shared regions inside their buffer; a global region being
    written must lie inside the tensor and one being read may not leave it).

    ```mlir
    tile.copy %B[0, 0] [8, 256], %smem[0, 0] [8, 256] {scope = "cta"}
        : memref<8x256xf16>, memref<8x256xf16, #L, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins
    AnyMemRef:$dst,
    Variadic<Index>:$dst_offsets,
    DenseI64ArrayAttr:$static_dst_offsets,
    DenseI64ArrayAttr:$dst_sizes,
    AnyMemRef:$src,
    Variadic<Index>:$src_offsets,
    DenseI64ArrayAttr:$static_src_offsets,
    DenseI64ArrayAttr:$src_sizes,
    OptionalAttr<StrAttr>:$scope);
  let assemblyFormat = [{
    $dst `` custom<DynamicIndexList>($dst_offsets, $static_dst_offsets)
    $dst_sizes `,`
    $src `` custom<DynamicIndexList>($src_offsets, $static_src_offsets)
    $src_sizes
    attr-dict `:` type($dst) `,` type($src)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// `scope` as an enum: Cta when absent, nullopt for a name outside the
    /// enum (only on an op that fails to verify).
    std::optional<::mlir::tile::CopyScope> getScopeKind();
    ::llvm::SmallVector<::mlir::OpFoldResult> getMixedDstOffsets();
    ::llvm::SmallVector<::mlir::OpFoldResult> getMixedSrcOffsets();
  }];
}

//===----------------------------------------------------------------------===//
// Shared-memory arena and views
//===----------------------------------------------------------------------===//

def Tile_ArenaViewOp : Tile_Op<"arena_view", [Pure]> {
  let summary = "Typed view of the kernel's dynamic shared memory";
  let description = [{
    Carves a typed buffer out of the kernel's dynamic shared memory (the
    arena), starting `offset` bytes after the arena's start. The arena starts
    on a 1024-byte boundary, so a view at an offset that is a multiple of the
    swizzle repeat (256, 512 or 1024 bytes) sees the hardware swizzle exactly
    as its `#tile.layout` describes. The kernel must be launched with at
    least `offset + size` bytes of dynamic shared memory.

    ```mlir
    %smem = tile.arena_view [0] : memref<8x256xf16,
        #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>,
        #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$offset);
  let results = (outs AnyStaticShapeMemRef:$result);
  let assemblyFormat = "` ` `[` $offset `]` attr-dict `:` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Bytes the view spans from its start (its layout's cosize).
    int64_t getSpanBytes();
    /// Largest power of two (at most 1024) dividing the view's address.
    int64_t getBaseAlignment();
  }];
}

def Tile_StageOp : Tile_Op<"stage", [Pure]> {
  let summary = "One stage of a multi-stage shared buffer";
  let description = [{
    Selects index `%i` of the outermost dimension of a shared buffer and
    returns the remaining dimensions as a buffer with the same swizzle. The
    outermost dimension's shards must be a single shard (or none, for a
    size-1 dimension), and its stride in bytes a multiple of the swizzle
    repeat so every stage keeps the swizzle's alignment. This is the view
    used by pipelines: `memref.subview` rejects non-strided layouts.

    ```mlir
    %s = tile.stage %buf[%i] : memref<3x128x64xf16, #L3, #gpu.address_space<workgroup>>
                             -> memref<128x64xf16, #L2, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins AnyStaticShapeMemRef:$source, Index:$index);
  let results = (outs AnyStaticShapeMemRef:$result);
  let assemblyFormat =
      "$source `[` $index `]` attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Distance between stages in bytes.
    int64_t getStageStrideBytes();
  }];
}

//===----------------------------------------------------------------------===//
// Bulk-group completion
//===----------------------------------------------------------------------===//

def Tile_BulkCommitGroupOp : Tile_Op<"bulk_commit_group"> {
  let summary = "Commits the thread's pending bulk stores into a group";
  let description = [{
    Closes the bulk-async group of the stores (`tile.copy_async` from shared
    to global) issued by this thread since the last commit
    (`cp.async.bulk.commit_group`).
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_BulkWaitGroupOp : Tile_Op<"bulk_wait_group"> {
  let summary = "Waits until at most N bulk groups are pending";
  let description = [{
    Waits until at most `group` of the thread's committed bulk-async groups
    are pending (`cp.async.bulk.wait_group`). With `read`, waits only until
    their shared-memory sources have been read, so the buffer can be reused.

    ```mlir
    tile.bulk_wait_group 0 {read}
    ```
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative]>:$group,
                       UnitAttr:$read);
  let assemblyFormat = "$group attr-dict";
}

def Tile_ArriveExpectTxOp : Tile_Op<"arrive_expect_tx"> {
  let summary = "Arrives on an mbarrier expecting the bytes of the loads it "
                "covers";
  let description = [{
    `nvgpu.mbarrier.arrive.expect_tx` without a hand-written byte count: the
    count is the sum of the transaction bytes (`element count x element
    bytes`, the plan report's `bytes`) of the `tile.copy_async` loads that
    signal the same barrier in the same block and phase: those between the
    previous wait on that barrier in the block (or the block's start) and the
    next one (or the block's end), including loads in `scf.for` issue loops
    with constant trip counts nested in the block, each counted once per
    iteration. `tile-materialize-expect-tx` (run by `--tile-gpu-pipeline`)
    replaces the op with `nvgpu.mbarrier.arrive.expect_tx` and that constant;
    it declines (`async-tx-bytes`) when no load is covered, another
    `arrive.expect_tx` shares the phase, or a covered load multicasts and
    the CTAs that issue it cannot be told. A multicast load counts once per
    CTA of the cluster when its mask is a constant naming every CTA of the
    cluster (the gpu.launch's constant cluster size or the gpu.func's
    `known_cluster_size`) and no control around it depends on the CTA's
    position (block ids, the rank in the cluster): every CTA then issues it
    to every CTA.

    ```mlir
    tile.copy_async %a[0, 0] [128, 64], %A[%m, %k] [128, 64] barrier(%full[%s])
        : !tileA, !A, !bars
    tile.copy_async %b[0, 0] [256, 64], %B[%n, %k] [256, 64] barrier(%full[%s])
        : !tileB, !B, !bars
    tile.arrive_expect_tx %full[%s] : !bars   // 16384 + 32768 bytes
    ```
  }];
  let arguments = (ins NVGPU_MBarrierGroup:$barriers, Index:$mbarId);
  let assemblyFormat = "$barriers `[` $mbarId `]` attr-dict `:` type($barriers)";
}

//===----------------------------------------------------------------------===//
// Matrix multiply-accumulate operands
//===----------------------------------------------------------------------===//

def Tile_WgmmaDescriptorOp : Tile_Op<"wgmma_descriptor", [Pure]> {
  let summary = "The sm_90 wgmma matrix descriptor of a shared operand block";
  let description = [{
    Computes the 64-bit shared-memory matrix descriptor that
    `wgmma.mma_async` reads for one operand (PTX ISA, "Matrix Descriptor
    Format"): start address >> 4 in bits 0-13, leading dimension byte offset
    >> 4 in bits 16-29, stride dimension byte offset >> 4 in bits 32-45,
    matrix base offset in bits 49-51 (always 0 here) and the swizzle mode in
    bits 62-63 (1 = 128B, 2 = 64B, 3 = 32B).

    The operand is the `rows` x `k` block starting at element
    `[%row, %col]` of a 2-D shared buffer. With `major` `k` (the default) the
    buffer's dimension 0 is M (matrix A) or N (matrix B) and dimension 1 is
    K, K contiguous. `k` elements are one wgmma k-step of 32 bytes: k16 for
    f16 and bf16, k8 for tf32 (f32 elements), k32 for 8-bit types (i8,
    f8E4M3FN, f8E5M2). `rows` is 64 for A, or the instruction's N (8..256, a
    multiple of 8) for B.

    With `major = #tile.wgmma_major<mn>` the operand is MN-major (wgmma's
    transposed operand, f16 and bf16 only): dimension 0 of the buffer is K
    and dimension 1 is M or N, contiguous; the block is `k` K-rows from
    `%row` and `rows` columns from `%col`. Attention's V tile, read by
    `O += P V` as matrix B, is the case: kv rows along K, the head dimension
    along N. The wgmma that reads it states the transpose (`<row>` layout of
    `nvvm.wgmma.mma_async`, or `b_major` of `tile.wgmma_register_a`).

    Only swizzled layouts are supported: the buffer's `#tile.layout` must
    carry a 32B, 64B or 128B swizzle. K-major: rows one swizzle span (32, 64
    or 128 B) apart, 8-row atoms a multiple of the swizzle repeat apart (the
    descriptor's stride byte offset), and the block starts on a 32-byte
    k-step in the first row of an atom (so a k-step inside a 128-byte row
    advances the start address by 32 B). MN-major: a span of M/N elements
    contiguous, spans a multiple of the repeat apart (the leading byte
    offset), K-rows one span apart in groups of 8 a multiple of the repeat
    apart (the stride byte offset), and the block starts on an atom. The
    no-swizzle interleave mode is declined (`wgmma-layout`).
    `tile-plan-copies` plans the descriptor with the pure
    C++ planner (lib/MMA), checking every block `%row` and `%col` may name:
    constants exactly, run-time values through the multiples the IR proves
    (a multiple of 8 rows; a multiple of one k-step along K) against every
    start inside the buffer, and records the layout's fields as a
    `#tile.wgmma_plan` (`tile.wgmma_plan`); the op verifier checks only the
    operand's memory space, buffer and element type. The buffer's base must
    be aligned to the swizzle repeat (`tile.arena_view` offsets and
    `tile.stage` strides show it).

    The lowering reads the recorded plan, adds the block's byte offset (from
    `%row`, `%col` and the layout's strides, before the swizzle) to the
    buffer's shared address and packs the fields into an i64.

    ```mlir
    %d = tile.wgmma_descriptor %buf[%row, %col] {rows = 64, k = 16}
        : memref<128x64xbf16, #tile.layout<(128, 64) : (64, 1), swizzle = 128B>,
                 #gpu.address_space<workgroup>> -> i64
    ```
  }];
  let arguments = (ins AnyStaticShapeMemRef:$source, Index:$row, Index:$col,
                       I64Attr:$rows, I64Attr:$k,
                       DefaultValuedAttr<Tile_WgmmaMajorAttr,
                                         "::mlir::tile::WgmmaMajor::K">:$major);
  let results = (outs I64:$result);
  let assemblyFormat = "$source `[` $row `,` $col `]` attr-dict `:` "
                       "type($source) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The planner's answer for every block `row` and `col` may name (what
    /// tile-plan-copies records: the LBO, SBO and swizzle mode).
    ::tile::mma::WgmmaDescriptorPlan planDescriptor();
    /// Plans and records `tile.wgmma_plan`; emits the decline at the op.
    ::mlir::LogicalResult recordPlan();
    /// The recorded plan; `plan-missing` at the op without one.
    ::mlir::FailureOr<WgmmaPlanAttr> recallPlan();
    /// The recorded plan against a fresh one (`plan-stale`).
    ::mlir::LogicalResult verifyRecordedPlan();
  }];
}

def Tile_WgmmaAFragmentOp : Tile_Op<"wgmma_a_fragment", [Pure]> {
  let summary = "The A-operand register fragment of one k-step, converted "
                "from an f32 wgmma accumulator";
  let description = [{
    Takes columns `16 * k_step` .. `16 * k_step + 15` of the f32 accumulator
    fragment of a `wgmma.mma_async` m64nN (an `!llvm.struct` of N / 2 f32,
    the PTX ISA's register fragment for matrix D) and returns them as the
    register fragment of matrix A of one m64nNk16 step of f16 or bf16 (four
    32-bit registers of two elements each, `vector<8xbf16>` or
    `vector<8xf16>`), rounding to nearest even.

    The two fragment layouts place the same (row, column) pairs at the same
    thread: accumulator elements `8 s .. 8 s + 7` of a thread are rows
    `r` and `r + 8`, columns `c, c + 1` of n8 blocks `2 s` and `2 s + 1`,
    which are A's `a0 .. a7` of k-step `s`. So the conversion moves no data
    between threads: a product computed by one wgmma (attention's
    probabilities P = softmax(Q K^T)) feeds the next (`O += P V`,
    `tile.wgmma_register_a`) from registers.

    The accumulator must be a struct of f32 of a multiple of 8 (N a multiple
    of 16) and `k_step` < N / 16 (`wgmma-fragment`).

    ```mlir
    %p0 = tile.wgmma_a_fragment %s[0]
        : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> -> vector<8xbf16>
    ```
  }];
  let arguments = (ins AnyType:$accumulator, I64Attr:$k_step);
  let results = (outs VectorOfLengthAndType<[8], [F16, BF16]>:$fragment);
  let assemblyFormat = "$accumulator `[` $k_step `]` attr-dict `:` "
                       "type($accumulator) `->` type($fragment)";
  let hasVerifier = 1;
}

def Tile_WgmmaStoreFragmentOp : Tile_Op<"wgmma_store_fragment"> {
  let summary = "A warp's 16 x 16 block of A fragments stored to shared "
                "memory (stmatrix)";
  let description = [{
    Stores the 16 x 16 block that the warp's fragments `%fragment` hold (the
    layout of `tile.wgmma_a_fragment`: lane `l` holds rows `l / 4` and
    `l / 4 + 8`, columns `2 (l % 4)`, `+ 1`, `+ 8` and `+ 9` of the block) at
    rows `%row` .. `%row + 15` and columns `%col` .. `%col + 15` of the 2-D
    shared buffer `%buffer`, as one `stmatrix.sync.aligned.m8n8.x4` of the
    warp: four 32-bit registers and one 16-byte row address per lane (lane
    `l` addresses row `l % 16`, columns from `8 (l / 16)`), instead of
    eight 32-bit stores per lane.

    This is a GEMM epilogue's register-to-shared step: the f32 accumulator
    of a wgmma, rounded to f16 or bf16 16 columns at a time
    (`tile.wgmma_a_fragment`), written at the swizzled addresses from which
    the C tile's TMA store reads.

    Every lane of the warp passes the same `%row` and `%col` (the op is
    warp-collective, as `stmatrix` is). The buffer is 2-D, in shared memory,
    of the fragment's element type, with a `#tile.layout` that keeps eight
    consecutive elements of a row in one 16-byte unit (any swizzle of 32 to
    128 bytes does), and `%col` a known multiple of 8
    (`wgmma-fragment`).

    ```mlir
    %f = tile.wgmma_a_fragment %acc[0] : !acc -> vector<8xbf16>
    tile.wgmma_store_fragment %f, %c[%row, %c0] : vector<8xbf16>, !tileC
    ```
  }];
  let arguments = (ins VectorOfLengthAndType<[8], [F16, BF16]>:$fragment,
                       Arg<AnyMemRef, "", [MemWrite]>:$buffer, Index:$row,
                       Index:$col);
  let assemblyFormat = "$fragment `,` $buffer `[` $row `,` $col `]` attr-dict "
                       "`:` type($fragment) `,` type($buffer)";
  let hasVerifier = 1;
}

def Tile_WgmmaRegisterAOp : Tile_Op<"wgmma_register_a", [
    AllTypesMatch<["accumulator", "result"]>]> {
  let summary = "wgmma.mma_async with matrix A in registers";
  let description = [{
    `D += A x B` for one m64nNk16 step of the warpgroup: A is the register
    fragment `%a` (f16 or bf16, `tile.wgmma_a_fragment`), B the shared
    operand of descriptor `%b` (`tile.wgmma_descriptor` with `rows` = N),
    D the f32 accumulator (an `!llvm.struct` of N / 2 f32, as
    `nvvm.wgmma.mma_async` takes it). `b_major` says how B is stored: `k`
    (K-major, the default) or `mn` (N contiguous, the transposed form; the
    descriptor's `major` must say the same). Upstream's
    `nvvm.wgmma.mma_async` reads A from shared memory only.

    With `if %issue`, the wgmma is issued only where `%issue` is true (a
    guard predicate on the instruction, not a branch) and the result is the
    accumulator unchanged elsewhere: a loop's first iteration can skip a
    product that has no operand yet without a branch, which would move the
    accumulator's registers while wgmmas write them (ptxas then serializes
    every wgmma of the kernel). `%issue` must be the same in every thread of
    the warpgroup.

    With `zero_init`, D = A x B: the instruction's scale-d is 0 and the
    accumulator operand is not read (it gives the result's type), so the
    code before the wgmma fence need not put zeros in its registers (which
    ptxas may answer with a wait for an earlier wgmma's registers,
    C7517). Where no wgmma is issued the result would be undefined, so
    `zero_init` and `if %issue` do not combine (`wgmma-fragment`).

    Like any wgmma it is asynchronous: it belongs between
    `nvvm.wgmma.fence.aligned` and `nvvm.wgmma.commit.group.sync.aligned`,
    and its result may be read after `nvvm.wgmma.wait.group.sync.aligned`.
    N is 8..256 in multiples of 8 (`wgmma-fragment`).

    ```mlir
    %o1 = tile.wgmma_register_a %p0, %dv, %o0 {b_major = #tile.wgmma_major<mn>}
        : vector<8xbf16>, !llvm.struct<(f32, f32, f32, f32)>
    %o2 = tile.wgmma_register_a %p0, %dv, %o1 if %has_prev
        {b_major = #tile.wgmma_major<mn>}
        : vector<8xbf16>, !llvm.struct<(f32, f32, f32, f32)>
    %s0 = tile.wgmma_register_a %p0, %d1, %undef {zero_init}
        : vector<8xbf16>, !llvm.struct<(f32, f32, f32, f32)>
    ```
  }];
  let arguments = (ins VectorOfLengthAndType<[8], [F16, BF16]>:$a, I64:$b,
                       AnyType:$accumulator, Optional<I1>:$issue,
                       DefaultValuedAttr<Tile_WgmmaMajorAttr,
                                         "::mlir::tile::WgmmaMajor::K">:$b_major,
                       UnitAttr:$zero_init);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$a `,` $b `,` $accumulator (`if` $issue^)? attr-dict "
                       "`:` type($a) `,` type($accumulator)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The instruction's N (two columns per f32 of a thread's accumulator).
    int64_t getN();
  }];
}

def Tile_WgmmaFenceOperandOp : Tile_Op<"wgmma_fence_operand", [
    AllTypesMatch<["value", "result"]>]> {
  let summary = "Keeps a wgmma register operand's registers as they are up "
                "to this point";
  let description = [{
    A wgmma reads its register operands (`tile.wgmma_register_a`'s A
    fragment) and writes its accumulator asynchronously, until the
    `nvvm.wgmma.wait.group.sync.aligned` that completes it. The compiler
    sees the operand's last use at the wgmma and may give its registers to
    another value before the wait; ptxas then serializes every wgmma of the
    function (performance warning C7513). Placed after the wait, this op
    uses the value's registers there (an empty inline-assembly statement
    that reads and writes them), so they stay the operand's until the wait,
    and no code moves across it. The result is the value itself.

    The value is a register fragment (`vector<8xbf16>`, `vector<8xf16>`)
    or an f32 accumulator (`!llvm.struct` of f32) (`wgmma-fragment`).

    ```mlir
    nvvm.wgmma.wait.group.sync.aligned 0
    %p = tile.wgmma_fence_operand %p_prev : vector<8xbf16>
    ```
  }];
  let arguments = (ins AnyType:$value);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$value attr-dict `:` type($value)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Pipelines by construction
//===----------------------------------------------------------------------===//

def Tile_PipelineOp : Tile_Op<"pipeline", [
    AttrSizedOperandSegments, RecursiveMemoryEffects]> {
  let summary = "A multi-stage load pipeline whose barriers, phases and "
                "transaction bytes the compiler generates";
  let description = [{
    Runs `%count` iterations (a run-time trip count, possibly 0) of a loop
    whose loads go through a ring of stages: the `produce` region loads
    iteration `k`'s data into one stage of each stage buffer, the `consume`
    region reads it, and the compiler writes everything in between. The
    stage count S is the stage buffers' outermost dimension; the regions
    receive one stage of each (the view `tile.stage` gives).

    `tile-expand-pipelines` (the first pass of `--tile-gpu-pipeline`)
    creates a full and an empty mbarrier per stage with the right arrival
    counts, initialises them, and emits:
      * the producer: one elected thread that, from the second round on,
        waits until the stage's consumers released it (parity
        `(k / S - 1) % 2`), runs `produce` with the loads completing on the
        stage's full barrier, and arrives there expecting the bytes of those
        loads (`tile.arrive_expect_tx`, counted from the loads' plans by
        `tile-materialize-expect-tx`);
      * the consumers: wait on the full barrier (parity `(k / S) % 2`), run
        `consume`, and release the stage. With `reads = wgmma`, the
        consumer's wgmma groups read the stage asynchronously: the compiler
        waits until at most `in_flight` groups are pending (unless `consume`
        ends with such a wait itself) and releases the stage of iteration
        `k - in_flight`, whose reads are then complete;
      * `epilogue` with the values `consume` carried, once per consumer.

    `consumers = N` (N >= 1) specializes warpgroups: warpgroup 0 produces
    (its other threads idle), warpgroups 1..N consume, so the block has
    128 x (N + 1) threads; `producer_registers` / `consumer_registers`
    move registers from the producer to the consumers (`setmaxnreg`).
    `consumers = 0` (the default) is the software-pipelined form: every
    thread consumes, thread 0 also produces, S stages ahead.

    The regions' arguments: `produce(%k, %stage...)`,
    `consume(%k, %stage..., %consumer, %carried...)` yielding the carried
    values, `epilogue(%consumer, %carried...)`, where `%consumer` is the
    consumer warpgroup's index (0..N-1; the warpgroup index in the
    software-pipelined form); with `tiles`, each is preceded by `%tile`
    (and the tile's values, below).

    `tiles(%tiles)` makes the pipeline persistent: it runs `%count`
    iterations for each of `%tiles` work tiles (both run-time, possibly 0),
    one ring of stages across all of them, so the producer loads the next
    tile's stages while the consumers finish the current one. Every region
    then takes the tile (0..tiles-1) as its first argument; the carried
    values start from `iter_args` at every tile, and `epilogue` runs after
    each tile's last iteration, once the stages that tile's consumer still
    read are released (with wgmma reads, after all its groups completed).
    An epilogue that reads a stage buffer (the last `in_flight` iterations'
    stages, still held) runs before they are released instead, and may
    stage its output in them: they go back once its wgmma groups and its
    bulk stores have read them.

    `tile_loads` (persistent, warp-specialized, every consumer on every
    tile) loads buffers the consumers read for a whole work tile, once per
    tile (attention's query rows): `tile_loads(%tile, %values...)` issues
    `tile.copy_async` loads into shared buffers of the kernel (not stage
    views). The producer runs it after the tile's first iteration's loads
    (those were issued during the previous tile) once the consumers have
    released the previous tile's; the consumers wait for its loads before
    the tile's first iteration. They release the buffers before the
    epilogue where it does not use them; otherwise after it, each thread
    once its bulk stores have read shared memory (so the epilogue may stage
    its output in them). The construct makes a full and an empty barrier
    for them, as for a stage. The producer waits for the release right
    before the first load; a `prefetch` copy before it is issued at once (it
    fills no buffer and completes on no barrier), so the tile's rows reach
    L2 while the consumers still read the previous tile's.
    Which output tile the t-th work tile is, is the regions' to compute
    (for example a grid-strided walk over the output tiles).

    `schedule = #tile.consumer_schedule<pingpong>` (persistent and
    warp-specialized with `consumers = N >= 2`) gives each work tile to one
    consumer: consumer c runs tiles c, c + N, c + 2N, ... with their
    iterations and epilogues, and one consumer's release frees a stage. The
    stages still fill in tile order, so while one consumer runs its tile's
    epilogue the next consumer's main loop already consumes the next tile:
    the epilogue overlaps the next tile's main loop. Each consumer holds a
    whole tile's accumulator, and an epilogue that stages its output in
    shared memory needs a buffer per consumer (`%consumer` picks it). The
    default, `cooperative`, runs every consumer on every tile.

    An `iterations` region in place of `(%count)` gives each work tile its
    own iterations: `^bb0(%t: index)` yields `%first, %end` and tile `t`
    runs iterations `k = first .. end - 1` (none where `end <= first`); the
    regions receive `k` itself. A stream-K GEMM's work tile is a share of an
    output tile's K steps. The region may yield more index values after
    `%end`, the tile's values (a tile scheduler's answer: which group, which
    output tile, its coordinates): every other region takes them right
    after the tile, so per-tile work runs once per tile, not once per
    iteration. The region is evaluated by the producer and by every
    consumer (the consumers' values made warp-uniform), so all of them must
    compute the same: its ops only read memory, and memory it reads must
    not change while the pipeline runs (a kernel's inputs, a table written
    before the pipeline). The ring position of each iteration is carried
    from tile to tile, which the warp-specialized form does
    (consumers >= 1).

    `cluster_size = C` (2..16) runs the pipeline in every CTA of a cluster
    of C CTAs (the kernel's cluster size; `tile-expand-pipelines` sets a
    gpu.func's `known_cluster_size`). A load in `produce` with
    `multicast(%mask)`, the mask a constant naming every CTA of the cluster
    ((1 << C) - 1), is a stage operand the CTAs share: CTA `r` issues slice
    `r` of the C equal slices along the outermost dimension of the load's
    box and multicasts it, so each CTA's stage holds the whole box and its
    full barrier expects the whole box's bytes. Every CTA's release of a
    stage arrives on the empty barrier of every CTA of the cluster
    (`tile.arrive_remote`), so no CTA refills a stage a peer still reads;
    the barriers are initialised and fenced before a cluster barrier, and
    the kernel ends on one, so no CTA exits while a peer's multicast still
    writes into it. Loads without `multicast` stay private to their CTA.

    `read_lags = array<i64: l0, l1, ...>` (one per stage buffer;
    warp-specialized, cooperative) lets the consumers read the stage
    buffers at different iterations, as attention reads K of block k and V
    of block k - 1: `consume(k)` receives buffer i's stage of iteration
    `max(k - l_i, 0)`. Buffers of equal lag share a full and an empty
    barrier per stage, so each lag's loads complete, are waited for and are
    released on their own: the consumer waits for buffer i's stage of
    iteration `max(k - l_i, 0)` at the start of `consume(k)` and releases
    the stage of iteration `k - l_i - in_flight` after it; the producer
    waits for the release of a lag's stages just before its first load into
    them and announces their bytes just after its last, so a load of a
    buffer that is released early (K) is not held back by one released later
    (V). The epilogue runs once the last `l_i` iterations of every buffer
    have arrived; a persistent tile's last `l_i + in_flight` stages of
    buffer i are released at its end (after the epilogue where it reads a
    stage buffer, which it names with `tile.held_stage` as views of buffers
    that still hold that iteration). With `tiles`, iterations are counted
    within the tile. Each `l_i + in_flight` is below the stage count.

    The construct owns the protocol: its regions write no mbarrier op,
    `tile.arrive_expect_tx` or wgmma wait, `produce`'s loads name no barrier,
    and nothing writes a stage view but those loads (rules `pipeline-*`).

    ```mlir
    tile.pipeline (%ktiles) stages(%sa, %sb : !stagesA, !stagesB)
        iter_args(%zero : !acc)
        attributes {consumers = 2, reads = #tile.consumer_reads<wgmma>,
                    in_flight = 1}
    produce {
    ^bb0(%k: index, %a: !tileA, %b: !tileB):
      %k0 = arith.muli %k, %c64 : index
      tile.copy_async %a[0, 0] [128, 64], %A[%m0, %k0] [128, 64] : !tileA, !A
      tile.copy_async %b[0, 0] [256, 64], %B[%n0, %k0] [256, 64] : !tileB, !B
      tile.yield
    } consume {
    ^bb0(%k: index, %a: !tileA, %b: !tileB, %wg: index, %acc: !acc):
      ...  // wgmma on %a and %b, committed as one group
      tile.yield %acc2 : !acc
    } epilogue {
    ^bb0(%wg: index, %acc: !acc):
      ...  // store the accumulator
      tile.yield
    }
    ```
  }];
  let arguments = (ins
    Optional<Index>:$count,
    Optional<Index>:$tiles,
    Variadic<AnyStaticShapeMemRef>:$buffers,
    Variadic<AnyType>:$inits,
    DefaultValuedAttr<ConfinedAttr<I64Attr, [IntNonNegative]>, "0">:$consumers,
    DefaultValuedAttr<Tile_ConsumerReadsAttr,
                      "::mlir::tile::ConsumerReads::Generic">:$reads,
    DefaultValuedAttr<ConfinedAttr<I64Attr, [IntNonNegative]>, "0">:$in_flight,
    DefaultValuedAttr<Tile_ConsumerScheduleAttr,
                      "::mlir::tile::ConsumerSchedule::Cooperative">:$schedule,
    OptionalAttr<I64Attr>:$producer_registers,
    OptionalAttr<I64Attr>:$consumer_registers,
    DefaultValuedAttr<I64Attr, "1">:$cluster_size,
    OptionalAttr<DenseI64ArrayAttr>:$read_lags
  );
  let regions = (region SizedRegion<1>:$produce, SizedRegion<1>:$consume,
                        SizedRegion<1>:$epilogue,
                        MaxSizedRegion<1>:$iterations,
                        MaxSizedRegion<1>:$tile_loads);
  let assemblyFormat = [{
    (`(` $count^ `)`)? (`tiles` `(` $tiles^ `)`)?
    `stages` `(` $buffers `:` type($buffers) `)`
    (`iter_args` `(` $inits^ `:` type($inits) `)`)?
    attr-dict-with-keyword
    (`iterations` $iterations^)?
    (`tile_loads` $tile_loads^)?
    `produce` $produce `consume` $consume `epilogue` $epilogue
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The stage count S: the stage buffers' outermost dimension.
    int64_t getStageCount();
    /// Threads the warp-specialized form runs in: 128 x (consumers + 1).
    int64_t getSpecializedBlockThreads();
    /// The tile values the iterations region yields after its range (0
    /// without the region).
    unsigned getNumTileValues();
    /// The regions' leading index arguments before the stage views: the
    /// iteration, preceded in the persistent form by the tile and its
    /// values.
    unsigned getIterationArgCount() {
      return getTiles() ? 2 + getNumTileValues() : 1;
    }
    /// The multicast loads of `produce` (the cluster's shared operands).
    ::llvm::SmallVector<CopyAsyncOp> getMulticastLoads();
    /// The buffers `tile_loads` fills (its loads' destinations; its
    /// prefetches fill none).
    ::llvm::SmallVector<::mlir::Value> getTileLoadBuffers();
    /// Whether `epilogue` uses one of the buffers `tile_loads` fills.
    bool epilogueUsesTileLoadBuffers();
    /// Threads that arrive on a stage's empty barrier to release it, when
    /// known statically (the specialized form); the software-pipelined form
    /// counts every thread of the block at run time.
    std::optional<int64_t> getStaticReleaseCount();
  }];
}

def Tile_GroupedTileOp : Tile_Op<"grouped_tile", [Pure]> {
  let summary = "The output tile at a position of the grouped tile order";
  let description = [{
    The tile (`%row`, `%col`) at position `%index` of the grouped order over
    a `%rows` x `%cols` grid of output tiles: the order walks `group_rows`
    tile rows down one column, then the next column, and the next group of
    rows after the last column (the last group holds the rows that remain).
    Tiles at neighbouring positions share operand rows and columns, so CTAs
    that run at the same time find them in L2. A kernel that walks tiles (a
    persistent `tile.pipeline` with `tiles`, CTA `c` taking positions
    `c, c + CTAs, ...`) or a grid of one CTA per tile asks it for its tile.

    The result is defined for `0 <= %index < %rows * %cols`. With constant
    operands it folds (the model in `include/tile/Schedule/TileOrder.h`,
    whose unit test checks that every tile comes exactly once); otherwise it
    lowers to index arithmetic (two divisions and two remainders).

    ```mlir
    %row, %col = tile.grouped_tile %index of (%rows, %cols) {group_rows = 8}
    ```
  }];
  let arguments = (ins Index:$index, Index:$rows, Index:$cols,
                       ConfinedAttr<I64Attr, [IntPositive]>:$group_rows);
  let results = (outs Index:$row, Index:$col);
  let assemblyFormat = "$index `of` ` ` `(` $rows `,` $cols `)` attr-dict";
  let hasFolder = 1;
}

def Tile_StreamWorkspaceOp : Tile_Op<"stream_workspace"> {
  let summary = "A launch's scratch buffer the runtime keeps per stream";
  let description = [{
    A device buffer of at least `%size` elements for the launches on the
    token's stream that follow (a split kernel's partial tiles, its
    counters), which the runtime keeps per (context, stream, `name`,
    `zeroed`) across calls instead of allocating, zeroing and freeing one
    per call (`gpu.alloc async`, `gpu.memset async`, `gpu.dealloc async`):
    launches on one stream run in order and share it; another stream gets
    its own. The first call, and any that needs more, allocates (the old
    buffer stays allocated: queued launches or a captured graph may still
    use it). With `zeroed`, the buffer is all zeros when allocated, and the
    kernels that use it must leave it so (each counter reset by its last
    arrival); the runtime never zeroes it again. Without, its contents are
    unspecified. The result is a null buffer (aligned pointer 0) where the
    runtime could not allocate; the runtime has recorded the driver's error
    then.

    tile-compile lowers it to `tileRuntimeStreamWorkspace(name, bytes,
    zeroed, stream)` (docs/runtime.md, "Stream workspaces").

    ```mlir
    %counters = tile.stream_workspace "split counters" [%stream] (%tiles) zeroed
        : memref<?xi32>
    ```
  }];
  let arguments = (ins GPU_AsyncToken:$stream, Index:$size, StrAttr:$name,
                       UnitAttr:$zeroed);
  let results = (outs AnyMemRef:$buffer);
  let assemblyFormat = "$name ` ` `[` $stream `]` `(` $size `)` (`zeroed` $zeroed^)? "
                       "attr-dict `:` type($buffer)";
  let hasVerifier = 1;
}

def Tile_ArriveRemoteOp : Tile_Op<"arrive_remote"> {
  let summary = "Arrives on an mbarrier of a CTA of the cluster";
  let description = [{
    Arrives once on barrier `%index` of `%barriers` in the CTA of rank
    `%cta` of the cluster (the executing CTA's own rank included), with the
    arrive's default release semantics at CTA scope: the executing thread's
    shared-memory reads before it are performed before the arrival, which
    is what a stage release needs (the peer overwrites the stage only after
    observing it). A cluster-scoped release would also order the thread's
    global memory for the peer, which no stage needs, and cost the GEMM 40%
    of its throughput on the H200 (docs/pipelines.md). The barrier is addressed through the cluster's shared window
    (`mapa`), so the barrier group sits at the same offset in every CTA, as
    one kernel's barriers do. `tile-expand-pipelines` emits it to release a
    multicast stage to every CTA that writes into it.

    ```mlir
    tile.arrive_remote %empty[%slot] on(%cta) : !barriers
    ```
  }];
  let arguments = (ins NVGPU_MBarrierGroup:$barriers, Index:$index,
                       Index:$cta);
  let assemblyFormat = "$barriers `[` $index `]` `on` `(` $cta `)` attr-dict "
                       "`:` type($barriers)";
}

def Tile_HeldStageOp : Tile_Op<"held_stage", [Pure]> {
  let summary = "A stage the pipeline's consumer still holds";
  let description = [{
    The stage index of the iteration `back` iterations before the region's
    own: in `consume` at iteration `k`, of iteration `k - back` (0 <= back
    <= in_flight: the current stage and the ones whose wgmma reads may still
    be in flight, released only after this body); in `epilogue`, which runs
    after the tile's last iteration, of iteration `count - back` (1 <= back
    <= in_flight: the stages the tile still holds there). Attention's
    `O += P V` of the previous block reads that block's V in `consume`, and
    its last one in `epilogue`, where a persistent kernel may also stage
    its output in such a stage. `tile-expand-pipelines` replaces it with the
    index it computes from the ring position the consumer's loop carries, so
    the regions need no ring arithmetic of their own (which a persistent
    pipeline, whose tiles may have different iteration counts, could not
    write). Where that iteration does not exist (`k < back`, or a tile
    without `back` iterations) the index is unspecified.

    ```mlir
    } epilogue {
    ^bb0(%tile: index, %c: index, %acc: !acc):
      %last = tile.held_stage 1
      %v = tile.stage %sv[%last] : !stagesV -> !tileV
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$back);
  let results = (outs Index:$stage);
  let assemblyFormat = "$back attr-dict";
  let hasVerifier = 1;
}

def Tile_ReleaseTileLoadsOp : Tile_Op<"release_tile_loads"> {
  let summary = "Where a consumer's last reads of the tile_loads buffers end";
  let description = [{
    In `consume`, directly in its body: the point after which an iteration
    no longer reads the buffers `tile_loads` fills (its reads of them, wgmma
    ones included, are complete there). `tile-expand-pipelines` releases the
    buffers at this point of the tile's last iteration, instead of before the
    epilogue, so the producer loads the next tile's while this tile's last
    iteration and its epilogue still run (attention's query rows, whose last
    reader is the last block's S = Q K^T, once the wgmma wait after it
    returned). A tile without iterations releases them before its epilogue,
    as without the op. The epilogue must not use the buffers (they would be
    released after it), and the op appears at most once.

    ```mlir
    } consume {
    ^bb0(%t: index, %k: index, %ks: !tileK, %c: index, %acc: !acc):
      ...  // S = Q K^T, committed
      nvvm.wgmma.wait.group.sync.aligned 0
      tile.release_tile_loads
      ...  // softmax, P V
    ```
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def Tile_YieldOp : Tile_Op<"yield", [
    Pure, Terminator, HasParent<"PipelineOp">]> {
  let summary = "Ends a tile.pipeline region";
  let description = [{
    Ends `produce` and `epilogue` with no values, `consume` with the
    values it carries to the next iteration (and, after the last one, to
    `epilogue`), and `iterations` with a work tile's first and end
    iteration.
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

include "tile/Dialect/Tile/IR/DeviceMapOps.td"

#endif // TILE_OPS_TD
