#!/usr/bin/env bash
# PostgreSQL benchmark: `transit import` of the large feed into an empty SQLite file and into an
# empty PostgreSQL primary (with a hot standby replaying it), in turn, in one run; the ratio, the
# import helper's peak RSS, and how long the standby takes to replay the import after it commits.
# Then, on that feed, the same questions of the file and of the standby (hyperfine): whole
# processes of nearby, departures and plan, 400 departures questions in one process, and
# `transit serve` answering departures at 64 connections (wrk).
#
#   scripts/bench-postgres.sh [RUNS]      (default 3 runs each; needs a release build and PostgreSQL)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
bin=.build/release/transit
feed=bench/large.zip
shared=../shared/feeds

[ -x "$bin" ] || { echo "build first: make build" >&2; exit 1; }
if [ -z "${TRANSIT_TEST_POSTGRES:-}" ]; then
  command -v psql > /dev/null || { echo "bench-postgres: psql is missing (apt install postgresql)" >&2; exit 1; }
  exec scripts/with-postgres.sh "$0" "$@"
fi
if [ ! -f "$feed" ]; then
  echo "making $feed (vilnius.zip tiled 10 times)…" >&2
  python3 "$shared/make-large-feed.py" "$shared/vilnius.zip" 10 "$feed"
fi

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
primary=$TRANSIT_TEST_POSTGRES
standby=$TRANSIT_TEST_POSTGRES_STANDBY

file_times=() server_times=() replays=()
for run in $(seq "$runs"); do
  rm -f "$work/large.sqlite"
  /usr/bin/time -f "%e %M" -o "$work/file.time" "$bin" import "$feed" --db "$work/large.sqlite" --quiet
  read -r seconds file_kb < "$work/file.time"
  file_times+=("$seconds")

  psql "$primary" -qc 'SET client_min_messages = warning; DROP SCHEMA IF EXISTS transit CASCADE'
  /usr/bin/time -f "%e %M" -o "$work/server.time" "$bin" import "$feed" --db "$primary" --quiet
  read -r seconds server_kb < "$work/server.time"
  server_times+=("$seconds")
  # The standby's replay: from the primary's commit until its replay LSN passes it.
  lsn=$(psql "$primary" -Atc 'SELECT pg_current_wal_lsn()')
  start=$(date +%s.%N)
  until [ "$(psql "$standby" -Atc "SELECT pg_last_wal_replay_lsn() >= '$lsn'::pg_lsn")" = t ]; do :; done
  replays+=("$(awk -v a="$(date +%s.%N)" -v b="$start" 'BEGIN { printf "%.3f", a - b }')")
  echo "run $run: file ${file_times[-1]} s ($((file_kb / 1024)) MiB), PostgreSQL ${server_times[-1]} s ($((server_kb / 1024)) MiB), standby caught up ${replays[-1]} s later" >&2
done

file=$(printf '%s\n' "${file_times[@]}" | median)
server=$(printf '%s\n' "${server_times[@]}" | median)
echo "import of $feed, median of $runs runs each, in turn:"
echo "  into an SQLite file:        $file s"
echo "  into PostgreSQL (+ swap):   $server s   ($(awk -v a="$server" -v b="$file" 'BEGIN { printf "%.2f", a / b }')x the file)"
echo "  standby replay after commit: $(printf '%s\n' "${replays[@]}" | median) s"

# Questions on the same feed (the last run's import): the file against the standby, whole processes
# (transit runs transit-postgres, which loads libpq and connects) and batches of 400 questions in
# one process (the round trips to the server per question). hyperfine runs each pair in one run.
questions=$work/departures.csv
python3 - "$questions" <<'PY'
import random, sys
random.seed(7)
with open(sys.argv[1], "w") as out:
    out.write("lat,lon,at\n")
    for _ in range(400):
        out.write(f"{54.65 + random.random() * 0.08:.5f},{25.2 + random.random() * 0.15:.5f},2015-09-15 {random.randint(5, 22):02d}:{random.randint(0, 59):02d}\n")
PY
file_db=$work/large.sqlite
echo "questions on the same feed, file against standby (hyperfine, whole processes):"
for question in "nearby 54.687 25.28" "departures --near 54.687,25.28 --at '2015-09-15 08:00'" \
                "plan 54.687,25.28 54.70,25.25 --at '2015-09-15 08:00'" \
                "departures --input $questions --format json"; do
  hyperfine -N --warmup 2 --runs 15 --style basic \
    --command-name "file:    $question" "$bin $question --db $file_db" \
    --command-name "standby: $question" "$bin $question --db $standby" 2>&1 | grep -E "^Benchmark|Time \(mean|±.*times faster|slower" || true
done

# transit serve on the file against transit serve on the standby: departures (near a point, 500 m,
# 20 min) at 64 connections with wrk, 15 s each, the questions of scripts/batch-questions.py.
if command -v wrk > /dev/null; then
  port=${PORT:-18090}
  python3 scripts/batch-questions.py departures "$file_db" 5000 42 > "$work/serve.csv"
  python3 - "$work/serve.csv" > "$work/serve.targets" <<'PY'
import csv, sys, urllib.parse
for row in csv.DictReader(open(sys.argv[1])):
    query = {"near": f"{row['lat']},{row['lon']}", "radius": row.get("radius") or "500", "at": row["at"], "within": "20"}
    print("/api/departures?" + urllib.parse.urlencode(query))
PY
  echo "transit serve, departures at 64 connections (wrk, 15 s each):"
  for db in "$file_db" "$standby"; do
    "$bin" serve --db "$db" --port "$port" --quiet 2> "$work/server.log" &
    server=$!
    for _ in $(seq 200); do grep -q "http://" "$work/server.log" 2> /dev/null && break; sleep 0.05; done
    wrk -t2 -c64 -d15s --latency -s scripts/wrk-targets.lua "http://127.0.0.1:$port" -- "$work/serve.targets" \
      | awk -v name="$([ "$db" = "$file_db" ] && echo file || echo standby)" \
          '/Requests\/sec/ { rps = $2 } / 99%/ { p99 = $2 } /Non-2xx|Socket errors/ { errors = errors " " $0 } END { print "  " name ": " rps " requests a second, p99 " p99 errors }'
    kill "$server"; wait "$server" 2> /dev/null || true
  done
else
  echo "wrk is missing (apt-get install wrk): the serve comparison is skipped"
fi
