//===- WgmmaFragmentLowering.cpp - wgmma register fragments ---------------===//
//
// tile.wgmma_a_fragment: eight f32 of the accumulator struct rounded to an
// 8-element f16/bf16 vector (LLVM selects cvt.rn.bf16x2.f32 pairs).
// tile.wgmma_register_a: the register-A form of wgmma.mma_async as inline
// PTX; NVVM's wgmma op reads A from shared memory only.
// tile.wgmma_store_fragment: a warp's 16 x 16 block of fragments to shared
// memory with one stmatrix.x4 (each lane's row address through the layout).
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "Patterns.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
/// The `count` leading fields of an LLVM struct value.
SmallVector<Value> structFields(OpBuilder &b, Location loc, Value value,
                                int64_t count) {
  SmallVector<Value> fields;
  for (int64_t i = 0; i < count; ++i)
    fields.push_back(LLVM::ExtractValueOp::create(b, loc, value, i));
  return fields;
}

/// An A fragment's four 32-bit registers of two elements each.
SmallVector<Value> fragmentRegisters(OpBuilder &b, Location loc,
                                     Value fragment) {
  Type i32 = b.getI32Type();
  Value packed =
      LLVM::BitcastOp::create(b, loc, VectorType::get({4}, i32), fragment);
  SmallVector<Value> registers;
  for (int64_t i = 0; i < 4; ++i)
    registers.push_back(LLVM::ExtractElementOp::create(
        b, loc, packed, LLVM::ConstantOp::create(b, loc, i32, i)));
  return registers;
}

/// The constraints of `count` outputs of register class `code`: "=f,=f".
std::string outputConstraints(size_t count, StringRef code) {
  std::string constraints;
  for (size_t i = 0; i < count; ++i)
    constraints += (i ? ",=" : "=") + code.str();
  return constraints;
}

/// The constraints of `count` outputs of register class `code` tied to the
/// first `count` inputs: "=f,=f,0,1" for two f32.
std::string tiedConstraints(size_t count, StringRef code) {
  std::string constraints = outputConstraints(count, code);
  for (size_t i = 0; i < count; ++i)
    constraints += "," + std::to_string(i);
  return constraints;
}

struct WgmmaAFragmentLowering
    : public ConvertOpToLLVMPattern<WgmmaAFragmentOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(WgmmaAFragmentOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto wide = VectorType::get({8}, rewriter.getF32Type());
    Value vector = LLVM::PoisonOp::create(rewriter, loc, wide);
    int64_t first = 8 * op.getKStep();
    for (int64_t j = 0; j < 8; ++j) {
      Value element = LLVM::ExtractValueOp::create(
          rewriter, loc, adaptor.getAccumulator(), first + j);
      Value index =
          LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(), j);
      vector =
          LLVM::InsertElementOp::create(rewriter, loc, vector, element, index);
    }
    rewriter.replaceOpWithNewOp<LLVM::FPTruncOp>(op, op.getType(), vector);
    return success();
  }
};

struct WgmmaRegisterALowering
    : public ConvertOpToLLVMPattern<WgmmaRegisterAOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(WgmmaRegisterAOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t n = op.getN(), values = n / 2;
    Type accType = adaptor.getAccumulator().getType();
    // With zero_init the accumulator is only written ("=f", scale-d 0):
    // nothing defines its registers before the wgmma.
    bool zeroInit = op.getZeroInit();
    SmallVector<Value> operands;
    if (!zeroInit)
      operands = structFields(rewriter, loc, adaptor.getAccumulator(), values);
    llvm::append_range(operands,
                       fragmentRegisters(rewriter, loc, adaptor.getA()));
    operands.push_back(adaptor.getB());
    // The guard, a predicate register ("b") that LLVM computes where the
    // condition is defined, ahead of the wgmma fence.
    std::string constraints = zeroInit ? outputConstraints(values, "f")
                                       : tiedConstraints(values, "f");
    constraints += ",r,r,r,r,l";
    std::string guard;
    if (Value issue = adaptor.getIssue()) {
      operands.push_back(issue);
      constraints += ",b";
      guard = "@$" + std::to_string(operands.size() - 1 + values) + " ";
    }

    std::string d;
    for (int64_t i = 0; i < values; ++i)
      d += (i ? ", $" : "$") + std::to_string(i);
    // D out (and in, tied), then A's four registers and B's descriptor.
    int64_t a0 = zeroInit ? values : 2 * values;
    StringRef type =
        op.getA().getType().getElementType().isBF16() ? "bf16" : "f16";
    int transposeB = op.getBMajor() == WgmmaMajor::MN ? 1 : 0;
    // scale-d (1: accumulate, 0: zero_init) as an immediate: a register
    // defined between the wgmma fence and the wgmma would make ptxas
    // serialize the wgmmas.
    std::string ptx = llvm::formatv(
        "{{\n.reg .pred p;\nsetp.ne.b32 p, {10}, 0;\n"
        "{9}wgmma.mma_async.sync.aligned.m64n{0}k16.f32.{1}.{1} {{{2}}, "
        "{{${3}, ${4}, ${5}, ${6}}, ${7}, p, 1, 1, {8};\n}\n",
        n, type, d, a0, a0 + 1, a0 + 2, a0 + 3, a0 + 4, transposeB, guard,
        zeroInit ? 0 : 1);
    rewriter.replaceOp(
        op, createAsm(rewriter, loc, accType, operands, ptx, constraints));
    return success();
  }
};

