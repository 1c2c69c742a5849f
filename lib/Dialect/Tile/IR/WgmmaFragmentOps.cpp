//===- WgmmaFragmentOps.cpp - wgmma register fragments --------------------===//
//
// The register-fragment ops (`wgmma-fragment`): an f32 accumulator converted
// to an A-operand fragment, and the wgmma that reads A from registers.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "tile/Dialect/Tile/IR/CopyRequest.h"
#include "tile/Dialect/Tile/IR/DivisorAnalysis.h"
#include "tile/Dialect/Tile/IR/RuleDiagnostic.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/IR/TileTypeUtils.h"
#include "tile/Layout/Layout.h"

using namespace mlir;
using namespace mlir::tile;
using ::tile::RuleId;

/// The f32 count of an accumulator struct (N / 2 for m64nN), or an error at
/// `op` naming what `what` is.
static FailureOr<int64_t> accumulatorValues(Operation *op, Type type,
                                            StringRef what) {
  auto structType = dyn_cast<LLVM::LLVMStructType>(type);
  if (!structType || structType.isOpaque() || structType.getBody().empty() ||
      !llvm::all_of(structType.getBody(), [](Type t) { return t.isF32(); })) {
    emitRuleError(op, RuleId::WgmmaFragment)
        << "the " << what << " has type " << type
        << "; a wgmma f32 accumulator is an !llvm.struct of f32";
    return failure();
  }
  return static_cast<int64_t>(structType.getBody().size());
}

LogicalResult WgmmaAFragmentOp::verify() {
  FailureOr<int64_t> values =
      accumulatorValues(*this, getAccumulator().getType(), "accumulator");
  if (failed(values))
    return failure();
  int64_t n = 2 * *values;
  if (*values % 8 != 0)
    return emitRuleError(*this, RuleId::WgmmaFragment)
           << "the accumulator holds " << *values << " f32 (N = " << n
           << "); A fragments are taken 16 columns (8 f32) at a time";
  int64_t step = getKStep();
  if (step >= 0 && step < n / 16)
    return success();
  InFlightDiagnostic diag = emitRuleError(*this, RuleId::WgmmaFragment)
                            << "k_step " << step;
  // The columns a step reads, where naming them cannot overflow.
  if (step >= 0 && step <= n)
    diag << " reads accumulator columns " << 16 * step << ".." << 16 * step + 15
         << ", but";
  else
    diag << " is outside 0.." << n / 16 - 1 << ":";
  return diag << " the accumulator holds N = " << n << " columns (" << *values
              << " f32)";
}

// stmatrix writes each lane's eight elements of a row as one 16-byte access:
// the buffer must keep them together at a 16-byte-aligned address.
LogicalResult WgmmaStoreFragmentOp::verify() {
  MemRefType type = getBuffer().getType();
  Type elem = getFragment().getType().getElementType();
  if (type.getRank() != 2 || type.getElementType() != elem ||
      getMemorySpaceKind(type) != MemorySpaceKind::Shared)
    return emitRuleError(*this, RuleId::WgmmaFragment)
           << "the buffer has type " << type << "; a fragment of " << elem
           << " is stored to a 2-D shared buffer of " << elem;
  std::string error;
  std::optional<::tile::GroupedLayout> grouped =
      isa<LayoutAttr>(type.getLayout()) ? getGroupedLayout(type, &error)
                                        : std::nullopt;
  if (!grouped)
    return emitRuleError(*this, RuleId::WgmmaFragment)
           << "the buffer has type " << type
           << "; stmatrix addresses its rows through a #tile.layout"
           << (error.empty() ? "" : " (" + error + ")");
  int64_t width = ::tile::vectorWidth(*grouped, 8);
  if (width < 8)
    return emitRuleError(*this, RuleId::WgmmaFragment)
           << "the buffer's layout keeps " << width
           << " consecutive elements of a row together; stmatrix writes 8 "
              "(16 bytes) at once";
  int64_t divisor = getKnownDivisor(getCol());
  if (divisor % 8 != 0)
    return emitRuleError(*this, RuleId::WgmmaFragment)
           << "the column index is a known multiple of " << divisor
           << " only; stmatrix rows start at multiples of 8 columns";
  int64_t align = getSharedBaseAlignment(getBuffer());
  if (align % 16 != 0)
    return emitRuleError(*this, RuleId::WgmmaFragment)
           << "the buffer starts " << align
           << "-byte aligned; stmatrix rows are 16-byte accesses";
  return success();
}

int64_t WgmmaRegisterAOp::getN() {
  auto structType = cast<LLVM::LLVMStructType>(getAccumulator().getType());
  return 2 * static_cast<int64_t>(structType.getBody().size());
}

LogicalResult WgmmaRegisterAOp::verify() {
  FailureOr<int64_t> values =
      accumulatorValues(*this, getAccumulator().getType(), "accumulator");
  if (failed(values))
    return failure();
  int64_t n = 2 * *values;
  if (n < 8 || n > 256 || n % 8 != 0)
    return emitRuleError(*this, RuleId::WgmmaFragment)
           << "the accumulator holds " << *values << " f32 (N = " << n
           << "); wgmma m64nNk16 has N = 8..256 in multiples of 8";
  if (getZeroInit() && getIssue())
    return emitRuleError(*this, RuleId::WgmmaFragment)
           << "zero_init with a guard (`if`) leaves the result undefined "
              "where the guard is false; zero the accumulator instead";
  // The descriptor, where it is in sight, describes the B this reads.
  auto descriptor = getB().getDefiningOp<WgmmaDescriptorOp>();
  if (!descriptor)
    return success();
  if (descriptor.getMajor() != getBMajor())
    return emitRuleError(*this, RuleId::WgmmaFragment)
           << "b_major is " << stringifyWgmmaMajor(getBMajor())
           << " but the B descriptor is planned "
           << stringifyWgmmaMajor(descriptor.getMajor())
           << "-major; the two must agree";
  if (static_cast<int64_t>(descriptor.getRows()) != n)
    return emitRuleError(*this, RuleId::WgmmaFragment)
           << "the B descriptor covers " << descriptor.getRows()
           << " columns (rows = " << descriptor.getRows()
           << "), the accumulator N = " << n;
  Type element = getA().getType().getElementType();
  if (descriptor.getSource().getType().getElementType() != element)
    return emitRuleError(*this, RuleId::WgmmaFragment)
           << "A is " << element << " but B is "
           << descriptor.getSource().getType().getElementType()
           << "; wgmma multiplies two operands of one type";
  return success();
}

LogicalResult WgmmaFenceOperandOp::verify() {
  Type type = getValue().getType();
  if (auto vector = dyn_cast<VectorType>(type))
    if (vector.getRank() == 1 && vector.getNumElements() == 8 &&
        isa<Float16Type, BFloat16Type>(vector.getElementType()))
      return success();
  if (isa<LLVM::LLVMStructType>(type))
    return success(succeeded(accumulatorValues(*this, type, "value")));
  return emitRuleError(*this, RuleId::WgmmaFragment)
         << "the value has type " << type
         << "; a wgmma register operand is an A fragment (vector<8xbf16>, "
            "vector<8xf16>) or an f32 accumulator (!llvm.struct of f32)";
}
