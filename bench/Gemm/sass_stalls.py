#!/usr/bin/env python3
"""Where a kernel's warps wait, from Nsight Compute's source page exported as
CSV (`ncu -i R.ncu-rep --page source --csv --print-source sass`, one block
per profiled kernel; bench/epilogue-stalls.sh writes them): for each kernel,
its runs of consecutive SASS instructions executed equally often (a loop body,
a per-tile or per-CTA stretch) with their share of the warp-state samples,
then the instructions that drew the most samples.

    sass_stalls.py FILE.csv [--top N] [--min-share PERCENT]"""
import argparse
import csv

SAMPLES = "Warp Stall Sampling (All Samples)"
EXECUTED = "Instructions Executed"


def kernels(path):
    """(name, header, rows) per kernel block of the CSV."""
    blocks, current = [], None
    with open(path, newline="") as f:
        for row in csv.reader(f):
            if not row:
                continue
            if row[0] == "Kernel Name":
                current = {"name": row[1], "header": None, "rows": []}
                blocks.append(current)
            elif row[0] == "Address" and current is not None:
                current["header"] = row
            elif current is not None and current["header"]:
                current["rows"].append(row)
    return blocks


def report(block, top, min_share):
    header, rows = block["header"], block["rows"]
    at = {name: i for i, name in enumerate(header)}
    samples = [int(r[at[SAMPLES]] or 0) for r in rows]
    executed = [int(r[at[EXECUTED]] or 0) for r in rows]
    total = sum(samples) or 1
    print(f"{block['name']}: {len(rows)} instructions, {sum(samples)} samples, "
          f"{sum(executed)} warp instructions executed")
    runs = []
    for i, e in enumerate(executed):
        if runs and runs[-1][2] == e:
            runs[-1][1] = i
            runs[-1][3] += samples[i]
        else:
            runs.append([i, i, e, samples[i]])
    for first, last, e, s in runs:
        if 100 * s >= min_share * total:
            print(f"  {first:5d}-{last:5d} executed {e:7d} each: "
                  f"{100 * s / total:5.1f} %  from {rows[first][1].strip()[:48]}")
    print("  most sampled:")
    for i in sorted(range(len(rows)), key=lambda i: -samples[i])[:top]:
        print(f"  {i:5d} {100 * samples[i] / total:5.1f} %  executed "
              f"{executed[i]:7d}  {rows[i][1].strip()[:64]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("--min-share", type=float, default=0.5)
    args = ap.parse_args()
    seen = set()
    for block in kernels(args.csv):
        # ncu prints a kernel's page once per function it holds; one will do.
        key = (block["name"], len(block["rows"]))
        if key in seen:
            continue
        seen.add(key)
        report(block, args.top, args.min_share)
        print()


if __name__ == "__main__":
    main()
