//===- ElementwiseAddressTest.cpp - Element-wise copies vs lib/Layout -----===//
//
// Lowers small simt and collective copies with --convert-tile-to-nvvm, then
// evaluates the emitted index arithmetic on the CPU with a small interpreter:
// for every thread and every iteration of every copy loop, the store's and
// the load's addresses (and the out-of-bounds predicate) are compared with the
// addresses and bounds the layout library computes for each element, and
// every element must be moved exactly once. Vector accesses are checked lane
// by lane: every lane's address is the first lane's plus its byte offset, and
// every lane has the predicate's in-bounds state.
//
//===----------------------------------------------------------------------===//

#include "../TileTestContext.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/IR/TileTypeUtils.h"
#include "tile/InitAllTile.h"
#include "tile/Layout/Layout.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Base byte address the interpreter gives function argument `i`'s buffer.
int64_t argBase(unsigned i) { return (int64_t(i) + 1) << 24; }

/// One side of a copy as the layout library sees it.
struct Side {
  MemRefType type;
  std::vector<int64_t> offsets, sizes;
  ::tile::GroupedLayout layout;
  int64_t base = 0; // byte address of the buffer (before the layout offset)

  std::vector<int64_t> index(int64_t e) const {
    std::vector<int64_t> idx(sizes.size());
    for (int d = static_cast<int>(sizes.size()) - 1; d >= 0; --d) {
      idx[d] = offsets[d] + e % sizes[d];
      e /= sizes[d];
    }
    return idx;
  }
  bool inBounds(const std::vector<int64_t> &idx) const {
    for (auto [d, i] : llvm::enumerate(idx))
      if (i < 0 || i >= type.getDimSize(d))
        return false;
    return true;
  }
  int64_t address(const std::vector<int64_t> &idx) const {
    return layout.byteAddressOf(idx, *getElementBytes(type), base);
  }
};

/// The byte address of a buffer: the arena lies at 0, a stage lies its stage
/// stride times its (bound) index past its source.
int64_t bufferBase(Value buffer, const DenseMap<Value, int64_t> &bound) {
  if (auto arena = buffer.getDefiningOp<ArenaViewOp>())
    return arena.getOffset();
  if (auto stage = buffer.getDefiningOp<StageOp>()) {
    EXPECT_TRUE(bound.count(stage.getIndex()));
    return bufferBase(stage.getSource(), bound) +
           bound.lookup(stage.getIndex()) * stage.getStageStrideBytes();
  }
  return argBase(cast<BlockArgument>(buffer).getArgNumber());
}

/// The layout library's view of `buffer` (a tile layout, or the strides and
/// offset of a strided memref) and the base the interpreter gives it.
Side makeSide(Value buffer, ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes,
              const DenseMap<Value, int64_t> &bound) {
  Side side;
  side.type = cast<MemRefType>(buffer.getType());
  side.offsets.assign(offsets.begin(), offsets.end());
  side.sizes.assign(sizes.begin(), sizes.end());
  std::vector<int64_t> shape(side.type.getShape().begin(),
                             side.type.getShape().end());
  if (isa<LayoutAttr>(side.type.getLayout())) {
    side.layout = *getGroupedLayout(side.type);
  } else {
    SmallVector<int64_t> strides;
    int64_t offset;
    EXPECT_TRUE(succeeded(side.type.getStridesAndOffset(strides, offset)));
    std::vector<::tile::Shard> shards;
    for (auto [extent, stride] : llvm::zip(shape, strides))
      shards.push_back({extent, stride});
    side.layout = *::tile::groupOnto(
        ::tile::Layout(shards, ::tile::Swizzle::None, offset), shape);
  }
  side.base = bufferBase(buffer, bound);
  return side;
}

/// Evaluates integer, index and pointer SSA values of the lowered copy.
class Interpreter {
public:
  explicit Interpreter(DenseMap<Value, int64_t> bound)
      : bound(std::move(bound)) {}

  void clear() { cache.clear(); }
  void set(Value v, int64_t x) { cache[v] = x; }

  int64_t eval(Value v) {
    if (auto it = bound.find(v); it != bound.end())
      return it->second;
    if (auto it = cache.find(v); it != cache.end())
      return it->second;
    int64_t x = normalize(v.getType(), compute(v));
    cache[v] = x;
    return x;
  }

