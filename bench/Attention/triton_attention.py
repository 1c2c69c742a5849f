"""A Triton forward attention kernel, FlashAttention-2's algorithm in the
form of Triton's fused-attention tutorial: the attention benchmark's Triton
contender (bench.py imports it lazily). Two forms of one kernel, differing
only in how Q, K and V reach shared memory:

  tma  (triton_attention's default where the Triton has host tensor
       descriptors, triton.tools.tensor_descriptor): TMA loads, as the
       tutorial does on Hopper. Q, K and V are viewed as 2-D
       (batch x heads x seq, head_dim) tensors with one host
       TensorDescriptor each, of block shape [BLOCK_M, head_dim] (Q) and
       [BLOCK_N, head_dim] (K, V) set per autotuning configuration; a head's
       block starting at row r of its sequence is desc.load([head * seq + r,
       0]). A block that runs past its head's seq reads the next head's rows
       (or zeros past the tensor): those keys are masked to -inf in the
       scores, those query rows are not stored.
  ptr  (triton_attention_ptr, and triton_attention's form where descriptors
       are unavailable): plain pointer loads, masked past seq.

One program per (block of BLOCK_M query rows, batch x head); it walks the
K/V blocks with the online softmax in f32 (exp2, the scale folded into
sm_scale * log2(e)), causal attention visiting only the blocks up to the
diagonal and masking the diagonal ones. It writes O (the inputs' dtype,
pointer stores masked past seq in both forms) and the log-sum-exp L
(natural log, f32). Q, K, V, O: (batch, heads, seq, head_dim), contiguous,
head_dim 64 or 128, any seq (the last blocks masked).
"""
import math

import torch
import triton
import triton.language as tl

try:
    from triton.tools.tensor_descriptor import TensorDescriptor
except ImportError:  # a Triton without host tensor descriptors: ptr only
    TensorDescriptor = None

HAVE_TMA = TensorDescriptor is not None
LOG2E = math.log2(math.e)

# BLOCK_M 128 rows; the K/V block, the warps and the pipeline depth tuned per
# (seq, head_dim, causal). Configurations whose stages exceed shared memory
# fail to compile, and the autotuner skips them. Both forms tune over the
# same (BLOCK_N, warps, stages); 8 warps won every row of the 2026-12-04 run.
SHAPES = ((64, 8, 2), (64, 8, 3), (64, 8, 4), (64, 4, 3), (128, 8, 2),
          (128, 8, 3))
CONFIGS = [
    triton.Config({"BLOCK_M": 128, "BLOCK_N": n}, num_warps=w, num_stages=s)
    for n, w, s in SHAPES
]


def _tma_blocks(nargs):
    """The configuration's block shapes into the host descriptors (run by
    the autotuner before each launch, the timed ones too)."""
    d = nargs["desc_q"].shape[1]
    nargs["desc_q"].block_shape = [nargs["BLOCK_M"], d]
    nargs["desc_k"].block_shape = [nargs["BLOCK_N"], d]
    nargs["desc_v"].block_shape = [nargs["BLOCK_N"], d]


TMA_CONFIGS = [
    triton.Config({"BLOCK_M": 128, "BLOCK_N": n}, num_warps=w, num_stages=s,
                  pre_hook=_tma_blocks)
    for n, w, s in SHAPES
]


@triton.jit
def _softmax_step(acc, m_i, l_i, s, v, qk_scale):
    """One K/V block of the online softmax: s = Q K^T (masked entries -inf),
    v the block's values."""
    # m_i is kept in log2 units, already scaled: exp2(s * qk_scale - m_i).
    m_new = tl.maximum(m_i, tl.max(s, 1) * qk_scale)
    p = tl.math.exp2(s * qk_scale - m_new[:, None])
    alpha = tl.math.exp2(m_i - m_new)
    l_i = l_i * alpha + tl.sum(p, 1)
    acc = tl.dot(p.to(v.dtype), v, acc * alpha[:, None])
    return acc, m_new, l_i


