//===- Rules.h - Rule ids of diagnostics and declines -----------*- C++ -*-===//
//
// Every verifier error, planner decline and pass diagnostic of the project
// names the rule it enforces. The ids, where each is checked, what it checks
// and an example message live in one table, tile/Support/RuleIds.def; this
// header turns it into an enum and lists, and docs/rules.md is generated
// from it. Messages print as "<rule-id>: <values>"; code passes the rule as
// a RuleId (a Decline in the pure libraries, the diagnostic's metadata in
// the MLIR ones, see tile/Dialect/Tile/IR/RuleDiagnostic.h), never as text
// to be parsed back.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SUPPORT_RULES_H
#define TILE_SUPPORT_RULES_H

#include <optional>
#include <string_view>
#include <vector>

namespace tile {

/// One enumerator per rule of RuleIds.def, in table order.
enum class RuleId {
#define TILE_RULE(Enumerator, Id, Where, Checks, Example) Enumerator,
#include "tile/Support/RuleIds.def"
};

/// A row of the rule table.
struct RuleInfo {
  RuleId rule;
  std::string_view id;
  std::string_view where;
  std::string_view checks;
  std::string_view example;
};

/// The whole table, in order.
const std::vector<RuleInfo> &allRules();
/// The id text of `rule` ("inner-coord-align").
std::string_view ruleIdName(RuleId rule);
/// The rule whose id text is `id`, or nullopt.
std::optional<RuleId> ruleIdFromName(std::string_view id);

/// Every rule id a diagnostic or decline may carry.
const std::vector<std::string_view> &allRuleIds();
/// True when `id` is in allRuleIds().
bool isKnownRuleId(std::string_view id);

} // namespace tile

#endif // TILE_SUPPORT_RULES_H
