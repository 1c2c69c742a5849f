#!/usr/bin/env python3
"""The Python package on the GPU: correctness of `tile_mlir.compile` entries
and `tile_mlir.copy` on torch tensors, then host time per call and copy
bandwidth against torch `copy_` and a Triton TMA copy, measured in the same
run.

The GPU machine has no LLVM/MLIR, so its compiles are served from a cache
filled on the build machine first:

    # build machine (torch for CPU tensors: Debian's python3-torch)
    TILE_MLIR_CACHE_DIR=.gpu/pycache /usr/bin/python3 bench/Python/bench.py --prepare
    # GPU machine, with .gpu carried (it holds libtile_runtime.so)
    TILE_MLIR_LIB_DIR=.gpu TILE_MLIR_CACHE_DIR=.gpu/pycache python3 bench/Python/bench.py
    TILE_MLIR_LIB_DIR=.gpu TILE_MLIR_CACHE_DIR=.gpu/pycache python3 bench/Python/bench.py --docs

Every case of the check prints one line; the last line is
`python checks: N passed, N failed`.
"""
import argparse
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "bench"))

import torch  # noqa: E402

import tile_mlir  # noqa: E402
from timing import event_ms  # noqa: E402

DEMO = os.path.join(ROOT, "examples", "copy_async_tma.mlir")


def cases(device):
    """(name, dst, src) for the copy checks; `src` holds distinct values."""
    gen = torch.Generator().manual_seed(7)

    def rand(shape, dtype):
        if dtype.is_floating_point:
            t = torch.randn(shape, generator=gen)
        else:
            t = torch.randint(0, 120, shape, generator=gen)
        return t.to(dtype).to(device)

    out = []
    for dtype in (torch.float16, torch.bfloat16, torch.float32, torch.uint8,
                  torch.int32, torch.float64):
        a = rand((1000, 1000), dtype)
        out.append(("1000x1000 %s" % str(dtype)[6:], torch.zeros_like(a), a))
    # Element types the TMA cannot carry: copied as integers of their width.
    a = (torch.randint(0, 2, (300, 500), generator=gen) == 1).to(device)
    out.append(("300x500 bool (as bytes)", torch.zeros_like(a), a))
    for dtype in (torch.complex64, torch.complex128):
        a = torch.randn((300, 200), dtype=dtype, generator=gen).to(device)
        out.append(("300x200 %s" % str(dtype)[6:], torch.zeros_like(a), a))
    a = torch.randn((200, 300), dtype=torch.complex128, generator=gen).to(
        device)
    out.append(("transposed 300x200 complex128 view (words apart)",
                torch.zeros(300, 200, dtype=torch.complex128, device=device),
                a.t()))
    a = rand((4097, 33), torch.float16)
    out.append(("4097x33 f16 (66-byte rows: fallback)", torch.zeros_like(a),
                a))
    a = rand((100003,), torch.float32)
    out.append(("rank 1, 100003 f32", torch.zeros_like(a), a))
    a = rand((3, 70, 300), torch.float16)
    out.append(("rank 3, 3x70x300 f16", torch.zeros_like(a), a))
    a = rand((2, 3, 5, 40, 128), torch.bfloat16)
    out.append(("rank 5, 2x3x5x40x128 bf16", torch.zeros_like(a), a))
    big = rand((512, 1024), torch.float16)
    out.append(("sliced [3:, 64:] of 512x1024 f16 (base +6272 B)",
                torch.zeros(509, 960, dtype=torch.float16, device=device),
                big[3:, 64:]))
    out.append(("sliced [:, 8:] of 512x1024 f16 (base +16 B)",
                torch.zeros(512, 1016, dtype=torch.float16, device=device),
                big[:, 8:]))
    out.append(("every 2nd column of 512x1024 f16 (inner stride 2)",
                torch.zeros(512, 512, dtype=torch.float16, device=device),
                big[:, ::2]))
    out.append(("transposed 1024x512 f16 view",
                torch.zeros(1024, 512, dtype=torch.float16, device=device),
                big.t()))
    dst = torch.zeros(1024, 512, dtype=torch.float16, device=device)
    out.append(("into a transposed view", dst.t(), big))
    row = rand((1, 1024), torch.float32)
    out.append(("broadcast row (src stride 0) f32",
                torch.zeros(64, 1024, dtype=torch.float32, device=device),
                row.expand(64, 1024)))
    out.append(("0-d f32", torch.zeros((), device=device),
                rand((), torch.float32)))
    return out


