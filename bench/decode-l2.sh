#!/usr/bin/env bash
# Where the decode rows' time goes against cuBLAS (docs/gemm.md, "Decode
# rows"): the bf16 target chooser (its decode split) and cuBLAS
# (torch.matmul) under Nsight Compute on decode problems, with the L2 left
# as the previous call left it (--cache-control none: back-to-back calls on
# one weight, as bench.py and call_costs.py time them) and flushed before
# each (--cache-control all: the weight from device memory): each kernel's
# duration, its device-memory reads and its L2 hit rate.
#
#   bench/decode-l2.sh build     # CPU machine with the MLIR build: .gpu/decode-l2/
#   bench/decode-l2.sh gemm OUT  # GPU machine, from .gpu/decode-l2/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/decode-l2
ATTENTION=""
GEMM="bf16out_choose_dsplit:$TARGET_BF16_CHOOSER --decode-split 8${DECODE_L2_EXTRA:+;$DECODE_L2_EXTRA}"
SHAPES=${DECODE_L2_SHAPES:-8x2048x8192,8x4096x4096,16x1024x4096,8x8192x8192}
METRICS=gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sector_hit_rate.pct
METRICS+=,lts__t_sectors_srcunit_tex_op_read.sum,sm__cycles_elapsed.avg.per_second

# Nsight Compute (cache control CACHE) over profile.py's calls of library
# LIB: every kernel of the process, ours and cuBLAS's, into LOG.
ncu_profile() {
  local cache=$1 lib=$2 log=$3
  timeout 150 ncu --clock-control none --cache-control "$cache" \
    --metrics "$METRICS" python3 bench/Gemm/profile.py --dir "$out_dir/gemm" \
    --lib "$lib" --shapes "$SHAPES" --warm 2 > "$log" 2>&1
}

run_gemm() {
  local out=${1:?output folder} lib cache
  mkdir -p "$out"
  for lib in "$out_dir"/gemm/gemm_*.so; do
    lib=$(basename "$lib")
    for cache in none all; do
      step "ncu $lib $cache" ncu_profile "$cache" "$lib" "$out/ncu-${lib%.so}-$cache.log"
    done
  done
  local f
  for f in "$out"/ncu-*.log; do
    echo "== $(basename "$f" .log)"
    grep -E "relative max error|^  [a-zA-Z_0-9]+.*\(|gpu__time|dram__bytes|hit_rate" "$f" \
      | grep -v "distribution\|vectorized_elementwise\|fill_\|normal_" | head -80 || true
  done
}

round_main "$@"
