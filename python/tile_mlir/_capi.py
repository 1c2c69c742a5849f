"""Finds and loads ``libTileCAPI.so`` and declares the C functions the
package calls (``include/tile-c/``, ``mlir-c/``) with :mod:`ctypes`.

The library is searched, in order, in

1. ``$TILE_MLIR_LIB_DIR`` alone, when set;
2. ``tile_mlir/_lib/`` next to this file (where ``pip install`` puts it);
3. the build tree: ``$TILE_BUILD_DIR`` when set, else the ``build/`` folder
   of the checkout this file lies in (``python/tile_mlir`` in the source).

Nothing is loaded at import time: the first call that needs the library
loads it, and raises :class:`OSError` naming every folder searched when it
is not found.
"""

from __future__ import annotations

import ctypes
import os
import threading
from typing import Any, List, Optional, Sequence

CAPI_NAME = "libTileCAPI.so"

_lock = threading.Lock()
_capi: Optional[ctypes.CDLL] = None


def search_dirs() -> List[str]:
    """The folders searched for the libraries, in order."""
    override = os.environ.get("TILE_MLIR_LIB_DIR")
    if override:
        return [override]
    here = os.path.dirname(os.path.abspath(__file__))
    dirs = [os.path.join(here, "_lib")]
    build = os.environ.get("TILE_BUILD_DIR") or os.path.join(
        os.path.dirname(os.path.dirname(here)), "build")
    dirs += [os.path.join(build, "lib", "CAPI"),
             os.path.join(build, "lib", "Runtime"),
             os.path.join(build, "lib")]
    return dirs


def find_library(name: str) -> str:
    """The path of library `name` in the first folder of :func:`search_dirs`
    that holds it; raises :class:`OSError` when none does."""
    dirs = search_dirs()
    for folder in dirs:
        path = os.path.join(folder, name)
        if os.path.isfile(path):
            return path
    raise OSError("tile_mlir: %s not found in %s (build tile-mlir, or set "
                  "TILE_MLIR_LIB_DIR or TILE_BUILD_DIR)"
                  % (name, ", ".join(dirs)))


class StringRef(ctypes.Structure):
    """``MlirStringRef``: a pointer and a length, not NUL-terminated."""
    _fields_ = [("data", ctypes.c_void_p), ("length", ctypes.c_size_t)]

    @classmethod
    def of(cls, data: bytes) -> StringRef:
        """A reference to `data` (bytes); the caller keeps `data` alive."""
        return cls(ctypes.cast(ctypes.c_char_p(data), ctypes.c_void_p),
                   len(data))


class LogicalResult(ctypes.Structure):
    """``MlirLogicalResult``."""
    _fields_ = [("value", ctypes.c_int8)]


def _handle(name: str) -> Any:
    """A C API handle type: a struct holding one pointer."""
    return type(name, (ctypes.Structure,), {"_fields_": [("ptr",
                                                          ctypes.c_void_p)]})


Context = _handle("MlirContext")
DialectRegistry = _handle("MlirDialectRegistry")
Module = _handle("MlirModule")
Operation = _handle("MlirOperation")
Identifier = _handle("MlirIdentifier")
Diagnostic = _handle("MlirDiagnostic")
TileLayout = _handle("MlirTileLayout")

StringCallback = ctypes.CFUNCTYPE(None, StringRef, ctypes.c_void_p)
# tile-c/Compile.h: kind, name, text.
CompileCallback = ctypes.CFUNCTYPE(None, StringRef, StringRef, StringRef,
                                   ctypes.c_void_p)


class CompileOptions(ctypes.Structure):
    """``MlirTileCompileOptions``: empty strings take the defaults."""
    _fields_ = [("chip", StringRef), ("toolkit", StringRef),
                ("runtime_dir", StringRef), ("output", StringRef),
                ("stages", StringRef), ("emit_ptx", ctypes.c_bool),
                ("convert_upstream_copies", ctypes.c_bool)]
# ctypes callbacks cannot return structures: a handler returns the int8_t
# that MlirLogicalResult wraps (the same registers on every C ABI we use).
DiagnosticHandler = ctypes.CFUNCTYPE(ctypes.c_int8, Diagnostic,
                                     ctypes.c_void_p)
WalkCallback = ctypes.CFUNCTYPE(ctypes.c_int, Operation, ctypes.c_void_p)

_I64 = ctypes.c_int64
_P64 = ctypes.POINTER(ctypes.c_int64)
_VP = ctypes.c_void_p
_IP = ctypes.c_ssize_t

