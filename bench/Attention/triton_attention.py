"""A Triton forward attention kernel, FlashAttention-2's algorithm in the
form of Triton's fused-attention tutorial: the attention benchmark's Triton
contender (bench.py imports it lazily).

One program per (block of BLOCK_M query rows, batch x head); it walks the
K/V blocks with the online softmax in f32 (exp2, the scale folded into
sm_scale * log2(e)), causal attention visiting only the blocks up to the
diagonal and masking the diagonal ones. It writes O (the inputs' dtype) and
the log-sum-exp L (natural log, f32). Q, K, V, O: (batch, heads, seq,
head_dim), contiguous, head_dim 64 or 128, any seq (the last blocks masked).
"""
import math

import torch
import triton
import triton.language as tl

LOG2E = math.log2(math.e)

# BLOCK_M 128 rows; the K/V block, the warps and the pipeline depth tuned per
# (seq, head_dim, causal). Configurations whose stages exceed shared memory
# fail to compile, and the autotuner skips them.
CONFIGS = [
    triton.Config({"BLOCK_M": 128, "BLOCK_N": n}, num_warps=w, num_stages=s)
    for n, w, s in ((64, 4, 3), (64, 8, 3), (64, 4, 4), (128, 8, 2),
                    (128, 8, 3), (128, 4, 3))
]


@triton.jit
def _kv_blocks(acc, m_i, l_i, q, k_base, v_base, lo, hi, rows, seq, qk_scale,
               HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr,
               MASK: tl.constexpr, CAUSAL: tl.constexpr):
    """The online softmax over the keys [lo, hi); MASK: the block may hold
    keys past seq or, when causal, past a row's diagonal."""
    dims = tl.arange(0, HEAD_DIM)
    for start in tl.range(lo, hi, BLOCK_N):
        start = tl.multiple_of(start, BLOCK_N)
        keys = start + tl.arange(0, BLOCK_N)
        offs = keys[:, None] * HEAD_DIM + dims[None, :]
        if MASK:
            valid = keys < seq
            k = tl.load(k_base + offs, mask=valid[:, None], other=0.0)
            v = tl.load(v_base + offs, mask=valid[:, None], other=0.0)
        else:
            k = tl.load(k_base + offs)
            v = tl.load(v_base + offs)
        s = tl.dot(q, k.T)
        if MASK:
            keep = valid[None, :]
            if CAUSAL:
                keep = keep & (rows[:, None] >= keys[None, :])
            s = tl.where(keep, s, float("-inf"))
        # m_i is kept in log2 units, already scaled: exp2(s * qk_scale - m_i).
        m_new = tl.maximum(m_i, tl.max(s, 1) * qk_scale)
        p = tl.math.exp2(s * qk_scale - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = tl.dot(p.to(v.dtype), v, acc * alpha[:, None])
        m_i = m_new
    return acc, m_i, l_i


# seq is not specialized: every length shares one compilation per
# configuration (the offsets' alignment comes from HEAD_DIM).
@triton.autotune(configs=CONFIGS, key=["seq", "HEAD_DIM", "CAUSAL"])
@triton.jit(do_not_specialize=["seq"])
def attention_kernel(Q, K, V, O, L, qk_scale, seq, HEAD_DIM: tl.constexpr,
                     CAUSAL: tl.constexpr, BLOCK_M: tl.constexpr,
                     BLOCK_N: tl.constexpr):
    # The causal split below needs the diagonal to start on a K/V block.
    tl.static_assert(BLOCK_M % BLOCK_N == 0)
    block = tl.program_id(0)
    head = tl.program_id(1)
    base = head.to(tl.int64) * seq * HEAD_DIM
    rows = block * BLOCK_M + tl.arange(0, BLOCK_M)
    dims = tl.arange(0, HEAD_DIM)
    in_rows = rows < seq
    q_offs = base + rows[:, None] * HEAD_DIM + dims[None, :]
    q = tl.load(Q + q_offs, mask=in_rows[:, None], other=0.0)
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    # Unmasked blocks first: below the diagonal (causal) or wholly inside seq;
    # then the masked ones: the diagonal (causal) or the tail past seq.
    if CAUSAL:
        full = block * BLOCK_M
        end = tl.minimum(full + BLOCK_M, seq)
    else:
        full = seq // BLOCK_N * BLOCK_N
        end = seq
    acc, m_i, l_i = _kv_blocks(acc, m_i, l_i, q, K + base, V + base, 0, full,
                               rows, seq, qk_scale, HEAD_DIM, BLOCK_N, False,
                               CAUSAL)
    acc, m_i, l_i = _kv_blocks(acc, m_i, l_i, q, K + base, V + base, full, end,
                               rows, seq, qk_scale, HEAD_DIM, BLOCK_N, True,
                               CAUSAL)
    tl.store(O + q_offs, (acc / l_i[:, None]).to(O.dtype.element_ty),
             mask=in_rows[:, None])
    # m_i + log2(l_i) = log2(sum(exp(s * sm_scale))); L takes ln = ln 2 log2.
    lse = (m_i + tl.math.log2(l_i)) * 0.6931471805599453
    tl.store(L + head.to(tl.int64) * seq + rows, lse, mask=in_rows)


def triton_attention(q, k, v, causal, out=None):
    """(O, L) of softmax(Q K^T / sqrt(head_dim)) V; `out` = (O, L) to write
    into (the benchmark's timed calls allocate nothing)."""
    b, h, s, d = q.shape
    if k.shape != q.shape or v.shape != q.shape:
        raise ValueError(f"Q, K, V shapes differ: {q.shape}, {k.shape}, {v.shape}")
    if d not in (64, 128):
        raise ValueError(f"head_dim {d}: 64 or 128 only")
    if not (q.is_contiguous() and k.is_contiguous() and v.is_contiguous()):
        raise ValueError("Q, K, V must be contiguous")
    o, lse = out if out is not None else (
        torch.empty_like(q), torch.empty(b, h, s, device=q.device, dtype=torch.float32))

    def grid(meta):
        return (triton.cdiv(s, meta["BLOCK_M"]), b * h)
    attention_kernel[grid](q, k, v, o, lse, LOG2E / math.sqrt(d), s,
                           HEAD_DIM=d, CAUSAL=causal)
    return o, lse