  bool failed = false;
  std::string error;
  /// The thread the interpreter runs as, in a block of `blockDim` x 1 x 1.
  int64_t threadId = 0, blockDim = 1;

private:
  static unsigned widthOf(Type t) {
    if (auto i = dyn_cast<IntegerType>(t))
      return i.getWidth();
    return 64; // index, pointers
  }
  static int64_t normalize(Type t, int64_t x) {
    unsigned w = widthOf(t);
    if (w >= 64)
      return x;
    if (w == 1)
      return x & 1;
    return llvm::SignExtend64(static_cast<uint64_t>(x), w);
  }
  static uint64_t unsignedOf(Type t, int64_t x) {
    unsigned w = widthOf(t);
    return w >= 64 ? static_cast<uint64_t>(x)
                   : static_cast<uint64_t>(x) & ((uint64_t(1) << w) - 1);
  }

  int64_t fail(Operation *op, StringRef why) {
    if (!failed) {
      failed = true;
      llvm::raw_string_ostream os(error);
      os << why << ": " << *op;
    }
    return 0;
  }

  /// A field of a memref descriptor of function argument `arg`.
  int64_t descriptorField(Operation *op, BlockArgument arg,
                          ArrayRef<int64_t> pos) {
    auto type = cast<MemRefType>(arg.getType());
    SmallVector<int64_t> strides;
    int64_t offset;
    if (llvm::failed(type.getStridesAndOffset(strides, offset)))
      return fail(op, "descriptor of a non-strided memref");
    switch (pos[0]) {
    case 0:
    case 1:
      return argBase(arg.getArgNumber());
    case 2:
      return offset;
    case 3:
      return type.getDimSize(pos[1]);
    case 4:
      return strides[pos[1]];
    }
    return fail(op, "descriptor field");
  }

