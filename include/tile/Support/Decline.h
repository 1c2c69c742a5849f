//===- Decline.h - Why a planner said no, as a rule and values --*- C++ -*-===//
//
// The pure planners (lib/TMA, lib/MMA) decline with a Decline: the rule the
// request broke, typed, and the values that broke it. Callers branch on the
// rule; message() is the text a diagnostic shows, "<rule-id>: <detail>".
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SUPPORT_DECLINE_H
#define TILE_SUPPORT_DECLINE_H

#include "tile/Support/Rules.h"

#include <optional>
#include <string>

namespace tile {

struct Decline {
  RuleId rule;
  /// The values, as the message shows them after "<rule-id>: ".
  std::string detail;

  /// "<rule-id>: <detail>".
  std::string message() const {
    return std::string(ruleIdName(rule)) + ": " + detail;
  }
};

/// The message of `decline`, or "" when there is none.
inline std::string messageOf(const std::optional<Decline> &decline) {
  return decline ? decline->message() : std::string();
}

inline bool operator==(const Decline &a, const Decline &b) {
  return a.rule == b.rule && a.detail == b.detail;
}

} // namespace tile

#endif // TILE_SUPPORT_DECLINE_H
