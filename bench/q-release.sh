#!/usr/bin/env bash
# The GPU check of releasing Q after the tile's last S = Q K^T
# (gen_attention.py --q-release last-s, tile.release_tile_loads;
# docs/attention.md, "The persistent schedule"), alone and with the
# consumers' turns carried across tiles (--carried-turns: consumer 0 starts
# the next tile during consumer 1's epilogue, its Q then loaded earlier);
# exact on the check shapes first, then each form's kernels side by side
# (bench.py --side-by-side) with cuDNN.
#
#   bench/q-release.sh build          # CPU machine with the MLIR build: .gpu/q-release/
#   bench/q-release.sh attention OUT  # GPU machine, from .gpu/q-release/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/q-release
ATTENTION="--head-dim 128;--head-dim 128 --q-release last-s"
ATTENTION+=";--head-dim 128 --q-release last-s --carried-turns"
ATTENTION+=";--head-dim 128 --causal;--head-dim 128 --causal --q-release last-s --carried-turns"
ATTENTION+=";--head-dim 64;--head-dim 64 --q-release last-s --carried-turns"
GEMM=""

run_attention() {
  round_attention "${1:?output folder}" "$out_dir/attention" 420 --side-by-side
  grep -h "FAIL\|SUMMARY" "$1"/attention*.log | head -20 || true
}

round_main "$@"
