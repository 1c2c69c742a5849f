"""Device buffers from Python objects, and the memref descriptors the
compiled entries take.

Accepted: torch CUDA tensors (read directly), objects with
``__cuda_array_interface__`` (CuPy, Numba, ...) and objects with
``__dlpack__`` on a CUDA device. Each becomes a :class:`Buffer`: the device
address of its first element, sizes, strides in elements and the element
type, checked against a signature's memref type by :func:`check_buffer`.
"""

from __future__ import annotations

import ctypes
import sys
from typing import Any, Dict, List, NamedTuple, Optional, Tuple


class Buffer(NamedTuple):
    """A device buffer: `address` of element 0 (bytes), `shape`, `strides`
    (elements), `dtypes` (the MLIR element types it may stand for: an
    unsigned 8-bit tensor is ``ui8`` and signless ``i8``), `bits` per element
    and `kind` (what it came from, for messages)."""

    address: int
    shape: Tuple[int, ...]
    strides: Tuple[int, ...]
    dtypes: Tuple[str, ...]
    bits: int
    kind: str

# torch dtype name -> (MLIR element types, bits).
_TORCH_DTYPES: Dict[str, Tuple[Tuple[str, ...], int]] = {
    "float16": (("f16",), 16), "bfloat16": (("bf16",), 16),
    "float32": (("f32",), 32), "float64": (("f64",), 64),
    "int8": (("i8", "si8"), 8), "uint8": (("i8", "ui8"), 8),
    "int16": (("i16", "si16"), 16), "uint16": (("i16", "ui16"), 16),
    "int32": (("i32", "si32"), 32), "uint32": (("i32", "ui32"), 32),
    "int64": (("i64", "si64"), 64), "uint64": (("i64", "ui64"), 64),
    "bool": (("i1",), 8),
    "float8_e4m3fn": (("f8E4M3FN",), 8), "float8_e5m2": (("f8E5M2",), 8),
    "float8_e4m3fnuz": (("f8E4M3FNUZ",), 8),
    "float8_e5m2fnuz": (("f8E5M2FNUZ",), 8),
    "float8_e8m0fnu": (("f8E8M0FNU",), 8),
    "complex32": (("complex<f16>",), 32),
    "complex64": (("complex<f32>",), 64),
    "complex128": (("complex<f64>",), 128),
}

# __cuda_array_interface__ typestr kind+bytes -> MLIR element types.
_TYPESTR: Dict[str, Tuple[str, ...]] = {
    "f2": ("f16",), "f4": ("f32",), "f8": ("f64",),
    "i1": ("i8", "si8"), "i2": ("i16", "si16"), "i4": ("i32", "si32"),
    "i8": ("i64", "si64"), "u1": ("i8", "ui8"), "u2": ("i16", "ui16"),
    "u4": ("i32", "ui32"), "u8": ("i64", "ui64"), "b1": ("i1",),
    "c8": ("complex<f32>",), "c16": ("complex<f64>",),
}

# DLPack (type code, bits) -> MLIR element types.
_DLPACK: Dict[Tuple[int, int], Tuple[str, ...]] = {
    (0, 8): ("i8", "si8"), (0, 16): ("i16", "si16"), (0, 32): ("i32", "si32"),
    (0, 64): ("i64", "si64"), (1, 8): ("i8", "ui8"), (1, 16): ("i16", "ui16"),
    (1, 32): ("i32", "ui32"), (1, 64): ("i64", "ui64"), (2, 16): ("f16",),
    (2, 32): ("f32",), (2, 64): ("f64",), (4, 16): ("bf16",), (6, 8): ("i1",),
    (5, 32): ("complex<f16>",), (5, 64): ("complex<f32>",),
    (5, 128): ("complex<f64>",),
}

# Element types a buffer of bytes may be passed as: a 1-byte boolean is a
# byte (an entry taking i8 or ui8 memrefs takes bool tensors).
_AS_BYTES = {"i8", "ui8"}

_DL_CUDA, _DL_CUDA_MANAGED = 2, 13


