"""The C interface's rank-2 memref descriptor, filled from a torch tensor
(what the benchmarks pass to `_mlir_ciface_` entries through ctypes)."""
import ctypes as C


class MemRef2(C.Structure):
    _fields_ = [("allocated", C.c_void_p), ("aligned", C.c_void_p),
                ("offset", C.c_int64), ("sizes", C.c_int64 * 2),
                ("strides", C.c_int64 * 2)]


def memref(t):
    """The descriptor of a 2-D tensor (element strides, no offset)."""
    assert t.dim() == 2
    p = t.data_ptr()
    return MemRef2(p, p, 0, tuple(t.shape), tuple(t.stride()))
