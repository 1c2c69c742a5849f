#!/usr/bin/env python3
"""Forward attention check and benchmark, run on the GPU machine from
.gpu/attention/ (build.sh).

Our kernels (examples/attention: O = softmax(Q K^T / sqrt(d)) V and the
log-sum-exp L, Q, K, V, O of shape (batch, heads, seq, head_dim)) against,
in the same run:
  cudnn   torch.nn.functional.scaled_dot_product_attention with the cuDNN
          backend (SDPBackend.CUDNN_ATTENTION);
  flash   the same with the flash backend (FlashAttention-2);
  triton  triton_attention.py: FlashAttention-2 in Triton in the form of
          Triton's fused-attention tutorial, Q, K, V loaded through host TMA
          tensor descriptors as the tutorial does on Hopper (plain pointer
          loads where this Triton has no descriptors), autotuned per (seq,
          head_dim, causal) before the timed calls (not with --no-triton);
  triton-ptr  the same kernel with pointer loads, at head_dim 128 and seq
          2k and 8k of the default kernels' rows only (where "triton" is the
          descriptor form);
  mosaic  with --jax: JAX's Mosaic GPU kernel (attention_mgpu, FA3's
          schedule), timed by jax_attention.py in a process of its own
          before our rounds; its dtype is labelled (f16 where bf16 fails).

Check: against an f32 reference (torch math on the inputs widened to f32):
max |O - ref| <= TOL_O and max |L - ref_L| <= TOL_L over the rows of the
sequence, on edge lengths (1, not a multiple of the 128-row block) and
grouped-query attention; cuDNN's error on the same inputs is printed next
to ours. Unless --check-only or --no-triton, the Triton kernel is checked
the same way on its own shapes (triton-ptr at head_dim 128); a failure there
keeps that form out of the timing
and leaves the exit status alone (so do Mosaic's, checked in its script).
Timing: CUDA events around each call on one stream, warm-up then the
median of 20 calls per round, 3 rounds alternating the contenders (Mosaic:
wall time, see jax_attention.py); batch x seq = 16k tokens and heads x
head_dim = 2048, as the FA3 paper measures; TFLOP/s = 4 batch heads seq^2
head_dim / time, halved when causal.

    python3 bench/Attention/bench.py [--dir .gpu/attention] [--json OUT]
        [--check-only] [--quick] [--small] [--only NAME] [--no-triton] [--jax]
        [--side-by-side [--problems BxHxS[xHKV],...]]
"""
import argparse
import ctypes as C
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from timing import alternate  # noqa: E402

TOL_O = 2e-2  # bf16 output (2^-9 relative) plus P rounded to bf16 for P V
TOL_L = 2e-3  # f32 log-sum-exp from approximate exp2/lg2
ROUNDS = 3
# --side-by-side: more rounds, the variants differing by a few percent.
SIDE_BY_SIDE_ROUNDS = 7
TOKENS = 16384
WIDTH = 2048  # heads x head_dim
# jax_attention.py's limit: about 80 s on the H200 (compiling 3 block sizes
# per shape), the rest margin.
JAX_TIMEOUT_S = 200


def memref_type(rank):
    return type(f"MemRef{rank}", (C.Structure,), {"_fields_": [
        ("allocated", C.c_void_p), ("aligned", C.c_void_p),
        ("offset", C.c_int64), ("sizes", C.c_int64 * rank),
        ("strides", C.c_int64 * rank)]})


MEMREF = {3: memref_type(3), 4: memref_type(4)}


def memref(t):
    p = t.data_ptr()
    return MEMREF[t.dim()](p, p, 0, tuple(t.shape), tuple(t.stride()))