/// Lane l gives the address of row l % 8 of matrix l / 8, the matrices
/// being the fragment's registers in order (rows 0-7 and 8-15 of columns
/// 0-7, then of 8-15): row l % 16 of the block, columns from 8 (l / 16).
struct WgmmaStoreFragmentLowering
    : public ConvertOpToLLVMPattern<WgmmaStoreFragmentOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(WgmmaStoreFragmentOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value lane = LLVM::ZExtOp::create(
        rewriter, loc, rewriter.getI64Type(),
        NVVM::LaneIdOp::create(rewriter, loc, rewriter.getI32Type()));
    Value rowInBlock = LLVM::AndOp::create(rewriter, loc, lane,
                                           i64Constant(rewriter, loc, 15));
    Value colInBlock = LLVM::LShrOp::create(
        rewriter, loc,
        LLVM::AndOp::create(rewriter, loc, lane,
                            i64Constant(rewriter, loc, 16)),
        i64Constant(rewriter, loc, 1));
    Value row =
        LLVM::AddOp::create(rewriter, loc, adaptor.getRow(), rowInBlock);
    Value col =
        LLVM::AddOp::create(rewriter, loc, adaptor.getCol(), colInBlock);
    Value addr = emitLayoutElementAddress(rewriter, loc, adaptor.getBuffer(),
                                          op.getBuffer().getType(), {row, col});
    SmallVector<Value> registers =
        fragmentRegisters(rewriter, loc, adaptor.getFragment());
    rewriter.replaceOpWithNewOp<NVVM::StMatrixOp>(
        op, addr, registers, NVVM::MMALayout::row,
        NVVM::LdStMatrixShapeAttr::get(getContext(), 8, 8),
        NVVM::LdStMatrixEltType::B16);
    return success();
  }
};

/// An empty inline-assembly statement that reads and writes every 32-bit
/// register of the value: the registers stay the value's up to here.
struct WgmmaFenceOperandLowering
    : public ConvertOpToLLVMPattern<WgmmaFenceOperandOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(WgmmaFenceOperandOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Value value = adaptor.getValue();
    auto vector = dyn_cast<VectorType>(value.getType());
    SmallVector<Value> parts;
    std::string code = "r";
    if (vector) {
      parts = fragmentRegisters(rewriter, loc, value);
    } else {
      auto structType = cast<LLVM::LLVMStructType>(value.getType());
      parts = structFields(rewriter, loc, value, structType.getBody().size());
      code = "f";
    }
    SmallVector<Type> partTypes(
        llvm::map_range(parts, [](Value v) { return v.getType(); }));
    std::string constraints = tiedConstraints(parts.size(), code);
    auto resultType = LLVM::LLVMStructType::getLiteral(getContext(), partTypes);
    Value held = createAsm(rewriter, loc, resultType, parts, "", constraints);
    if (!vector) {
      rewriter.replaceOp(op, held);
      return success();
    }
    Value packed =
        LLVM::PoisonOp::create(rewriter, loc, VectorType::get({4}, i32));
    for (int64_t i = 0; i < 4; ++i)
      packed = LLVM::InsertElementOp::create(
          rewriter, loc, packed,
          LLVM::ExtractValueOp::create(rewriter, loc, held, i),
          LLVM::ConstantOp::create(rewriter, loc, i32, i));
    rewriter.replaceOpWithNewOp<LLVM::BitcastOp>(op, vector, packed);
    return success();
  }
};
} // namespace

void mlir::tile::populateWgmmaFragmentLoweringPatterns(
    const LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<WgmmaAFragmentLowering, WgmmaRegisterALowering,
               WgmmaFenceOperandLowering, WgmmaStoreFragmentLowering>(
      converter);
}
