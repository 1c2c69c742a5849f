//===- TileAttrs.td - tile dialect attributes --------------*- tablegen -*-===//

#ifndef TILE_ATTRS_TD
#define TILE_ATTRS_TD

include "tile/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/EnumAttr.td"
include "tile/Dialect/Tile/IR/TileEnums.td"

def Tile_LayoutAttr : AttrDef<Tile_Dialect, "Layout", [
    DeclareAttrInterfaceMethods<MemRefLayoutAttrInterface,
        ["isIdentity", "verifyLayout", "getStridesAndOffset"]>]> {
  let mnemonic = "layout";
  let summary = "Shard layout with an optional hardware swizzle";
  let description = [{
    A list of shards `extent:stride` (outer to inner, strides in elements) and
    an optional swizzle that XORs bits [4, 4+B) of the absolute byte address
    with bits [7, 7+B) (B = 1, 2, 3 for 32B, 64B, 128B).

    ```mlir
    #tile.layout<(8, 256)>                                   // row-major
    #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>  // explicit
    ```

    On a buffer of shape (d0, ..., dk-1) the shards are grouped left to right
    so that each group's extents multiply to d_i (extent-1 shards may stand
    anywhere; a size-1 dimension may have an empty group). A layout that
    cannot be grouped onto its buffer's shape is rejected at the type.

    As a memref layout, `getAffineMap()` returns the unswizzled offset map
    over the shard index space (one dimension per shard); for layouts with
    one shard per buffer dimension this is the usual strided map.
    `getStridesAndOffset` succeeds only for unswizzled layouts with one shard
    per dimension, so upstream ops that need strided memrefs reject the
    others; use `tile.stage` and `tile.arena_view` for those.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$extents,
                        ArrayRefParameter<"int64_t">:$strides,
                        "unsigned":$swizzle);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The pure C++ layout this attribute denotes.
    ::tile::Layout getLayout() const;
    /// Builds the attribute of a pure C++ layout (its element offset must be
    /// zero: the attribute syntax has none).
    static LayoutAttr get(::mlir::MLIRContext *ctx,
                          const ::tile::Layout &layout);
    ::tile::Swizzle getSwizzleMode() const {
      return static_cast<::tile::Swizzle>(getSwizzle());
    }
  }];
}

def Tile_TmaPlanAttr : AttrDef<Tile_Dialect, "TmaPlan"> {
  let mnemonic = "tma_plan";
  let summary = "The recorded TMA plan of one copy: tensor map and issues";
  let description = [{
    What `tile-plan-copies` decided for a copy the `tma` variant lowers: every
    field of the tensor-map descriptor (lists innermost first, as the driver
    takes them) and one entry per `cp.async.bulk.tensor` instruction with its
    shared byte offset and coordinates. Offsets and coordinates are affine in
    the copy's dynamic offsets: `sN` is the N-th distinct dynamic offset
    operand of the copy, in operand order.

    ```mlir
    #tile.tma_plan<"f16", dim = [256, 8], strides = [512], box = [64, 8],
                   element_strides = [1, 1], swizzle = "128B", interleave = 0,
                   l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2,
                   promoted = false, issues = [{smem = 0, coords = [s0, 0]} ],
                   bytes = 1024>
    ```

    The host encodes the map from this record and the conversion emits the
    issues from it; neither plans again. The record's verifier runs the
    hardware model on it against the copy it is attached to, so a
    transformation that changes the copy after planning is an error
    (`plan-stale`), not a map that no longer fits the instructions.
  }];
  let parameters = (ins
    AttrParameter<"::tile::tma::TmaPlan", "", "const ::tile::tma::TmaPlan &">:$plan);
  let hasCustomAssemblyFormat = 1;
}

def Tile_TiledMapAttr : AttrDef<Tile_Dialect, "TiledMap"> {
  let mnemonic = "tiled_map";
  let summary = "Every field of one cuTensorMapEncodeTiled call";
  let description = [{
    The descriptor a host encodes for a tiled tensor map, lists innermost
    first as the driver takes them: data type, global dimensions, global
    strides in bytes (one fewer than the rank), box, element strides,
    swizzle, interleave, L2 promotion, out-of-bounds fill, the byte offset to
    add to the buffer's aligned pointer, and the descriptor element's bytes
    (`promoted` when the planner widened it).

    ```mlir
    #tile.tiled_map<"f16", dim = [64, 8, 4], strides = [512, 128],
                    box = [64, 8, 4], element_strides = [1, 1, 1],
                    swizzle = "none", interleave = 0, l2_promotion = 2,
                    oob = "zero", base = 0, element_bytes = 2,
                    promoted = false>
    ```

    A field the host reads from the buffer at run time is `size(D)`,
    `stride(D)*S` or `size(D)/N` (memref dimension D); a run-time memref
    offset adds `offset_scale = B` bytes per element after `promoted`.
  }];
  let parameters = (ins
    AttrParameter<"::tile::tma::TensorMapDesc", "", "const ::tile::tma::TensorMapDesc &">:$desc);
  let hasCustomAssemblyFormat = 1;
}

