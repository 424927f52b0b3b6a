#!/usr/bin/env bash
# Reading GTFS-Realtime on the large feed: a message of 2,000 trip updates with 20 stop time
# updates each (40,000), made by scripts/realtime-message.py from the feed's trips, read and stored
# by `transit realtime` (whole process, 5 runs, median), into a copy of bench/large.sqlite.
#
#   scripts/bench-realtime.sh   (needs a release build; makes the large feed's database if missing)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.build/release
db=bench/large.sqlite
[ -x "$bin/transit-realtime" ] || { echo "build first: make build" >&2; exit 1; }
[ -f "$db" ] || scripts/bench-queries.sh nearby > /dev/null
"$bin/transit" feeds upgrade --db "$db" > /dev/null
mkdir -p bench/realtime
message=bench/realtime/2000-trip-updates.pb
[ -f "$message" ] || python3 scripts/realtime-message.py "$db" 2000 20 1441699200 "$message"
cp "$db" bench/realtime/large.sqlite
python3 - "$bin/transit" "$message" bench/realtime/large.sqlite <<'PY'
import statistics, subprocess, sys, time
binary, message, db = sys.argv[1:4]
times = []
for _ in range(6):
    start = time.perf_counter()
    run = subprocess.run([binary, "realtime", message, "--db", db], capture_output=True, text=True, check=True)
    times.append(time.perf_counter() - start)
# The first read also creates the realtime tables: reported apart.
print(run.stdout.strip())
print(f"transit realtime, 2,000 trip updates / 40,000 stop time updates: first read {times[0]:.2f} s, then median {statistics.median(times[1:]):.2f} s (5 runs)")
PY
rm -f bench/realtime/large.sqlite
