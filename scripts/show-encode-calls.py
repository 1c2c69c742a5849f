#!/usr/bin/env python3
"""Prints each host-side tensor-map encode call of an MLIR file (the output of
--tile-tensor-map-abi) with its operands resolved to their constant values:

    call tileTensorMapGetCached(data_type=6 (f16), rank=3, base=%arg0 + 0 B,
         global_dim=[64, 8, 4], global_strides=[512, 128], box_dim=[64, 8, 4],
         element_strides=[1, 1, 1], interleave=0, swizzle=3, l2_promotion=2,
         oob_fill=0)
"""
import re
import sys

NAMES = ["data_type", "rank", "base", "global_dim", "global_strides", "box_dim",
         "element_strides", "interleave", "swizzle", "l2_promotion", "oob_fill"]


def main():
    text = open(sys.argv[1]).read() if len(sys.argv) > 1 else sys.stdin.read()
    consts = dict(re.findall(r"(%[\w]+) = arith\.constant (-?\d+) : i\d+", text))
    arrays = {}
    for name, body in re.findall(r"llvm\.mlir\.global private constant @(\w+)\(dense<([^>]*)>", text):
        arrays[name] = body if body.startswith("[") else None
    addr = dict(re.findall(r"(%[\w]+) = llvm\.mlir\.addressof @(\w+)", text))
    for m in re.finditer(r"call @tileTensorMapGetCached\(([^)]*)\)(?: \{tile\.tensor_map = (#tile\.tensor_map<.*?>>)\})?", text):
        ops = [o.strip() for o in m.group(1).split(",")]
        record = m.group(2) or ""
        dtype = re.search(r'#tile\.tiled_map<"(\w+)"', record)
        offset = re.search(r", base = (-?\d+),", record)
        buffer = re.search(r"global_arg = (\d+)", record)
        parts = []
        for name, op in zip(NAMES, ops):
            if name == "base":
                # The launch's kernel argument that holds the global buffer.
                parts.append("base=kernel arg %s + %s B" % (
                    buffer.group(1) if buffer else "?", offset.group(1) if offset else "?"))
            elif op in addr:
                g = addr[op]
                vals = arrays.get(g)
                if vals is None:  # a splat: dense<1> : tensor<3xi32>
                    splat = re.search(r"@%s\(dense<(-?\d+)> : tensor<(\d+)x" % g, text)
                    vals = "[" + ", ".join([splat.group(1)] * int(splat.group(2))) + "]"
                parts.append("%s=%s" % (name, vals))
            else:
                v = consts.get(op, op)
                if name == "data_type" and dtype:
                    v = "%s (%s)" % (v, dtype.group(1))
                parts.append("%s=%s" % (name, v))
        print("call tileTensorMapGetCached(" + ", ".join(parts) + ")")


if __name__ == "__main__":
    main()
