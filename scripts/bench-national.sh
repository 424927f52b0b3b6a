#!/usr/bin/env bash
# National feed: vilnius.zip grown into 100 cities on a grid joined by intercity rail
# (../shared/feeds/make-national-feed.py; 129,300 stops, 44.5 M stop times), on Tuesday 2015-09-15:
#   1. bench/national.zip, made when missing (about 6 minutes on one core);
#   2. `transit import` of it (wall time and peak RSS by /usr/bin/time, the file's size) against the
#      sqlite3 shell's bare .import of the same stops.txt and stop_times.txt with two indexes (as
#      scripts/bench-import.sh), in the same run: only when bench/national.sqlite is missing, or
#      with --reimport (the import goes to a temporary file, moved into place when it succeeds);
#   3. the questions: 60 seeded pairs (seed 42) of boarding stops in two different cities (stop ids
#      "k:…", k the city), at 08:00, written to bench/national-questions.csv (from,to,at);
#   4. one whole `transit plan FROM TO --at T --max-rides 8 --format json` process a pair: wall time
#      and peak RSS (/usr/bin/time), median, p90 and max, and how many pairs had a journey;
#   5. the same pairs in one `transit plan --input … --max-rides 8` process: wall / pairs, peak RSS;
#   6. `transit reach` 60 minutes from city 0's busiest stop, and one pair's `plan --arrive-by`
#      against `plan --at` (whole processes, hyperfine when installed, else /usr/bin/time);
#   7. `nearby` and `departures --near` whole processes on the national file against the same on
#      the ×10 file (bench/large.sqlite, made when missing), in turn (hyperfine), and their ratios;
#   8. nigiri (pip install pynigiri) on the same pairs: its own 500 m footpaths (max_transfers 7),
#      then transit's walking rule; transit's batch time a question against nigiri's median;
#   9. `transit serve` on the national file (wrk, unless SERVE=no): departures at 64 connections,
#      the server's memory over 1,000,000 requests (scripts/bench-serve.sh with DB=), and
#      /api/plan for each pair one at a time (p50, p90, max).
# About 25 minutes with the feed and the import to make, 15 without (5 with SERVE=no).
#
#   scripts/bench-national.sh [--reimport]      (needs a release build: make build)
# Environment: TRANSIT_BIN, the folder of the transit binary (default .build/release);
# QUESTIONS, the number of pairs (default 60; the first N of the 60 are the same pairs).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${TRANSIT_BIN:-.build/release}
count=${QUESTIONS:-60}
feed=bench/national.zip
db=bench/national.sqlite
questions=bench/national-questions.csv
large_feed=bench/large.zip
large_db=bench/large.sqlite
shared=../shared/feeds
day=2015-09-15
at="$day 08:00"
transit=$bin/transit

reimport=no
for arg in "$@"; do
  case "$arg" in
    --reimport) reimport=yes ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "usage: scripts/bench-national.sh [--reimport]" >&2; exit 64 ;;
  esac
done
[ -x "$transit" ] || { echo "no $transit: build first (make build), or set TRANSIT_BIN to the folder of a release build" >&2; exit 1; }
for tool in sqlite3 python3 unzip; do
  command -v "$tool" > /dev/null || { echo "$tool is not installed: it is needed here" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "/usr/bin/time is not installed (apt-get install time)" >&2; exit 1; }
[[ "$count" =~ ^[1-9][0-9]*$ ]] || { echo "QUESTIONS must be a positive number, not '$count'" >&2; exit 64; }
hyperfine=yes
command -v hyperfine > /dev/null || hyperfine=no

mkdir -p bench
# Scratch space beside the database (the unzipped stop_times.txt is 1.8 GB, the shell's load 3 GB).
work=$(mktemp -d bench/national-work.XXXXXX)
trap 'rm -rf "$work" bench/national.zip.partial' EXIT

