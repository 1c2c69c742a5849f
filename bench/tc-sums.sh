#!/usr/bin/env bash
# The softmax's row sums on the tensor cores (gen_attention.py --row-sums
# tensor; docs/attention.md, "Row sums on the tensor cores"): each block's
# P times a block of ones (an m64n8k16 wgmma per k-step, in a group of its
# own between S and P V) instead of 62 additions a thread in the softmax.
# Every kernel checked exact on bench.py's check shapes, then the forms side
# by side, each in alternating places (head_dim 128 non-causal: a alu, b
# tensor, c alu, d tensor, e tensor with the first P V guarded at every
# length; causal and head_dim 64: a alu, b tensor), cuDNN alternating; then
# memcheck and synccheck over the tensor kernels' small shapes.
#
#   bench/tc-sums.sh build          # CPU machine with the MLIR build: .gpu/tc-sums/
#   bench/tc-sums.sh attention OUT  # GPU machine, from .gpu/tc-sums/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/tc-sums
ATTENTION="--name attention_d128_a_alu;--row-sums tensor --name attention_d128_b_tensor"
ATTENTION+=";--name attention_d128_c_alu;--row-sums tensor --name attention_d128_d_tensor"
ATTENTION+=";--row-sums tensor --first-pv guard --name attention_d128_e_tensor_guard"
ATTENTION+=";--causal --name attention_d128_causal_a_alu"
ATTENTION+=";--causal --row-sums tensor --name attention_d128_causal_b_tensor"
ATTENTION+=";--head-dim 64 --name attention_d64_a_alu"
ATTENTION+=";--head-dim 64 --row-sums tensor --name attention_d64_b_tensor"
ATTENTION+=";--head-dim 64 --causal --name attention_d64_causal_a_alu"
ATTENTION+=";--head-dim 64 --causal --row-sums tensor --name attention_d64_causal_b_tensor"
CHECK_ONLY="--row-sums tensor --one-tile;--row-sums tensor --kv-lag;--row-sums tensor --dtype f16"

run_attention() {
  local out=${1:?output folder}
  round_attention "$out" "$out_dir/attention" 420 --side-by-side
  step "check-only forms" timeout 150 python3 bench/Attention/bench.py \
    --dir "$out_dir/check/attention" --check-only > "$out/check-forms.log" 2>&1
  round_sanitize_sync "$out_dir/attention" "_tensor" "$out" tensor
  grep -h "FAIL\|SUMMARY\| s=" "$out"/attention*.log | head -60 || true
  grep -h "FAIL\|SUMMARY" "$out/check-forms.log" || true
}

if [ "${1:-}" = build ]; then
  round_build "$out_dir" "$ATTENTION" ""
  mkdir -p "$out_dir/check/attention"
  cp -f "$out_dir/attention/libtile_runtime.so" "$out_dir/check/attention/"
  round_build_variants "$out_dir/check" examples "" "$CHECK_ONLY" ""
  echo "built $(find "$out_dir" -name '*.so' -not -name 'libtile*' | wc -l) kernels in $out_dir"
  exit 0
fi
round_main "$@"