def Tile_Im2colMapAttr : AttrDef<Tile_Dialect, "Im2colMap"> {
  let mnemonic = "im2col_map";
  let summary = "The fields of one cuTensorMapEncodeIm2col call";
  let description = [{
    What a host passes to `cuTensorMapEncodeIm2col` besides the buffer's
    sizes and strides, which it reads from the buffer at run time (innermost
    first): data type, rank, the corners (rank - 2 values, innermost spatial
    dimension first), channels per pixel, pixels per column, element strides,
    swizzle, L2 promotion, out-of-bounds fill and the element's bytes. The
    plan of a copy (`#tile.im2col_plan`) also lists the static sizes and
    byte strides (`dim`, `strides`) after the data type.

    ```mlir
    #tile.im2col_map<"f16", rank = 4, lower_corner = [-1, -1],
                     upper_corner = [-1, -1], channels_per_pixel = 64,
                     pixels_per_column = 128, element_strides = [1, 1, 1, 1],
                     swizzle = "128B", l2_promotion = 2, oob = "zero",
                     element_bytes = 2>
    ```
  }];
  let parameters = (ins
    AttrParameter<"::tile::tma::Im2colMapDesc", "", "const ::tile::tma::Im2colMapDesc &">:$desc);
  let hasCustomAssemblyFormat = 1;
}

// A #tile.im2col_map parameter, written with its mnemonic like the
// `map` of #tile.tensor_map.
def Tile_Im2colMapParameter
    : AttrParameter<"::mlir::tile::Im2colMapAttr", "an im2col map"> {
  let printer = [{ $_printer.printAttribute($_self) }];
  let parser = [{ ::mlir::tile::parseIm2colMapField($_parser) }];
}

def Tile_Im2colPlanAttr : AttrDef<Tile_Dialect, "Im2colPlan"> {
  let mnemonic = "im2col_plan";
  let summary = "The recorded plan of one tile.copy_im2col";
  let description = [{
    What `tile-plan-copies` decided for an im2col load: the map's fields
    (with the buffer's static sizes and byte strides, innermost first, 0
    where the type leaves one to run time) and the bytes one instruction
    delivers. The tensor-map ABI, the plan report and
    `tile-check-recorded-plans` read it; none of them plans again.

    ```mlir
    #tile.im2col_plan<map = #tile.im2col_map<"f16", dim = [32, 16, 16, 0],
        strides = [64, 1024, 16384], rank = 4, ...>, bytes = 4096>
    ```
  }];
  let parameters = (ins Tile_Im2colMapParameter:$map, "int64_t":$bytes);
  let assemblyFormat = "`<` struct($map, $bytes) `>`";
  let extraClassDeclaration = [{
    /// The pure C++ plan this record holds.
    ::tile::tma::Im2colPlan getPlan() const {
      return ::tile::tma::Im2colPlan{getMap().getDesc(), getBytes()};
    }
  }];
}

def Tile_WgmmaPlanAttr : AttrDef<Tile_Dialect, "WgmmaPlan"> {
  let mnemonic = "wgmma_plan";
  let summary = "The recorded plan of one tile.wgmma_descriptor";
  let description = [{
    What `tile-plan-copies` decided for a wgmma shared-memory descriptor:
    the fields that are constants of the layout, in bytes (leading and
    stride byte offsets, the base offset) and the swizzle mode. The start
    address is the block's address, which the lowering computes from the
    row and column. The conversion reads the record and does not plan
    again.

    ```mlir
    #tile.wgmma_plan<lbo = 16, sbo = 1024, base_offset = 0, swizzle = "128B">
    ```
  }];
  let parameters = (ins "int64_t":$lbo, "int64_t":$sbo, "int64_t":$base_offset,
                        EnumParameter<Tile_WgmmaSwizzle>:$swizzle);
  let assemblyFormat = "`<` struct($lbo, $sbo, $base_offset, $swizzle) `>`";
}

