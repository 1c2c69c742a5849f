"""tile-mlir from Python: ``#tile.layout`` values and TMA copy plans.

A pure-Python package over this project's C API (``libTileCAPI.so``,
loaded with :mod:`ctypes`), so one install serves every Python 3 version.
See docs/python.md.
"""

from .layout import Layout
from .plan import (GlobalTensor, Guard, Issue, Plan, SharedBuffer,
                   TileDeclined, TileError, copy_source, plan, query)

__all__ = ["GlobalTensor", "Guard", "Issue", "Layout", "Plan", "SharedBuffer",
           "TileDeclined", "TileError", "copy_source", "plan", "query"]
__version__ = "0.1.0"
