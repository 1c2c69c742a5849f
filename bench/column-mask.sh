#!/usr/bin/env bash
# The GPU check of the score mask by column limits (gen_attention.py: each
# row's first masked column computed once, each score one 32-bit compare
# with a constant and a select; docs/attention.md, "The mask by column
# limits"): every kernel exact on the check shapes (edge blocks of 1, 257,
# 300 and 3000 keys), then the causal kernels side by side with those of
# commit BEFORE_REV (default ed8faea, every score compared with the key
# count and its row in 64 bits), in alternating places as in
# bench/first-pv-order.sh (head_dim 128: a before, b after, c before, d
# after; head_dim 64: a before, b after), cuDNN alternating; then
# compute-sanitizer memcheck over the new causal kernel's small shapes.
#
#   bench/column-mask.sh build          # CPU machine with the MLIR build: .gpu/column-mask/
#   bench/column-mask.sh attention OUT  # GPU machine, from .gpu/column-mask/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/column-mask
before=${BEFORE_REV:-ed8faea}
ATTENTION="--causal --name attention_d128_causal_b_limits"
ATTENTION+=";--causal --name attention_d128_causal_d_limits"
ATTENTION+=";--head-dim 64 --causal --name attention_d64_causal_b_limits"
CHECK_ONLY="--head-dim 128;--head-dim 64;--causal --one-tile;--split-tail on"
GEMM=""

build_more() {
  round_build_at "$before" "$out_dir" "" \
    "--causal --name attention_d128_causal_a_before;--causal --name attention_d128_causal_c_before;--head-dim 64 --causal --name attention_d64_causal_a_before" ""
  # The non-causal, one-tile and split-tail forms, checked only.
  mkdir -p "$out_dir/check/attention"
  cp -f "$out_dir/attention/libtile_runtime.so" "$out_dir/check/attention/"
  round_build_variants "$out_dir/check" examples "" "$CHECK_ONLY" ""
}

run_attention() {
  local out=${1:?output folder}
  round_attention "$out" "$out_dir/attention" 400 --side-by-side
  step "check-only forms" timeout 150 python3 bench/Attention/bench.py \
    --dir "$out_dir/check/attention" --check-only > "$out/check-forms.log" 2>&1
  round_sanitize memcheck "$out_dir/attention" "d128_causal_b_limits" \
    "$out/limits-memcheck.log"
  grep -h "FAIL\|SUMMARY\|causal s=" "$out"/attention*.log | head -30 || true
  grep -h "FAIL\|SUMMARY" "$out/check-forms.log" || true
  grep -h "ERROR SUMMARY" "$out/limits-memcheck.log" || true
}

if [ "${1:-}" = build ]; then
  round_build "$out_dir" "$ATTENTION" "$GEMM"
  build_more
  echo "built $(find "$out_dir" -name '*.so' -not -name 'libtile*' | wc -l) kernels in $out_dir"
  exit 0
fi
round_main "$@"