  int64_t compute(Value v) {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return fail(arg.getOwner()->getParentOp(), "unbound block argument");
    Operation *op = v.getDefiningOp();
    auto lhs = [&] { return eval(op->getOperand(0)); };
    auto rhs = [&] { return eval(op->getOperand(1)); };
    auto ulhs = [&] { return unsignedOf(op->getOperand(0).getType(), lhs()); };
    auto urhs = [&] { return unsignedOf(op->getOperand(1).getType(), rhs()); };
    if (auto c = dyn_cast<arith::ConstantOp>(op)) {
      if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
        return i.getValue().getSExtValue();
      return fail(op, "non-integer constant");
    }
    if (isa<arith::AddIOp>(op))
      return lhs() + rhs();
    if (isa<arith::SubIOp>(op))
      return lhs() - rhs();
    if (isa<arith::MulIOp>(op))
      return lhs() * rhs();
    if (isa<arith::DivSIOp>(op))
      return rhs() == 0 ? fail(op, "division by zero") : lhs() / rhs();
    if (isa<arith::RemSIOp>(op))
      return rhs() == 0 ? fail(op, "division by zero") : lhs() % rhs();
    if (isa<arith::FloorDivSIOp>(op)) {
      int64_t a = lhs(), b = rhs();
      if (b == 0)
        return fail(op, "division by zero");
      int64_t q = a / b;
      return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
    }
    if (isa<arith::DivUIOp>(op))
      return urhs() == 0 ? fail(op, "division by zero")
                         : static_cast<int64_t>(ulhs() / urhs());
    if (isa<arith::RemUIOp>(op))
      return urhs() == 0 ? fail(op, "division by zero")
                         : static_cast<int64_t>(ulhs() % urhs());
    if (isa<arith::AndIOp>(op))
      return lhs() & rhs();
    if (isa<arith::OrIOp>(op))
      return lhs() | rhs();
    if (isa<arith::XOrIOp>(op))
      return lhs() ^ rhs();
    if (isa<arith::ShLIOp>(op))
      return static_cast<int64_t>(static_cast<uint64_t>(lhs()) << rhs());
    if (isa<arith::ShRUIOp>(op))
      return static_cast<int64_t>(ulhs() >> rhs());
    if (isa<arith::ShRSIOp>(op))
      return lhs() >> rhs();
    if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>(op))
      return lhs();
    if (isa<arith::IndexCastUIOp, arith::ExtUIOp>(op))
      return static_cast<int64_t>(ulhs());
    if (auto sel = dyn_cast<arith::SelectOp>(op))
      return eval(sel.getCondition()) ? eval(sel.getTrueValue())
                                      : eval(sel.getFalseValue());
    if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
      int64_t a = lhs(), b = rhs();
      uint64_t ua = ulhs(), ub = urhs();
      switch (cmp.getPredicate()) {
      case arith::CmpIPredicate::eq:
        return a == b;
      case arith::CmpIPredicate::ne:
        return a != b;
      case arith::CmpIPredicate::slt:
        return a < b;
      case arith::CmpIPredicate::sle:
        return a <= b;
      case arith::CmpIPredicate::sgt:
        return a > b;
      case arith::CmpIPredicate::sge:
        return a >= b;
      case arith::CmpIPredicate::ult:
        return ua < ub;
      case arith::CmpIPredicate::ule:
        return ua <= ub;
      case arith::CmpIPredicate::ugt:
        return ua > ub;
      case arith::CmpIPredicate::uge:
        return ua >= ub;
      }
    }
    if (auto tid = dyn_cast<gpu::ThreadIdOp>(op))
      return tid.getDimension() == gpu::Dimension::x ? threadId : 0;
    if (auto dim = dyn_cast<gpu::BlockDimOp>(op))
      return dim.getDimension() == gpu::Dimension::x ? blockDim : 1;
    if (isa<LLVM::AddressOfOp>(op))
      return 0; // the arena
    if (auto gep = dyn_cast<LLVM::GEPOp>(op)) {
      if (!gep.getElemType().isInteger(8) ||
          gep.getDynamicIndices().size() != 1 ||
          gep.getRawConstantIndices().size() != 1)
        return fail(op, "GEP other than a byte offset");
      return eval(gep.getBase()) + eval(gep.getDynamicIndices()[0]);
    }
    if (isa<LLVM::PtrToIntOp, LLVM::AddrSpaceCastOp>(op))
      return lhs();
    if (auto extract = dyn_cast<LLVM::ExtractValueOp>(op)) {
      auto cast =
          extract.getContainer().getDefiningOp<UnrealizedConversionCastOp>();
      auto arg =
          cast ? dyn_cast<BlockArgument>(cast.getOperand(0)) : BlockArgument();
      if (!arg)
        return fail(op, "extractvalue of an unknown descriptor");
      return descriptorField(op, arg, extract.getPosition());
    }
    if (auto cast = dyn_cast<UnrealizedConversionCastOp>(op)) {
      if (auto arg = dyn_cast<BlockArgument>(cast.getOperand(0));
          arg && isa<LLVM::LLVMPointerType>(v.getType()))
        return argBase(arg.getArgNumber());
      return fail(op, "cast");
    }
    return fail(op, "op the interpreter does not know");
  }

  DenseMap<Value, int64_t> bound;
  DenseMap<Value, int64_t> cache;
};

class ElementwiseAddressTest : public ::testing::Test {
protected:
  void SetUp() override {
    test::loadTileTestDialects(context);
    registerAllTilePasses();
  }

