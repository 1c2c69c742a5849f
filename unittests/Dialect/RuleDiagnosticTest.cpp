//===- RuleDiagnosticTest.cpp - Diagnostics carry their rule as a value ---===//
//
// emitRuleError writes "<rule-id>: " and attaches the rule as metadata; a
// handler reads it back with getDiagnosticRule, and a diagnostic whose text
// merely looks like a rule carries none.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/RuleDiagnostic.h"
#include "../TileTestContext.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::tile;

namespace {

struct Seen {
  std::string text;
  std::optional<::tile::RuleId> rule;
};

class RuleDiagnosticTest : public ::testing::Test {
protected:
  void SetUp() override {
    test::loadTileTestDialects(context);
    context.printOpOnDiagnostic(false);
  }
  std::vector<Seen> collect(function_ref<void(Location)> emit) {
    std::vector<Seen> seen;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      seen.push_back({diag.str(), getDiagnosticRule(diag)});
      return success();
    });
    emit(UnknownLoc::get(&context));
    return seen;
  }
  MLIRContext context;
};

TEST_F(RuleDiagnosticTest, ErrorsCarryTheirRule) {
  std::vector<Seen> seen = collect([&](Location loc) {
    emitRuleError(loc, RuleId::SmemAlign) << "shared offset 64 B";
    emitRuleWarning(loc, RuleId::Guard) << "checked at launch";
    emitRuleError(loc, ::tile::Decline{RuleId::Rank, "rank 6"}.rule)
        << "rank 6";
  });
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0].text, "smem-align: shared offset 64 B");
  EXPECT_EQ(seen[0].rule, RuleId::SmemAlign);
  EXPECT_EQ(seen[1].text, "guard: checked at launch");
  EXPECT_EQ(seen[1].rule, RuleId::Guard);
  EXPECT_EQ(seen[2].rule, RuleId::Rank);
}

TEST_F(RuleDiagnosticTest, OpErrorsAndDeclines) {
  OpBuilder b(&context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(b.getUnknownLoc());
  std::vector<Seen> seen = collect([&](Location) {
    emitDeclineError(*module, ::tile::Decline{RuleId::InnerBoxBytes, "8 B"});
    withRule(module->emitError(), RuleId::Toolkit) << "toolkit: none";
  });
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].text, "'builtin.module' op inner-box-bytes: 8 B");
  EXPECT_EQ(seen[0].rule, RuleId::InnerBoxBytes);
  EXPECT_EQ(seen[1].text, "toolkit: none");
  EXPECT_EQ(seen[1].rule, RuleId::Toolkit);
}

TEST_F(RuleDiagnosticTest, TextAloneNamesNoRule) {
  std::vector<Seen> seen = collect(
      [&](Location loc) { emitError(loc) << "rank: looks like a rule"; });
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].rule, std::nullopt);
}

} // namespace
