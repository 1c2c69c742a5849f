"""The arith ops the schedule evaluators (stream_k_schedule.py,
grouped_schedule.py) run on index values, as unsigned 64-bit integers."""

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
}
PREDICATES = {"ult": int.__lt__, "ule": int.__le__, "ugt": int.__gt__,
              "uge": int.__ge__, "eq": int.__eq__, "ne": int.__ne__}
