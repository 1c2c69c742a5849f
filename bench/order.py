"""The order of the contenders in the benchmarks' alternating rounds.

A contender's place in a round moves its time: round 76 timed one attention
kernel at 610 TFLOP/s first in each round and 657 last (8k keys), and
round 77 two copies of one kernel up to 8 % apart (docs/attention.md, "The
first block's P V, not issued"). Each round therefore starts one contender
later than the one before, so that over as many rounds as contenders each
takes every place once."""


def round_order(contenders, r):
    """`contenders` (a list) in round `r`: rotated left by r (mod their
    count), so round 0 keeps the given order."""
    if not contenders:
        return []
    k = r % len(contenders)
    return contenders[k:] + contenders[:k]
