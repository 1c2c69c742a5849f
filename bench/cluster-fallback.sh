#!/usr/bin/env bash
# The clustered kernels' fallback versions on the GPU: the multicast load
# done by one thread's stores into every CTA of the cluster (the simt
# variant through the cluster's shared window), where a guard of its TMA
# plan fails. Checks, each exact, then memcheck on small cases:
#   - the pipelined copies of test/GPU/pipeline, whose guarded cluster
#     kernels run with A and P aligned (TMA) and 4 bytes off (fallback),
#     each launch's version checked;
#   - the bf16 target chooser (no rule on Bt's alignment: its clustered kernels take
#     rows the TMA cannot read through their fallback versions) and its
#     clustered 128 x 256 kernel alone, on bench.py's check shapes, the
#     misaligned ones (K = 130, 36; 5000 x 5000 x 136 for 224 columns)
#     among them.
#
#   bench/cluster-fallback.sh build    # CPU machine: .gpu/cluster-fallback/
#   bench/cluster-fallback.sh run OUT  # GPU machine
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/cluster-fallback
CLUSTERED="bf16out_persistent_c2:--persistent --bf16-out --swizzle-c --cluster 2"
CLUSTERED+=" --registers 40,232 --store-chunks --c-buffers 2 --stages 4"
GEMM="${TARGET_GEMM%%;*};$CLUSTERED"

build() {
  round_build "$out_dir" "" "$GEMM"
  rm -rf "$out_dir/attention" "$out_dir/fp8"
  # The clustered kernel alone, for memcheck.
  mkdir -p "$out_dir/gemm-single"
  cp -f "$out_dir"/gemm/gemm_bf16out_persistent_c2.* "$out_dir/gemm/libtile_runtime.so" \
    "$out_dir/gemm-single/"
  mkdir -p "$out_dir/pipeline"
  cp -f "$out_dir/gemm/libtile_runtime.so" "$out_dir/pipeline/"
  python3 test/GPU/pipeline/gen_pipeline.py > "$out_dir/pipeline/pipeline.mlir"
  round_compile "$out_dir/pipeline" pipeline
}

run() {
  local out=$1
  mkdir -p "$out"
  export PYTHONUNBUFFERED=1
  step "pipeline check" timeout 120 python3 test/GPU/pipeline/check_pipeline.py \
    --dir "$out_dir/pipeline" > "$out/pipeline.log" 2>&1
  step "pipeline check, entries that wait" timeout 120 \
    python3 test/GPU/pipeline/check_pipeline.py --dir "$out_dir/pipeline" --sync \
    > "$out/pipeline-sync.log" 2>&1
  step "gemm check" timeout 300 python3 bench/Gemm/bench.py --dir "$out_dir/gemm" \
    --check-only > "$out/gemm-check.log" 2>&1
  step "pipeline memcheck" timeout 200 compute-sanitizer --tool memcheck \
    python3 test/GPU/pipeline/check_pipeline.py --dir "$out_dir/pipeline" \
    --only ws1_c2_guarded_s2 > "$out/pipeline-memcheck.log" 2>&1
  step "gemm memcheck" timeout 300 compute-sanitizer --tool memcheck \
    python3 bench/Gemm/bench.py --dir "$out_dir/gemm-single" \
    --check-only --small > "$out/gemm-memcheck.log" 2>&1
  grep -h "FAIL\|ERROR SUMMARY\|SUMMARY" "$out"/*.log | head -40 || true
}

case "${1:-}" in
  build) build ;;
  run) run "${2:?output folder}" ;;
  *) echo "usage: $0 build | run OUT" >&2; exit 2 ;;
esac