class Tile:
    """One attention_*.so's async entry on torch's current stream."""

    def __init__(self, folder, lib):
        self.rt = C.CDLL(os.path.join(folder, "libtile_runtime.so"), mode=C.RTLD_GLOBAL)
        self.rt.tileRuntimeConsumeStatus.restype = C.c_int32
        self.rt.tileRuntimeLastError.restype = C.c_char_p
        self.name = lib[:-3]
        self.lib = C.CDLL(os.path.join(folder, lib))
        self.fn = getattr(self.lib, f"_mlir_ciface_{self.name}_async")
        self.fn.argtypes = [C.c_void_p] * 6
        self.fn.restype = C.c_void_p
        self.head_dim = int(self.name.split("_d")[1].split("_")[0])
        self.causal = "_causal" in self.name
        self.dtype = torch.float16 if self.name.endswith("_f16") else torch.bfloat16

    def status(self):
        s = self.rt.tileRuntimeConsumeStatus()
        if s != 0:
            raise RuntimeError(self.rt.tileRuntimeLastError().decode())

    def prepare(self, q, k, v, o, lse):
        descs = [memref(q), memref(k), memref(v), memref(o), memref(lse)]
        ptrs = [C.addressof(d) for d in descs]
        stream = C.c_void_p(torch.cuda.current_stream().cuda_stream)

        def run():
            self.fn(*ptrs, stream)
        run.keep = descs
        return run


def inputs(b, h, hkv, s, d, dtype, seed, ramp=False):
    """Normal Q, K and V; `ramp`: the keys' scale growing from 1 to 3 along
    the sequence and the query rows' cycling from 0.5 to 1.44 over 16 rows,
    so that rows' maxima keep growing block after block, by different
    amounts in the rows a warp holds."""
    g = torch.Generator(device="cuda").manual_seed(seed)
    q = torch.randn(b, h, s, d, device="cuda", generator=g)
    k = torch.randn(b, hkv, s, d, device="cuda", generator=g)
    v = torch.randn(b, hkv, s, d, device="cuda", generator=g)
    if ramp:
        pos = torch.arange(s, device="cuda", dtype=torch.float32)
        k *= (1 + 2 * pos / s)[:, None]
        q *= (0.5 + (pos % 16) / 16)[:, None]
    return q.to(dtype), k.to(dtype), v.to(dtype)


def reference(q, k, v, causal):
    """f32 O and natural-log LSE (K/V heads repeated for GQA)."""
    rep = q.shape[1] // k.shape[1]
    qf = q.float()
    kf = k.float().repeat_interleave(rep, dim=1)
    vf = v.float().repeat_interleave(rep, dim=1)
    s = (qf @ kf.transpose(-1, -2)) / math.sqrt(q.shape[-1])
    if causal:
        n, m = s.shape[-2], s.shape[-1]
        mask = torch.ones(n, m, device=s.device, dtype=torch.bool).tril()
        s = s.masked_fill(~mask, float("-inf"))
    lse = torch.logsumexp(s, dim=-1)
    return torch.softmax(s, dim=-1) @ vf, lse


def sdpa(backend, q, k, v, causal):
    gqa = q.shape[1] != k.shape[1]
    with sdpa_kernel([backend]):
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal,
                                              enable_gqa=gqa)


def max_error(x, ref):
    """max |x - ref|, inf where x holds a NaN."""
    err = (x.float() - ref).abs().max().item()
    return float("inf") if math.isnan(err) else err


# (batch, heads, kv heads, seq): edge lengths, GQA; (3, 8, 2, 1100) and (4,
# 16, 4, 640) have more tiles than an H100 or H200 has SMs (216 and 320 of
# 128 query rows), so a persistent kernel's CTAs take two or three tiles
# each; 3000 keys (24 KV blocks) take the non-causal default's long-key
# kernel (--first-pv by-length), the others its short one. With the split
# tail (--split-tail on), which cuts tiles of 16 KV blocks or more where
# they fill a wave but not the last, the 192 tiles of (1, 8, 2, 3000) (24
# blocks: the long-key kernel) and the 153 of CUT_CHECK_SHAPE (17 blocks,
# the last one partial; checked by memcheck's --small too) are cut.
CUT_CHECK_SHAPE = (1, 9, 3, 2100)
CHECK_SHAPES = [(1, 2, 2, 128), (2, 4, 2, 1000), (1, 1, 1, 1), (1, 3, 1, 257),
                (2, 2, 2, 2048), (1, 4, 4, 300), (3, 8, 2, 1100), (4, 16, 4, 640),
                (1, 4, 2, 3000), (1, 8, 2, 3000), (2, 70, 10, 256),
                CUT_CHECK_SHAPE]


