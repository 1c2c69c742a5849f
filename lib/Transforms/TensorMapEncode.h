//===- TensorMapEncode.h - Host code that encodes one tensor map -*- C++
//-*-===//
//
// The host half of tile-tensor-map-abi, as a function of the typed record: a
// `#tile.tensor_map` and the memref it describes become the guards' values
// and one call of the runtime's cached encoder
// (`tileTensorMapGetCached` / `tileTensorMapIm2colGetCached`), with the
// static fields in read-only globals and the run-time ones read from the
// memref descriptor.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_TRANSFORMS_TENSORMAPENCODE_H
#define TILE_LIB_TRANSFORMS_TENSORMAPENCODE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "tile/Conversion/HostSymbols.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include <string>
#include <utility>

namespace mlir::tile::host {

/// What the host computes for one map at its hoist point.
struct EncodedMap {
  /// The map, or null when the encode failed or a guard does not hold.
  Value ptr;
  /// True when every guard holds (null when the map has none).
  Value ok;
  /// Each guard's value with its text ("<rule>: <expr>").
  SmallVector<std::pair<Value, std::string>> guards;
};

/// The type a kernel takes a tensor map as: 128 bytes by value.
Type getMapArgType(MLIRContext *ctx);

/// The module whose symbol table host code at `op` resolves symbols in.
ModuleOp symbolModuleOf(Operation *op);

// The helpers below find and add host symbols through `symbols`, the
// module's symbol table, built once per pass run: a lookup by name scans
// the module, so one per launch made a module of many launches quadratic.

/// Declares the runtime function `name` of `type` in the module of
/// `symbols`, once. A user symbol of that name is an error
/// (`reserved-symbol`) naming `purpose`.
FailureOr<func::FuncOp> getOrDeclareRuntimeFn(OpBuilder &b,
                                              SymbolTable &symbols,
                                              StringRef name, FunctionType type,
                                              StringRef purpose);

/// The address of a constant array global holding `values` (one global per
/// distinct array, e.g. @__tile_tmap_i64_64_8_4).
Value getConstantArray(OpBuilder &b, SymbolTable &symbols, Location loc,
                       ArrayRef<int64_t> values, IntegerType elementType);

/// The encode of `map` for `buffer` at `b`'s insertion point, through the
/// runtime's encoder for the map's mode (declared on first use). A tiled map
/// with guards encodes only where they hold.
FailureOr<EncodedMap> emitTensorMapEncode(OpBuilder &b, SymbolTable &symbols,
                                          Location loc, Value buffer,
                                          TensorMapAttr map);

} // namespace mlir::tile::host

#endif // TILE_LIB_TRANSFORMS_TENSORMAPENCODE_H
