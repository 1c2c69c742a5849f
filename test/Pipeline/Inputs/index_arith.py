"""The arith ops the schedule evaluators (stream_k_schedule.py,
grouped_schedule.py, tile_width_rule.py) run on index values, as unsigned
64-bit integers."""

import re

MASK = (1 << 64) - 1
BINARY = {
    "arith.addi": lambda a, b: (a + b) & MASK,
    "arith.subi": lambda a, b: (a - b) & MASK,
    "arith.muli": lambda a, b: (a * b) & MASK,
    "arith.divui": lambda a, b: a // b,
    "arith.remui": lambda a, b: a % b,
    "arith.maxui": max,
    "arith.minui": min,
    "arith.andi": lambda a, b: a & b,
    "arith.ori": lambda a, b: a | b,
    "arith.xori": lambda a, b: a ^ b,
    "arith.shli": lambda a, b: (a << b) & MASK,
    "arith.shrui": lambda a, b: a >> b,
}
PREDICATES = {"ult": int.__lt__, "ule": int.__le__, "ugt": int.__gt__,
              "uge": int.__ge__, "eq": int.__eq__, "ne": int.__ne__}


def evaluate(op, args, lookup, dims):
    """The value of index op `op` on operands `args` (SSA names, read with
    `lookup`; `dims` maps (buffer, dimension) to a size for memref.dim), or
    None for an op the caller evaluates itself. A buffer's address, for
    memref.extract_aligned_pointer_as_index, is dims[(buffer, "address")]."""
    if op == "arith.constant":
        return int(args[0])
    if op in BINARY:
        return int(BINARY[op](lookup(args[0]), lookup(args[1])))
    if op == "arith.cmpi":
        return int(PREDICATES[args[0]](lookup(args[1]), lookup(args[2])))
    if op == "arith.select":
        return lookup(args[1]) if lookup(args[0]) else lookup(args[2])
    if op == "memref.dim":
        return dims[(args[0], lookup(args[1]))]
    if op == "memref.extract_aligned_pointer_as_index":
        return dims[(args[0].split(" ")[0], "address")]
    return None


LINE = re.compile(r"^\s*(%\w+) = ([\w.]+) (.*?)(?: : [\w<>?x]+)?$")


def run(text, env):
    """Evaluates straight-line `text` (lines `%x = arith.op ...`, comments)
    into `env` (name -> int; a memref.dim reads env["dims"])."""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("//"):
            continue
        m = LINE.match(line)
        if not m:
            raise ValueError(f"unexpected line: {line}")
        name, op, rest = m.groups()
        args = [a.strip() for a in rest.split(",")]
        if op in ("arith.index_castui", "arith.index_cast"):
            # `%x : index to i32` keeps the low 32 bits; back to index, all
            # (the values these evaluators cast are never negative).
            value, types = rest.split(" : ")
            bits = 32 if types.endswith("to i32") else 64
            env[name] = env[value.strip()] & ((1 << bits) - 1)
            continue
        result = evaluate(op, args, lambda n: env[n.split(" ")[0]],
                          env.get("dims"))
        if result is None:
            raise ValueError(f"no rule for {op}")
        env[name] = result
    return env
