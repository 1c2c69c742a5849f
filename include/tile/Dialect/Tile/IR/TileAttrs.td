//===- TileAttrs.td - tile dialect attributes --------------*- tablegen -*-===//

#ifndef TILE_ATTRS_TD
#define TILE_ATTRS_TD

include "tile/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

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
  let parameters = (ins "::tile::tma::TmaPlan":$plan);
  let hasCustomAssemblyFormat = 1;
}

#endif // TILE_ATTRS_TD
