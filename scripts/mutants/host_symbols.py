"""Mutants of the host code's shared constants (lib/Conversion/HostSymbols)."""
from ._catalog import Library

LIBRARY = Library("lib/Conversion/HostSymbols")
M = LIBRARY.mutant

MUTANTS = [
    M("abi-string-not-in-table", "HostSymbols.cpp",
      "        b.getStringAttr(value));\n    symbols.insert(global);",
      "        b.getStringAttr(value));",
      "a new string global is left out of the pass's symbol table: the next "
      "request of the same text defines it a second time",
      function="getStringAddress"),
]
