#!/usr/bin/env bash
# Reading GTFS-Realtime on the large feed: a message of 2,000 trip updates with 20 stop time
# updates each (40,000), made by scripts/realtime-message.py from the feed's trips, read and stored
# by `transit realtime` (whole process, 5 runs, median), into a copy of bench/large.sqlite. Then
# departures with realtime stored for 20 % of the trips (46,796 trip updates of 20 stop time
# updates, all on 2015-09-08): the same 2,000 seeded `--near` questions on that day in process
# (transit-bench departures: with and without the realtime data applied), and the batch of
# bench/batch/departures-2000.csv moved to that day, with realtime and with --no-realtime.
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

# Realtime for 20 % of the trips.
message20=bench/realtime/20-percent.pb
[ -f "$message20" ] || python3 scripts/realtime-message.py "$db" 46796 20 1441699200 "$message20"
cp "$db" bench/realtime/twenty.sqlite
"$bin/transit" realtime "$message20" --db bench/realtime/twenty.sqlite
"$bin/transit-bench" departures bench/realtime/twenty.sqlite 2000 42
[ -f bench/batch/departures-2000.csv ] || python3 scripts/batch-questions.py departures "$db" 2000 42 > bench/batch/departures-2000.csv
sed -E 's/,[0-9]{4}-[0-9]{2}-[0-9]{2} /,2015-09-08 /' bench/batch/departures-2000.csv > bench/realtime/departures-2015-09-08.csv
python3 - "$bin/transit" bench/realtime/departures-2015-09-08.csv bench/realtime/twenty.sqlite <<'PY'
import statistics, subprocess, sys, time
binary, questions, db = sys.argv[1:4]
def run(extra):
    start = time.perf_counter()
    subprocess.run([binary, "departures", "--input", questions, "--db", db, "--format", "csv"] + extra, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start
pairs = [(run(["--max-age", "99999999"]), run(["--no-realtime"])) for _ in range(7)]
ratio = statistics.median(a / b for a, b in pairs)
print(f"batch of 2,000 --near questions on 2015-09-08: realtime {statistics.median(a for a, _ in pairs):.2f} s, "
      f"--no-realtime {statistics.median(b for _, b in pairs):.2f} s, ratio {ratio:.2f} (median of 7 pairs)")
PY
rm -f bench/realtime/twenty.sqlite
