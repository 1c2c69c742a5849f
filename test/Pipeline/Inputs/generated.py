"""The module gen_gemm.py writes, for the evaluators that run what it
writes (chooser_pick.py, combine_order.py, epilogue_coverage.py,
zero_a_rows.py)."""

import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")


def gemm_module(flags):
    """gen_gemm.py's output for `flags`: its text, and its lines stripped."""
    text = subprocess.run(
        [sys.executable, os.path.join(ROOT, "examples", "gemm", "gen_gemm.py")]
        + list(flags), check=True, capture_output=True, text=True).stdout
    return text, [l.strip() for l in text.splitlines()]