  /// Lowers the single copy (`tile.copy_async`, or `tile.copy` run by
  /// `threads` threads) of `source`'s function and checks every loop it
  /// emits against the layout library: each element is moved exactly once
  /// across the threads, to and from the addresses the layout library
  /// computes. `args` binds index arguments. Returns the vector widths of the
  /// loops checked, in program order.
  std::vector<int64_t> check(StringRef source,
                             std::vector<std::pair<unsigned, int64_t>> args,
                             int64_t threads = 1) {
    std::vector<int64_t> widths;
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    if (!module)
      return widths;
    auto func = *module->getOps<func::FuncOp>().begin();
    Operation *copy = nullptr;
    func.walk([&](Operation *op) {
      if (isa<CopyAsyncOp, CopyOp>(op))
        copy = op;
    });
    EXPECT_TRUE(copy);
    if (!copy)
      return widths;
    DenseMap<Value, int64_t> bound;
    for (auto [i, value] : args)
      bound[func.getArgument(i)] = value;
    auto constOffsets = [&](SmallVector<OpFoldResult> ofrs) {
      std::vector<int64_t> out;
      for (OpFoldResult ofr : ofrs) {
        if (auto attr = dyn_cast<Attribute>(ofr))
          out.push_back(cast<IntegerAttr>(attr).getInt());
        else
          out.push_back(bound.lookup(cast<Value>(ofr)));
      }
      return out;
    };
    auto sides = [&](auto op) {
      return std::make_pair(
          makeSide(op.getDst(), constOffsets(op.getMixedDstOffsets()),
                   op.getDstSizes(), bound),
          makeSide(op.getSrc(), constOffsets(op.getMixedSrcOffsets()),
                   op.getSrcSizes(), bound));
    };
    bool load = false;
    Side dst, src;
    if (auto async = dyn_cast<CopyAsyncOp>(copy)) {
      std::tie(dst, src) = sides(async);
      load = async.isLoad();
    } else {
      std::tie(dst, src) = sides(cast<CopyOp>(copy));
    }
    int64_t eb = *getElementBytes(src.type);
    int64_t count = 1;
    for (int64_t s : src.sizes)
      count *= s;

    PassManager pm(&context);
    EXPECT_TRUE(succeeded(
        parsePassPipeline("tile-plan-copies,convert-tile-to-nvvm", pm)));
    EXPECT_TRUE(succeeded(pm.run(*module)));
    // The conversion keeps the function (and its arguments).
    func = *module->getOps<func::FuncOp>().begin();
    DenseMap<Value, int64_t> rebound;
    for (auto [i, value] : args)
      rebound[func.getArgument(i)] = value;
    Interpreter interp(std::move(rebound));

    SmallVector<scf::ForOp> loops;
    func.walk([&](scf::ForOp loop) { loops.push_back(loop); });
    EXPECT_FALSE(loops.empty());
    for (scf::ForOp loop : loops) {
      LLVM::StoreOp store;
      LLVM::LoadOp loadOp;
      loop.getBody()->walk([&](Operation *op) {
        if (auto s = dyn_cast<LLVM::StoreOp>(op))
          store = s;
        if (auto l = dyn_cast<LLVM::LoadOp>(op))
          loadOp = l;
      });
      EXPECT_TRUE(store && loadOp);
      if (!store || !loadOp)
        continue;
      auto vecType = dyn_cast<VectorType>(store.getValue().getType());
      int64_t width = vecType ? vecType.getNumElements() : 1;
      widths.push_back(width);
      scf::IfOp guard = loadOp->getParentOfType<scf::IfOp>();
      if (guard && !loop->isProperAncestor(guard))
        guard = nullptr;
      EXPECT_EQ(guard != nullptr, load) << "only loads fill out of bounds";
      std::vector<int> moved(count, 0);
      int mismatches = 0;
      for (int64_t t = 0; t < threads && mismatches < 5; ++t) {
        interp.threadId = t;
        interp.blockDim = threads;
        interp.clear();
        int64_t lb = interp.eval(loop.getLowerBound());
        int64_t ub = interp.eval(loop.getUpperBound());
        int64_t step = interp.eval(loop.getStep());
        EXPECT_EQ(ub * width, count);
        if (step <= 0) {
          ++mismatches;
          ADD_FAILURE() << "thread " << t << " steps by " << step;
          break;
        }
        for (int64_t iv = lb; iv < ub && mismatches < 5; iv += step) {
          interp.clear();
          interp.set(loop.getInductionVar(), iv);
          int64_t dstPtr = interp.eval(store.getAddr());
          bool taken = !guard || interp.eval(guard.getCondition());
          int64_t srcPtr = taken ? interp.eval(loadOp.getAddr()) : 0;
          if (interp.failed) {
            ADD_FAILURE() << interp.error;
            return widths;
          }
          for (int64_t k = 0; k < width; ++k) {
            int64_t e = iv * width + k;
            if (e < 0 || e >= count) {
              ++mismatches;
              ADD_FAILURE() << "element " << e << " outside the region";
              continue;
            }
            ++moved[e];
            std::vector<int64_t> di = dst.index(e), si = src.index(e);
            EXPECT_TRUE(dst.inBounds(di));
            int64_t wantDst = dst.address(di);
            if (dstPtr + k * eb != wantDst) {
              ++mismatches;
              ADD_FAILURE()
                  << "element " << e << " (lane " << k << "): store address "
                  << dstPtr + k * eb << ", layout says " << wantDst;
            }
            bool inside = src.inBounds(si);
            if (guard && inside != taken) {
              ++mismatches;
              ADD_FAILURE()
                  << "element " << e << " (lane " << k << "): in bounds "
                  << inside << ", predicate " << taken;
            }
            if (taken && inside && srcPtr + k * eb != src.address(si)) {
              ++mismatches;
              ADD_FAILURE()
                  << "element " << e << " (lane " << k << "): load address "
                  << srcPtr + k * eb << ", layout says " << src.address(si);
            }
          }
        }
      }
      if (mismatches == 0)
        for (int64_t e = 0; e < count; ++e)
          if (moved[e] != 1) {
            ADD_FAILURE() << "element " << e << " moved " << moved[e]
                          << " times by " << threads << " threads";
            break;
          }
    }
    return widths;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(ElementwiseAddressTest, SwizzledSharedFromStridedGlobalWithNaNFill) {
  // 16-byte vectors (with a pointer check) and the scalar fallback: rows
  // -2 and -1 lie outside the tensor.
  std::vector<int64_t> widths = check(R"mlir(
!swz = memref<8x64xf16, #tile.layout<(8, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @f(%g: memref<16x64xf16, strided<[72, 1], offset: 8>>, %bar: !bars, %c0: index) {
  %s = tile.arena_view [1024] : !swz
  tile.copy_async %s[0, 0] [8, 64], %g[-2, 0] [8, 64] barrier(%bar[%c0]) {dispatch = "simt", oob = "nan"}
      : !swz, memref<16x64xf16, strided<[72, 1], offset: 8>>, !bars
  return
}
)mlir",
                                      {{2, 0}});
  EXPECT_EQ(widths, (std::vector<int64_t>{8, 1}));
}

