#!/usr/bin/env python3
"""marrow's compressed clips beside ACL 2.1's at a true bound (issue 31).

  MARROW_ACL_RAW_DIR=DIR build/release/tests/marrow_tests --gtest_filter=CompressedClipSet.ExportForTheAclProbe
  tests/compression_vs_acl.py DIR PROBE [--bound 0.001] [--shell 0.1]

The export writes every clip of the shared set (in metres) as the probe's raw input and
DIR/index.tsv with marrow's bytes and measured error at 1 mm at 10 cm. PROBE is the ACL probe
(../shared/tools/acl-probe/README.md). ACL's precision is a target it can overshoot, so it is
lowered until the probe's measured error is under the bound; that size is ACL's at a true bound.
Prints one Markdown table (docs/clip-compression.md).
"""
import argparse
import csv
import re
import subprocess
import sys


def probe(exe, raw, precision, shell):
    out = subprocess.run([exe, raw, "0", "0", repr(precision), repr(shell)], capture_output=True, text=True,
                         timeout=600).stdout
    size = re.search(r"compressed_bytes=(\d+)", out)
    error = re.search(r"max_error=([0-9.eE+-]+) m", out)
    if not size or not error:
        return None
    return int(size.group(1)), float(error.group(1))


def acl_at_true_bound(exe, raw, bound, shell):
    """The first precision from the bound down whose measured error is under the bound."""
    precision = bound
    for _ in range(12):
        result = probe(exe, raw, precision, shell)
        if result is None:
            return None
        size, error = result
        if error <= bound:
            return size, error, precision
        precision *= min(0.95, 0.98 * bound / error)
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dir")
    parser.add_argument("probe")
    parser.add_argument("--bound", type=float, default=0.001)
    parser.add_argument("--shell", type=float, default=0.1)
    args = parser.parse_args()
    rows = list(csv.DictReader(open(f"{args.dir}/index.tsv"), delimiter="\t"))
    print("| clip | joints | samples | marrow bytes | marrow error (mm) | ACL bytes | ACL error (mm) | ACL precision (mm) | marrow / ACL |")
    print("|---|---|---|---|---|---|---|---|---|")
    total_m = total_a = 0
    for row in rows:
        acl = acl_at_true_bound(args.probe, row["raw"], args.bound, args.shell) if int(row["samples"]) > 1 else None
        m = int(row["marrow_bytes"])
        if acl is None:
            print(f"| {row['clip']} | {row['joints']} | {row['samples']} | {m:,} | {float(row['marrow_error']) * 1e3:.2f} | - | - | - | - |")
            continue
        size, error, precision = acl
        total_m += m
        total_a += size
        print(f"| {row['clip']} | {row['joints']} | {row['samples']} | {m:,} | {float(row['marrow_error']) * 1e3:.2f} | "
              f"{size:,} | {error * 1e3:.2f} | {precision * 1e3:.2f} | {m / size:.2f} |", flush=True)
    if total_a:
        print(f"| **all clips with an ACL row** | | | {total_m:,} | | {total_a:,} | | | {total_m / total_a:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
