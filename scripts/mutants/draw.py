"""Mutants of the pictures of layouts and plans (lib/Draw, include/tile/Draw).
"""
from ._catalog import Library

LIBRARY = Library("lib/Draw", "include/tile/Draw")
M = LIBRARY.mutant

MUTANTS = [
    M("draw-box-of-element", "Draw.cpp",
      "c->box = static_cast<int>(i);", "c->box = 0;",
      "pictures put every element in the first box",
      function="drawCopy"),
    M("draw-oob-marker", "Draw.cpp",
      "c->oob = !be.touchesGlobal;", "c->oob = false;",
      "pictures never mark out-of-bounds elements",
      function="drawCopy"),
    M("draw-chunk-label", "Draw.cpp",
      "std::to_string(c.byte / 16) + \"\\\"\";",
      "std::to_string(c.byte / 8) + \"\\\"\";",
      "pictures number chunks by 8 bytes",
      function="drawGrid"),
]
