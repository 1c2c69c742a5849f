//===- Rules.h - Rule ids of diagnostics and plan declines ------*- C++ -*-===//
//
// Every verifier error, planner decline and pass diagnostic reads
// "<rule-id>: <values>". The ids, where each is checked, what it checks and
// an example message live in one table, tile/TMA/RuleIds.def; this header
// turns it into an enum and lists, and docs/rules.md is generated from it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TMA_RULES_H
#define TILE_TMA_RULES_H

#include <cstdint>
#include <string_view>
#include <vector>

namespace tile::tma {

/// One enumerator per rule of RuleIds.def, in table order.
enum class RuleId {
#define TILE_RULE(Enumerator, Id, Where, Checks, Example) Enumerator,
#include "tile/TMA/RuleIds.def"
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

/// Every rule id a diagnostic or decline may carry.
const std::vector<std::string_view> &allRuleIds();
/// True when `id` is in allRuleIds().
bool isKnownRuleId(std::string_view id);

/// A plan needing more instructions than this declines with `issue-count`.
constexpr int64_t kMaxIssues = 1024;

} // namespace tile::tma

#endif // TILE_TMA_RULES_H
