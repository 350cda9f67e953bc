#!/usr/bin/env python3
"""krunch prob against icepool 2.1.3 on the same exact queries.

Usage: benches/peers.py PYTHON_WITH_ICEPOOL KRUNCH_BINARY

For each query: icepool is timed in fresh interpreters (its caches cold,
import excluded, best of 3); krunch's time is criterion's mean for the same
query (`cargo bench --bench expressions`, run before this script). The two
distributions must agree to 1e-12 in every outcome. Prints a Markdown table
and exits 1 on any disagreement.
"""
import json
import pathlib
import subprocess
import sys

# (criterion id, krunch expression, icepool expression): keep in step with
# QUERIES in benches/expressions.rs.
QUERIES = [
    ("12d6", "12d6", "12 @ icepool.d6"),
    ("4d6_keep_3", "4d6k3", "icepool.d6.highest(4, 3)"),
    ("5d10_keep_3_exploding", "5d10!9k3", "icepool.d10.explode(depth=9).highest(5, 3)"),
    ("10d10_keep_5_exploding", "10d10!9k5", "icepool.d10.explode(depth=9).highest(10, 5)"),
    ("highest_5_of_10d100", "10d100k5", "icepool.d100.highest(10, 5)"),
    ("3d6_vs_3d6", "3d6>3d6", "(3 @ icepool.d6) > (3 @ icepool.d6)"),
]

ICEPOOL_RUN = """
import icepool, json, sys, time
assert icepool.__version__ == "2.1.3", icepool.__version__
t = time.perf_counter()
die = {expr}
denominator = die.denominator()
elapsed = time.perf_counter() - t
outcomes = {{int(o): q / denominator for o, q in die.items() if q}}
print(json.dumps({{"seconds": elapsed, "outcomes": outcomes}}))
"""


def icepool(python, expr):
    runs = []
    for _ in range(3):
        out = subprocess.run([python, "-c", ICEPOOL_RUN.format(expr=expr)],
                             check=True, capture_output=True, text=True).stdout
        runs.append(json.loads(out))
    best = min(r["seconds"] for r in runs)
    return best, {int(k): v for k, v in runs[0]["outcomes"].items()}


def krunch(binary, expr):
    out = subprocess.run([binary, "prob", expr, "--format", "json"],
                         check=True, capture_output=True, text=True).stdout
    return {o["value"]: o["p"] for o in json.loads(out)["outcomes"]}


def criterion_seconds(query_id):
    path = pathlib.Path("target/criterion/expressions") / query_id / "new/estimates.json"
    return json.loads(path.read_text())["mean"]["point_estimate"] / 1e9


def main():
    python, binary = sys.argv[1], sys.argv[2]
    failed = False
    print("| query | krunch | icepool 2.1.3 | speed-up | max abs difference |")
    print("|---|---:|---:|---:|---:|")
    for query_id, ours, theirs in QUERIES:
        ice_time, ice = icepool(python, theirs)
        mine = krunch(binary, ours)
        keys = set(ice) | set(mine)
        diff = max(abs(ice.get(k, 0.0) - mine.get(k, 0.0)) for k in keys)
        t = criterion_seconds(query_id)
        if diff > 1e-12:
            failed = True
        print(f"| `{ours}` | {t * 1e6:.1f} µs | {ice_time * 1e3:.2f} ms | {ice_time / t:.0f}x | {diff:.1e} |")
    if failed:
        print("distributions disagree beyond 1e-12", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
