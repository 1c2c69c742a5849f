#!/usr/bin/env bash
# The GPU check of tile-compile --prefetch-tensor-maps (each kernel
# prefetches its tensor maps at entry, so that a CTA's first TMA copy does
# not wait for its descriptor) on the kernels of the issues' targets
# (round-lib.sh: TARGET_ATTENTION, TARGET_GEMM), each with (_pf) and without
# the prefetch, alternating with cuBLAS, cuBLASLt and cuDNN, exact on the
# check shapes first.
#
#   bench/prefetch-maps.sh build     # CPU machine with the MLIR build: .gpu/prefetch-maps/
#   bench/prefetch-maps.sh all OUT   # GPU machine, from .gpu/prefetch-maps/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/prefetch-maps

case "${1:-}" in
  build)
    round_build "$out_dir" "$TARGET_ATTENTION" "$TARGET_GEMM"
    TILE_COMPILE_FLAGS=--prefetch-tensor-maps \
      round_build_variants "$out_dir" examples _pf "$TARGET_ATTENTION" "$TARGET_GEMM"
    echo "built $(find "$out_dir" -name '*.so' | wc -l) libraries in $out_dir" ;;
  all) round_targets "${2:?output folder}" "$out_dir" ;;
  *) echo "usage: $0 build | all OUT" >&2; exit 2 ;;
esac
