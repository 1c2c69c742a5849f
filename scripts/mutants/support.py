"""Mutants of the project-wide rule table (lib/Support, include/tile/Support).
"""
from ._catalog import Library

LIBRARY = Library("lib/Support", "include/tile/Support")
M = LIBRARY.mutant

MUTANTS = [
    M("rules-table-name", "Rules.cpp",
      "return allRules()[static_cast<size_t>(rule)].id;",
      "return allRules()[static_cast<size_t>(rule)].where;",
      "diagnostics built from a RuleId print the wrong id",
      function="ruleIdName"),
]
