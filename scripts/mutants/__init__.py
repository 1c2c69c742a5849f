"""The mutants of scripts/mutation.py: one module per library.

Each module names its library's folders (LIBRARY) and lists its mutants
(MUTANTS), each made with

  M(id, file, pattern, replacement, why, function=..., tests=...,
    equivalent=...)

  id           unique and stable: results files and docs refer to it
  file         where the function is, relative to the library's first
               folder (or to the repository, "include/tile/TMA/Limits.h");
               a hint: the function is looked for there first, then in
               every .cpp/.h file of the library's folders
  function     the definition that holds the pattern: a function, a method
               (`Class::method` where the plain name is not unique in the
               library), or for a pattern at namespace or class scope the
               variable, struct or enum around it
  pattern      C++ text that occurs exactly once in that definition;
               whitespace aside: a run of whitespace matches any run, line
               breaks included, and whitespace may come and go next to
               punctuation (scripts/mutation.py, pattern_regex)
  replacement  the text planted in the pattern's place
  why          the user-visible bug it models
  equivalent   "<reason>": changes no behaviour; not run, not scored
  tests        units to run first, e.g. "lit:Transforms/tensor-map-abi.mlir"
               or "gtest:TileTMATests"

`scripts/mutation.py --check` (run by `make test`) resolves every entry and
names the ones that no longer match, with what to change.
"""
from . import (capi, compiler, conversion, dialect, dispatch, draw,
               host_symbols, host_to_llvm, kernel_abi, kernel_to_llvm, layout, mma,
               pipelines, runtime, schedule, support, tma, transforms,
               views)

# The catalog's order: the libraries from the layout algebra up to the
# runtime and the compiler, each module's entries in its own order.
MODULES = [support, layout, tma, mma, schedule, dialect, dispatch, conversion,
           views, kernel_abi, kernel_to_llvm, host_symbols, host_to_llvm, transforms, pipelines,
           draw, capi,
           runtime, compiler]

MUTANTS = []
for _module in MODULES:
    for _m in _module.MUTANTS:
        _m["module"] = "scripts/mutants/%s.py" % _module.__name__.split(
            ".")[-1]
        MUTANTS.append(_m)

# The quick sample `make test` plants (scripts/run-tests.py): mutants in small
# files that fast tests kill, so the tool cannot rot silently.
CI_SAMPLE = ["slice-bound-offby1", "rt-defect-bit"]
