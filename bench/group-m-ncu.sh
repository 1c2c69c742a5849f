#!/usr/bin/env bash
# The clustered 128 x 256 kernel (the bf16 chooser's multi-wave kernel) with
# tile groups of 2 to 32 rows in its walk, under Nsight Compute at the
# clock the card holds (no burst regime: docs/gemm.md, rounds 79-82), for
# the duration and L2 hit rate of each; cuBLAS once per shape.
#
#   bench/group-m-ncu.sh build     # CPU machine with the MLIR build: .gpu/group-m-ncu/
#   bench/group-m-ncu.sh gemm OUT  # GPU machine, from .gpu/group-m-ncu/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/group-m-ncu
ATTENTION=""
RING="--persistent --bf16-out --swizzle-c --cluster 2 --registers 40,232 --store-chunks --c-buffers 2 --stages 4"
GROUPS_M="2 4 8 16 32"
GEMM=""
for g in $GROUPS_M; do GEMM+="${GEMM:+;}bf16out_ring_g$g:$RING --group-m $g"; done
SHAPES=14336x4096x4096,4096x14336x4096,6144x6144x6144

# Nsight Compute over profile.py's calls of library LIB on SHAPES, the
# kernels that match REGEX, into LOG.
ncu_profile() {
  local regex=$1 lib=$2 log=$3
  timeout 150 ncu --clock-control none -k "regex:$regex" \
    --section SpeedOfLight --section MemoryWorkloadAnalysis \
    python3 bench/Gemm/profile.py --dir "$out_dir/gemm" --lib "$lib" \
    --shapes "$SHAPES" --warm 0 > "$log" 2>&1
}

run_gemm() {
  local out=${1:?output folder} g
  mkdir -p "$out"
  for g in $GROUPS_M; do
    step "ncu g$g" ncu_profile gemm "gemm_bf16out_ring_g$g.so" "$out/ncu-g$g.log"
  done
  step "ncu cublas" ncu_profile 'nvjet|xmma|sm90' gemm_bf16out_ring_g8.so \
    "$out/ncu-cublas.log"
  local f
  for f in "$out"/ncu-*.log; do
    echo "== $(basename "$f" .log)"
    grep -E "relative max error|SM Frequency|Duration|L2 Hit Rate" "$f" || true
  done
}

round_main "$@"
