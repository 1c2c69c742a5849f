#!/usr/bin/env bash
# The GPU check of the consumers waiting for each k-step's wgmmas
# (gen_gemm.py --in-flight 0, the pipeline's in_flight = 0: each stage is
# released a k-step sooner, so the producer loads one stage further ahead,
# as cuBLAS's main loop waits; round 92): the clustered bf16 chooser and
# the FP8 chooser as the targets build them and with --in-flight 0, over
# bench.py's and bench_fp8.py's suites, cuBLAS and cuBLASLt alternating,
# exact on the check shapes first.
#
#   bench/in-flight.sh build     # CPU machine with the MLIR build: .gpu/in-flight/
#   bench/in-flight.sh gemm OUT  # GPU machine, from .gpu/in-flight/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/in-flight
ATTENTION=""
BF16=${TARGET_GEMM%%;*}
FP8=${TARGET_GEMM#*;}
GEMM="$BF16;${BF16%%:*}_if0:${BF16#*:} --in-flight 0;$FP8;${FP8%%:*}_if0:${FP8#*:} --in-flight 0"

run_gemm() {
  round_gemm "${1:?output folder}" "$out_dir" "" ""
}

round_main "$@"