# (batch, heads, kv heads, seq) checked on inputs(ramp=True) as well: rows
# whose maxima grow past their reference at some blocks and not at others.
CHECK_RAMP_SHAPES = [(1, 2, 2, 2048), (2, 4, 2, 1000), (1, 4, 4, 300)]


def check(tiles, results, small=False):
    ok = True
    print(f"check: max |O - ref| <= {TOL_O}, max |L - ref_L| <= {TOL_L} (ref: "
          "f32 math on the widened inputs); cuDNN's O error alongside")
    cases = [(shape, False) for shape in CHECK_SHAPES]
    cases += [(shape, True) for shape in CHECK_RAMP_SHAPES]
    for t in tiles:
        for i, ((b, h, hkv, s), ramp) in enumerate(cases):
            if small and s > 300 and (b, h, hkv, s) != CUT_CHECK_SHAPE:
                continue
            d = t.head_dim
            q, k, v = inputs(b, h, hkv, s, d, t.dtype, i, ramp)
            o = torch.full_like(q, float("nan"))
            lse = torch.full((b, h, s), float("nan"), device="cuda")
            t.prepare(q, k, v, o, lse)()
            torch.cuda.synchronize()
            t.status()
            ref, ref_lse = reference(q, k, v, t.causal)
            err = max_error(o, ref)
            lerr = max_error(lse, ref_lse)
            try:
                cud = sdpa(SDPBackend.CUDNN_ATTENTION, q, k, v, t.causal)
                cerr = (cud.float() - ref).abs().max().item()
            except RuntimeError:
                cerr = float("nan")
            good = err <= TOL_O and lerr <= TOL_L
            ok &= good
            print(f"  {'PASS' if good else 'FAIL'} {t.name} b={b} h={h} hkv={hkv} "
                  f"s={s}{' ramp' if ramp else ''}: O error {err:.2e} (cudnn "
                  f"{cerr:.2e}), L error {lerr:.2e}")
            results["check"].append({"lib": t.name, "b": b, "h": h, "hkv": hkv,
                                     "s": s, "ramp": ramp, "o_error": err, "l_error": lerr,
                                     "cudnn_o_error": cerr, "pass": good})
    return ok


# (batch, heads, seq) of the Triton kernel's check: benchmark-like, an edge.
TRITON_CHECK_SHAPES = [(2, 4, 1024), (1, 4, 300)]


def load_triton():
    """The triton_attention module, or None with the reason printed."""
    try:
        import triton_attention
    except Exception as e:  # noqa: BLE001 - ImportError or triton's own
        print(f"triton: skipped ({type(e).__name__}: {e})")
        return None
    print(f"triton {triton_attention.triton.__version__}, \"triton\" in the "
          f"{triton_attention.FORM} form")
    return triton_attention


def triton_forms(tri):
    """{contender: (function, its autotuned kernel, head_dims)}: "triton" in
    the module's default form; "triton-ptr", the pointer form, where the
    default is the descriptor form (at head_dim 128 only: bench time)."""
    forms = {"triton": (tri.triton_attention, tri.KERNEL, (64, 128))}
    if tri.FORM != "ptr":
        forms["triton-ptr"] = (tri.triton_attention_ptr, tri.attention_kernel, (128,))
    return forms


