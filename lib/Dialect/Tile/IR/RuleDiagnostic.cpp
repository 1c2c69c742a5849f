//===- RuleDiagnostic.cpp - Diagnostics that name their rule -------------===//

#include "tile/Dialect/Tile/IR/RuleDiagnostic.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::tile;

void mlir::tile::attachRule(Diagnostic &diag, ::tile::RuleId rule) {
  MLIRContext *context = diag.getLocation().getContext();
  NamedAttribute entry(StringAttr::get(context, kRuleMetadataKey),
                       StringAttr::get(context, ::tile::ruleIdName(rule)));
  diag.getMetadata().push_back(
      DiagnosticArgument(DictionaryAttr::get(context, {entry})));
}

InFlightDiagnostic &&mlir::tile::withRule(InFlightDiagnostic &&diag,
                                          ::tile::RuleId rule) {
  if (Diagnostic *d = diag.getUnderlyingDiagnostic())
    attachRule(*d, rule);
  return std::move(diag);
}

InFlightDiagnostic mlir::tile::emitRuleError(Operation *op,
                                             ::tile::RuleId rule) {
  InFlightDiagnostic diag = op->emitOpError();
  diag << ::tile::ruleIdName(rule) << ": ";
  return withRule(std::move(diag), rule);
}

InFlightDiagnostic mlir::tile::emitRuleErrorAt(Operation *op,
                                               ::tile::RuleId rule) {
  InFlightDiagnostic diag = op->emitError();
  diag << ::tile::ruleIdName(rule) << ": ";
  return withRule(std::move(diag), rule);
}

InFlightDiagnostic mlir::tile::emitRuleError(Location loc,
                                             ::tile::RuleId rule) {
  InFlightDiagnostic diag = emitError(loc);
  diag << ::tile::ruleIdName(rule) << ": ";
  return withRule(std::move(diag), rule);
}

InFlightDiagnostic
mlir::tile::emitRuleError(function_ref<InFlightDiagnostic()> emitError,
                          ::tile::RuleId rule) {
  InFlightDiagnostic diag = emitError();
  diag << ::tile::ruleIdName(rule) << ": ";
  return withRule(std::move(diag), rule);
}

InFlightDiagnostic mlir::tile::emitRuleWarning(Location loc,
                                               ::tile::RuleId rule) {
  InFlightDiagnostic diag = emitWarning(loc);
  diag << ::tile::ruleIdName(rule) << ": ";
  return withRule(std::move(diag), rule);
}

InFlightDiagnostic mlir::tile::emitRuleRemark(Operation *op,
                                              ::tile::RuleId rule) {
  InFlightDiagnostic diag = op->emitRemark();
  diag << ::tile::ruleIdName(rule) << ": ";
  return withRule(std::move(diag), rule);
}

InFlightDiagnostic
mlir::tile::emitDeclineError(Operation *op, const ::tile::Decline &decline) {
  return emitRuleError(op, decline.rule) << decline.detail;
}

std::optional<::tile::RuleId> mlir::tile::getDiagnosticRule(Diagnostic &diag) {
  for (DiagnosticArgument &arg : diag.getMetadata()) {
    if (arg.getKind() != DiagnosticArgument::DiagnosticArgumentKind::Attribute)
      continue;
    auto dict = dyn_cast<DictionaryAttr>(arg.getAsAttribute());
    if (!dict)
      continue;
    if (auto id = dict.getAs<StringAttr>(kRuleMetadataKey))
      return ::tile::ruleIdFromName(id.getValue());
  }
  return std::nullopt;
}
