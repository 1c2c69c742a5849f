#!/usr/bin/env bash
# The GPU check of the causal kernel with the non-causal default's schedule
# now that the epilogue's packed O stores (docs/attention.md, "Where the
# time per tile goes") left its consumers more registers: Q released after
# the tile's last S (--q-release last-s) and the consumers' turns carried
# across tiles (--carried-turns), each alone and both, side by side with
# the causal default and cuDNN, exact on the check shapes first.
#
#   bench/causal-turns.sh build          # CPU machine with the MLIR build: .gpu/causal-turns/
#   bench/causal-turns.sh attention OUT  # GPU machine, from .gpu/causal-turns/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/causal-turns
ATTENTION="--head-dim 128 --causal;--head-dim 128 --causal --q-release last-s"
ATTENTION+=";--head-dim 128 --causal --carried-turns"
ATTENTION+=";--head-dim 128 --causal --q-release last-s --carried-turns"
ATTENTION+=";--head-dim 64 --causal;--head-dim 64 --causal --q-release last-s --carried-turns"
GEMM=""

run_attention() {
  round_attention "${1:?output folder}" "$out_dir/attention" 420 --side-by-side
  grep -h "FAIL\|SUMMARY\|causal s=" "$1"/attention*.log | head -20 || true
}

round_main "$@"