@triton.jit
def _finish(acc, m_i, l_i, O, L, head, rows, seq, HEAD_DIM: tl.constexpr):
    """O = acc / l and L, the rows past seq not stored."""
    dims = tl.arange(0, HEAD_DIM)
    in_rows = rows < seq
    o_offs = head.to(tl.int64) * seq * HEAD_DIM + rows[:, None] * HEAD_DIM + dims[None, :]
    tl.store(O + o_offs, (acc / l_i[:, None]).to(O.dtype.element_ty),
             mask=in_rows[:, None])
    # m_i + log2(l_i) = log2(sum(exp(s * sm_scale))); L takes ln = ln 2 log2.
    lse = (m_i + tl.math.log2(l_i)) * 0.6931471805599453
    tl.store(L + head.to(tl.int64) * seq + rows, lse, mask=in_rows)


@triton.jit
def _key_ranges(block, seq, CAUSAL: tl.constexpr, BLOCK_M: tl.constexpr,
                BLOCK_N: tl.constexpr):
    """The query block's keys: [0, full) need no mask (below the diagonal
    when causal, wholly inside seq otherwise), [full, end) do (the diagonal,
    or the tail past seq)."""
    if CAUSAL:
        full = block * BLOCK_M
        end = tl.minimum(full + BLOCK_M, seq)
    else:
        full = seq // BLOCK_N * BLOCK_N
        end = seq
    return full, end


@triton.jit
def _mask_scores(s, keys, rows, seq, CAUSAL: tl.constexpr):
    """s with the scores of keys past seq (and, when causal, past a row's
    diagonal) at -inf, so their values get weight 0."""
    keep = (keys < seq)[None, :]
    if CAUSAL:
        keep = keep & (rows[:, None] >= keys[None, :])
    return tl.where(keep, s, float("-inf"))


# --- ptr: pointer loads -----------------------------------------------------

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
            s = _mask_scores(s, keys, rows, seq, CAUSAL)
        acc, m_i, l_i = _softmax_step(acc, m_i, l_i, s, v, qk_scale)
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
    q_offs = base + rows[:, None] * HEAD_DIM + dims[None, :]
    q = tl.load(Q + q_offs, mask=(rows < seq)[:, None], other=0.0)
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    # Unmasked blocks first, then the masked ones.
    full, end = _key_ranges(block, seq, CAUSAL, BLOCK_M, BLOCK_N)
    acc, m_i, l_i = _kv_blocks(acc, m_i, l_i, q, K + base, V + base, 0, full,
                               rows, seq, qk_scale, HEAD_DIM, BLOCK_N, False,
                               CAUSAL)
    acc, m_i, l_i = _kv_blocks(acc, m_i, l_i, q, K + base, V + base, full, end,
                               rows, seq, qk_scale, HEAD_DIM, BLOCK_N, True,
                               CAUSAL)
    _finish(acc, m_i, l_i, O, L, head, rows, seq, HEAD_DIM)


# --- tma: host tensor descriptors over (batch x heads x seq, head_dim) -------

@triton.jit
def _kv_blocks_tma(acc, m_i, l_i, q, desc_k, desc_v, row0, lo, hi, rows, seq,
                   qk_scale, BLOCK_N: tl.constexpr, MASK: tl.constexpr,
                   CAUSAL: tl.constexpr):
    """_kv_blocks through the descriptors; the head's keys start at row0 of
    the flattened K and V. A block past seq holds the next head's keys (or
    TMA's zeros): MASK sends their scores to -inf, so their values get
    weight 0."""
    for start in tl.range(lo, hi, BLOCK_N):
        start = tl.multiple_of(start, BLOCK_N)
        k = desc_k.load([row0 + start, 0])
        s = tl.dot(q, k.T)
        if MASK:
            s = _mask_scores(s, start + tl.arange(0, BLOCK_N), rows, seq,
                             CAUSAL)
        v = desc_v.load([row0 + start, 0])
        acc, m_i, l_i = _softmax_step(acc, m_i, l_i, s, v, qk_scale)
    return acc, m_i, l_i


