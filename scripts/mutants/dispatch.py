"""Mutants of the copy-variant registry and dispatch (lib/Dispatch,
include/tile/Dispatch).
"""
from ._catalog import Library

LIBRARY = Library("lib/Dispatch", "include/tile/Dispatch")
M = LIBRARY.mutant

MUTANTS = [
    M("dispatch-priority", "CopyVariant.cpp",
      "return a->getPriority() > b->getPriority();",
      "return a->getPriority() < b->getPriority();",
      "the lowest-priority variant is tried first (simt instead of tma)",
      function="CopyVariantRegistry::add"),
    M("dispatch-tiebreak", "CopyVariant.cpp",
      "return a->getName() < b->getName();",
      "return a->getName() > b->getName();",
      "equal-priority variants in reverse name order",
      function="CopyVariantRegistry::add"),
    M("dispatch-replace", "CopyVariant.cpp",
      "replaced.push_back(std::move(*existing));\n    *existing = std::move(variant);",
      "replaced.push_back(std::move(variant));",
      "re-registering a variant keeps the old one",
      function="CopyVariantRegistry::add"),
    M("dispatch-handles", "CopyVariant.cpp",
      "if (!variant || !variant->handles(op)) {", "if (!variant) {",
      "a requested variant that does not handle the op is accepted",
      function="dispatchCopy"),
    M("dispatch-declined", "CopyVariant.cpp",
      "result.declined.emplace_back(variant->getName().str(), outcome.reason);",
      "(void)outcome;",
      "decline reasons lost from diagnostics and the plan report",
      function="dispatchCopy"),
    M("dispatch-predicate", "CopyVariant.cpp",
      "if (!result.ok)\n      return result;",
      "if (false)\n      return result;",
      "variant predicates ignored: a variant lowers copies it declines",
      function="CopyVariant::check"),
]
