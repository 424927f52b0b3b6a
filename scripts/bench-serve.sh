#!/usr/bin/env bash
# transit serve under load, on the large feed (vilnius.zip tiled 10 times), with wrk:
#   1. /api/departures (a stop, a fixed moment, 60 minutes), /api/nearby (800 m) and /api/plan
#      (two stops), each for 10 s with 2 threads and 32 connections: answers a second and latency;
#   2. the same departures question through one whole `transit departures` process (hyperfine),
#      to show what one HTTP answer costs next to starting the command.
# Every answer is checked first (status 200 and the command line's JSON).
#
#   scripts/bench-serve.sh        (needs a release build: make build)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.build/release
db=bench/large.sqlite
feed=bench/large.zip
shared=../shared/feeds
port=${PORT:-18080}

[ -x "$bin/transit-serve" ] || { echo "build first: make build" >&2; exit 1; }
command -v wrk > /dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
mkdir -p bench
if [ ! -f "$feed" ]; then
  echo "making $feed (vilnius.zip tiled 10 times)…" >&2
  python3 "$shared/make-large-feed.py" "$shared/vilnius.zip" 10 "$feed"
fi
[ -f "$db" ] || "$bin/transit" import "$feed" --db "$db" --quiet

"$bin/transit" serve --db "$db" --port "$port" --quiet 2> bench/serve.log &
server=$!
trap 'kill $server 2> /dev/null; wait $server 2> /dev/null' EXIT
for _ in $(seq 100); do grep -q "http://" bench/serve.log 2> /dev/null && break; sleep 0.1; done

base="http://127.0.0.1:$port"
stop=$(sqlite3 "$db" "SELECT stop_id FROM stops WHERE stop_id LIKE '0:%' AND location_type = 0 ORDER BY stop_id LIMIT 1 OFFSET 100")
to=$(sqlite3 "$db" "SELECT stop_id FROM stops WHERE stop_id LIKE '0:%' AND location_type = 0 ORDER BY stop_id LIMIT 1 OFFSET 600")
departures="/api/departures?stop=$stop&at=2015-09-15+08:00&within=60"
nearby="/api/nearby?lat=54.687&lon=25.28&radius=800"
plan="/api/plan?from=$stop&to=$to&at=2015-09-15+08:00"

# Each answer equals the command line's.
check() {
  local target=$1; shift
  diff <(curl -sf "$base$target" | python3 -m json.tool) <("$bin/transit" "$@" --db "$db" --format json | python3 -m json.tool) > /dev/null \
    || { echo "$target differs from transit $*" >&2; exit 1; }
}
check "$departures" departures --stop "$stop" --at "2015-09-15 08:00" --within 60
check "$nearby" nearby 54.687 25.28 --radius 800
check "$plan" plan "$stop" "$to" --at "2015-09-15 08:00"

echo "transit serve on $db ($(nproc) cores), wrk -t2 -c32 -d10s, $(date -u +%F):"
for target in "$departures" "$nearby" "$plan"; do
  echo "== GET $target"
  wrk -t2 -c32 -d10s --latency "$base$target" | grep -E "Requests/sec|Latency|50%|90%|99%|Non-2xx|Socket errors" || true
done
echo "== one whole process for the departures question"
hyperfine -N --warmup 5 --runs 50 "$bin/transit departures --stop $stop --at '2015-09-15 08:00' --within 60 --db $db --format json" 2>&1 | grep -E "Time|Range"
