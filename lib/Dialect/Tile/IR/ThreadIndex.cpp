//===- ThreadIndex.cpp - A thread's place in its CTA and warpgroup --------===//

#include "tile/Dialect/Tile/IR/ThreadIndex.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

using namespace mlir;

Value mlir::tile::emitLinearThreadId(OpBuilder &b, Location loc) {
  Value x = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value y = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::y);
  Value z = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::z);
  Value dx = gpu::BlockDimOp::create(b, loc, gpu::Dimension::x);
  Value dy = gpu::BlockDimOp::create(b, loc, gpu::Dimension::y);
  Value zy =
      arith::AddIOp::create(b, loc, y, arith::MulIOp::create(b, loc, z, dy));
  return arith::AddIOp::create(b, loc, x,
                               arith::MulIOp::create(b, loc, zy, dx));
}

Value mlir::tile::emitCtaThreadCount(OpBuilder &b, Location loc) {
  Value n = gpu::BlockDimOp::create(b, loc, gpu::Dimension::x);
  for (gpu::Dimension d : {gpu::Dimension::y, gpu::Dimension::z})
    n = arith::MulIOp::create(b, loc, n, gpu::BlockDimOp::create(b, loc, d));
  return n;
}

void mlir::tile::emitWarpgroupBarrier(OpBuilder &b, Location loc,
                                      Value linearTid) {
  Value group = arith::DivUIOp::create(
      b, loc, linearTid,
      arith::ConstantIndexOp::create(b, loc, kWarpgroupThreads));
  Value id = arith::IndexCastOp::create(
      b, loc, b.getI32Type(),
      arith::AddIOp::create(b, loc, group,
                            arith::ConstantIndexOp::create(b, loc, 1)));
  Value count =
      arith::ConstantIntOp::create(b, loc, b.getI32Type(), kWarpgroupThreads);
  NVVM::BarrierOp::create(b, loc, Type(), id, count,
                          NVVM::BarrierReductionAttr(), Value());
}
