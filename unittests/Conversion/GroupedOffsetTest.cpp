//===- GroupedOffsetTest.cpp - The grouped-offset emitter vs lib/Layout ---===//
//
// emitGroupedByteOffset (lib/Conversion/TileToNVVM/GroupedOffset.h) is the
// only place the lowering turns a `#tile.layout` index into a byte offset.
// For worked layouts with offsets computed by hand, and for random grouped
// layouts (shards, strides, extent-1 shards, size-1 dimensions, element
// offsets, element sizes and swizzles from a fixed seed), every index of the
// buffer is emitted with each dimension's index either constant or a
// function argument (i64 or index), the IR is folded with the ops' own
// folders, and the constant must equal GroupedLayout::byteAddressOf exactly.
//
//===----------------------------------------------------------------------===//

#include "GroupedOffset.h"
#include "../TileTestContext.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OwningOpRef.h"
#include "tile/Layout/Layout.h"
#include "gtest/gtest.h"

#include <random>

using namespace mlir;
using namespace mlir::tile;

namespace {

/// One emission: which dimensions' indices are constants, and of which type
/// each index is.
struct Emission {
  std::vector<bool> constant;
  std::vector<bool> indexTyped;
};

class GroupedOffsetTest : public ::testing::Test {
protected:
  void SetUp() override { test::loadTileTestDialects(context); }

  /// Folds every op of `block` in order, the block's arguments bound to
  /// `args`, and returns the value of `result`.
  std::optional<int64_t> fold(Block &block, ArrayRef<int64_t> args,
                              OpFoldResult result) {
    if (auto attr = dyn_cast<Attribute>(result))
      return cast<IntegerAttr>(attr).getValue().getSExtValue();
    DenseMap<Value, Attribute> known;
    for (auto [arg, v] : llvm::zip_equal(block.getArguments(), args))
      known[arg] = IntegerAttr::get(arg.getType(), v);
    for (Operation &op : block) {
      if (op.hasTrait<OpTrait::ConstantLike>()) {
        Attribute attr;
        if (!matchPattern(op.getResult(0), m_Constant(&attr)))
          return std::nullopt;
        known[op.getResult(0)] = attr;
        continue;
      }
      SmallVector<Attribute> operands;
      for (Value v : op.getOperands())
        operands.push_back(known.lookup(v));
      SmallVector<OpFoldResult> folded;
      if (failed(op.fold(operands, folded)) ||
          folded.size() != op.getNumResults()) {
        std::string text;
        llvm::raw_string_ostream os(text);
        os << op;
        ADD_FAILURE() << "does not fold: " << text;
        return std::nullopt;
      }
      for (auto [r, f] : llvm::zip_equal(op.getResults(), folded))
        known[r] = isa<Attribute>(f) ? cast<Attribute>(f)
                                     : known.lookup(cast<Value>(f));
    }
    auto attr =
        dyn_cast_or_null<IntegerAttr>(known.lookup(cast<Value>(result)));
    if (!attr)
      return std::nullopt;
    return attr.getValue().getSExtValue();
  }

  /// The emitter's offset of `index`, its indices passed as `how` says,
  /// folded to a constant. Checks that all-constant indices emit nothing and
  /// that the result is an i64.
  std::optional<int64_t> emitAndFold(const ::tile::GroupedLayout &layout,
                                     int64_t elementBytes,
                                     const std::vector<int64_t> &index,
                                     const Emission &how) {
    Location loc = UnknownLoc::get(&context);
    OpBuilder b(&context);
    SmallVector<Type> argTypes;
    SmallVector<int64_t> args;
    for (size_t d = 0; d < index.size(); ++d)
      if (!how.constant[d]) {
        argTypes.push_back(how.indexTyped[d] ? Type(b.getIndexType())
                                             : Type(b.getI64Type()));
        args.push_back(index[d]);
      }
    OwningOpRef<func::FuncOp> func =
        func::FuncOp::create(loc, "offset", b.getFunctionType(argTypes, {}));
    Block *block = func->addEntryBlock();
    b.setInsertionPointToEnd(block);
    SmallVector<Value> indices;
    unsigned nextArg = 0;
    for (size_t d = 0; d < index.size(); ++d) {
      if (!how.constant[d]) {
        indices.push_back(block->getArgument(nextArg++));
        continue;
      }
      indices.push_back(
          how.indexTyped[d]
              ? arith::ConstantIndexOp::create(b, loc, index[d]).getResult()
              : arith::ConstantIntOp::create(b, loc, b.getI64Type(), index[d])
                    .getResult());
    }
    size_t before = block->getOperations().size();
    OpFoldResult result =
        emitGroupedByteOffset(b, loc, layout, elementBytes, indices);
    if (llvm::all_of(how.constant, [](bool c) { return c; })) {
      EXPECT_TRUE(isa<Attribute>(result)) << "constant indices, an IR value";
      EXPECT_EQ(block->getOperations().size(), before)
          << "constant indices emitted ops";
    }
    if (auto value = dyn_cast<Value>(result))
      EXPECT_TRUE(value.getType().isInteger(64));
    else
      EXPECT_TRUE(
          cast<IntegerAttr>(cast<Attribute>(result)).getType().isInteger(64));
    return fold(*block, args, result);
  }

