"""The runtime library (``libtile_runtime.so``, docs/runtime.md) from Python.

Compiled modules link against it by its soname, so it is loaded once, with
``RTLD_GLOBAL``, before the first module: a module's library then uses this
copy wherever the module's file lies (for example in the compile cache).
Errors come back as exceptions: after each call the runtime's sticky status
is consumed, so nothing is left behind for the next call.
"""

from __future__ import annotations

import ctypes
import threading
from typing import Optional, Tuple

from . import _capi
from .errors import NoDriverError, TileRuntimeError

RUNTIME_NAME = "libtile_runtime.so"
SUCCESS, INVALID_VALUE, NO_DRIVER = 0, 1, 2

_lock = threading.Lock()
_runtime: Optional[ctypes.CDLL] = None

_I32 = ctypes.c_int32
_SIGNATURES = {
    "tileRuntimeLastError": (ctypes.c_char_p, []),
    "tileRuntimeConsumeStatus": (_I32, []),
    "tileRuntimeStatusName": (ctypes.c_char_p, [_I32]),
    "tileRuntimeInit": (_I32, []),
    "tileRuntimeDriverAvailable": (_I32, []),
    "tileRuntimeLaunchVersionCount": (ctypes.c_int64, [_I32]),
    "tileRuntimeSiteLaunchVersionCount": (ctypes.c_int64,
                                          [ctypes.c_char_p, _I32]),
    "tileRuntimeResetLaunchVersionCounts": (None, []),
    "tileRuntimeSetDriverLibraryForTesting": (None, [ctypes.c_char_p]),
    "tileTensorMapCacheSize": (ctypes.c_size_t, []),
    "tileRuntimeMemPoolKeep": (_I32, [ctypes.c_uint64]),
}


def runtime() -> ctypes.CDLL:
    """The loaded runtime library, every function used here declared."""
    global _runtime
    with _lock:
        if _runtime is None:
            lib = ctypes.CDLL(_capi.find_library(RUNTIME_NAME),
                              mode=ctypes.RTLD_GLOBAL)
            for name, (restype, argtypes) in _SIGNATURES.items():
                fn = getattr(lib, name)
                fn.restype = restype
                fn.argtypes = argtypes
            _runtime = lib
        return _runtime


def error_for(status: int, context: str = "") -> Exception:
    """The exception for a non-success `status` (message from the runtime)."""
    rt = runtime()
    message = (rt.tileRuntimeLastError() or b"").decode("utf-8", "replace")
    if context:
        message = "%s: %s" % (context, message) if message else context
    if status == NO_DRIVER:
        return NoDriverError(message)
    name = rt.tileRuntimeStatusName(status).decode()
    if status == INVALID_VALUE:
        return ValueError(message)
    return TileRuntimeError(message, name)


def require_driver() -> None:
    """Raises :class:`NoDriverError` where no CUDA driver and device are."""
    rt = runtime()
    status = rt.tileRuntimeInit()
    if status != SUCCESS:
        rt.tileRuntimeConsumeStatus()
        raise error_for(status)


def driver_available() -> bool:
    """True where the CUDA driver loads and a device is present."""
    return bool(runtime().tileRuntimeDriverAvailable())


def launch_version_counts(site: Optional[str] = None) -> Tuple[int, int]:
    """``(guarded, fallback)`` launches so far: of every kernel with run-time
    guards, or of one launch site (``"@f: launch of @m::@k"``)."""
    rt = runtime()
    if site is None:
        return (rt.tileRuntimeLaunchVersionCount(0),
                rt.tileRuntimeLaunchVersionCount(1))
    key = site.encode()
    return (rt.tileRuntimeSiteLaunchVersionCount(key, 0),
            rt.tileRuntimeSiteLaunchVersionCount(key, 1))


def keep_pool_memory(nbytes: int) -> None:
    """How many freed bytes the runtime's stream-ordered pools keep across
    synchronizations (256 MiB until set; docs/runtime.md): the workspaces of
    the attention split tail and the GEMMs' padded copies come from them.
    ``0`` hands every freed byte back to the driver at the next
    synchronization."""
    if isinstance(nbytes, bool) or not isinstance(nbytes, int):
        raise TypeError("keep_pool_memory: nbytes must be an int, not %s"
                        % type(nbytes).__name__)
    if not 0 <= nbytes < 1 << 64:
        raise ValueError("keep_pool_memory: nbytes must be in [0, 2^64), "
                         "not %d" % nbytes)
    rt = runtime()
    status = rt.tileRuntimeMemPoolKeep(nbytes)
    if status != SUCCESS:
        rt.tileRuntimeConsumeStatus()
        raise error_for(status)


def use_driver_library_for_testing(path: str) -> None:
    """Points the runtime at another libcuda (the test suite's fake driver);
    only before anything has used the driver."""
    runtime().tileRuntimeSetDriverLibraryForTesting(path.encode())
