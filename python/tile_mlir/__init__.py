"""tile-mlir from Python: ``#tile.layout`` values, TMA copy plans,
compiling modules and launching them on tensors, and a ready TMA copy.

A pure-Python package over this project's C API (``libTileCAPI.so``,
loaded with :mod:`ctypes`), so one install serves every Python 3 version.
See docs/python.md.
"""

from .compiler import CompiledModule, Entry, cache_dir, compile
from .ready_copy import compile_copy, copy, copy_kernel_source
from .errors import (Diagnostic, NoDriverError, TileCompileError, TileError,
                     TileRuntimeError)
from .layout import Layout
from .plan import (GlobalTensor, Guard, Issue, Plan, SharedBuffer,
                   TileDeclined, copy_source, plan, query)
from .runtime import driver_available, keep_pool_memory, launch_version_counts

__all__ = ["CompiledModule", "Diagnostic", "Entry", "GlobalTensor", "Guard",
           "Issue", "Layout", "NoDriverError", "Plan", "SharedBuffer",
           "TileCompileError", "TileDeclined", "TileError",
           "TileRuntimeError", "cache_dir", "compile", "compile_copy", "copy",
           "copy_kernel_source", "copy_source",
           "driver_available", "keep_pool_memory", "launch_version_counts",
           "plan", "query"]
__version__ = "0.1.0"
