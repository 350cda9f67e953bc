#!/usr/bin/env bash
# Peak resident memory of a 1e9-trial run: tallies stream, so it must stay
# flat in the number of trials. Prints max RSS in MB for 1e6 and 1e9 trials.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
sed -e 's/^trials = .*/trials = 1000/' experiments/overwatch_rule_change.toml |
  sed -e '/^\[sweep\]/,$d' > "$dir/spec.toml"
for trials in 1000000 1000000000; do
  python3 - "$dir" "$trials" <<'PY'
import resource, subprocess, sys, time
d, n = sys.argv[1], sys.argv[2]
t = time.time()
subprocess.run(["./target/release/krunch", "run", f"{d}/spec.toml", "--quiet",
                "--trials", n, "--out", f"{d}/out"], check=True)
kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(f"trials={n}: peak RSS {kb/1024:.1f} MB, {time.time()-t:.1f} s")
PY
done
