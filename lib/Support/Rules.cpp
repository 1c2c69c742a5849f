//===- Rules.cpp - The rule table
//------------------------------------------===//

#include "tile/Support/Rules.h"

#include <algorithm>

namespace tile {

const std::vector<RuleInfo> &allRules() {
  static const std::vector<RuleInfo> rules = {
#define TILE_RULE(Enumerator, Id, Where, Checks, Example)                      \
  {RuleId::Enumerator, Id, Where, Checks, Example},
#include "tile/Support/RuleIds.def"
  };
  return rules;
}

std::string_view ruleIdName(RuleId rule) {
  return allRules()[static_cast<size_t>(rule)].id;
}

std::optional<RuleId> ruleIdFromName(std::string_view id) {
  for (const RuleInfo &info : allRules())
    if (info.id == id)
      return info.rule;
  return std::nullopt;
}

const std::vector<std::string_view> &allRuleIds() {
  static const std::vector<std::string_view> ids = [] {
    std::vector<std::string_view> list;
    for (const RuleInfo &info : allRules())
      list.push_back(info.id);
    return list;
  }();
  return ids;
}

bool isKnownRuleId(std::string_view id) {
  return ruleIdFromName(id).has_value();
}

} // namespace tile
