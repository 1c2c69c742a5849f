#!/usr/bin/env bash
# The GPU check of the epilogue's packed O stores (gen_attention.py: each
# thread's O pairs rounded to bf16x2 and stored as 32-bit words, half the
# shared-memory stores and address computations; docs/attention.md, "Where
# the time per tile goes"): exact on the check shapes, then side by side
# with the kernels before the change and cuDNN at every length. The
# kernels before the change (`*_scalar_o`) are built from the generator of
# commit SCALAR_REV (default c53f6b8), and the ablation without the O
# store (bench/Attention/ablate.py --no-o-store) bounds what is left.
#
#   bench/packed-o.sh build          # CPU machine with the MLIR build: .gpu/packed-o/
#   bench/packed-o.sh attention OUT  # GPU machine, from .gpu/packed-o/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/packed-o
ATTENTION="--head-dim 128;--head-dim 128 --causal"
GEMM=""

build_before() {
  local dir=$out_dir/attention
  round_build_at "${SCALAR_REV:-c53f6b8}" "$out_dir" _scalar_o "$ATTENTION" ""
  python3 examples/attention/gen_attention.py --head-dim 128 --name attention_d128_abl_noo |
    python3 bench/Attention/ablate.py --no-o-store > "$dir/attention_d128_abl_noo.mlir"
  round_compile "$dir" attention_d128_abl_noo
}

run_attention() {
  round_attention "${1:?output folder}" "$out_dir/attention" 420 --side-by-side
  grep -h "FAIL\|SUMMARY\|full s=\|causal s=" "$1"/attention*.log | head -30 || true
}

if [ "${1:-}" = build ]; then
  round_build "$out_dir" "$ATTENTION" "$GEMM"
  build_before
  exit 0
fi
round_main "$@"
