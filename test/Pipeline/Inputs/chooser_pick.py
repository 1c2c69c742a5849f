"""Runs the host entry gen_gemm.py --choose writes (func.func @gemm_async)
as written, up to its launch, for each problem: the index arithmetic by
index_arith.evaluate, each `scf.if %rule` by the value of %rule (its then
branch or its else branch). Prints the kernel the entry launches, for
FileCheck, after "K padded to Kp" where the entry pads A or Bt (the
`%A, %a_padded = scf.if` and `%Bt, %bt_padded = scf.if` branches: Kp is
%k_pad, and the copies, fresh allocations, are aligned), naming the
operands it copies, and the pad kernel's launches where it makes them.

    chooser_pick.py FLAGS...   (the generator's flags)"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from generated import gemm_module  # noqa: E402
from index_arith import LINE, evaluate  # noqa: E402

SHAPES = [(384, 8192), (2048, 2048), (512, 8192), (5000, 5000),
          (3000, 5000), (8192, 8192), (256, 8192), (100, 8192), (40, 4096),
          (300, 14336), (256, 4096), (512, 2048), (256, 2048), (128, 4096),
          (320, 4096), (384, 4096), (192, 8192), (3000, 3000)]
# With --split-k: problems M x N x K, K deciding whether shares are long
# enough (the workspace always holds them).
SPLIT_SHAPES = [(128, 2048, 8192), (64, 2048, 8192), (128, 1024, 8192),
                (256, 2048, 8192), (128, 2048, 512), (128, 4096, 4096),
                (64, 8192, 8192), (256, 4096, 8192), (512, 4096, 8192)]
# With --cluster: problems M x N x K and Bt's address, whose rows (K
# elements) or base are not 16-byte aligned, or are: where they are not, the
# entry pads A and Bt and the shape's choice runs on the copies; the last
# problem's rows need more than the grid's 65535 blocks in y to pad.
ALIGN_SHAPES = [(5000, 5000, 136, 0), (5000, 5000, 130, 0),
                (5000, 5000, 4100, 0), (5000, 5000, 4096, 8),
                (3000, 5000, 2000, 0), (3000, 5000, 2001, 0),
                (5000, 5000, 0, 0), (300, 14336, 130, 0),
                (1200, 4400, 36, 0), (1200, 4400, 40, 0),
                (64, 64, 134217731, 0)]
# With --persistent --swizzle-c: problems M x N x K and C's address, whose
# rows (N elements) or base are not 16-byte aligned, or are: an LM head over
# a 50257-token vocabulary, N odd, N = 4100, C 8 bytes off.
C_SHAPES = [(8192, 50257, 768, 0), (2048, 2047, 2048, 0), (300, 4100, 4096, 0),
            (4096, 4096, 4096, 8), (4096, 4096, 4096, 0), (8192, 50264, 768, 0)]
# With --cluster or --cluster-off32: problems M x N x K and Bt's address
# offset, whose rows or bases are 16- but not 32-byte aligned (bf16 K = 7000
# and 5000; Bt 16 bytes off; FP8 K = 6000, 2000 and 5008) or 32-byte
# aligned (bf16 K = 6000, FP8 K = 4000) or whole lines (K = 7040).
OFF32_SHAPES = [(1000, 3000, 7000, 0), (1000, 3000, 7040, 0),
                (2048, 2048, 5000, 0), (768, 4096, 6000, 0),
                (2048, 2048, 2048, 16), (2048, 2048, 2048, 0),
                (3072, 5120, 2000, 0), (8192, 8192, 5008, 0),
                (4096, 4096, 4000, 0)]
# Decode rows: M up to 32 takes the 64 x 64 kernel whose A box loads 32
# rows; M = 33 the 64-row box. With --decode-split, where those tiles fill
# at most half the SMs (N = 4096: 64 of them; 2048; 1024), its split form
# in as many shares as fill the SMs (K = 8192 unless given: 128 k-steps),
# where the tiles fill at most a quarter of them or each share has 64
# k-steps or more (K = 4096 in two shares has 32: unsplit).
DECODE_SHAPES = [(1, 8192), (8, 14336), (32, 4096), (33, 8192), (8, 2048),
                 (16, 1024), (33, 2048), (8, 4096, 4096), (8, 4096, 14336),
                 (8, 8192, 4096)]
# With --decode-tokens-n: widths between the tokens kernels' (M = 9 takes
# 16 tokens, 17 takes 32), N off the 64-row tiles, a split of 24 tokens.
TOKENS_SHAPES = [(9, 8192), (17, 8192), (16, 8192), (8, 136), (24, 2048),
                 (32, 8192)]
WORKSPACE = 1 << 40
IF = re.compile(r"^scf\.if (%\w+) \{$")
PAD_IF = re.compile(r"^(%A|%Bt), (%\w+) = scf\.if (%\w+) -> .*\{$")
PADDED_ADDRESS = 1 << 20  # where the entry's padded copies are placed
# Where A and Bt are placed (Bt at the problem's offset from its base): a
# null operand would be a copy the runtime could not allocate.
A_ADDRESS, BT_BASE = 1 << 16, 1 << 18
LAUNCH = re.compile(r"gpu\.launch_func async \[%stream\] @gemm_kernels::@(\w+)")
ALLOC = re.compile(r"^(%\w+)(?:, %\w+ = gpu\.alloc async| = tile\.stream_workspace "
                   r"\"[^\"]*\") \[%stream\]")
ALLOC_ADDRESS = 1 << 24  # where the entry's own allocations are placed
GRID = re.compile(r"blocks in \((%\w+), (%\w+), (%\w+)\)")
TOKENS_KERNEL = re.compile(r"gemm_t\d+(_split)?$")


def entry_lines(module):
    """The lines of @gemm_async's body, stripped."""
    lines = module.splitlines()
    start = next(i for i, l in enumerate(lines)
                 if "func.func @gemm_async(" in l)
    return [l.strip() for l in lines[start + 1:]]


