#!/usr/bin/env bash
# Where the clustered bf16 chooser's per-tile time goes: Nsight Compute's
# warp-stall sampling per SASS instruction (SourceCounters) of the chooser
# as the targets build it, of it with --stmatrix, and of cuBLAS, at
# 4096 x 4096 x 512 (four tiles per CTA, eight k-steps each: ours 1.8 us
# behind cuBLAS in round 86) and 2048^3 (one tile per CTA). The source
# pages come back as CSV, one row per SASS instruction with its samples.
#
#   bench/stmatrix.sh build             # CPU machine: .gpu/stmatrix/ (the kernels)
#   bench/epilogue-stalls.sh gemm OUT   # GPU machine
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
dir=.gpu/stmatrix/gemm
out=${2:?usage: $0 gemm OUT}
mkdir -p "$out"
export PYTHONUNBUFFERED=1
# ncu over one call of $lib and of cuBLAS per shape, into $rep.ncu-rep.
profile() {
  timeout 200 ncu --clock-control none -k 'regex:gemm|nvjet|xmma|sm90' \
    --section SourceCounters --section WarpStateStats --section SpeedOfLight \
    --section LaunchStats "$@" -f -o "$rep" \
    python3 bench/Gemm/profile.py --dir "$dir" --lib "$lib.so" \
    --shapes 4096x4096x512,2048x2048x2048 --warm 0 > "$rep.log" 2>&1
}
for lib in gemm_bf16out_choose_persistent_c2 gemm_bf16out_choose_persistent_c2_sm; do
  rep="$out/$lib"
  # The densest warp sampling (every 2^5 cycles), else ncu's default.
  profile --warp-sampling-interval 0 || profile || echo "ncu $lib rc $?"
  ncu -i "$rep.ncu-rep" --page details > "$rep.details.txt" 2>&1 || true
  ncu -i "$rep.ncu-rep" --page source --csv --print-source sass > "$rep.sass.csv" 2>&1 ||
    ncu -i "$rep.ncu-rep" --page source --csv > "$rep.sass.csv" 2>&1 || true
  wc -l "$rep.sass.csv"
  grep -E "^  [a-z_]+.*\(|Duration|Warp Cycles Per Issued|Issued Ipc|Executed Ipc" "$rep.details.txt" | head -24 || true
done