def check_triton(tri, results):
    """Checks each Triton form (triton_forms) as ours (O and L against the
    f32 reference) at its head_dims, causal and not; its compilation and
    first autotuning happen here. Returns the forms that passed on every
    shape (the others are not timed; our check's verdict is unaffected)."""
    passed = {}
    for name, (fn, kernel, dims) in triton_forms(tri).items():
        ok = True
        for d in dims:
            for causal in (False, True):
                for i, (b, h, s) in enumerate(TRITON_CHECK_SHAPES):
                    where = f"{name} d={d} causal={causal} b={b} h={h} s={s}"
                    q, k, v = inputs(b, h, h, s, d, torch.bfloat16, i)
                    try:
                        o, lse = fn(q, k, v, causal)
                        torch.cuda.synchronize()
                    except Exception as e:  # noqa: BLE001 - compile errors of all kinds
                        print(f"  FAIL {where}: {type(e).__name__}: {e}")
                        ok = False
                        continue
                    ref, ref_lse = reference(q, k, v, causal)
                    err, lerr = max_error(o, ref), max_error(lse, ref_lse)
                    good = err <= TOL_O and lerr <= TOL_L
                    ok &= good
                    print(f"  {'PASS' if good else 'FAIL'} {where}: O error "
                          f"{err:.2e}, L error {lerr:.2e}")
                    results["check"].append({"lib": name, "d": d, "causal": causal,
                                             "b": b, "h": h, "hkv": h, "s": s,
                                             "o_error": err, "l_error": lerr,
                                             "pass": good})
        if ok:
            passed[name] = (fn, kernel, dims)
        else:
            print(f"{name}: check failed, not timed")
    return passed


def triton_run(name, fn, q, k, v, causal):
    """A Triton form as a timed call into preallocated O and L, after one
    untimed call (autotuning, where this length is new); None where it
    fails."""
    out = (torch.empty_like(q), torch.empty(q.shape[:3], device="cuda"))
    try:
        fn(q, k, v, causal, out)
    except Exception as e:  # noqa: BLE001
        print(f"  {name} failed: {type(e).__name__}: {e}")
        return None
    return lambda: fn(q, k, v, causal, out)


def run_mosaic(seqs, results):
    """jax_attention.py's timings, in a process of its own (JAX and torch in
    one would compete for the GPU's memory): {(d, causal, s): row}, empty
    with the reason printed where it fails; its whole JSON goes to
    results["mosaic"]."""
    torch.cuda.empty_cache()
    sys.stdout.flush()  # its output follows ours in the same log
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "mosaic.json")
        cmd = [sys.executable, os.path.join(HERE, "jax_attention.py"),
               "--json", path, "--seqs", ",".join(map(str, seqs))]
        try:
            rc = subprocess.run(cmd, timeout=JAX_TIMEOUT_S, check=False).returncode
        except subprocess.TimeoutExpired:
            rc = f"killed after {JAX_TIMEOUT_S} s"
        try:
            with open(path) as f:
                data = json.load(f)
        except (OSError, ValueError) as e:
            print(f"mosaic: skipped (jax_attention.py: exit {rc}, no results: {e})")
            return {}
    if rc != 0:
        print(f"mosaic: jax_attention.py exit {rc}; the rows it wrote are kept")
    results["mosaic"] = data
    return {(r["d"], r["causal"], r["s"]): r for r in data["rows"]}


def time_alternating(contenders, rounds, flops):
    """Each (name, call) of `contenders` timed in `rounds` alternating rounds
    (timing.alternate): {name: {"ms", "tflops", "rounds_ms"}}, the median
    round."""
    times = alternate(contenders, rounds, warm=3)
    timed = {}
    for n, rounds_ms in times.items():
        ms = statistics.median(rounds_ms)
        timed[n] = {"ms": ms, "tflops": flops / ms / 1e9, "rounds_ms": rounds_ms}
    return timed


