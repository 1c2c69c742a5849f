//===- TileTypeUtils.h - Memref queries shared by the dialect ---*- C++ -*-===//
//
// Classification of memref memory spaces and conversion of memref layouts
// (identity, strided, #tile.layout) into the pure C++ layout library.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILETYPEUTILS_H
#define TILE_DIALECT_TILE_IR_TILETYPEUTILS_H

#include "mlir/IR/BuiltinTypes.h"
#include "tile/Layout/Layout.h"
#include "tile/TMA/ElementType.h"
#include "tile/TMA/Plan.h"
#include <optional>
#include <string>

namespace mlir::tile {

enum class MemorySpaceKind { Global, Shared, Other };

/// Global = no memory space, `#gpu.address_space<global>` or 1; shared =
/// `#gpu.address_space<workgroup>` or 3; anything else is Other.
MemorySpaceKind getMemorySpaceKind(MemRefType type);
/// The same classification for a memory-space attribute (null: global), as
/// carried by memrefs and mbarrier groups.
MemorySpaceKind getMemorySpaceKind(Attribute space);
const char *toString(MemorySpaceKind kind);

/// Bytes of one element (sub-byte and non-scalar element types: nullopt).
std::optional<int64_t> getElementBytes(MemRefType type);

/// `type.getStridesAndOffset`, with the same result; identity layouts take
/// the suffix products of the shape instead of building and simplifying the
/// canonical affine expression, which the op verifiers would do for every
/// global buffer after every pass.
LogicalResult getMemRefStridesAndOffset(MemRefType type,
                                        SmallVectorImpl<int64_t> &strides,
                                        int64_t &offset);

/// The layout of `type` as a pure C++ layout: `#tile.layout` directly, or one
/// shard per dimension for identity and strided layouts (with their element
/// offset). Fails (with a message) for dynamic strides/offsets, dynamic
/// shapes of tile layouts, and other affine maps.
std::optional<::tile::Layout> getShardLayout(MemRefType type,
                                             std::string *error = nullptr);

/// A strided (or identity) global buffer type with '?' sizes, strides or
/// offset as the planner's symbolic global; nullopt for fully static types
/// and for layouts that are not strided (with a message).
std::optional<::tile::tma::SymbolicGlobal>
getSymbolicGlobal(MemRefType type, std::string *error = nullptr);

/// The layout of `type` grouped onto its shape.
std::optional<::tile::GroupedLayout>
getGroupedLayout(MemRefType type, std::string *error = nullptr);

/// The planner's view of an MLIR element type (nullopt for types TMA does
/// not know: index, sub-byte, complex, vectors, f80, ...).
std::optional<::tile::tma::ElementType> getTmaElementType(Type type);

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_TILETYPEUTILS_H
