"""Which arguments a GEMM library's entry takes, for the benchmarks that
call it (bench.py, profile.py, clocks.py): gen_gemm.py --bf16-out builds
write a bf16 C and take alpha after it; the others write f32."""
import os
import re


def output_is_bf16(folder, lib):
    """Whether gemm library `lib` writes a bf16 C (and takes alpha): from
    the `!C` alias of the module it was compiled from where that module is
    beside it, else from its name (gen_gemm.py --bf16-out builds are named
    gemm_bf16out*). A name that contradicts the module is an error: the
    entry would be called with the wrong arguments."""
    by_name = lib.startswith("gemm_bf16out")
    module = os.path.join(folder, lib[:-3] + ".mlir")
    if not os.path.exists(module):
        return by_name
    with open(module) as f:
        m = re.search(r"^!C = memref<\?x\?x(\w+)>", f.read(), re.M)
    if not m:
        return by_name
    bf16 = m.group(1) == "bf16"
    if bf16 != by_name:
        raise ValueError(f"{lib}: its module writes a {m.group(1)} C, but its "
                         f"name {'says' if by_name else 'does not say'} "
                         f"gemm_bf16out (bench.py times bf16-output kernels "
                         f"by that prefix)")
    return bf16