TEST_F(ElementwiseAddressTest, TransposedSharedAcrossTheTensorEdge) {
  // Rows [r, r + 64) with r = 10 leave the 70-row tensor; columns end
  // exactly at its edge.
  std::vector<int64_t> widths = check(R"mlir(
!t = memref<64x32xf16, #tile.layout<(64, 32) : (1, 64)>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @f(%g: memref<70x40xf16>, %bar: !bars, %c0: index, %r: index) {
  %t = tile.arena_view [2048] : !t
  tile.copy_async %t[0, 0] [64, 32], %g[%r, 8] [64, 32] barrier(%bar[%c0])
      : !t, memref<70x40xf16>, !bars
  return
}
)mlir",
                                      {{2, 0}, {3, 10}});
  EXPECT_EQ(widths, (std::vector<int64_t>{1}));
}

TEST_F(ElementwiseAddressTest, VectorsStopAtAnEdgeTheyWouldStraddle) {
  // 60 columns: 8-element vectors would straddle the edge at column 60, so
  // the copy uses 4-element vectors, each wholly inside or outside.
  std::vector<int64_t> widths = check(R"mlir(
!s = memref<8x64xf16, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @f(%g: memref<16x60xf16, strided<[64, 1]>>, %bar: !bars, %c0: index) {
  %s = tile.arena_view [0] : !s
  tile.copy_async %s[0, 0] [8, 64], %g[4, 8] [8, 64] barrier(%bar[%c0]) {dispatch = "simt"}
      : !s, memref<16x60xf16, strided<[64, 1]>>, !bars
  return
}
)mlir",
                                      {{2, 0}});
  EXPECT_EQ(widths, (std::vector<int64_t>{4, 1}));
}

TEST_F(ElementwiseAddressTest, SwizzledStagedSharedToStridedGlobal) {
  // A store from a 64B-swizzled stage to a strided f32 global region at a
  // dynamic row: scalar (the global offset 3 is not vector-aligned).
  std::vector<int64_t> widths = check(R"mlir(
!st = memref<2x8x16xf32, #tile.layout<(2, 8, 16), swizzle = 64B>, #gpu.address_space<workgroup>>
!s = memref<8x16xf32, #tile.layout<(8, 16), swizzle = 64B>, #gpu.address_space<workgroup>>
func.func @f(%g: memref<40x48xf32, strided<[52, 1], offset: 3>>, %k: index, %row: index) {
  %stages = tile.arena_view [1024] : !st
  %s = tile.stage %stages[%k] : !st -> !s
  tile.copy_async %g[%row, 16] [8, 16], %s[0, 0] [8, 16] {dispatch = "simt"}
      : memref<40x48xf32, strided<[52, 1], offset: 3>>, !s
  return
}
)mlir",
                                      {{1, 1}, {2, 5}});
  EXPECT_EQ(widths, (std::vector<int64_t>{1}));
}

