#!/usr/bin/env bash
# The GPU check of tile-compile --prefetch-tensor-maps (each kernel
# prefetches its tensor maps at entry, so that a CTA's first TMA copy does
# not wait for its descriptor) on the defaults: the clustered bf16 GEMM
# chooser and the FP8 chooser over their suites, the head_dim 128 attention
# kernels side by side with cuDNN; each with (_pf) and without the
# prefetch, alternating, exact on the check shapes first.
#
#   bench/prefetch-maps.sh build     # CPU machine with the MLIR build: .gpu/prefetch-maps/
#   bench/prefetch-maps.sh all OUT   # GPU machine, from .gpu/prefetch-maps/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/prefetch-maps
ATTENTION="--head-dim 128;--head-dim 128 --causal"
GEMM="bf16out_choose_persistent_c2:--choose --bf16-out --persistent --swizzle-c --by-waves --cluster 2"
GEMM+=";fp8_choose_persistent:--choose --fp8 --persistent --swizzle-c --by-waves"

run_gemm() {
  round_gemm "${1:?output folder}" "$out_dir" "" ""
}

run_attention() {
  round_attention "${1:?output folder}" "$out_dir/attention" 300 --side-by-side
  grep -h "FAIL\\|SUMMARY\\|d=128" "$1"/attention.log | head -30 || true
}

case "${1:-}" in
  build)
    round_build "$out_dir" "$ATTENTION" "$GEMM"
    TILE_COMPILE_FLAGS=--prefetch-tensor-maps \
      round_build_variants "$out_dir" examples _pf "$ATTENTION" "$GEMM"
    echo "built $(find "$out_dir" -name '*.so' | wc -l) libraries in $out_dir" ;;
  all)
    run_gemm "${2:?output folder}"
    run_attention "$2" ;;
  *) round_main "$@" ;;
esac