def Tile_GuardAttr : AttrDef<Tile_Dialect, "Guard"> {
  let mnemonic = "guard";
  let summary = "A run-time fact a tensor map relies on, for the host to check";
  let description = [{
    The linear value `constant + sum(coeff * value)` over the global buffer's
    run-time values (`size(D)`, `stride(D)`, `offset`, `address`) must be a
    multiple of `modulus` (`multiple_of`) or lie in `[lo, hi]`
    (`in_range`); `rule` is the id of the rule the map would break
    otherwise (docs/rules.md).

    ```mlir
    #tile.guard<multiple_of, rule = "global-stride", constant = 0,
                terms = [stride(0)*2], modulus = 16>
    #tile.guard<in_range, rule = "global-dim", constant = 0,
                terms = [size(1)], lo = 1, hi = 4294967296>
    ```
  }];
  let parameters = (ins
    AttrParameter<"::tile::tma::Guard", "", "const ::tile::tma::Guard &">:$guard);
  let hasCustomAssemblyFormat = 1;
}

def Tile_TensorMapAttr : AttrDef<Tile_Dialect, "TensorMap"> {
  let mnemonic = "tensor_map";
  let summary = "One tensor-map argument of a kernel, as its host encodes it";
  let description = [{
    `tile-tensor-map-abi` records one of these per map argument of a kernel,
    in argument order, in the kernel's `tile.tensor_maps`: how the map is
    encoded (`tiled` or `im2col`), the kernel argument that takes it (`arg`;
    `param` is its index once memrefs are expanded, which
    `tile-finalize-kernel-abi` adds), the kernel argument holding its global
    buffer (`global_arg`), the encode's fields (`map`: a `#tile.tiled_map`
    for a tiled map, a `#tile.im2col_map` for an im2col one) and the guards
    the host checks before it encodes (tiled maps only).

    ```mlir
    #tile.tensor_map<tiled, arg = 2, global_arg = 0,
                     map = #tile.tiled_map<"f16", dim = [64, 8, 4], ...>>
    ```

    This is the record a host that is not ours reads (docs/embedding.md);
    the C API (`tile-c/TensorMap.h`) gives it as plain C structs.
  }];
  let parameters = (ins
    EnumParameter<Tile_TensorMapMode>:$mode,
    "int64_t":$arg,
    OptionalParameter<"std::optional<int64_t>">:$param,
    "int64_t":$global_arg,
    "::mlir::Attribute":$map,
    OptionalParameter<"::mlir::ArrayAttr">:$guards);
  let assemblyFormat =
      "`<` $mode `,` struct($arg, $param, $global_arg, $map, $guards) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The record without its own position (arg and param): equal keys are
    /// one map of one buffer, which a kernel takes once.
    TensorMapAttr getEncodeKey() const;
    /// The tiled map's fields (null for an im2col map).
    TiledMapAttr getTiledMap() const {
      return ::llvm::dyn_cast<TiledMapAttr>(getMap());
    }
    /// The guards, in the order the host checks them.
    auto getGuardList() const {
      return getGuards() ? getGuards().getAsRange<GuardAttr>()
                         : ::mlir::ArrayAttr::get(getContext(), {})
                               .getAsRange<GuardAttr>();
    }
    /// The im2col map's fields (null for a tiled map).
    Im2colMapAttr getIm2colMap() const {
      return ::llvm::dyn_cast<Im2colMapAttr>(getMap());
    }
  }];
}

def Tile_ConsumerReadsAttr
    : EnumAttr<Tile_Dialect, Tile_ConsumerReads, "consumer_reads"> {
  let summary = "How a tile.pipeline's consumers read a stage";
  let assemblyFormat = "`<` $value `>`";
}

def Tile_ConsumerScheduleAttr
    : EnumAttr<Tile_Dialect, Tile_ConsumerSchedule, "consumer_schedule"> {
  let summary = "How a persistent tile.pipeline's consumers share its tiles";
  let assemblyFormat = "`<` $value `>`";
}

def Tile_WgmmaMajorAttr
    : EnumAttr<Tile_Dialect, Tile_WgmmaMajor, "wgmma_major"> {
  let summary = "Which dimension of a wgmma shared operand is contiguous";
  let assemblyFormat = "`<` $value `>`";
}

#endif // TILE_ATTRS_TD
