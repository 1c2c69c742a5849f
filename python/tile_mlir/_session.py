"""The MLIR context the package's queries parse in, and the walk over a
module's copies (:func:`for_each_copy`) that :mod:`tile_mlir.plan` and
:mod:`tile_mlir.draw` both use. Depends only on :mod:`tile_mlir._capi`, so
neither of those modules needs to import the other lazily."""

from __future__ import annotations

import ctypes
import threading
from typing import Any, Callable, List, Optional, TypeVar, cast

from . import _capi


class _Session:
    """One MLIR context with the tile dialects, used under a lock."""

    def __init__(self) -> None:
        lib = _capi.capi()
        self.lock = threading.Lock()
        self.context = lib.mlirContextCreate()
        registry = lib.mlirDialectRegistryCreate()
        lib.mlirTileRegisterAllDialects(registry)
        lib.mlirContextAppendDialectRegistry(self.context, registry)
        lib.mlirDialectRegistryDestroy(registry)
        self.diagnostics: List[str] = []
        self._handler = _capi.DiagnosticHandler(self._on_diagnostic)
        lib.mlirContextAttachDiagnosticHandler(self.context, self._handler,
                                               None, None)

    def _on_diagnostic(self, diagnostic: Any, _user_data: Any) -> int:
        sink = _capi.TextSink()
        _capi.capi().mlirDiagnosticPrint(diagnostic, sink.callback, None)
        self.diagnostics.append(sink.text)
        return 1  # handled: success


_session: Optional[_Session] = None
_session_lock = threading.Lock()


def _get_session() -> _Session:
    global _session
    with _session_lock:
        if _session is None:
            _session = _Session()
        return _session


T = TypeVar("T")


def for_each_copy(source: str,
                  ask: Callable[[Any], Optional[T]]) -> List[T]:
    """Parses the MLIR text `source` and calls ``ask(op)`` on every
    ``tile.copy_async`` in program order (under the session's lock); `ask`
    returns a result or None for a failure. Returns the results; raises
    :class:`ValueError` with the diagnostics when the text does not parse or
    verify, an answer failed, or there is no copy."""
    lib = _capi.capi()
    session = _get_session()
    data = source.encode("utf-8")
    with session.lock:
        session.diagnostics = []
        module = lib.mlirModuleCreateParse(session.context,
                                           _capi.StringRef.of(data))
        if not module.ptr:
            raise ValueError("\n".join(session.diagnostics)
                             or "cannot parse the module")
        try:
            results: List[Optional[T]] = []

            def visit(op: Any, _user_data: Any) -> int:
                name = lib.mlirIdentifierStr(lib.mlirOperationGetName(op))
                if ctypes.string_at(name.data, name.length) == \
                        b"tile.copy_async":
                    results.append(ask(op))
                return 0  # MlirWalkResultAdvance

            callback = _capi.WalkCallback(visit)
            lib.mlirOperationWalk(lib.mlirModuleGetOperation(module),
                                  callback, None, 0)  # MlirWalkPreOrder
        finally:
            lib.mlirModuleDestroy(module)
        if None in results or not results:
            raise ValueError("\n".join(session.diagnostics)
                             or "no tile.copy_async in the module")
    return cast(List[T], results)  # no None: checked above