def element_bits(dtype: str) -> int:
    """Bits per element of an MLIR element type (``i1`` takes a byte,
    ``complex<fN>`` two ``fN``)."""
    if dtype.startswith("complex<") and dtype.endswith(">"):
        return 2 * element_bits(dtype[len("complex<"):-1])
    if dtype in ("f16", "bf16"):
        return 16
    if dtype in ("f32", "tf32"):
        return 32
    if dtype == "f64":
        return 64
    if dtype.startswith("f8") or dtype == "i1":
        return 8
    digits = dtype.lstrip("su").lstrip("i")
    return int(digits) if digits.isdigit() else 0


def torch_name(dtype: Any) -> str:
    """``torch.float16`` -> ``float16``."""
    return str(dtype).rpartition(".")[2]


_torch_dtype_cache: Dict[Any, Optional[Tuple[Tuple[str, ...], int]]] = {}


OPAQUE_PREFIX = "torch."


def _from_torch(tensor: Any, require_cuda: bool = True,
                opaque: bool = False) -> Buffer:
    if require_cuda and not tensor.is_cuda:
        raise ValueError("is a %s tensor on %s; kernels need CUDA memory"
                         % (torch_name(tensor.dtype), tensor.device))
    dtype = tensor.dtype
    entry = _torch_dtype_cache.get(dtype)
    if entry is None:
        entry = _TORCH_DTYPES.get(torch_name(dtype))
        _torch_dtype_cache[dtype] = entry
    if entry is None and opaque and tensor.element_size() in (1, 2, 4, 8, 16):
        # No MLIR type, but whole bytes: a copy moves them as they are.
        entry = ((OPAQUE_PREFIX + torch_name(dtype),),
                 8 * tensor.element_size())
    if entry is None:
        raise ValueError("has dtype %s, which no MLIR element type stands for"
                         % tensor.dtype)
    return Buffer(tensor.data_ptr(), tuple(tensor.shape),
                  tuple(tensor.stride()), entry[0], entry[1],
                  "torch tensor")


