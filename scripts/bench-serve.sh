#!/usr/bin/env bash
# transit serve under load on the large feed (vilnius.zip tiled 10 times), with wrk (Debian's
# package), against the command line's own batch run of the same questions in the same run:
#   1. departures (near= a point, radius 500 m, within 20 min), nearby (500 m) and search: 20,000
#      seeded questions each (scripts/batch-questions.py); the batch (`--input`, one process)
#      answers them all, then wrk (2 threads, 64 connections, 20 s) asks them over HTTP in turn:
#      requests a second, the ratio to the batch, and the latency percentiles;
#   2. 1,000,000 requests (nearby and departures): the server's memory (its heap, RssAnon, and
#      all it has resident, VmRSS, which counts the database's mapped pages once per connection)
#      after a warm-up and at the end;
#   3. 40 s of departures while the served feed is imported again twice and realtime data is
#      stored every 5 s (on a copy of the database): failed requests must be 0.
# Every answer's status is counted by wrk (non-2xx answers and socket errors are printed).
#
#   scripts/bench-serve.sh        (needs a release build: make build)
#   DB=bench/national.sqlite FEED=bench/national.zip SWAP=no scripts/bench-serve.sh
#                                 (another database; SWAP=no leaves out part 3, whose two imports
#                                 of the national feed take minutes; `scripts/bench-national.sh` does this)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.build/release
db=${DB:-bench/large.sqlite}
feed=${FEED:-bench/large.zip}
swap=${SWAP:-yes}
shared=../shared/feeds
port=${PORT:-18080}
seconds=${SECONDS_PER_RUN:-20}

[ -x "$bin/transit-serve" ] || { echo "build first: make build" >&2; exit 1; }
command -v wrk > /dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
# The questions and the server's log, per database.
work=bench/serve/$(basename "$db" .sqlite)
mkdir -p "$work"
if [ ! -f "$feed" ]; then
  echo "making $feed (vilnius.zip tiled 10 times)…" >&2
  python3 "$shared/make-large-feed.py" "$shared/vilnius.zip" 10 "$feed"
fi
[ -f "$db" ] || "$bin/transit" import "$feed" --db "$db" --quiet
"$bin/transit" feeds upgrade --db "$db" > /dev/null

# The questions, as CSV for the batch and as request targets for wrk.
for kind in departures nearby search; do
  csv=$work/$kind.csv
  [ -f "$csv" ] && [ "$(wc -l < "$csv")" -gt 20000 ] || python3 scripts/batch-questions.py "$kind" "$db" 20000 42 > "$csv"
  python3 - "$kind" "$csv" > "$work/$kind.targets" <<'PY'
import csv, sys, urllib.parse
kind, path = sys.argv[1], sys.argv[2]
for row in csv.DictReader(open(path)):
    if kind == "departures":
        query = {"near": f"{row['lat']},{row['lon']}", "radius": row.get("radius") or "500", "at": row["at"], "within": "20"}
    elif kind == "nearby":
        query = {"lat": row["lat"], "lon": row["lon"], "radius": row.get("radius") or "500"}
    else:
        query = {"text": row["text"]}
    print(f"/api/{kind}?" + urllib.parse.urlencode(query))
PY
done
# wrk's script (scripts/wrk-targets.lua): each thread walks the targets from its own random offset. It has no response()
# callback: wrk counts non-2xx answers and socket errors itself (`failures` below reads them), and
# a callback copies every answer into Lua: wrk, on the same cores as the server, took 27 µs of CPU
# a request with it and 17-22 µs without (nearby, large feed, 2 cores).

serve() {
  "$bin/transit" serve --db "$1" --port "$port" --quiet 2> $work/server.log &
  server=$!
  for _ in $(seq 200); do grep -q "http://" $work/server.log 2> /dev/null && return; sleep 0.05; done
  echo "the server did not start: $(cat $work/server.log)" >&2; exit 1
}
stop() { kill "$server" 2> /dev/null || true; wait "$server" 2> /dev/null || true; }
trap stop EXIT
rss() { awk '/RssAnon/ { anon = $2 / 1024 } /VmRSS/ { all = $2 / 1024 } END { printf "%.1f %.1f", anon, all }' "/proc/$server/status"; }
load() { # TARGETS SECONDS: wrk's summary lines
  wrk -t2 -c64 -d"$2"s --latency -s scripts/wrk-targets.lua "http://127.0.0.1:$port" -- "$work/$1.targets"
}
failures() { # wrk's summary on stdin: its count of non-2xx answers and of socket errors
  awk '/Non-2xx or 3xx responses:/ { failed = $NF }
       /Socket errors:/ { gsub(",", ""); errors = $4 + $6 + $8 + $10 }
       END { printf "failed (non-2xx): %d, socket errors: %d\n", failed, errors }'
}

