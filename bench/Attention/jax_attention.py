#!/usr/bin/env python3
"""JAX's Mosaic GPU attention kernel (jax.experimental.pallas.ops.gpu.
attention_mgpu, FlashAttention-3's schedule) on the attention benchmark's
shapes: bench.py's "mosaic" column. A process of its own (bench.py --jax
runs it) so that JAX and torch do not compete for the GPU's memory.

The kernel takes Q, K, V of shape (batch, seq, heads, head_dim), applies no
softmax scale (Q is passed already scaled by 1/sqrt(head_dim)) and is timed
writing O alone. Per (head_dim, causal): bf16 first, f16 where bf16 fails
(the row says which); a check on one small shape against f32 numpy, max
|O - ref| <= TOL_O, before any timing. Shapes as bench.py's: batch x seq =
16k tokens, heads x head_dim = 2048. Timing: wall time around 20
back-to-back calls ended by jax.block_until_ready, warm-up, the block sizes
the fastest of BLOCKS in untimed rounds, then the median of 3 rounds;
TFLOP/s = 4 batch heads seq^2 head_dim / time, halved when causal. What
cannot run is printed and listed under "skipped" in the JSON.

    python3 bench/Attention/jax_attention.py [--json OUT]
        [--seqs 512,1024,2048,4096,8192,16384] [--head-dims 64,128]
"""
import os

# Before jax is imported: allocate as needed, not 75 % of the GPU up front.
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

import argparse  # noqa: E402
import dataclasses  # noqa: E402
import inspect  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

try:
    import numpy as np
except ImportError:  # then there is no JAX either, which main() reports
    np = None

TOL_O = 2e-2  # as bench.py's
TOKENS = 16384
WIDTH = 2048  # heads x head_dim
ROUNDS = 3
REPS = 20
# (block_q, block_kv): query rows per compute warpgroup (two per CTA), keys
# per K/V stage. Upstream's own benchmark takes block_q 64 and the largest
# block_kv that fits shared memory.
BLOCKS = [(64, 256), (64, 128), (64, 64)]
CHECK_SHAPE = (2, 512, 4)  # batch, seq, heads


def reason(e):
    """An exception's first line, shortened: Mosaic's errors carry IR."""
    lines = str(e).strip().splitlines()
    return f"{type(e).__name__}: {lines[0][:300] if lines else ''}"


class Mosaic:
    """attention_mgpu.attention as jitted calls, whatever this JAX names its
    causal flag (a TuningConfig field or an argument of attention)."""

    def __init__(self):
        import jax
        import jax.numpy as jnp
        from jax.experimental.pallas.ops.gpu import attention_mgpu
        self.jax, self.jnp, self.mgpu = jax, jnp, attention_mgpu
        fields = {f.name for f in dataclasses.fields(attention_mgpu.TuningConfig)}
        try:
            params = set(inspect.signature(attention_mgpu.attention).parameters)
        except (TypeError, ValueError):
            params = set()
        print(f"mosaic: TuningConfig fields {sorted(fields)}; attention's "
              f"parameters {sorted(params) or '(not inspectable)'}")
        # Where the causal flag goes: "config", "call" or nowhere (None).
        self.causal_in = ("config" if "causal" in fields else
                          "call" if "causal" in params else None)

    def fn(self, causal, block_q, block_kv):
        config = {"block_q": block_q, "block_kv": block_kv, "max_concurrent_steps": 2}
        kwargs = {}
        if causal and self.causal_in == "config":
            config["causal"] = True
        elif causal:
            kwargs["causal"] = True
        cfg = self.mgpu.TuningConfig(**config)
        # One jitted executable per call: the custom_vjp wrapper outside jit
        # would dispatch op by op.
        return self.jax.jit(lambda q, k, v: self.mgpu.attention(q, k, v, config=cfg, **kwargs))

    def inputs(self, b, s, h, d, dtype, seed):
        jax, jnp = self.jax, self.jnp
        kq, kk, kv = jax.random.split(jax.random.PRNGKey(seed), 3)
        q = jax.random.normal(kq, (b, s, h, d), jnp.float32) / math.sqrt(d)
        k = jax.random.normal(kk, (b, s, h, d), jnp.float32)
        v = jax.random.normal(kv, (b, s, h, d), jnp.float32)
        return tuple(x.astype(dtype) for x in (q, k, v))

    def to_f32(self, x):
        return np.asarray(x.astype(self.jnp.float32))