# py CODE ARGS…: one python3 snippet (statistics over files the steps below write).
py() { local code=$1; shift; python3 -c "$code" "$@"; }
# The median of stdin's numbers, one a line.
median() { py 'import statistics, sys; print(statistics.median(float(x) for x in sys.stdin if x.strip()))'; }
# hf ARGS…: hyperfine -N, quiet, exporting to $work/hyperfine.json; its warnings (outliers on a busy
# machine) are shown only when it fails.
hf() {
  hyperfine -N --style none --export-json "$work/hyperfine.json" "$@" > /dev/null 2> "$work/hyperfine.err" \
    || { cat "$work/hyperfine.err" >&2; return 1; }
}
# hyperfine_median OUT.json: the median wall time, in seconds, of each command hyperfine ran, one a line.
hyperfine_median() { py 'import json, sys; [print(r["median"]) for r in json.load(open(sys.argv[1]))["results"]]' "$1"; }
# whole RUNS COMMAND…: a command line's median wall time in seconds over RUNS whole processes, one
# line each (hyperfine -N, 2 warm-up runs; else /usr/bin/time, whose 10 ms steps suit processes
# that take 100 ms or more). Commands are strings, quoted as for a shell.
whole() {
  local runs=$1; shift
  if [ "$hyperfine" = yes ]; then
    hf --warmup 2 --runs "$runs" "$@"
    hyperfine_median "$work/hyperfine.json"
  else
    local command
    for command in "$@"; do
      for _ in $(seq "$runs"); do
        eval "/usr/bin/time -f %e -o '$work/time' $command" > /dev/null
        tail -n 1 "$work/time"
      done | median
    done
  fi
}
# rss COMMAND…: the peak RSS, in KB, of one run.
rss() { /usr/bin/time -f %M -o "$work/rss" "$@" > /dev/null; tail -n 1 "$work/rss"; }

# 1. The feed.
if [ ! -f "$feed" ]; then
  echo "making $feed (vilnius.zip grown into 100 cities joined by rail; about 6 minutes)…" >&2
  python3 "$shared/make-national-feed.py" "$shared/vilnius.zip" 100 bench/national.zip.partial
  mv bench/national.zip.partial "$feed"
fi

# 2. The import, against the sqlite3 shell's load of the same stops and stop times.
echo "== import of $feed"
if [ "$reimport" = yes ] || [ ! -f "$db" ]; then
  echo "importing $feed, then loading its stops.txt and stop_times.txt with the sqlite3 shell (several minutes)…" >&2
  /usr/bin/time -f '%e %M' -o "$work/import.time" "$transit" import "$feed" --db "$work/national.sqlite" --quiet
  rm -f "$db" "$db-wal" "$db-shm"
  mv "$work/national.sqlite" "$db"
  read -r import_s import_kb < <(tail -n 1 "$work/import.time")

  mkdir "$work/feed"
  unzip -q -o "$feed" stops.txt stop_times.txt -d "$work/feed"
  stop_times=$(($(wc -l < "$work/feed/stop_times.txt") - 1))
  cat > "$work/floor.sql" <<SQL
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
BEGIN;
.mode csv
.import $work/feed/stops.txt stops
.import $work/feed/stop_times.txt stop_times
CREATE INDEX stops_by_location ON stops (stop_lon, stop_lat);
CREATE INDEX stop_times_by_stop_departure ON stop_times (stop_id, departure_time);
COMMIT;
SQL
  /usr/bin/time -f '%e' -o "$work/floor.time" sqlite3 "$work/floor.sqlite" < "$work/floor.sql" > /dev/null
  floor_s=$(tail -n 1 "$work/floor.time")
  rm -rf "$work/feed" "$work/floor.sqlite"

  printf '  stop_times.txt            %s rows\n' "$(echo "$stop_times" | sed ':a; s/\B[0-9]\{3\}\>/,&/; ta')"
  printf '  transit import            %7.1f s   peak RSS %d MiB\n' "$import_s" "$((import_kb / 1024))"
  printf '  sqlite3 .import + indexes %7.1f s   (stops.txt + stop_times.txt only, text times)\n' "$floor_s"
  awk -v a="$import_s" -v b="$floor_s" 'BEGIN { printf "  ratio transit / sqlite3   %7.2f\n", a / b }'
else
  echo "  $db exists: the import is not timed (scripts/bench-national.sh --reimport times it)"
fi
# A database of an earlier schema, or without the planner's timetable, is brought up to date.
"$transit" feeds upgrade --db "$db" > /dev/null
awk -v b="$(stat -L -c %s "$db")" 'BEGIN { printf "  file                      %7.2f GB\n", b / 1e9 }'

