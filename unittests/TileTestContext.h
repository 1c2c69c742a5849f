//===- TileTestContext.h - An MLIRContext for tile unit tests ---*- C++ -*-===//
//
// The dialects the MLIR-level unit tests parse: func, arith and everything
// registerAllTileDialects brings (tile, gpu, nvgpu, memref, ...).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_UNITTESTS_TILETESTCONTEXT_H
#define TILE_UNITTESTS_TILETESTCONTEXT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "tile/InitAllTile.h"

namespace mlir::tile::test {

inline void loadTileTestDialects(MLIRContext &context) {
  DialectRegistry registry;
  registry.insert<func::FuncDialect, arith::ArithDialect>();
  registerAllTileDialects(registry);
  context.appendDialectRegistry(registry);
  context.loadAllAvailableDialects();
}

} // namespace mlir::tile::test

#endif // TILE_UNITTESTS_TILETESTCONTEXT_H