def bench(tiles, results, seqs, forms, mosaic):
    print(f"TFLOP/s = 4 b h s^2 d / time (causal: half), b s = {TOKENS}, "
          f"h d = {WIDTH}; CUDA events, 20 calls per round, {ROUNDS} "
          "alternating rounds, median")
    for t in tiles:
        if t.dtype != torch.bfloat16:
            continue
        d = t.head_dim
        h = WIDTH // d
        # The ablations (no overlap, no ping-pong) at two lengths only.
        ablation = any(k in t.name for k in ("serial", "nopingpong", "_overlap", "_pingpong", "_n176"))
        for s in ([x for x in seqs if x in (2048, 8192)] if ablation else seqs):
            b = TOKENS // s
            q, k, v = inputs(b, h, h, s, d, t.dtype, 7)
            o = torch.empty_like(q)
            lse = torch.empty(b, h, s, device="cuda")
            flops = 4.0 * b * h * s * s * d / (2 if t.causal else 1)
            contenders = [("ours", t.prepare(q, k, v, o, lse))]
            for name, backend in (("cudnn", SDPBackend.CUDNN_ATTENTION),
                                  ("flash", SDPBackend.FLASH_ATTENTION)):
                try:
                    sdpa(backend, q, k, v, t.causal)
                    contenders.append((name, lambda be=backend: sdpa(be, q, k, v, t.causal)))
                except RuntimeError as e:
                    print(f"  {name} failed: {e}")
            # The benchmark's rows have as many K/V heads as query heads, the
            # Triton kernel's one form; triton-ptr at seq 2k and 8k of the
            # default kernels' rows only.
            for name, (fn, _, dims) in forms.items():
                extra = name != "triton" and (ablation or s not in (2048, 8192))
                if d not in dims or extra:
                    continue
                run = triton_run(name, fn, q, k, v, t.causal)
                if run:
                    contenders.append((name, run))
            timed = time_alternating(contenders, ROUNDS, flops)
            t.status()
            row = {"lib": t.name, "d": d, "causal": t.causal, "b": b, "h": h, "s": s}
            row.update(timed)
            for name, (_, kernel, _) in forms.items():
                if name in row:
                    row[name]["config"] = str(kernel.best_config)
            label = ""
            m = mosaic.get((d, t.causal, s))
            if m:
                row["mosaic"] = {n: m[n] for n in ("ms", "tflops", "rounds_ms", "dtype",
                                                   "block_q", "block_kv")}
                # bfloat16 -> bf16, float16 -> f16: Mosaic's may not be ours.
                label = f", mosaic({m['dtype'].replace('float', 'f')}) {m['tflops']:.0f}"
            results["bench"].append(row)
            print(f"  {t.name} s={s:5d} b={b:2d} h={h}: "
                  + ", ".join(f"{n} {row[n]['tflops']:.0f}" for n in timed) + label
                  + (f"  ours/cudnn {row['ours']['tflops'] / row['cudnn']['tflops']:.2f}"
                     if "cudnn" in row else ""))


def parse_problems(text):
    """--problems: comma-separated BxHxS or BxHxSxHKV (batch, query heads,
    sequence length, K/V heads where fewer: grouped-query attention)."""
    problems = []
    for item in text.split(","):
        dims = [int(x) for x in item.split("x")]
        if len(dims) not in (3, 4) or min(dims) < 1 or (
                len(dims) == 4 and dims[1] % dims[3]):
            raise SystemExit(f"--problems: {item!r} is not BxHxS or BxHxSxHKV "
                             "(positive, HKV dividing H)")
        problems.append(tuple(dims) if len(dims) == 4 else (*dims, dims[1]))
    return problems


