#!/usr/bin/env bash
# Batch questions (`--input`) on the large feed: seeded random questions, whole process, one core,
# output to /dev/null; questions per second and peak RSS, at 2,000 and 20,000 rows (memory must
# not grow with the rows).
#
#   scripts/bench-batch.sh [nearby|departures|search ...]   (default: all; needs a release build)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.build/release
db=bench/large.sqlite
feed=bench/large.zip
kinds=("$@")
[ ${#kinds[@]} -gt 0 ] || kinds=(nearby departures search)

[ -x "$bin/transit" ] || { echo "build first: make build" >&2; exit 1; }
mkdir -p bench/batch
if [ ! -f "$feed" ]; then
  echo "making $feed (vilnius.zip tiled 10 times)…" >&2
  python3 ../shared/feeds/make-large-feed.py ../shared/feeds/vilnius.zip 10 "$feed"
fi
[ -f "$db" ] || "$bin/transit" import "$feed" --db "$db" --quiet
# A database of an earlier schema is upgraded in place (or, if it cannot be, imported again).
"$bin/transit" feeds upgrade --db "$db" > /dev/null 2>&1 || { rm -f "$db"; "$bin/transit" import "$feed" --db "$db" --quiet; }

for kind in "${kinds[@]}"; do
  for rows in 2000 20000; do
    questions=bench/batch/$kind-$rows.csv
    [ -f "$questions" ] || python3 scripts/batch-questions.py "$kind" "$db" "$rows" 42 > "$questions"
    # Best of 3 runs (taskset: one core); ru_maxrss of the child is its peak resident set.
    python3 - "$kind" "$rows" "$questions" "$bin/transit" "$db" <<'PY'
import os, resource, subprocess, sys, time
kind, rows, questions, binary, db = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
command = ["taskset", "-c", "0", binary, kind, "--input", questions, "--format", "csv", "--db", db]
best = None
for _ in range(3):
    start = time.perf_counter()
    with open(os.devnull, "w") as null:
        status = subprocess.run(command, stdout=null, stderr=subprocess.PIPE).returncode
    elapsed = time.perf_counter() - start
    if status != 0:
        sys.exit(f"{' '.join(command)} exited with {status}")
    best = elapsed if best is None else min(best, elapsed)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(f"{kind:<10} {rows:>6} questions: {best:6.2f} s, {rows / best:8,.0f} questions/s, peak RSS {peak:.0f} MB")
if rows == 2000:
    # The reference: one process per question, as a script calling the CLI would run, on the first 200.
    import csv
    with open(questions) as f:
        sample = list(csv.DictReader(f))[:200]
    def arguments(row):
        if kind == "nearby": return [row["lat"], row["lon"]]
        if kind == "search": return [row["text"]]
        return ["--near", row["lat"] + "," + row["lon"], "--radius", row["radius"], "--at", row["at"]]
    start = time.perf_counter()
    for row in sample:
        subprocess.run(["taskset", "-c", "0", binary, kind] + arguments(row) + ["--format", "csv", "--db", db],
                       stdout=subprocess.DEVNULL, check=True)
    single = (time.perf_counter() - start) / len(sample)
    print(f"{kind:<10} one process per question (200 of them): {1 / single:8,.0f} questions/s; batch is {single * rows / best:.0f}x faster")
PY
  done
done
