//===- DiscardableAttrs.h - Names of the tile discardable attrs -*- C++ -*-===//
//
// The attributes tile passes leave on ops for later passes, declared with the
// dialect (`discardableAttrs` in TileDialect.td); these constants are the
// generated names, for code that has no context at hand.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_DISCARDABLEATTRS_H
#define TILE_DIALECT_TILE_IR_DISCARDABLEATTRS_H

#include "tile/Dialect/Tile/IR/TileDialect.h"

namespace mlir::tile {
/// The selected variant's name (absent when no variant applies).
constexpr llvm::StringLiteral kVariantAttr =
    TileDialect::VariantAttrHelper::getNameStr();
/// [[variant, reason], ...] of the variants declined before the selection.
constexpr llvm::StringLiteral kDeclinedAttr =
    TileDialect::DeclinedAttrHelper::getNameStr();
/// The `#tile.tma_plan` of a copy whose variant needs a tensor map.
constexpr llvm::StringLiteral kTmaPlanAttr =
    TileDialect::TmaPlanAttrHelper::getNameStr();
/// On copies with guarded plans: the fallback version's variant and the
/// variants declined before it (tile-plan-copies, read by
/// tile-version-kernels).
constexpr llvm::StringLiteral kFallbackVariantAttr =
    TileDialect::FallbackVariantAttrHelper::getNameStr();
constexpr llvm::StringLiteral kFallbackDeclinedAttr =
    TileDialect::FallbackDeclinedAttrHelper::getNameStr();
/// The `#tile.im2col_plan` of a `tile.copy_im2col` (tile-plan-copies).
constexpr llvm::StringLiteral kIm2colPlanAttr =
    TileDialect::Im2colPlanAttrHelper::getNameStr();
/// The `#tile.wgmma_plan` of a `tile.wgmma_descriptor` (tile-plan-copies).
constexpr llvm::StringLiteral kWgmmaPlanAttr =
    TileDialect::WgmmaPlanAttrHelper::getNameStr();
/// Fingerprint (i64) of the planner request the recorded plan was made for:
/// while the copy still builds the same request, the verifier needs no model.
constexpr llvm::StringLiteral kPlanInputAttr =
    TileDialect::PlanInputAttrHelper::getNameStr();
/// On each TMA copy in a kernel: the index of the kernel argument that holds
/// its tensor map.
constexpr llvm::StringLiteral kTensorMapArgAttr =
    TileDialect::TensorMapArgAttrHelper::getNameStr();
/// On kernels: the maps the launches encode, one per map argument.
constexpr llvm::StringLiteral kTensorMapsAttr =
    TileDialect::TensorMapsAttrHelper::getNameStr();
/// On kernels with guarded TMA plans: the kernel's fallback version.
constexpr llvm::StringLiteral kFallbackAttr =
    TileDialect::FallbackAttrHelper::getNameStr();
/// On host encode calls: the map they produce.
constexpr llvm::StringLiteral kTensorMapAttr =
    TileDialect::TensorMapAttrHelper::getNameStr();
/// Marks the cast that takes a tensor-map argument's address; the kernel ABI
/// finalization turns the argument into a grid-constant byval pointer.
constexpr llvm::StringLiteral kTensorMapAddressAttr =
    TileDialect::TensorMapAddressAttrHelper::getNameStr();
/// On kernels: bytes of dynamic shared memory their arena views need.
constexpr llvm::StringLiteral kArenaBytesAttr =
    TileDialect::ArenaBytesAttrHelper::getNameStr();

/// On each tile.device_map in a kernel: its slot among the CTA's slots
/// (tile-tensor-map-abi).
constexpr llvm::StringLiteral kDeviceMapSlotAttr =
    TileDialect::DeviceMapSlotAttrHelper::getNameStr();
/// On kernels with device maps: the argument holding the slot array the
/// runtime owns, and the number of 128-byte slots per CTA.
constexpr llvm::StringLiteral kDeviceMapArrayArgAttr =
    TileDialect::DeviceMapArrayArgAttrHelper::getNameStr();
constexpr llvm::StringLiteral kDeviceMapSlotsAttr =
    TileDialect::DeviceMapSlotsAttrHelper::getNameStr();
/// Verifies a kernel's `tile.tensor_maps` (TensorMapsVerifier.cpp): every
/// field a host reads is there, run-time fields and guards name dimensions
/// of the global buffer.
LogicalResult verifyTensorMapsAttr(Operation *op, Attribute value);
} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_DISCARDABLEATTRS_H
