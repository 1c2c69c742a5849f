//===- RuleDiagnostic.h - Diagnostics that name their rule ------*- C++ -*-===//
//
// Every diagnostic of the project about a broken rule reads
// "<rule-id>: <values>" and carries the rule as metadata, so that a host
// reading diagnostics (the C API, Python) gets the rule as a value instead
// of parsing it out of the text.
//
//   return emitRuleError(op, RuleId::SmemAlign) << "shared buffer " << ...;
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_RULEDIAGNOSTIC_H
#define TILE_DIALECT_TILE_IR_RULEDIAGNOSTIC_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "tile/Support/Decline.h"

#include <optional>

namespace mlir::tile {

using ::tile::RuleId;

/// The key of the metadata entry (a one-entry DictionaryAttr) holding the
/// rule id of a diagnostic.
inline constexpr StringLiteral kRuleMetadataKey = "tile.rule";

/// Adds `rule` to the metadata of `diag`.
void attachRule(Diagnostic &diag, ::tile::RuleId rule);
/// `diag` with `rule` attached (no-op on an empty diagnostic).
InFlightDiagnostic &&withRule(InFlightDiagnostic &&diag, ::tile::RuleId rule);

/// `op->emitOpError()` starting "<rule-id>: ", with the rule attached.
InFlightDiagnostic emitRuleError(Operation *op, ::tile::RuleId rule);
/// `op->emitError()` (at the op, without the op's name) starting
/// "<rule-id>: ", with the rule attached.
InFlightDiagnostic emitRuleErrorAt(Operation *op, ::tile::RuleId rule);
/// An error at `loc` starting "<rule-id>: ", with the rule attached.
InFlightDiagnostic emitRuleError(Location loc, ::tile::RuleId rule);
/// The diagnostic of an attribute verifier's `emitError`, starting
/// "<rule-id>: ", with the rule attached.
InFlightDiagnostic emitRuleError(function_ref<InFlightDiagnostic()> emitError,
                                 ::tile::RuleId rule);
/// A warning at `loc` starting "<rule-id>: ", with the rule attached.
InFlightDiagnostic emitRuleWarning(Location loc, ::tile::RuleId rule);
/// A remark at `op` starting "<rule-id>: ", with the rule attached: a rule
/// that made a pass leave the op as it was.
InFlightDiagnostic emitRuleRemark(Operation *op, ::tile::RuleId rule);
/// The op error of a planner's decline: its message, its rule attached.
InFlightDiagnostic emitDeclineError(Operation *op,
                                    const ::tile::Decline &decline);

/// The rule attached to `diag`, if any.
std::optional<::tile::RuleId> getDiagnosticRule(Diagnostic &diag);

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_RULEDIAGNOSTIC_H