# name: (result, argument types)
_SIGNATURES = {
    # tile-c/Layout.h
    "mlirTileLayoutCreate": (TileLayout, [_IP, _P64, _P64, ctypes.c_int, _I64,
                                          StringCallback, _VP]),
    "mlirTileLayoutParse": (TileLayout, [StringRef, StringCallback, _VP]),
    "mlirTileLayoutDestroy": (None, [TileLayout]),
    "mlirTileLayoutPrint": (None, [TileLayout, StringCallback, _VP]),
    "mlirTileLayoutGetRank": (_IP, [TileLayout]),
    "mlirTileLayoutGetExtent": (_I64, [TileLayout, _IP]),
    "mlirTileLayoutGetStride": (_I64, [TileLayout, _IP]),
    "mlirTileLayoutGetSwizzle": (ctypes.c_int, [TileLayout]),
    "mlirTileLayoutGetElementOffset": (_I64, [TileLayout]),
    "mlirTileLayoutGetSize": (_I64, [TileLayout]),
    "mlirTileLayoutGetCosize": (_I64, [TileLayout]),
    "mlirTileLayoutCanonicalize": (TileLayout, [TileLayout]),
    "mlirTileLayoutHasOverlap": (ctypes.c_bool, [TileLayout]),
    "mlirTileLayoutCheckSwizzle": (LogicalResult, [TileLayout, _I64,
                                                   StringCallback, _VP]),
    "mlirTileLayoutOffsetOf": (LogicalResult, [TileLayout, _I64, _P64,
                                               StringCallback, _VP]),
    "mlirTileLayoutByteAddressOf": (LogicalResult, [TileLayout, _I64, _I64,
                                                    _I64, _P64,
                                                    StringCallback, _VP]),
    "mlirTileLayoutOffsetOfIndex": (LogicalResult, [TileLayout, _IP, _P64,
                                                    _P64, _P64,
                                                    StringCallback, _VP]),
    "mlirTileLayoutByteAddressOfIndex": (LogicalResult,
                                         [TileLayout, _IP, _P64, _P64, _I64,
                                          _I64, _P64, StringCallback, _VP]),
    # tile-c/Compile.h
    "mlirTileCompile": (LogicalResult, [StringRef, StringRef,
                                        ctypes.POINTER(CompileOptions),
                                        CompileCallback, _VP]),
    # tile-c/Dialects.h, tile-c/Plan.h
    "mlirTileRegisterAllDialects": (None, [DialectRegistry]),
    "mlirTileQueryCopyPlan": (LogicalResult, [Operation, StringCallback,
                                              _VP]),
    # tile-c/Draw.h
    "mlirTileLayoutDrawSvg": (LogicalResult, [TileLayout, _IP, _P64, _I64,
                                              _I64, StringCallback,
                                              StringCallback, _VP]),
    "mlirTileDrawCopyPlan": (LogicalResult, [Operation, StringCallback,
                                             _VP]),
    # mlir-c/IR.h, mlir-c/Diagnostics.h
    "mlirContextCreate": (Context, []),
    "mlirDialectRegistryCreate": (DialectRegistry, []),
    "mlirDialectRegistryDestroy": (None, [DialectRegistry]),
    "mlirContextAppendDialectRegistry": (None, [Context, DialectRegistry]),
    "mlirContextAttachDiagnosticHandler": (ctypes.c_uint64,
                                           [Context, DiagnosticHandler, _VP,
                                            _VP]),
    "mlirDiagnosticPrint": (None, [Diagnostic, StringCallback, _VP]),
    "mlirModuleCreateParse": (Module, [Context, StringRef]),
    "mlirModuleGetOperation": (Operation, [Module]),
    "mlirModuleDestroy": (None, [Module]),
    "mlirOperationWalk": (None, [Operation, WalkCallback, _VP, ctypes.c_int]),
    "mlirOperationGetName": (Identifier, [Operation]),
    "mlirIdentifierStr": (StringRef, [Identifier]),
}


def capi() -> ctypes.CDLL:
    """The loaded ``libTileCAPI.so`` with every function declared."""
    global _capi
    with _lock:
        if _capi is None:
            lib = ctypes.CDLL(find_library(CAPI_NAME))
            for name, (restype, argtypes) in _SIGNATURES.items():
                fn = getattr(lib, name)
                fn.restype = restype
                fn.argtypes = argtypes
            _capi = lib
        return _capi


class TextSink:
    """Collects the pieces a ``MlirStringCallback`` receives; pass
    ``sink.callback, None`` to the C function, read ``sink.text`` after."""

    def __init__(self) -> None:
        self.parts: List[bytes] = []
        self.callback = StringCallback(self._append)

    def _append(self, ref: StringRef, _user_data: Any) -> None:
        self.parts.append(ctypes.string_at(ref.data, ref.length))

    @property
    def text(self) -> str:
        return b"".join(self.parts).decode("utf-8", "replace")


def int64_array(values: Sequence[int]) -> Any:
    """A C array of int64 holding `values`."""
    return (ctypes.c_int64 * len(values))(*values)