def pick(lines, M, N, K=8192, bt_address=0, c_address=0):
    """The kernel the entry launches for M x N x K (Bt at `bt_address`, C
    at `c_address`), with its count of shares where the grid's z is one."""
    env = {}
    dims = {("%A_in", 0): M, ("%Bt_in", 0): N, ("%A_in", 1): K,
            ("%Bt_in", 1): K, ("%A_in", "address"): A_ADDRESS,
            ("%Bt_in", "address"): BT_BASE + bt_address,
            ("%C", "address"): c_address,
            ("%C", 0): M, ("%C", 1): N,
            ("%partials", 0): WORKSPACE, ("%counters", 0): WORKSPACE}
    prefix = ""
    i = 0
    while True:
        line = lines[i]
        if m := PAD_IF.match(line):
            # Padded: the operand becomes a fresh (aligned) copy of %k_pad
            # columns; else the operand as passed. Past the else branch.
            operand, padded = m.group(1), env[m.group(3)]
            rows, columns = (M, K) if operand == "%A" else (N, K)
            address = A_ADDRESS if operand == "%A" else BT_BASE + bt_address
            if padded:
                columns = env["%k_pad"]
                address = PADDED_ADDRESS
                prefix += (f"{operand[1:]} padded to {columns}, ")
            dims.update({(operand, 0): rows, (operand, 1): columns,
                         (operand, "address"): address})
            env[m.group(2)] = int(padded)
            while lines[i] != "}":
                i += 1
            i += 1
            continue
        if m := ALLOC.match(line):
            # The entry's workspace (--decode-split's, the stream's): a buffer
            # the runtime made.
            dims[(m.group(1), "address")] = ALLOC_ADDRESS
            i += 1
            continue
        if m := LAUNCH.search(line):
            grid = GRID.search(lines[i + 1])
            if m.group(1) == "gemm_pad_k":
                prefix += (f"pad ({env[grid.group(1)]},{env[grid.group(2)]}) "
                           if grid else "pad ")
                i += 1
                continue
            shares = env.get(grid.group(3), 1) if grid else 1
            # A tokens-as-N kernel's grid (x by y): M's tiles of its width
            # by N's 64-row tiles (C^T's tiles).
            tiles = (f" on {env[grid.group(1)]} x {env[grid.group(2)]}"
                     if TOKENS_KERNEL.match(m.group(1)) else "")
            return prefix + m.group(1) + tiles + (
                f" in {shares} shares" if shares > 1 else "")
        if m := IF.match(line):
            if not env[m.group(1)]:
                # Skip to this if's `} else {`.
                depth = 1
                while depth:
                    i += 1
                    if IF.match(lines[i]):
                        depth += 1
                    elif lines[i] == "} else {" and depth == 1:
                        depth = 0
                    elif lines[i] == "}":
                        depth -= 1
            i += 1
            continue
        # Index arithmetic and memref.dim (through `dims`); the entry's
        # other ops (the stream's wait) hold no index.
        if m := LINE.match(line):
            args = [a.strip() for a in m.group(3).split(",")]
            value = evaluate(m.group(2), args,
                             lambda n: env[n.split(" ")[0]], dims)
            if value is not None:
                env[m.group(1)] = value
        i += 1


module, _ = gemm_module(sys.argv[1:])
lines = entry_lines(module)
if "--split-k" in sys.argv:
    for M, N, K in SPLIT_SHAPES:
        print(f"{M}x{N}x{K}: {pick(lines, M, N, K)}")
else:
    for M, N in SHAPES:
        print(f"{M}x{N}: {pick(lines, M, N)}")
if ("--persistent" in sys.argv and "--swizzle-c" in sys.argv
        and "--split-k" not in sys.argv):
    for M, N, K, address in C_SHAPES:
        print(f"{M}x{N}x{K} C at {address}: "
              f"{pick(lines, M, N, K, c_address=address)}")
if "--cluster" in sys.argv and "--split-k" not in sys.argv:
    for M, N, K, address in ALIGN_SHAPES:
        print(f"{M}x{N}x{K} Bt at {address}: "
              f"{pick(lines, M, N, K, address)}")
if "--split-k" not in sys.argv:
    for M, N, *K in DECODE_SHAPES:
        shape = f"{M}x{N}" + (f"x{K[0]}" if K else "")
        print(f"{shape} (decode): {pick(lines, M, N, *K)}")
if "--decode-tokens-n" in sys.argv:
    for M, N in TOKENS_SHAPES:
        print(f"{M}x{N} (tokens): {pick(lines, M, N)}")
if (("--cluster" in sys.argv or "--cluster-off32" in sys.argv)
        and "--split-k" not in sys.argv):
    for M, N, K, address in OFF32_SHAPES:
        print(f"{M}x{N}x{K} Bt at {address} (rows): "
              f"{pick(lines, M, N, K, address)}")