echo "transit serve on $db ($(nproc) cores), wrk -t2 -c64 -d${seconds}s, $(date -u +%F):"
serve "$db"
batch_rate() { # KIND: the batch's questions a second over the 20,000 questions
  local extra=(); [ "$1" = departures ] && extra=(--within 20)
  local start; start=$(date +%s.%N)
  "$bin/transit" "$1" --input "$work/$1.csv" "${extra[@]}" --format json --db "$db" > /dev/null
  python3 -c "print(20000 / ($(date +%s.%N) - $start))"
}
# The batch runs right before and right after wrk, and the ratio takes their mean: the batch lasts
# a second or less against wrk's 20 s, and the machine's speed drifts by 10-30 % over minutes.
for kind in departures nearby search; do
  before=$(batch_rate "$kind")
  out=$(load "$kind" "$seconds")
  after=$(batch_rate "$kind")
  batch=$(python3 -c "print(($before + $after) / 2)")
  http=$(echo "$out" | awk '/Requests\/sec/ { print $2 }')
  p99=$(echo "$out" | awk '$1 == "99%" { print $2 }')
  p50=$(echo "$out" | awk '$1 == "50%" { print $2 }')
  failed=$(echo "$out" | failures)
  printf "%-10s over HTTP %8.0f/s (p50 %s, p99 %s), batch %8.0f/s (%.0f before, %.0f after): %.2fx the batch; %s\n" \
    "$kind" "$http" "$p50" "$p99" "$batch" "$before" "$after" "$(python3 -c "print($http / $batch)")" "$failed"
done

echo "== memory over 1,000,000 requests (nearby and departures)"
# Warm-up: 200,000 requests of both kinds, so that each connection's caches (up to 128 prepared
# statements, one per departures shape it meets, and SQLite's page cache, 2 MB at most) are as full
# as the questions make them: what grows before that is those caches filling, not a leak.
rounds() { # REQUESTS: nearby and departures in turns of 10 s until that many; prints the heap each turn
  local count=0
  while [ "$count" -lt "$1" ]; do
    for kind in nearby departures; do
      out=$(wrk -t2 -c64 -d10s -s scripts/wrk-targets.lua "http://127.0.0.1:$port" -- "$work/$kind.targets")
      count=$((count + $(echo "$out" | awk '/requests in/ { print $1 }')))
    done
    echo "  $count requests: heap $(rss | cut -d' ' -f1) MB" >&2
  done
  total=$count
}
rounds 200000 2> /dev/null
read -r first first_all <<< "$(rss)"
rounds 1000000
read -r last last_all <<< "$(rss)"
printf "heap (RssAnon): %.1f MB after 200,000 requests of warm-up, %.1f MB after %d more (%+.1f %%); VmRSS %.1f -> %.1f MB\n" \
  "$first" "$last" "$total" "$(python3 -c "print(($last - $first) / $first * 100)")" "$first_all" "$last_all"
stop

[ "$swap" = yes ] || exit 0
echo "== 40 s of departures while the feed is imported again twice and realtime is stored every 5 s"
copy=$work/served.sqlite
cp "$db" "$copy"
python3 scripts/realtime-message.py "$copy" 500 10 "$(date -d '2015-09-15 08:00' +%s)" $work/updates.pb 42 > /dev/null
serve "$copy"
"$bin/transit" realtime $work/updates.pb --every 5 --db "$copy" > /dev/null 2>&1 &
refresher=$!
(sleep 3; for _ in 1 2; do "$bin/transit" import "$feed" --db "$copy" --quiet; done) &
importer=$!
out=$(load departures 40)
wait "$importer"
kill "$refresher"; wait "$refresher" 2> /dev/null || true
echo "$out" | grep -E "requests in|Requests/sec|99%"
echo "$out" | failures
stop
rm -f "$copy" "$copy-wal" "$copy-shm"