TEST_F(ElementwiseAddressTest, CtaCopyBetweenSwizzledSharedBuffers) {
  // 96 threads share a 32B-swizzled to 128B-swizzled shared copy of a
  // sub-region; each element moves exactly once.
  std::vector<int64_t> widths = check(R"mlir(
!a = memref<16x8xf32, #tile.layout<(16, 8), swizzle = 32B>, #gpu.address_space<workgroup>>
!b = memref<8x32xf32, #tile.layout<(8, 32), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @f() {
  %a = tile.arena_view [0] : !a
  %b = tile.arena_view [4096] : !b
  tile.copy %b[2, 8] [4, 12], %a[4, 2] [8, 6] {scope = "cta"} : !b, !a
  return
}
)mlir",
                                      {}, 96);
  EXPECT_EQ(widths, (std::vector<int64_t>{2}));
}

TEST_F(ElementwiseAddressTest, CtaCopyFromStridedGlobal) {
  std::vector<int64_t> widths = check(R"mlir(
!swz = memref<8x64xf16, #tile.layout<(8, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @f(%g: memref<24x80xf16, strided<[96, 1], offset: 16>>) {
  %s = tile.arena_view [2048] : !swz
  tile.copy %s[0, 0] [8, 64], %g[9, 8] [8, 64] {scope = "cta"}
      : !swz, memref<24x80xf16, strided<[96, 1], offset: 16>>
  return
}
)mlir",
                                      {}, 128);
  EXPECT_EQ(widths, (std::vector<int64_t>{8, 1}));
}

TEST_F(ElementwiseAddressTest, SharedDimensionOfSeveralShards) {
  // Columns as (2, 32) : (256, 1): column c lies at (c / 32) * 256 + c % 32,
  // so the inner digit must wrap at 32. The outer shard's stride (256) keeps
  // 16-byte vectors aligned.
  std::vector<int64_t> widths = check(R"mlir(
!s = memref<8x64xf16, #tile.layout<(8, 2, 32) : (32, 256, 1)>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @f(%g: memref<16x64xf16>, %bar: !bars, %c0: index) {
  %s = tile.arena_view [1024] : !s
  tile.copy_async %s[0, 0] [8, 64], %g[4, 0] [8, 64] barrier(%bar[%c0]) {dispatch = "simt"}
      : !s, memref<16x64xf16>, !bars
  return
}
)mlir",
                                      {{2, 0}});
  EXPECT_EQ(widths, (std::vector<int64_t>{8, 1}));
}

TEST_F(ElementwiseAddressTest, OuterStrideBreaksVectorAlignment) {
  // Rows 18 f32 (72 B) apart: a 4-element (16 B) vector at the start of
  // row 1 would not be 16-byte aligned, so the copy takes 2-element (8 B)
  // vectors.
  std::vector<int64_t> widths = check(R"mlir(
!s = memref<8x16xf32, #tile.layout<(8, 16) : (18, 1)>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @f(%g: memref<8x16xf32>, %bar: !bars, %c0: index) {
  %s = tile.arena_view [0] : !s
  tile.copy_async %s[0, 0] [8, 16], %g[0, 0] [8, 16] barrier(%bar[%c0]) {dispatch = "simt"}
      : !s, memref<8x16xf32>, !bars
  return
}
)mlir",
                                      {{2, 0}});
  EXPECT_EQ(widths, (std::vector<int64_t>{2, 1}));
}

TEST_F(ElementwiseAddressTest, WarpgroupCopyUsesAll128Threads) {
  // The 128 threads of a warpgroup share the copy: every element moves
  // exactly once.
  std::vector<int64_t> widths = check(R"mlir(
!swz = memref<8x64xf16, #tile.layout<(8, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @f(%g: memref<8x64xf16>) {
  %s = tile.arena_view [0] : !swz
  tile.copy %s[0, 0] [8, 64], %g[0, 0] [8, 64] {scope = "warpgroup"}
      : !swz, memref<8x64xf16>
  return
}
)mlir",
                                      {}, 128);
  EXPECT_EQ(widths, (std::vector<int64_t>{8, 1}));
}

} // namespace
