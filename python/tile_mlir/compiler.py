"""``tile_mlir.compile``: a tile-dialect module to a loaded shared library
with one Python callable per host entry.

The compile runs in process through the C API (``mlirTileCompile``, the
steps of ``tile-compile``) and its products are cached on disk, in
``$TILE_MLIR_CACHE_DIR`` or ``~/.cache/tile_mlir``, by the source, its name
and the options: a second compile of the same source is a lookup and a
``dlopen``. A machine without the compiler's libraries (a GPU machine with
no LLVM) can run from a cache filled elsewhere. See docs/python.md.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import shutil
import sys
import tempfile
import threading
from typing import (TYPE_CHECKING, Any, Dict, Iterable, List, Optional,
                    Tuple, Union)

from . import _capi, runtime, tensors
from ._streams import Stream, stream_handle
from .errors import TileCompileError, parse_diagnostic
from .plan import Plan

CACHE_FORMAT = 2
_memo: Dict[str, CompiledModule] = {}
_memo_lock = threading.Lock()
_compiler_id: Optional[str] = None

#: What :func:`compile` takes: MLIR text, or the path of a ``.mlir`` file.
Source = Union[str, os.PathLike[str]]


def cache_dir() -> str:
    """The folder of the compile cache."""
    return os.environ.get("TILE_MLIR_CACHE_DIR") or os.path.join(
        os.path.expanduser("~"), ".cache", "tile_mlir")


def _read_source(source_or_path: Source,
                 name: Optional[str]) -> Tuple[str, str]:
    if isinstance(source_or_path, os.PathLike) or (
            isinstance(source_or_path, str) and "\n" not in source_or_path
            and os.path.isfile(source_or_path)):
        path = os.fspath(source_or_path)
        with open(path, encoding="utf-8") as handle:
            return handle.read(), name or path
    if not isinstance(source_or_path, str):
        raise TypeError("compile() takes MLIR source text or a path, not %s"
                        % type(source_or_path).__name__)
    return source_or_path, name or "<source>"


def compiler_id() -> Optional[str]:
    """A digest of the compiler library, or None where it is not found: a
    cache entry made by another build of the compiler is made again."""
    global _compiler_id
    if _compiler_id is None:
        try:
            path = _capi.find_library(_capi.CAPI_NAME)
        except OSError:
            return None
        digest = hashlib.sha256()
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        _compiler_id = digest.hexdigest()[:16]
    return _compiler_id


def _cache_key(source: str, name: str, options: Dict[str, Any]) -> str:
    text = json.dumps({"format": CACHE_FORMAT, "source": source,
                       "name": name, "options": options}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _run_compiler(source: str, name: str, options: Dict[str, Any],
                  folder: str) -> None:
    """Compiles into `folder` (module.so, meta.json, ptx/, mlir/)."""
    capi = _capi.capi()
    products: Dict[str, List[Tuple[str, str]]] = {
        "plan": [], "entry": [], "ptx": [], "mlir": []}
    # (location, text, rule id or None): a "rule" product names the rule of
    # the diagnostic that follows it.
    reported: List[Tuple[str, str, Optional[str]]] = []
    pending_rule: List[str] = []

    def receive(kind: _capi.StringRef, item_name: _capi.StringRef,
                text: _capi.StringRef, _user_data: Any) -> None:
        def read(ref: _capi.StringRef) -> str:
            return ctypes.string_at(ref.data, ref.length).decode(
                "utf-8", "replace")
        what = read(kind)
        if what == "rule":
            pending_rule[:] = [read(item_name)]
        elif what == "diagnostic":
            rule = pending_rule.pop() if pending_rule else None
            reported.append((read(item_name), read(text), rule))
        elif what in products:
            products[what].append((read(item_name), read(text)))

    callback = _capi.CompileCallback(receive)
    runtime_dir = os.path.dirname(_capi.find_library(runtime.RUNTIME_NAME))
    keep = [value.encode() for value in (
        options["chip"], options["toolkit"], runtime_dir,
        os.path.join(folder, "module.so"), ",".join(options["stages"]))]
    c_options = _capi.CompileOptions(*[_capi.StringRef.of(v) for v in keep],
                                     options["ptx"],
                                     options["convert_upstream_copies"])
    source_bytes, name_bytes = source.encode(), name.encode()
    result = capi.mlirTileCompile(_capi.StringRef.of(source_bytes),
                                  _capi.StringRef.of(name_bytes),
                                  ctypes.byref(c_options), callback, None)
    diagnostics = [parse_diagnostic(loc, text, rule)
                   for loc, text, rule in reported]
    if not result.value:
        # A failure is cached too: the same source fails the same way, also
        # where the compiler is not installed.
        with open(os.path.join(folder, "meta.json"), "w",
                  encoding="utf-8") as handle:
            json.dump({"format": CACHE_FORMAT, "compiler": compiler_id(),
                       "name": name, "options": options,
                       "error": reported}, handle)
        raise TileCompileError(diagnostics, "compiling %s failed" % name)
    meta: Dict[str, Any] = {
        "format": CACHE_FORMAT, "compiler": compiler_id(), "name": name,
        "options": options,
        "entries": [json.loads(text) for _, text in products["entry"]],
        "plans": [json.loads(text) for _, text in products["plan"]],
        "warnings": [text for _, text, _ in reported],
        "ptx": [], "mlir": []}
    for kind, suffix in (("ptx", ".ptx"), ("mlir", ".mlir")):
        os.makedirs(os.path.join(folder, kind), exist_ok=True)
        for index, (item, text) in enumerate(products[kind]):
            file_name = "%d%s" % (index, suffix)
            with open(os.path.join(folder, kind, file_name), "w",
                      encoding="utf-8") as handle:
                handle.write(text)
            meta[kind].append([item, file_name])
    with open(os.path.join(folder, "meta.json"), "w",
              encoding="utf-8") as handle:
        json.dump(meta, handle)


def _load_meta(folder: str) -> Optional[Dict[str, Any]]:
    try:
        with open(os.path.join(folder, "meta.json"), encoding="utf-8") as h:
            meta = json.load(h)
    except (OSError, ValueError):
        return None
    if meta.get("format") != CACHE_FORMAT or ("error" not in meta and
                                              not os.path.isfile(os.path.join(
                                                  folder, "module.so"))):
        return None
    current = compiler_id()
    if current is not None and meta.get("compiler") != current:
        return None
    return meta


def _publish(scratch: str, folder: str) -> None:
    """Moves a finished compile into its cache folder."""
    if os.path.isdir(folder):
        shutil.rmtree(folder, ignore_errors=True)
    os.replace(scratch, folder)


def compile(source_or_path: Source, *, chip: str = "sm_90a",
            toolkit: str = "/usr/local/cuda", stages: Iterable[str] = (),
            ptx: bool = True, name: Optional[str] = None,
            cache: bool = True,
            convert_upstream_copies: bool = False) -> CompiledModule:
    """Compiles a module of host functions that launch tile-dialect kernels
    (MLIR text, or the path of a ``.mlir`` file) and loads it.

    `stages` names the pipeline stages whose IR to keep (``"input"``, a pass
    argument such as ``"tile-plan-copies"``, ``"all"``, ``"lowered"``);
    `ptx` keeps each kernel module's PTX; `name` is the file name the
    diagnostics and plan locations use (default: the path, or
    ``<source>``). Raises :class:`TileCompileError`. With ``cache=False``
    the module is compiled again into a fresh folder. With
    ``convert_upstream_copies=True`` the ``memref.copy``/``linalg.copy`` ops
    between global and shared memory that every thread of a kernel runs
    become CTA-wide ``tile.copy`` ops first (docs/embedding.md, "Bringing
    upstream copies")."""
    source, name = _read_source(source_or_path, name)
    options = {"chip": chip, "toolkit": toolkit,
               "stages": sorted(set(stages)), "ptx": bool(ptx),
               "convert_upstream_copies": bool(convert_upstream_copies)}
    key = _cache_key(source, name, options)
    with _memo_lock:
        if cache and key in _memo:
            return _memo[key]
        root = cache_dir()
        os.makedirs(root, exist_ok=True)
        folder = os.path.join(root, key)
        meta = _load_meta(folder) if cache else None
        if meta is None:
            scratch = tempfile.mkdtemp(prefix=key + ".", dir=root)
            try:
                _run_compiler(source, name, options, scratch)
            except TileCompileError:
                if cache:  # the failure is kept: meta.json says it
                    _publish(scratch, folder)
                else:
                    shutil.rmtree(scratch, ignore_errors=True)
                raise
            except BaseException:
                shutil.rmtree(scratch, ignore_errors=True)
                raise
            if cache:
                _publish(scratch, folder)
            else:
                folder = scratch
            meta = _load_meta(folder)
        if "error" in meta:
            raise TileCompileError([parse_diagnostic(loc, text, rule)
                                    for loc, text, rule in meta["error"]],
                                   "compiling %s failed" % name)
        module = CompiledModule(folder, meta)
        if cache:
            _memo[key] = module
        return module


class CompiledModule:
    """A compiled and loaded module: `ptx` (the PTX of its kernel modules,
    one string; `ptx_modules` by module name), `plans` (:class:`Plan` of
    every copy, in source order; `reports` the report lines), `mlir` (stage
    name -> IR), `entries` (name -> :class:`Entry`, also attributes),
    `path` (the shared library) and `warnings`."""

    def __init__(self, folder: str, meta: Dict[str, Any]) -> None:
        self.folder = folder
        self.path = os.path.join(folder, "module.so")
        self.name: str = meta["name"]
        self.reports: List[Dict[str, Any]] = meta["plans"]
        self.plans = [Plan(report) for report in self.reports]
        self.warnings: List[str] = meta["warnings"]
        self.ptx_modules = {item: _read(folder, "ptx", file_name)
                            for item, file_name in meta["ptx"]}
        self.ptx = "".join(self.ptx_modules.values())
        self.mlir = {item: _read(folder, "mlir", file_name)
                     for item, file_name in meta["mlir"]}
        rt = runtime.runtime()
        # The library's constructor loads its cubin; where that fails (no
        # driver, ...) the status says why, and each call raises it.
        self._library = ctypes.CDLL(self.path)
        status = rt.tileRuntimeConsumeStatus()
        self.load_error: Optional[Exception] = (
            runtime.error_for(status) if status else None)
        self.entries: Dict[str, Entry] = {}
        for signature in meta["entries"]:
            entry = Entry(self, signature)
            self.entries[entry.name] = entry
            if not hasattr(self, entry.name):
                setattr(self, entry.name, entry)

    def __getitem__(self, name: str) -> Entry:
        return self.entries[name]

    if TYPE_CHECKING:
        # For type checkers only: the entries are attributes too.
        def __getattr__(self, name: str) -> Entry: ...

    def __repr__(self) -> str:
        return "<tile_mlir.CompiledModule %s: %s>" % (
            self.name, ", ".join(self.entries))


def _read(folder: str, kind: str, file_name: str) -> str:
    with open(os.path.join(folder, kind, file_name), encoding="utf-8") as h:
        return h.read()


_SCALARS: Dict[str, Any] = {
    "index": ctypes.c_int64, "i64": ctypes.c_int64, "i32": ctypes.c_int32,
    "i16": ctypes.c_int16, "i8": ctypes.c_int8, "i1": ctypes.c_bool,
    "f32": ctypes.c_float, "f64": ctypes.c_double}


class Entry:
    """One host entry of a compiled module, callable with tensors.

    Memref arguments take torch CUDA tensors or objects with
    ``__cuda_array_interface__`` / ``__dlpack__``, checked against the
    memref type (ValueError naming the argument); scalar arguments take
    Python numbers. An entry with a ``!gpu.async.token`` argument launches on
    `stream` (default: torch's current stream); one without launches on a
    stream of its own and returns when the kernel is done, after the given
    stream's work so far. The call goes through the library's expanded C
    entry (each memref as its descriptor's fields)."""

    def __init__(self, module: CompiledModule,
                 signature: Dict[str, Any]) -> None:
        self.module = module
        self.name: str = signature["name"]
        self.signature = signature
        self.args: List[Dict[str, Any]] = signature["args"]
        self._positional = [i for i, a in enumerate(self.args)
                            if a["kind"] != "stream"]
        self._has_stream = len(self._positional) != len(self.args)
        self._fn = getattr(module._library, self.name)
        self._fn.restype = None
        argtypes: Optional[List[Any]] = []
        for index, arg in enumerate(self.args):
            if arg["kind"] == "memref":
                tensors.prepare_argument(arg)
                rank = len(arg["shape"])
                argtypes += [ctypes.c_void_p, ctypes.c_void_p,
                             ctypes.c_int64] + [ctypes.c_int64] * (2 * rank)
            elif arg["kind"] == "stream":
                argtypes.append(ctypes.c_void_p)
            elif arg["type"] in _SCALARS:
                argtypes.append(_SCALARS[arg["type"]])
            else:
                argtypes = None
                self._unsupported = index
                break
        self._fn.argtypes = argtypes
        if argtypes is not None:
            self._unsupported = None
        self._consume = runtime.runtime().tileRuntimeConsumeStatus
        self._driver_checked = False

    def _check_loaded(self) -> None:
        """Before the first launch: a driver is there (else NoDriverError)
        and the module's cubin loaded (else what its loading reported)."""
        runtime.require_driver()
        if self.module.load_error is not None:
            raise self.module.load_error
        self._driver_checked = True

    def _label(self, index: int) -> str:
        arg = self.args[index]
        if arg.get("name"):
            return "argument %s (#%d, %s)" % (arg["name"], index, arg["type"])
        return "argument #%d (%s)" % (index, arg["type"])

    def _fail(self, index: int, error: ValueError) -> ValueError:
        return ValueError("%s: %s: %s" % (self.name, self._label(index),
                                          error))

    def __call__(self, *values: Any, stream: Stream = None) -> None:
        if len(values) != len(self._positional):
            raise TypeError("%s takes %d arguments (%s), got %d"
                            % (self.name, len(self._positional), ", ".join(
                                self.args[i].get("name") or "#%d" % i
                                for i in self._positional), len(values)))
        if self.signature["results"] or self._unsupported is not None:
            raise TypeError("%s cannot be called from Python: %s" % (
                self.name, "it returns values" if self.signature["results"]
                else "%s has a type Python cannot pass"
                % self._label(self._unsupported)))
        keep: List[Any] = []
        flat: List[Any] = []
        handle = None
        remaining = iter(values)
        for index, arg in enumerate(self.args):
            kind = arg["kind"]
            if kind == "stream":
                handle = stream_handle(stream)
                flat.append(handle)
                continue
            value = next(remaining)
            if kind == "memref":
                try:
                    buffer = tensors.as_buffer(value, keep)
                    tensors.check_buffer(buffer, arg)
                except ValueError as error:
                    raise self._fail(index, error) from None
                tensors.append_descriptor(flat, buffer, arg)
            else:
                flat.append(value)
        if not self._driver_checked:
            self._check_loaded()
        if not self._has_stream:
            # The entry's own stream does not wait for the caller's.
            handle = stream_handle(stream)
            torch = sys.modules.get("torch")
            if handle and torch is not None:
                torch.cuda.ExternalStream(handle).synchronize()
        self.launch_flat(flat)

    def launch_flat(self, flat: List[Any]) -> None:
        """Calls the expanded entry with `flat` (descriptor fields, stream),
        already checked by the caller; raises what the runtime reports."""
        if not self._driver_checked:
            self._check_loaded()
        self._fn(*flat)
        status = self._consume()
        if status:
            raise runtime.error_for(status, self.name)

    def __repr__(self) -> str:
        return "<tile_mlir.Entry %s(%s)>" % (self.name, ", ".join(
            a["type"] for a in self.args))