# 3. The questions: pairs of boarding stops in two different cities.
sqlite3 -csv "$db" "SELECT s.stop_id FROM stops s WHERE s.location_type = 0 AND EXISTS (SELECT 1 FROM stop_times_1 st WHERE st.stop = s.id AND st.pickup_type IS NOT 1) ORDER BY s.id" \
  | py '
import csv, random, sys
count, at = int(sys.argv[1]), sys.argv[2]
stops = [row[0] for row in csv.reader(sys.stdin) if row]
city = lambda stop: stop.split(":")[0]  # noqa: E731
rng = random.Random(42)
out = csv.writer(sys.stdout, lineterminator="\n")
out.writerow(["from", "to", "at"])
for _ in range(count):
    a = rng.choice(stops)
    b = rng.choice(stops)
    while city(b) == city(a):
        b = rng.choice(stops)
    out.writerow([a, b, at])' "$count" "$at" > "$questions"
echo
echo "== plan across the country: $count pairs of stops in two different cities ($questions), $at, --max-rides 8"

# 4. One whole process a pair.
mkdir "$work/plan"
i=0
while IFS=, read -r from to when; do
  i=$((i + 1))
  [ $((i % 10)) -ne 1 ] || echo "  whole processes: pair $i of $count…" >&2
  status=0
  /usr/bin/time -f '%e %M' -o "$work/plan/$i.time" \
    "$transit" plan "$from" "$to" --at "$when" --max-rides 8 --format json --db "$db" > "$work/plan/$i.json" < /dev/null || status=$?
  [ "$status" -eq 0 ] || echo "  pair $i ($from → $to): transit plan exited with status $status" >&2
done < <(tail -n +2 "$questions")
py '
import json, math, statistics, sys
work, count = sys.argv[1], int(sys.argv[2])
def percentile(values, fraction):  # nearest rank, as scripts/bench-plan-nigiri.py
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]
walls, rsss, found = [], [], 0
for i in range(1, count + 1):
    wall, kb = open(f"{work}/plan/{i}.time").read().split("\n")[-2].split()
    walls.append(float(wall)); rsss.append(int(kb) / 1024)
    try:
        found += bool(json.load(open(f"{work}/plan/{i}.json")).get("journeys"))
    except ValueError:
        pass
print(f"  one process a pair        wall median {statistics.median(walls):.2f} s, p90 {percentile(walls, 0.9):.2f} s, max {max(walls):.2f} s")
print(f"                            peak RSS median {statistics.median(rsss):.0f} MiB, p90 {percentile(rsss, 0.9):.0f} MiB, max {max(rsss):.0f} MiB")
print(f"                            {found} of {count} pairs with a journey")' "$work" "$count"

# 5. The same pairs in one process.
status=0
/usr/bin/time -f '%e %M' -o "$work/batch.time" \
  "$transit" plan --input "$questions" --max-rides 8 --format json --db "$db" > "$work/batch.json" 2> "$work/batch.err" || status=$?
[ "$status" -eq 0 ] || { echo "  transit plan --input exited with status $status:" >&2; cat "$work/batch.err" >&2; }
read -r batch_s batch_kb < <(tail -n 1 "$work/batch.time")
batch_per_question=$(awk -v s="$batch_s" -v n="$count" 'BEGIN { printf "%.4f", s / n }')
py '
import json, sys
work, count, wall, kb, each = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
answers = {record["input"]: record.get("journeys") for record in json.load(open(f"{work}/batch.json"))}
found = sum(1 for journeys in answers.values() if journeys)
def alone(i):
    try:
        return json.load(open(f"{work}/plan/{i}.json")).get("journeys")
    except ValueError:
        return None
same = sum(1 for i in range(1, count + 1) if answers.get(i) == alone(i))
print(f"  all in one --input run    {wall:.2f} s, {each * 1000:.0f} ms a question, peak RSS {kb / 1024:.0f} MiB")
print(f"                            {found} of {count} with a journey; {same} of {count} answers the same as the whole processes\x27")' \
  "$work" "$count" "$batch_s" "$batch_kb" "$batch_per_question"

