"""Runs the loop gen_gemm.py --a-rows writes to zero a 64-row kernel's A
rows past R (its index arithmetic as written, with index_arith, for every
thread of the CTA) and prints which 16-byte chunks of the stages it
stores, against the stages' bytes of rows R to 63: each stage's bytes from
R x 128 on (the 128B swizzle keeps a row's chunks in its own 128 bytes).

    zero_a_rows.py FLAGS...   (the generator's flags)"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from generated import gemm_module  # noqa: E402
from index_arith import run  # noqa: E402

FOR = re.compile(r"^scf\.for %za = %tid to %za_count step %za_threads \{$")
STORE = re.compile(r"^vector\.store %za_zero, %za_view\[(%\w+), %c0\]")
CONST = re.compile(r"^%(za_\w+|c0) = arith\.constant (\d+) : index$")
THREADS = re.compile(r"%threads = arith\.constant (\d+) : index")
STAGES = re.compile(r"^!stagesA = memref<(\d+)x(\d+)x(\d+)x(\w+),")


def main():
    text, lines = gemm_module(sys.argv[1:])
    stages, rows, cols, elem = next(STAGES.match(l).groups() for l in lines
                                     if STAGES.match(l))
    stages, rows, cols = int(stages), int(rows), int(cols)
    ebytes = 1 if elem.startswith("f8") else 2
    threads = int(THREADS.search(text).group(1))
    consts = {f"%{m.group(1)}": int(m.group(2))
              for l in lines if (m := CONST.match(l))}
    start = next(i for i, l in enumerate(lines) if FOR.match(l))
    body = []
    for line in lines[start + 1:]:
        if line == "}":
            break
        body.append(line)
    chunk = next(STORE.match(l).group(1) for l in body if STORE.match(l))
    arith = "\n".join(l for l in body if not STORE.match(l))
    stored = []
    for tid in range(threads):
        za = tid
        while za < consts["%za_count"]:
            env = dict(consts, **{"%za": za})
            run(arith, env)
            stored.append(env[chunk])
            za += threads
    first = consts["%za_first"]
    row_chunks = cols * ebytes // 16
    want = {s * rows * row_chunks + r * row_chunks + c
            for s in range(stages) for r in range(first // row_chunks, rows)
            for c in range(row_chunks)}
    twice = len(stored) - len(set(stored))
    print(f"{stages} stages of {rows} x {cols} {elem}, rows from "
          f"{first // row_chunks}: {len(stored)} chunk stores by {threads} "
          f"threads, {twice} twice, "
          f"{'exactly the rows past the box' if set(stored) == want else 'WRONG'}"
          f" ({len(want)} chunks)")


if __name__ == "__main__":
    main()