  /// Checks every index of `layout`, cycling each index through constant
  /// and run-time dimensions and index or i64 types; returns the number of
  /// indices checked.
  int64_t checkEveryIndex(const ::tile::GroupedLayout &layout,
                          int64_t elementBytes, uint64_t seed) {
    std::mt19937_64 rng(seed);
    size_t rank = layout.rank();
    int64_t size = 1;
    for (int64_t s : layout.shape)
      size *= s;
    int64_t repeat = ::tile::swizzleRepeatBytes(layout.swizzle);
    int mismatches = 0;
    for (int64_t flat = 0; flat < size && mismatches < 5; ++flat) {
      std::vector<int64_t> index(rank);
      for (size_t d = rank, rest = flat; d-- > 0;) {
        index[d] = static_cast<int64_t>(rest % layout.shape[d]);
        rest /= layout.shape[d];
      }
      // The first index fully constant, the second fully run-time, then
      // random mixes.
      Emission how;
      for (size_t d = 0; d < rank; ++d) {
        how.constant.push_back(flat == 0 || (flat != 1 && rng() % 2 == 0));
        how.indexTyped.push_back(rng() % 2 == 0);
      }
      std::optional<int64_t> got =
          emitAndFold(layout, elementBytes, index, how);
      int64_t want = layout.byteAddressOf(index, elementBytes);
      // The buffer starts on the swizzle's repeat: the offset is the same
      // from any such start.
      EXPECT_EQ(layout.byteAddressOf(index, elementBytes, 3 * repeat),
                3 * repeat + want);
      if (!got || *got != want) {
        ++mismatches;
        ADD_FAILURE() << "layout " << layout.flatten().str() << " grouped onto "
                      << rank << " dimensions, " << elementBytes
                      << "-byte elements, index #" << flat << ": emitted "
                      << (got ? std::to_string(*got) : "no constant")
                      << ", byteAddressOf " << want;
      }
    }
    return size;
  }

