#!/usr/bin/env bash
# The GPU check of the persistent causal kernel's longest-first table walk
# (--causal-walk table: the runtime's tileRuntimeLongestFirstTable, built
# once per problem) against the paired walk (the default), with the rounds'
# order controlled as in bench/first-pv-order.sh: two copies of each at
# head_dim 128 under names that alternate them (a paired, b table, c paired,
# d table), one of each at head_dim 64; exact on the check shapes first,
# cuDNN alternating; then compute-sanitizer memcheck over the table kernel's
# small check shapes.
#
#   bench/causal-table.sh build          # CPU machine with the MLIR build: .gpu/causal-table/
#   bench/causal-table.sh attention OUT  # GPU machine, from .gpu/causal-table/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/causal-table
ATTENTION="--causal --causal-walk paired --name attention_d128_causal_a_paired"
ATTENTION+=";--causal --causal-walk table --name attention_d128_causal_b_table"
ATTENTION+=";--causal --causal-walk paired --name attention_d128_causal_c_paired"
ATTENTION+=";--causal --causal-walk table --name attention_d128_causal_d_table"
ATTENTION+=";--head-dim 64 --causal --causal-walk paired --name attention_d64_causal_a_paired"
ATTENTION+=";--head-dim 64 --causal --causal-walk table --name attention_d64_causal_b_table"
GEMM=""

run_attention() {
  local out=${1:?output folder}
  round_attention "$out" "$out_dir/attention" 420 --side-by-side
  round_sanitize memcheck "$out_dir/attention" "d128_causal_b_table" \
    "$out/table-memcheck.log"
  grep -h "FAIL\|SUMMARY\|causal s=" "$out"/attention*.log | head -20 || true
  grep -h "ERROR SUMMARY" "$out/table-memcheck.log" || true
}

round_main "$@"