@triton.autotune(configs=TMA_CONFIGS, key=["seq", "HEAD_DIM", "CAUSAL"])
@triton.jit(do_not_specialize=["seq"])
def attention_tma_kernel(desc_q, desc_k, desc_v, O, L, qk_scale, seq,
                         HEAD_DIM: tl.constexpr, CAUSAL: tl.constexpr,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    tl.static_assert(BLOCK_M % BLOCK_N == 0)
    block = tl.program_id(0)
    head = tl.program_id(1)
    # The head's first row in the flattened tensors (int32: the host checks
    # that batch x heads x seq fits).
    row0 = head * seq
    rows = block * BLOCK_M + tl.arange(0, BLOCK_M)
    # Rows past seq: the next head's queries, computed and not stored.
    q = desc_q.load([row0 + block * BLOCK_M, 0])
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    full, end = _key_ranges(block, seq, CAUSAL, BLOCK_M, BLOCK_N)
    acc, m_i, l_i = _kv_blocks_tma(acc, m_i, l_i, q, desc_k, desc_v, row0, 0,
                                   full, rows, seq, qk_scale, BLOCK_N, False,
                                   CAUSAL)
    acc, m_i, l_i = _kv_blocks_tma(acc, m_i, l_i, q, desc_k, desc_v, row0,
                                   full, end, rows, seq, qk_scale, BLOCK_N,
                                   True, CAUSAL)
    _finish(acc, m_i, l_i, O, L, head, rows, seq, HEAD_DIM)


def _prepare(q, k, v, out):
    b, h, s, d = q.shape
    if k.shape != q.shape or v.shape != q.shape:
        raise ValueError(f"Q, K, V shapes differ: {q.shape}, {k.shape}, {v.shape}")
    if d not in (64, 128):
        raise ValueError(f"head_dim {d}: 64 or 128 only")
    if not (q.is_contiguous() and k.is_contiguous() and v.is_contiguous()):
        raise ValueError("Q, K, V must be contiguous")
    return out if out is not None else (
        torch.empty_like(q), torch.empty(b, h, s, device=q.device, dtype=torch.float32))


def triton_attention_ptr(q, k, v, causal, out=None):
    """triton_attention in the ptr form (pointer loads)."""
    b, h, s, d = q.shape
    o, lse = _prepare(q, k, v, out)

    def grid(meta):
        return (triton.cdiv(s, meta["BLOCK_M"]), b * h)
    attention_kernel[grid](q, k, v, o, lse, LOG2E / math.sqrt(d), s,
                           HEAD_DIM=d, CAUSAL=causal)
    return o, lse


def triton_attention_tma(q, k, v, causal, out=None):
    """triton_attention in the tma form (host tensor descriptors)."""
    b, h, s, d = q.shape
    o, lse = _prepare(q, k, v, out)
    rows = b * h * s
    if rows + 128 >= 2**31:  # int32 descriptor coordinates
        return triton_attention_ptr(q, k, v, causal, (o, lse))

    # The block shapes are placeholders: _tma_blocks sets each
    # configuration's.
    def desc(t):
        return TensorDescriptor(t.view(rows, d), [rows, d], [d, 1], [128, d])

    def grid(meta):
        return (triton.cdiv(s, meta["BLOCK_M"]), b * h)
    attention_tma_kernel[grid](desc(q), desc(k), desc(v), o, lse,
                               LOG2E / math.sqrt(d), s, HEAD_DIM=d,
                               CAUSAL=causal)
    return o, lse


# The default form and its autotuned kernel (for its best_config).
FORM = "tma" if HAVE_TMA else "ptr"
KERNEL = attention_tma_kernel if HAVE_TMA else attention_kernel
_DEFAULT = triton_attention_tma if HAVE_TMA else triton_attention_ptr


def triton_attention(q, k, v, causal, out=None):
    """(O, L) of softmax(Q K^T / sqrt(head_dim)) V; `out` = (O, L) to write
    into (the benchmark's timed calls allocate nothing). The FORM form: tma
    where host tensor descriptors exist, else ptr."""
    return _DEFAULT(q, k, v, causal, out)