def reference(q, k, v, causal):
    """softmax(Q K^T) V in f32 (Q already scaled), (batch, seq, heads, dim)."""
    s = np.einsum("bqhd,bkhd->bhqk", q, k)
    if causal:
        n = s.shape[-1]
        s = np.where(np.tril(np.ones((n, n), dtype=bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    return np.einsum("bhqk,bkhd->bqhd", p, v)


def wall_ms(jax, fn, args, reps):
    """Milliseconds per call over `reps` back-to-back calls: calls queue on
    one stream, so the last one's completion ends them all."""
    t0 = time.perf_counter()
    for _ in range(reps):
        y = fn(*args)
    jax.block_until_ready(y)
    return (time.perf_counter() - t0) * 1e3 / reps


def skip(out, why):
    print(f"mosaic: cannot run {why}")
    out["skipped"].append(why)


def first_working(m, d, causal, out):
    """(dtype name, blocks, O error) of the first dtype and blocks that run
    the check shape, or None; the failures go to out["skipped"]."""
    b, s, h = CHECK_SHAPE
    for name in ("bfloat16", "float16"):
        dtype = getattr(m.jnp, name)
        q, k, v = m.inputs(b, s, h, d, dtype, 1)
        ref = reference(*(m.to_f32(x) for x in (q, k, v)), causal)
        failures = []
        for blocks in BLOCKS:
            try:
                o = m.fn(causal, *blocks)(q, k, v)
                return name, blocks, float(np.abs(m.to_f32(o) - ref).max())
            except Exception as e:  # noqa: BLE001 - Mosaic raises many kinds
                failures.append(f"blocks {blocks}: {reason(e)}")
        skip(out, f"d={d} causal={causal} {name}: " + "; ".join(failures))
    return None


def tune(m, causal, args):
    """The fastest of BLOCKS on these inputs (after compiling, the median of
    3 untimed rounds of 10 calls: one round is noisy at the short lengths):
    (blocks, jitted fn), or None where none runs."""
    best = None
    for blocks in BLOCKS:
        try:
            fn = m.fn(causal, *blocks)
            m.jax.block_until_ready(fn(*args))
            ms = statistics.median(wall_ms(m.jax, fn, args, 10) for _ in range(3))
        except Exception:  # noqa: BLE001 - e.g. shared memory exceeded
            continue
        if best is None or ms < best[0]:
            best = (ms, blocks, fn)
    return None if best is None else best[1:]


def time_shape(m, d, causal, s, dtype_name, out):
    """Times one benchmark shape into out["rows"]."""
    b, h = TOKENS // s, WIDTH // d
    args = m.inputs(b, s, h, d, getattr(m.jnp, dtype_name), 7)
    tuned = tune(m, causal, args)
    if tuned is None:
        skip(out, f"d={d} causal={causal} s={s}: no block size runs")
        return
    blocks, fn = tuned
    wall_ms(m.jax, fn, args, 3)
    rounds = [wall_ms(m.jax, fn, args, REPS) for _ in range(ROUNDS)]
    ms = statistics.median(rounds)
    flops = 4.0 * b * h * s * s * d / (2 if causal else 1)
    row = {"d": d, "causal": causal, "s": s, "b": b, "h": h, "dtype": dtype_name,
           "ms": ms, "tflops": flops / ms / 1e9, "rounds_ms": rounds,
           "block_q": blocks[0], "block_kv": blocks[1]}
    out["rows"].append(row)
    print(f"mosaic: d={d} {'causal' if causal else 'full  '} s={s:5d} b={b:2d} "
          f"h={h} {dtype_name}: {row['tflops']:.0f} TFLOP/s (blocks {blocks})")


def write(out, path):
    """The JSON so far, replaced whole: a killed run leaves its last rows."""
    if path:
        with open(path + ".tmp", "w") as f:
            json.dump(out, f, indent=1)
        os.replace(path + ".tmp", path)


def run(out, seqs, head_dims, path):
    m = Mosaic()
    out["jax"] = m.jax.__version__
    dev = m.jax.devices()[0]
    out["device"] = dev.device_kind
    if dev.platform != "gpu":
        skip(out, f"everything: JAX's device is {dev.platform}, not a GPU")
        return
    print(f"mosaic: jax {m.jax.__version__} on {dev.device_kind}; check: max "
          f"|O - ref| <= {TOL_O} (ref: f32 numpy) at (b, s, h) = {CHECK_SHAPE}")
    for d in head_dims:
        for causal in (False, True):
            if causal and m.causal_in is None:
                skip(out, f"d={d} causal: this attention_mgpu takes no causal flag")
                continue
            found = first_working(m, d, causal, out)
            if found is None:
                continue
            dtype_name, blocks, err = found
            good = err <= TOL_O
            out["check"].append({"d": d, "causal": causal, "dtype": dtype_name,
                                 "block_q": blocks[0], "block_kv": blocks[1],
                                 "o_error": err, "pass": good})
            print(f"  {'PASS' if good else 'FAIL'} mosaic d={d} causal={causal} "
                  f"{dtype_name} blocks {blocks}: O error {err:.2e}")
            if not good:
                skip(out, f"d={d} causal={causal}: check failed, not timed")
                continue
            for s in seqs:
                try:
                    time_shape(m, d, causal, s, dtype_name, out)
                except Exception as e:  # noqa: BLE001 - e.g. out of memory
                    skip(out, f"d={d} causal={causal} s={s}: {reason(e)}")
                write(out, path)
    write(out, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", default=None, help="write the rows here")
    ap.add_argument("--seqs", default="512,1024,2048,4096,8192,16384")
    ap.add_argument("--head-dims", default="64,128")
    args = ap.parse_args()
    out = {"check": [], "rows": [], "skipped": []}
    try:
        run(out, [int(x) for x in args.seqs.split(",")],
            [int(x) for x in args.head_dims.split(",")], args.json)
    except Exception as e:  # noqa: BLE001 - no JAX, no attention_mgpu, ...
        skip(out, f"anything: {reason(e)}")
        write(out, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