def bench_side_by_side(tiles, results, seqs, rounds, problems=None):
    """Every kernel of one (head_dim, causal) form timed in the same rows,
    alternating with each other and cuDNN in each of `rounds` rounds, so
    that the GPU's drift from row to row does not enter the comparison of
    the forms (the rows of bench() time one kernel each). The rows: each of
    `seqs` at 16k tokens and 2048 = heads x head_dim, or `problems` as
    given, (batch, heads, seq, K/V heads), the same for every form."""
    print(f"side by side: each form's kernels and cuDNN alternating in the same "
          f"rows, {rounds} rounds of 20 calls, median")
    forms = {}
    for t in tiles:
        if t.dtype == torch.bfloat16:
            forms.setdefault((t.head_dim, t.causal), []).append(t)
    for (d, causal), group in forms.items():
        rows = problems or [(TOKENS // s, WIDTH // d, s, WIDTH // d)
                            for s in seqs]
        for b, h, s, hkv in rows:
            q, k, v = inputs(b, h, hkv, s, d, torch.bfloat16, 7)
            o = torch.empty_like(q)
            lse = torch.empty(b, h, s, device="cuda")
            flops = 4.0 * b * h * s * s * d / (2 if causal else 1)
            contenders = [(t.name, t.prepare(q, k, v, o, lse)) for t in group]
            contenders.append(("cudnn", lambda: sdpa(SDPBackend.CUDNN_ATTENTION,
                                                     q, k, v, causal)))
            timed = time_alternating(contenders, rounds, flops)
            for t in group:
                t.status()
            for t in group:
                results["bench"].append({
                    "lib": t.name, "d": d, "causal": causal, "b": b, "h": h, "s": s,
                    "hkv": hkv,
                    "side_by_side": [x.name for x in group],
                    "ours": timed[t.name], "cudnn": timed["cudnn"]})
            gqa = f" hkv={hkv}" if hkv != h else ""
            print(f"  d={d} {'causal' if causal else 'full'} s={s:5d} b={b:2d} h={h}{gqa}: "
                  + ", ".join(f"{n} {timed[n]['tflops']:.0f}" for n in timed))


def selected(name, only):
    """Whether kernel `name` is one of --only's comma-separated names: each
    a part of the name, or with a trailing '$' its end."""
    for want in only.split(","):
        if want.endswith("$") and name.endswith(want[:-1]):
            return True
        if not want.endswith("$") and want in name:
            return True
    return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default=".gpu/attention")
    ap.add_argument("--json", default=None)
    ap.add_argument("--check-only", action="store_true")
    ap.add_argument("--quick", action="store_true", help="seq 2k and 8k only")
    ap.add_argument("--small", action="store_true",
                    help="check the shapes of seq <= 300 only (compute-sanitizer)")
    ap.add_argument("--only", default=None,
                    help="only the kernels whose name contains one of these "
                         "(comma-separated; a name ending in '$' must end "
                         "the kernel's name)")
    ap.add_argument("--no-triton", action="store_true",
                    help="neither check nor time the Triton kernel")
    ap.add_argument("--side-by-side", dest="side_by_side", action="store_true",
                    help="time the kernels of each (head_dim, causal) form in "
                         "the same rows (bench_side_by_side), cuDNN alone as "
                         "the peer, for comparing variants")
    ap.add_argument("--jax", action="store_true",
                    help="also time JAX's Mosaic GPU kernel (jax_attention.py, "
                         "a separate process) before our rounds")
    ap.add_argument("--problems", default=None, metavar="BxHxS[xHKV],...",
                    help="with --side-by-side: time these problems instead of "
                         "the sequence lengths at 16k tokens")
    args = ap.parse_args()
    problems = parse_problems(args.problems) if args.problems else None
    if problems and not args.side_by_side:
        raise SystemExit("--problems: the rows of --side-by-side")
    libs = sorted(f for f in os.listdir(args.dir)
                  if f.startswith("attention_") and f.endswith(".so"))
    tiles = [Tile(args.dir, lib) for lib in libs
             if args.only is None or selected(lib[:-3], args.only)]
    results = {"device": torch.cuda.get_device_name(), "torch": torch.__version__,
               "check": [], "bench": []}
    print(f"device {results['device']}, torch {torch.__version__}")
    ok = check(tiles, results, args.small)
    if not args.check_only:
        seqs = [2048, 8192] if args.quick else [512, 1024, 2048, 4096, 8192, 16384]
        if args.side_by_side:
            bench_side_by_side(tiles, results, seqs, SIDE_BY_SIDE_ROUNDS,
                               problems)
        else:
            tri = None if args.no_triton else load_triton()
            forms = {}
            if tri:
                results["triton"] = tri.triton.__version__
                results["triton_form"] = tri.FORM
                forms = check_triton(tri, results)
            mosaic = run_mosaic(seqs, results) if args.jax else {}
            bench(tiles, results, seqs, forms, mosaic)
        # The default kernels only: the ablations are rows of their own.
        for causal in (False, True):
            default = "attention_d128" + ("_causal" if causal else "")
            rows = [r for r in results["bench"] if r["lib"] == default
                    and r["s"] >= 2048 and "cudnn" in r]
            if rows:
                g = math.exp(sum(math.log(r["ours"]["tflops"] / r["cudnn"]["tflops"])
                                 for r in rows) / len(rows))
                print(f"SUMMARY d=128 {'causal' if causal else 'non-causal'} s>=2k: "
                      f"geomean ours/cudnn {g:.3f}")
    print(f"SUMMARY check {'ok' if ok else 'FAILED'}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
