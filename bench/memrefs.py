"""The C interface's rank-1 and rank-2 memref descriptors, filled from a
torch tensor (what the benchmarks pass to `_mlir_ciface_` entries through
ctypes)."""
import ctypes as C


class MemRef2(C.Structure):
    _fields_ = [("allocated", C.c_void_p), ("aligned", C.c_void_p),
                ("offset", C.c_int64), ("sizes", C.c_int64 * 2),
                ("strides", C.c_int64 * 2)]


class MemRef1(C.Structure):
    _fields_ = [("allocated", C.c_void_p), ("aligned", C.c_void_p),
                ("offset", C.c_int64), ("sizes", C.c_int64 * 1),
                ("strides", C.c_int64 * 1)]


def memref(t):
    """The descriptor of a 1-D or 2-D tensor (element strides, no offset)."""
    assert t.dim() in (1, 2)
    p = t.data_ptr()
    kind = MemRef1 if t.dim() == 1 else MemRef2
    return kind(p, p, 0, tuple(t.shape), tuple(t.stride()))