  MLIRContext context;
};

::tile::GroupedLayout grouped(std::string_view text,
                              const std::vector<int64_t> &shape) {
  std::string error;
  std::optional<::tile::Layout> layout = ::tile::Layout::parse(text, &error);
  EXPECT_TRUE(layout) << error;
  std::optional<::tile::GroupedLayout> g =
      ::tile::groupOnto(*layout, shape, &error);
  EXPECT_TRUE(g) << error;
  return *g;
}

TEST_F(GroupedOffsetTest, WorkedExamples) {
  struct Case {
    std::string_view layout;
    std::vector<int64_t> shape;
    int64_t elementBytes;
    std::vector<int64_t> index;
    int64_t bytes;
  };
  // The first four are Layout.h's worked example; the last three are the
  // wgmma lowering's two K panels (lit wgmma-descriptor.mlir): row 3, column
  // 40 lies at 3 x 32 + 1 x 4096 + 8 elements = 8400 bytes, and the 64B
  // swizzle XORs chunk bit 4 with row bit 7 (8400 has both): 8384.
  std::vector<Case> cases = {
      {"(8, 4, 64) : (64, 512, 1), swizzle = 128B", {8, 256}, 2, {1, 0}, 144},
      {"(8, 4, 64) : (64, 512, 1), swizzle = 128B", {8, 256}, 2, {0, 64}, 1024},
      {"(8, 4, 64) : (64, 512, 1), swizzle = 128B", {8, 256}, 2, {1, 65}, 1170},
      {"(8, 4, 64) : (64, 512, 1), swizzle = 128B",
       {8, 256},
       2,
       {7, 255},
       3982},
      {"(128, 2, 32) : (32, 4096, 1)", {128, 64}, 2, {3, 40}, 8400},
      {"(128, 2, 32) : (32, 4096, 1), swizzle = 64B",
       {128, 64},
       2,
       {3, 40},
       8384},
      {"(128, 2, 32) : (32, 4096, 1)", {128, 64}, 2, {8, 16}, 544},
  };
  for (const Case &c : cases) {
    ::tile::GroupedLayout layout = grouped(c.layout, c.shape);
    EXPECT_EQ(layout.byteAddressOf(c.index, c.elementBytes), c.bytes);
    for (unsigned mask = 0; mask < 4; ++mask) {
      Emission how{{(mask & 1) != 0, (mask & 2) != 0}, {true, false}};
      EXPECT_EQ(emitAndFold(layout, c.elementBytes, c.index, how), c.bytes)
          << c.layout << " at (" << c.index[0] << ", " << c.index[1]
          << "), constant mask " << mask;
    }
  }
}

TEST_F(GroupedOffsetTest, ElementOffsetAndUnitShards) {
  // An element offset, extent-1 shards outermost in dimension 0 and inside
  // and innermost in dimension 2, and a size-1 dimension with no shard.
  ::tile::GroupedLayout layout = grouped(
      "(1, 4, 1, 1, 6, 1) : (7, 10, 3, 1000, 1, 5), offset = 9", {4, 1, 6});
  EXPECT_EQ(checkEveryIndex(layout, 4, 1), 24);
}

TEST_F(GroupedOffsetTest, RandomLayoutsMatchTheModel) {
  // Portable draws: the generator's raw output modulo the range (the
  // standard distributions differ between library implementations).
  std::mt19937_64 rng(0x5eed0ff5e7);
  auto draw = [&](int64_t lo, int64_t hi) {
    return lo +
           static_cast<int64_t>(rng() % static_cast<uint64_t>(hi - lo + 1));
  };
  const int64_t extents[] = {2, 3, 4, 5, 8};
  const ::tile::Swizzle swizzles[] = {
      ::tile::Swizzle::None, ::tile::Swizzle::B32, ::tile::Swizzle::B64,
      ::tile::Swizzle::B128};
  const int64_t elementSizes[] = {1, 2, 4, 8};
  int64_t layouts = 0, indices = 0;
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<::tile::Shard> shards;
    std::vector<int64_t> shape;
    int64_t size = 1;
    int rank = static_cast<int>(draw(1, 3));
    for (int d = 0; d < rank; ++d) {
      int64_t dim = 1;
      // Size-1 dimensions sometimes, with an extent-1 shard or none.
      int moving = draw(0, 5) == 0 ? 0 : static_cast<int>(draw(1, 3));
      for (int k = 0; k < moving; ++k) {
        int64_t extent = extents[draw(0, 4)];
        if (size * dim * extent > 256)
          break;
        if (draw(0, 5) == 0)
          shards.push_back({1, draw(0, 50)});
        shards.push_back({extent, draw(1, 300)});
        dim *= extent;
      }
      if (dim == 1 && draw(0, 1) == 0)
        shards.push_back({1, draw(0, 50)});
      shape.push_back(dim);
      size *= dim;
    }
    if (draw(0, 3) == 0)
      shards.push_back({1, draw(0, 50)});
    ::tile::Layout layout(std::move(shards), swizzles[draw(0, 3)],
                          draw(0, 3) == 0 ? 0 : draw(1, 100));
    ASSERT_FALSE(layout.verify()) << *layout.verify();
    std::string error;
    std::optional<::tile::GroupedLayout> g =
        ::tile::groupOnto(layout, shape, &error);
    ASSERT_TRUE(g) << error;
    indices += checkEveryIndex(*g, elementSizes[draw(0, 3)], rng());
    ++layouts;
    if (HasFailure())
      return;
  }
  EXPECT_EQ(layouts, 300);
  EXPECT_GT(indices, 10000);
}

} // namespace