def _from_cai(obj: Any) -> Buffer:
    cai = obj.__cuda_array_interface__
    typestr = cai["typestr"]
    dtypes = _TYPESTR.get(typestr[1:])
    if dtypes is None:
        raise ValueError("has typestr %r, which no MLIR element type stands "
                         "for" % typestr)
    nbytes = int(typestr[2:])
    shape = tuple(int(s) for s in cai["shape"])
    strides = cai.get("strides")
    if strides is None:
        strides, step = [], 1
        for size in reversed(shape):
            strides.insert(0, step)
            step *= size
    else:
        if any(s % nbytes for s in strides):
            raise ValueError("has byte strides %s that are not whole elements"
                             % (tuple(strides),))
        strides = [s // nbytes for s in strides]
    return Buffer(int(cai["data"][0]), shape, tuple(strides), dtypes,
                  nbytes * 8, "__cuda_array_interface__")


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int), ("device_id", ctypes.c_int)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice),
                ("ndim", ctypes.c_int), ("dtype", _DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def _from_dlpack(obj: Any, keep: List[Any]) -> Buffer:
    device_type, _ = obj.__dlpack_device__()
    if device_type not in (_DL_CUDA, _DL_CUDA_MANAGED):
        raise ValueError("is a DLPack tensor on device type %d; kernels need "
                         "CUDA memory" % device_type)
    capsule = obj.__dlpack__()
    keep.append(capsule)  # the tensor stays alive while the capsule does
    # A DLManagedTensor starts with its DLTensor.
    tensor = _DLTensor.from_address(_capsule_pointer(capsule, b"dltensor"))
    code, bits = tensor.dtype.code, tensor.dtype.bits
    dtypes = _DLPACK.get((code, bits))
    if dtypes is None or tensor.dtype.lanes != 1:
        raise ValueError("has DLPack dtype (code %d, %d bits, %d lanes), "
                         "which no MLIR element type stands for"
                         % (code, bits, tensor.dtype.lanes))
    ndim = tensor.ndim
    shape = tuple(tensor.shape[i] for i in range(ndim))
    if tensor.strides:
        strides = tuple(tensor.strides[i] for i in range(ndim))
    else:
        strides, step = [], 1
        for size in reversed(shape):
            strides.insert(0, step)
            step *= size
        strides = tuple(strides)
    return Buffer((tensor.data or 0) + tensor.byte_offset, shape, strides,
                  dtypes, bits, "DLPack tensor")


def as_buffer(obj: Any, keep: List[Any], require_cuda: bool = True,
              opaque: bool = False) -> Buffer:
    """The :class:`Buffer` of `obj`; raises ValueError (the message continues
    "argument X ...") when it is not a CUDA buffer. `keep` collects what
    must stay alive until the launch returns. ``require_cuda=False``
    describes a CPU torch tensor too (to compile ahead for its
    signature). ``opaque=True`` describes a torch tensor whose dtype no MLIR
    type stands for (quantized, packed) by its element size, with the
    element type ``torch.<dtype>``: something to copy, not compute on."""
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(obj, torch.Tensor):
        return _from_torch(obj, require_cuda, opaque)
    if hasattr(obj, "__cuda_array_interface__"):
        return _from_cai(obj)
    if hasattr(obj, "__dlpack__") and hasattr(obj, "__dlpack_device__"):
        return _from_dlpack(obj, keep)
    raise ValueError("is a %s, not a CUDA tensor (torch, "
                     "__cuda_array_interface__ or __dlpack__)"
                     % type(obj).__name__)


def check_buffer(buffer: Buffer, arg: Dict[str, Any]) -> None:
    """Raises ValueError with the reason when `buffer` does not fit the
    signature's memref argument `arg` (docs/python.md)."""
    if arg["dtype"] not in buffer.dtypes and not (
            buffer.dtypes == ("i1",) and arg["dtype"] in _AS_BYTES):
        raise ValueError("has element type %s, expected %s"
                         % (buffer.dtypes[-1], arg["dtype"]))
    shape, strides = arg["shape"], arg["strides"]
    # The common case first: a buffer that matches a static type exactly.
    if not (buffer.shape == arg.get("_shape") and
            buffer.strides == arg.get("_strides")):
        _check_sizes_and_strides(buffer, shape, strides)
    bytes_per = buffer.bits // 8 or 1
    if buffer.address % bytes_per:
        raise ValueError("starts at 0x%x, which is not aligned to its %d-byte "
                         "elements" % (buffer.address, bytes_per))
    # TMA copies need a 16-byte aligned base (global-align); where the type
    # leaves something to run time, the entry checks it and falls back.
    if arg.get("_static_tma") and buffer.address % 16:
        raise ValueError("starts at 0x%x, which is not 16-byte aligned, and "
                         "a TMA copy reads or writes it (global-align)"
                         % buffer.address)


def prepare_argument(arg: Dict[str, Any]) -> None:
    """Adds to a signature's memref argument what :func:`check_buffer`
    compares fast: its static shape and strides as tuples, and whether a TMA
    copy with a fully static type uses it."""
    shape, strides = arg["shape"], arg["strides"]
    static = (None not in shape and strides is not None
              and None not in strides and arg["offset"] is not None)
    arg["_shape"] = tuple(shape) if None not in shape else None
    arg["_strides"] = tuple(strides) if static else None
    arg["_static_tma"] = bool(arg.get("tma")) and static


def _check_sizes_and_strides(buffer: Buffer,
                             shape: List[Optional[int]],
                             strides: Optional[List[Optional[int]]]) -> None:
    if len(buffer.shape) != len(shape):
        raise ValueError("has rank %d, expected %d"
                         % (len(buffer.shape), len(shape)))
    for dim, (size, want) in enumerate(zip(buffer.shape, shape)):
        if want is not None and size != want:
            raise ValueError("has size %d in dimension %d, expected %d"
                             % (size, dim, want))
    if strides is not None:
        for dim, (stride, want) in enumerate(zip(buffer.strides, strides)):
            # A size-1 dimension's stride is never used (the entry's own
            # check does not compare it either).
            if want is not None and stride != want and buffer.shape[dim] != 1:
                raise ValueError("has stride %d in dimension %d, expected %d"
                                 % (stride, dim, want))


def append_descriptor(flat: List[int], buffer: Buffer,
                      arg: Dict[str, Any]) -> None:
    """Appends the fields of `buffer`'s memref descriptor for argument `arg`
    to `flat`, as the expanded C entry takes them: a static offset in the
    type is kept (the aligned pointer moves back by it), a dynamic one is 0;
    then the sizes and the strides."""
    offset = arg["offset"] or 0
    base = buffer.address - offset * max(buffer.bits // 8, 1)
    flat += (base, base, offset)
    flat += buffer.shape
    flat += buffer.strides