DOC_PAGES = [os.path.join(ROOT, "docs", "python.md"),
             os.path.join(ROOT, "docs", "tutorial.md")]


def prepare():
    tile_mlir.compile(DEMO)
    for _, dst, src in cases("cpu"):
        tile_mlir.compile_copy(dst, src)
    for shape, dtype in (((8, 256), torch.float16),
                         ((3, 70, 512), torch.bfloat16)):
        tile_mlir.compile_copy(torch.zeros(shape, dtype=dtype),
                               torch.zeros(shape, dtype=dtype))
    # What the documentation pages compile (their python blocks, here).
    sys.path.insert(0, os.path.join(ROOT, "python", "tests"))
    from doc_blocks import run_page
    for page in DOC_PAGES:
        run_page(page)
    print("prepared", len(os.listdir(tile_mlir.cache_dir())), "modules in",
          tile_mlir.cache_dir())


def check(results, name, ok, detail=""):
    results.append(ok)
    print("%s %s%s" % ("PASS" if ok else "FAIL", name,
                       " (%s)" % detail if detail else ""), flush=True)


def run_checks():
    results = []
    # The reference demo through compile(): B equals A.
    demo = tile_mlir.compile(DEMO)
    a = torch.randn(8, 256, device="cuda").half()
    b = torch.zeros_like(a)
    demo.copy_async(a, b)
    check(results, "demo entry copy_async", torch.equal(a, b))
    try:
        demo.copy_async(a[:, :128], b)
        check(results, "demo entry rejects an 8x128 tensor", False)
    except ValueError as error:
        check(results, "demo entry rejects an 8x128 tensor", "has size 128 "
              "in dimension 1, expected 256" in str(error), str(error))
    for name, dst, src in cases("cuda"):
        before = tile_mlir.launch_version_counts()
        tile_mlir.copy(dst, src)
        torch.cuda.synchronize()
        after = tile_mlir.launch_version_counts()
        # The guarded version is the planned kernel (TMA wherever the
        # element strides allow); the fallback copies per thread.
        versions = "guarded version" if after[0] > before[0] else (
            "fallback version" if after[1] > before[1] else "no guards")
        check(results, "copy " + name, torch.equal(dst, src), versions)
    # A non-default stream: the copy is queued behind a long kernel on it.
    stream = torch.cuda.Stream()
    a = torch.randn(4096, 4096, device="cuda").half()
    b = torch.zeros_like(a)
    with torch.cuda.stream(stream):
        a.mul_(1)  # stream work the copy must follow
        tile_mlir.copy(b, a)
    stream.synchronize()
    check(results, "copy on a non-default stream (current)",
          torch.equal(a, b))
    c = torch.zeros_like(a)
    tile_mlir.copy(c, a, stream=stream)
    stream.synchronize()
    check(results, "copy on stream= argument", torch.equal(a, c))
    try:
        tile_mlir.copy(torch.zeros(4, 4, device="cuda"),
                       torch.zeros(4, 4, device="cuda").half())
        check(results, "copy rejects f16 into f32", False)
    except ValueError as error:
        check(results, "copy rejects f16 into f32", "copy converts no "
              "element types" in str(error), str(error))
    passed = sum(results)
    return passed, len(results) - passed


def host_us(loop, batches=20, per=200):
    vals = []
    loop(per)
    torch.cuda.synchronize()
    for _ in range(batches):
        torch.cuda.synchronize()
        t = time.perf_counter()
        loop(per)
        vals.append((time.perf_counter() - t) / per * 1e6)
    torch.cuda.synchronize()
    return statistics.median(vals), min(vals)