# 6. reach from city 0's busiest stop; plan --arrive-by against --at.
echo
centre=$(sqlite3 "$db" "SELECT s.stop_id FROM stops s WHERE s.stop_id >= '0:' AND s.stop_id < '0;' ORDER BY (SELECT count(*) FROM stop_times_1 st WHERE st.stop = s.id) DESC, s.id LIMIT 1")
[ "$hyperfine" = yes ] && how="hyperfine -N, median of 10 runs" || how="/usr/bin/time, median of 10 runs; hyperfine is not installed"
echo "== whole processes ($how)"
reach_s=$(whole 10 "$transit reach $centre --at '$at' --within 60 --format json --db $db")
reach_kb=$(rss "$transit" reach "$centre" --at "$at" --within 60 --format json --db "$db")
reach_stops=$("$transit" reach "$centre" --at "$at" --within 60 --format json --db "$db" | py 'import json, sys; d = json.load(sys.stdin); print(len(d["stops"] if isinstance(d, dict) else d))' 2> /dev/null || echo "?")
awk -v s="$reach_s" -v kb="$reach_kb" -v c="$centre" -v n="$reach_stops" 'BEGIN {
  printf "  reach %s (city 0'\''s busiest stop) --within 60: %.0f ms, peak RSS %.0f MiB, %s stops\n", c, s * 1000, kb / 1024, n }'

# The first pair with a journey, --at 08:00 against --arrive-by the latest arrival of its answers.
pair=$(py '
import datetime as dt, json, sys
work, count = sys.argv[1], int(sys.argv[2])
for i in range(1, count + 1):
    try:
        journeys = json.load(open(f"{work}/plan/{i}.json")).get("journeys")
    except ValueError:
        continue
    if journeys:
        latest = max(dt.datetime.fromisoformat(j["arrival"]) for j in journeys)
        if latest.second or latest.microsecond:
            latest = latest.replace(second=0, microsecond=0) + dt.timedelta(minutes=1)
        print(i, latest.strftime("%Y-%m-%d %H:%M"))
        break' "$work" "$count")
if [ -n "$pair" ]; then
  read -r row by <<< "$pair"
  IFS=, read -r from to _ < <(sed -n "$((row + 1))p" "$questions")
  read -r at_s by_s < <(whole 10 "$transit plan $from $to --at '$at' --max-rides 8 --format json --db $db" \
                               "$transit plan $from $to --arrive-by '$by' --max-rides 8 --format json --db $db" | paste -s -d ' ')
  at_kb=$(rss "$transit" plan "$from" "$to" --at "$at" --max-rides 8 --format json --db "$db")
  by_kb=$(rss "$transit" plan "$from" "$to" --arrive-by "$by" --max-rides 8 --format json --db "$db")
  echo "  plan $from $to --max-rides 8 (pair $row; --arrive-by the latest arrival of its --at answers):"
  awk -v a="$at_s" -v b="$by_s" -v ak="$at_kb" -v bk="$by_kb" -v at="$at" -v by="$by" 'BEGIN {
    printf "    --at '\''%s'\''          %5.0f ms, peak RSS %.0f MiB\n", at, a * 1000, ak / 1024
    printf "    --arrive-by '\''%s'\''   %5.0f ms, peak RSS %.0f MiB\n", by, b * 1000, bk / 1024
    printf "    ratio --arrive-by / --at     %5.2f\n", b / a }'
else
  echo "  plan --arrive-by against --at: skipped, no pair had a journey"
fi

# 7. nearby and departures --near, national against ×10, in turn.
echo
if [ ! -f "$large_feed" ]; then
  echo "making $large_feed (vilnius.zip tiled 10 times)…" >&2
  python3 "$shared/make-large-feed.py" "$shared/vilnius.zip" 10 "$large_feed"
fi
[ -f "$large_db" ] || "$transit" import "$large_feed" --db "$large_db" --quiet
"$transit" feeds upgrade --db "$large_db" > /dev/null
if [ "$hyperfine" = yes ]; then
  rounds=6
  echo "== national against ×10 ($large_db), the same point of city 0 (hyperfine -N, $rounds rounds of 10 runs each in turn)"
  for kind in nearby departures; do
    case "$kind" in
      nearby) label="nearby 54.687 25.28 --radius 800"; query="nearby 54.687 25.28 --radius 800 --format json" ;;
      departures) label="departures --near 54.687,25.28 --radius 500"
                  query="departures --near 54.687,25.28 --radius 500 --at '$at' --format json" ;;
    esac
    : > "$work/in-turn"
    for round in $(seq "$rounds"); do
      national="$transit $query --db $db" large="$transit $query --db $large_db"
      if [ $((round % 2)) -eq 1 ]; then
        hf --warmup 3 --runs 10 "$national" "$large"
        hyperfine_median "$work/hyperfine.json" | paste -s -d ' ' >> "$work/in-turn"
      else
        hf --warmup 3 --runs 10 "$large" "$national"
        hyperfine_median "$work/hyperfine.json" | paste -s -d ' ' | awk '{ print $2, $1 }' >> "$work/in-turn"
      fi
    done
    py '
