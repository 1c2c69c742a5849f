#!/usr/bin/env bash
# The GPU check of O's lazy rescale (gen_attention.py --lazy-rescale: a
# row's reference maximum moves only where a row of the warp grew past it
# by more than 2^8 in the exponentials, and O's rescale is skipped where
# the consumer warpgroup's did not; the consume body emitted with and
# without the rescale): every kernel exact on the check shapes, among them
# the ramp inputs whose rows' maxima keep growing (bench.py
# CHECK_RAMP_SHAPES), then side by side in alternating places (a default,
# b lazy, c default, d lazy) at head_dim 128 causal and not, the lazy
# kernel with --turn-wait issue (the form whose main kernel spills
# nothing) once, and head_dim 64 once each, cuDNN alternating; then
# compute-sanitizer memcheck and synccheck over the head_dim 128 lazy
# kernel's small shapes.
#
#   bench/lazy-rescale.sh build          # CPU machine with the MLIR build: .gpu/lazy-rescale/
#   bench/lazy-rescale.sh attention OUT  # GPU machine, from .gpu/lazy-rescale/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/lazy-rescale
ATTENTION=$(round_forms default lazy --lazy-rescale)
for suffix in "" _causal; do
  ATTENTION+=";${suffix:+--causal} --lazy-rescale --turn-wait issue --name attention_d128${suffix}_e_lazy_late_turn"
done
GEMM=""

run_attention() {
  round_side_by_side "${1:-}" "$out_dir" d128_b_lazy lazy
}

round_main "$@"
