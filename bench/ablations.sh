#!/usr/bin/env bash
# Where the time per tile goes, by ablation: each persistent kernel beside
# itself with one part of its per-tile work removed (bench/Attention/
# ablate.py, bench/Gemm/ablate.py; wrong results by construction, so their
# checks fail and only their times count).
#
# Attention, head_dim 128, side by side with cuDNN at 2k and 8k: the
# default kernels, with 8 of Q's 128 rows loaded per tile (Q's latency),
# without the epilogue's O store (staging, barriers, TMA store), and both.
# GEMM, bf16 output, cuBLAS alternating, on shapes of several waves: the
# chooser, the clustered persistent 128 x 256 kernel with and without its
# C store (the epilogue an overlap with the next tile could hide), its
# stores to shared memory and its TMA store apart. Round 49 also timed the
# stream-K kernel in its spill-free form (git has that list).
#
#   bench/ablations.sh build          # CPU machine with the MLIR build: .gpu/ablations/
#   bench/ablations.sh attention OUT  # GPU machine, from .gpu/ablations/
#   bench/ablations.sh gemm OUT
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/ablations
ATTENTION="--head-dim 128 --first-pv zero"
GEMM="bf16out_choose_persistent_c2:--choose --bf16-out --persistent --swizzle-c --by-waves --cluster 2"
GEMM+=";bf16out_persistent_swz_c2:--persistent --bf16-out --swizzle-c --cluster 2"
SHAPES=3000x5000x2000,8192x4096x14336,2048x2048x2048,8192x8192x8192

# The ablated modules (name:generator flags:ablate.py flags), built like the
# others into the same folders.
ABLATED_ATTENTION="attention_d128_abl_q8:--head-dim 128 --first-pv zero:--q-rows 8"
ABLATED_ATTENTION+=";attention_d128_abl_noo:--head-dim 128 --first-pv zero:--no-o-store"
ABLATED_ATTENTION+=";attention_d128_abl_notma:--head-dim 128 --first-pv zero:--no-o-tma"
ABLATED_GEMM="bf16out_persistent_swz_c2_abl_noc:--persistent --bf16-out --swizzle-c --cluster 2:--no-c-store"
ABLATED_GEMM+=";bf16out_persistent_swz_c2_abl_noshared:--persistent --bf16-out --swizzle-c --cluster 2:--no-shared-c"
ABLATED_GEMM+=";bf16out_persistent_swz_c2_abl_notma:--persistent --bf16-out --swizzle-c --cluster 2:--no-tma-store"

build_ablated() {
  local v name gen abl dir=$out_dir/attention
  IFS=";" read -ra variants <<< "$ABLATED_ATTENTION"
  for v in "${variants[@]}"; do
    IFS=":" read -r name gen abl <<< "$v"
    # shellcheck disable=SC2086
    python3 examples/attention/gen_attention.py $gen --name "$name" |
      python3 bench/Attention/ablate.py $abl > "$dir/$name.mlir"
    round_compile "$dir" "$name"
  done
  dir=$out_dir/gemm
  IFS=";" read -ra variants <<< "$ABLATED_GEMM"
  for v in "${variants[@]}"; do
    IFS=":" read -r name gen abl <<< "$v"
    # shellcheck disable=SC2086
    python3 examples/gemm/gen_gemm.py $gen | python3 bench/Gemm/ablate.py $abl \
      > "$dir/gemm_$name.mlir"
    round_compile "$dir" "gemm_$name"
  done
  echo "built $(find "$out_dir" -name '*.so' | wc -l) libraries in $out_dir"
}

run_attention() {
  local out=${1:?output folder}
  round_attention "$out" "$out_dir/attention" 300 --side-by-side --quick
  grep -h "SUMMARY\|full s=\|causal s=" "$out"/attention*.log | head -20 || true
}

run_gemm() {
  round_gemm_bf16 "${1:?output folder}" "$out_dir" "$SHAPES"
}

if [ "${1:-}" = build ]; then
  round_build "$out_dir" "$ATTENTION" "$GEMM"
  build_ablated
  exit 0
fi
round_main "$@"
