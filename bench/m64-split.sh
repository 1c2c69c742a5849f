#!/usr/bin/env bash
# The GPU check of split-K for the 64-row GEMM kernels (docs/gemm.md,
# "Small M"): where even the 64 x 64 tiles leave SMs idle (128 x 2048 x
# 8192: 64 tiles), 2 or 4 CTAs share each tile's k-steps through the
# workspace; and of the chooser's 64 x 192 rule against the 128 x 128
# kernel it replaced; bf16 output against cuBLAS and FP8 against cuBLASLt,
# alternating, exact on the check shapes first. (Round 43 ran an earlier
# list, when bench.py's workspace held too few counters for 64-row tiles:
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
GEMM+=";bf16out_m64n64s8:--bf16-out --swizzle-c --bm 64 --bn 64 --stages 8"
GEMM+=";bf16out_m64n64s8_splitk2:--bf16-out --swizzle-c --bm 64 --bn 64 --stages 8 --split-k 2"
GEMM+=";bf16out_m64n64s8_splitk4:--bf16-out --swizzle-c --bm 64 --bn 64 --stages 8 --split-k 4"
GEMM+=";bf16out_m64n128s8_splitk2:--bf16-out --swizzle-c --bm 64 --bn 128 --stages 8 --split-k 2"
# The chooser's 64 x 192 kernel (rule m64n192_one_wave) and the 128 x 128
# one it took before at 320 to 384 rows.
GEMM+=";bf16out_n128s6:--bf16-out --swizzle-c --bn 128 --stages 6"
GEMM+=";fp8_choose_persistent:--choose --fp8 --persistent --swizzle-c --by-waves"
GEMM+=";fp8_m64n64s8_splitk2:--fp8 --swizzle-c --bm 64 --bn 64 --stages 8 --split-k 2"
GEMM+=";fp8_n128s6:--fp8 --swizzle-c --bn 128 --stages 6"
# Few 64 x 64 tiles over a long K (64, 32, 32, 64, 128 of them), then the
# 64 x 192 rule's shapes (110, 132, 129 tiles) and one past it (154).
SHAPES=128x2048x8192,64x2048x8192,128x1024x8192,256x1024x8192,256x2048x8192
SHAPES+=,320x4096x4096,384x4096x4096,192x8192x4096,448x4096x4096
FP8_SHAPES=128x2048x8192,64x2048x8192,256x2048x8192,320x4096x4096,384x4096x4096,192x8192x4096

run_attention() {
  echo "bench/m64-split.sh: no attention kernels in this round" >&2
  return 2
}

run_gemm() {
  round_gemm "${1:?output folder}" "$out_dir" "$SHAPES" "$FP8_SHAPES"
}

round_main "$@"
