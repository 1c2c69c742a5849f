#!/usr/bin/env bash
# The GPU check of the chooser's small-M rules (docs/gemm.md, "Small M"):
# with --split-k 4, the 64-row kernels split into as many shares as fill
# the SMs where their tiles fill at most half of them; the 64 x 192 kernel
# where the 64 x 128 tiles make more than a wave and its own fit in one;
# the choosers with and without --split-k, bf16 output against cuBLAS and
# FP8 against cuBLASLt, alternating, exact on the check shapes first.
# (Rounds 43 and 44 ran the kernels by themselves with earlier lists; in
# round 43 bench.py's workspace held too few counters for 64-row tiles, so
# its split kernels ran unsplit.)
#
#   bench/m64-split.sh build     # CPU machine with the MLIR build: .gpu/m64-split/
#   bench/m64-split.sh gemm OUT  # GPU machine, from .gpu/m64-split/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/m64-split
ATTENTION=""
GEMM="bf16out_choose_persistent_c2:--choose --bf16-out --persistent --swizzle-c --by-waves --cluster 2"
GEMM+=";bf16out_choose_persistent_c2_splitk4:--choose --bf16-out --persistent --swizzle-c --by-waves --cluster 2 --split-k 4"
GEMM+=";fp8_choose_persistent:--choose --fp8 --persistent --swizzle-c --by-waves"
GEMM+=";fp8_choose_persistent_splitk4:--choose --fp8 --persistent --swizzle-c --by-waves --split-k 4"
# The split rule's problems (64 x 64 in 2, 4, 4 and 2 shares), two whose
# 64 x 64 tiles fill half the SMs (unsplit since round 46; round 45 split
# the 64 x 128 kernel there), the 64 x 192 rule's, and two the new rules
# leave alone.
SHAPES=128x2048x8192,64x2048x8192,128x1024x8192,256x1024x8192,256x2048x8192,128x4096x4096
SHAPES+=,320x4096x4096,384x4096x4096,192x8192x4096,256x8192x8192,4096x4096x4096
FP8_SHAPES=128x2048x8192,64x2048x8192,256x2048x8192,128x4096x4096,320x4096x4096,192x8192x4096,4096x4096x4096

run_gemm() {
  round_gemm "${1:?output folder}" "$out_dir" "$SHAPES" "$FP8_SHAPES"
}

round_main "$@"
