#!/usr/bin/env bash
# The small-M probe: deeper pipelines, 64-row tiles, clusters of two and the
# 4-stage split kernel against the chooser and cuBLAS in one run, with
# K-scaling at M = 256 and the copy ceiling (docs/gemm.md, "Small M: what
# limits 256 x 8192 x 8192").
#
#   bench/Gemm/small_m.sh build    # CPU machine, with the MLIR build: .gpu/gemm/
#   bench/Gemm/small_m.sh run OUT  # GPU machine, from .gpu/gemm/ alone
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
VARIANTS="bf16out_choose_swz:--choose --bf16-out --swizzle-c"
VARIANTS+=";bf16out_choose_persistent_swz:--choose --bf16-out --persistent --swizzle-c"
VARIANTS+=";bf16out_n128s6_swz:--bf16-out --swizzle-c --bn 128 --stages 6"
VARIANTS+=";bf16out_n128s7_swz:--bf16-out --swizzle-c --bn 128 --stages 7"
VARIANTS+=";bf16out_n128s6c2_swz:--bf16-out --swizzle-c --bn 128 --stages 6 --cluster 2"
VARIANTS+=";bf16out_swz_splitk2_s4:--bf16-out --swizzle-c --split-k 2 --stages 4"
VARIANTS+=";bf16out_m64n256s4_swz:--bf16-out --swizzle-c --bm 64 --bn 256 --stages 4"
VARIANTS+=";bf16out_m64n128s4_swz:--bf16-out --swizzle-c --bm 64 --bn 128 --stages 4"
VARIANTS+=";bf16out_s4_swz:--bf16-out --swizzle-c --stages 4"
VARIANTS+=";bf16out_persistent_n128s6_swz:--bf16-out --swizzle-c --persistent --bn 128 --stages 6"
VARIANTS+=";fp8_choose_persistent_swz:--choose --fp8 --persistent --swizzle-c"
VARIANTS+=";fp8_n128s6_swz:--fp8 --swizzle-c --bn 128 --stages 6"
VARIANTS+=";fp8_n128s6c2_swz:--fp8 --swizzle-c --bn 128 --stages 6 --cluster 2"
VARIANTS+=";fp8_swz_splitk2_s4:--fp8 --swizzle-c --split-k 2 --stages 4"
VARIANTS+=";fp8_m64n256s4_swz:--fp8 --swizzle-c --bm 64 --bn 256 --stages 4"
case "${1:-}" in
  build)
    VARIANTS="$VARIANTS" bench/Gemm/build.sh ;;
  run)
    out=${2:?output folder}
    export PYTHONUNBUFFERED=1
    mkdir -p "$out" /tmp/small_m/bf16 /tmp/small_m/fp8
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu \
      --format=csv > "$out/device.txt" 2>&1 || true
    for d in bf16 fp8; do cp .gpu/gemm/libtile_runtime.so /tmp/small_m/$d/; done
    cp .gpu/gemm/gemm_bf16out_*.so /tmp/small_m/bf16/
    cp .gpu/gemm/gemm_fp8_*.so /tmp/small_m/fp8/
    python3 bench/Gemm/bench.py --dir /tmp/small_m/bf16 --no-triton \
      --json "$out/variants.json" \
      --shapes 256x8192x8192,128x8192x8192,512x8192x8192,256x8192x2048,256x8192x32768,4000x4000x4000,4000x4000x16000,3000x5000x2000 \
      2>&1 | tee "$out/variants.log" | grep -v PASS
    python3 bench/Gemm/bench_fp8.py --dir /tmp/small_m/fp8 \
      --json "$out/variants_fp8.json" \
      --shapes 256x8192x8192,128x8192x8192,256x8192x32768,8192x8192x8192 \
      2>&1 | tee "$out/variants_fp8.log" | grep -v PASS ;;
  *)
    echo "usage: $0 build | run OUT" >&2; exit 2 ;;
esac
