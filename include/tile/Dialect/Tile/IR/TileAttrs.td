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

#endif // TILE_ATTRS_TD