import statistics, sys
label, path = sys.argv[1], sys.argv[2]
rounds = [tuple(map(float, line.split())) for line in open(path) if line.strip()]
national = statistics.median(a for a, _ in rounds)
large = statistics.median(b for _, b in rounds)
ratio = statistics.median(a / b for a, b in rounds)
print(f"  {label:45} national {national * 1000:.1f} ms, ×10 {large * 1000:.1f} ms, ratio {ratio:.2f}"
      f" ({min(a / b for a, b in rounds):.2f}–{max(a / b for a, b in rounds):.2f} over {len(rounds)} rounds)")' "$label" "$work/in-turn"
  done
else
  echo "hyperfine is not installed (apt-get install hyperfine): nearby and departures against ×10 skipped"
fi

# 8. nigiri on the same pairs.
echo
if python3 -c "import pynigiri" 2> /dev/null; then
  echo "== nigiri (pynigiri) on the same $count pairs"
  python3 scripts/bench-plan-nigiri.py "$feed" "$day" --questions "$questions" --nigiri-footpaths --walk 500 \
    --max-rides 8 --json bench/national-nigiri-own-footpaths.json
  python3 scripts/bench-plan-nigiri.py "$feed" "$day" --questions "$questions" --walk 500 \
    --max-rides 8 --json bench/national-nigiri-transit-walks.json
  for run in own-footpaths:"its own 500 m footpaths" transit-walks:"transit's walking rule"; do
    py '
import json, statistics, sys
each, path, what = float(sys.argv[1]), sys.argv[2], sys.argv[3]
times = [q["ms"] for q in json.load(open(path))["questions"] if "ms" in q]
nigiri = statistics.median(times)
print(f"  transit --input a question / nigiri median, {what}: {each * 1000:.0f} ms / {nigiri:.1f} ms = {each * 1000 / nigiri:.2f}")' \
      "$batch_per_question" "bench/national-nigiri-${run%%:*}.json" "${run#*:}"
  done
else
  echo "pynigiri is not installed (pip install pynigiri): the side-by-side run with nigiri is skipped"
fi

# 9. transit serve on the national file: departures at 64 connections and the server's memory over
# 1,000,000 requests (scripts/bench-serve.sh on this database, without its re-imports), then
# /api/plan across the country, the pairs one at a time over one connection.
echo
if [ "${SERVE:-yes}" = no ] || ! command -v wrk > /dev/null || ! command -v curl > /dev/null; then
  echo "transit serve on the national file: skipped (SERVE=no, or wrk or curl is not installed: apt-get install wrk curl)"
else
  echo "== transit serve on the national file"
  DB="$db" FEED="$feed" SWAP=no scripts/bench-serve.sh | sed 's/^/  /'
  port=${PORT:-18080}
  "$bin/transit" serve --db "$db" --port "$port" --time-limit 10000 --quiet 2> "$work/serve.log" &
  server=$!
  for _ in $(seq 200); do grep -q "http://" "$work/serve.log" 2> /dev/null && break; sleep 0.05; done
  tail -n +2 "$questions" | while IFS=, read -r from to when; do
    curl -s -o /dev/null -w '%{time_total}\n' -G "http://127.0.0.1:$port/api/plan" \
      --data-urlencode "from=$from" --data-urlencode "to=$to" --data-urlencode "at=$when" --data-urlencode "max_rides=8"
  done > "$work/api-plan.times"
  kill "$server"; wait "$server" 2> /dev/null || true
  py '
import statistics, sys
times = sorted(float(line) * 1000 for line in open(sys.argv[1]) if line.strip())
print(f"  /api/plan across the country, {len(times)} pairs one at a time: p50 {statistics.median(times):.0f} ms,"
      f" p90 {times[int(len(times) * 0.9) - 1]:.0f} ms, max {times[-1]:.0f} ms")' "$work/api-plan.times"
fi