def run_timing():
    import triton
    import triton.language as tl
    from triton.tools.tensor_descriptor import TensorDescriptor

    @triton.jit
    def tma_copy(src, dst, BM: tl.constexpr, BN: tl.constexpr):
        m = tl.program_id(1) * BM
        n = tl.program_id(0) * BN
        dst.store([m, n], src.load([m, n]))

    print("versions: torch %s, triton %s, python %s" % (
        torch.__version__, triton.__version__, sys.version.split()[0]))
    a = torch.randn(8, 256, device="cuda").half()
    b = torch.zeros_like(a)
    tile_mlir.copy(b, a)
    sd = TensorDescriptor.from_tensor(a, [8, 256])
    dd = TensorDescriptor.from_tensor(b, [8, 256])
    tma_copy[(1, 1)](sd, dd, BM=8, BN=256, num_warps=1)
    torch.cuda.synchronize()

    def tile_loop(n):
        for _ in range(n):
            tile_mlir.copy(b, a)

    def torch_loop(n):
        for _ in range(n):
            b.copy_(a)

    def triton_reused(n):
        for _ in range(n):
            tma_copy[(1, 1)](sd, dd, BM=8, BN=256, num_warps=1)

    def triton_fresh(n):
        for _ in range(n):
            tma_copy[(1, 1)](TensorDescriptor.from_tensor(a, [8, 256]),
                             TensorDescriptor.from_tensor(b, [8, 256]),
                             BM=8, BN=256, num_warps=1)

    print("host time per call, 8x256 f16 copy, Python loop of 200 "
          "(median of 20 batches, min):")
    for name, loop in (("tile_mlir.copy", tile_loop),
                       ("torch copy_", torch_loop),
                       ("triton TMA, descriptors reused", triton_reused),
                       ("triton TMA, descriptors per call", triton_fresh)):
        med, low = host_us(loop)
        print("  %-34s %6.2f us  (min %.2f)" % (name, med, low), flush=True)

    M, N = 16384, 32768
    a = torch.randn(M, N, device="cuda").half()
    b = torch.zeros_like(a)
    tile_mlir.copy(b, a)
    torch.cuda.synchronize()
    assert torch.equal(a, b)
    gb = 2 * a.numel() * a.element_size() / 1e9
    t_tile = event_ms(lambda: tile_mlir.copy(b, a))
    t_torch = event_ms(lambda: b.copy_(a))
    sd = TensorDescriptor.from_tensor(a, [64, 128])
    dd = TensorDescriptor.from_tensor(b, [64, 128])
    t_tri = event_ms(lambda: tma_copy[(N // 128, M // 64)](
        sd, dd, BM=64, BN=128, num_warps=4))
    print("bandwidth, %dx%d f16 (1 GiB each way), CUDA events, median of 20:"
          % (M, N))
    for name, ms in (("tile_mlir.copy", t_tile), ("torch copy_", t_torch),
                     ("triton TMA 64x128", t_tri)):
        print("  %-20s %8.3f ms  %7.1f GB/s  %.3fx copy_" % (
            name, ms, gb / (ms / 1e3), t_torch / ms), flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--prepare", action="store_true",
                        help="fill the compile cache (build machine)")
    parser.add_argument("--check-only", action="store_true")
    parser.add_argument("--docs", action="store_true",
                        help="run the documentation pages' blocks instead")
    args = parser.parse_args()
    if args.prepare:
        prepare()
        return 0
    if args.docs:
        sys.path.insert(0, os.path.join(ROOT, "python", "tests"))
        import doc_blocks
        totals = [0, 0, 0]
        for page in DOC_PAGES:
            for i, n in enumerate(doc_blocks.run_page_on_gpu(page)):
                totals[i] += n
        print("doc blocks: %d passed, %d skipped, %d failed" % tuple(totals))
        return 1 if totals[2] else 0
    passed, failed = run_checks()
    if not args.check_only:
        try:
            run_timing()
        except Exception as error:  # report, and keep the check summary
            print("timing failed: %r" % error)
    print("python checks: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
