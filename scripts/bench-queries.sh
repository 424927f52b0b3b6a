#!/usr/bin/env bash
# Query benchmarks on the large feed: seeded random queries in one process through the
# fetch-request module next to raw C-API floors (transit-bench), then whole `transit` processes
# next to `sqlite3 DB "SELECT 1"` (hyperfine, from Debian's packages).
#
#   scripts/bench-queries.sh [nearby|departures|search ...]   (default: all; needs a release build)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.build/release
db=bench/large.sqlite
feed=bench/large.zip
shared=../shared/feeds
kinds=("$@")
[ ${#kinds[@]} -gt 0 ] || kinds=(nearby departures search)

[ -x "$bin/transit-bench" ] || { echo "build first: make build" >&2; exit 1; }
mkdir -p bench
if [ ! -f "$feed" ]; then
  echo "making $feed (vilnius.zip tiled 10 times)…" >&2
  python3 "$shared/make-large-feed.py" "$shared/vilnius.zip" 10 "$feed"
fi
[ -f "$db" ] || "$bin/transit" import "$feed" --db "$db" --quiet
# A database of an earlier schema is upgraded in place (or, if it cannot be, imported again).
"$bin/transit" feeds upgrade --db "$db" > /dev/null 2>&1 || { rm -f "$db"; "$bin/transit" import "$feed" --db "$db" --quiet; }

for kind in "${kinds[@]}"; do
  "$bin/transit-bench" "$kind" "$db" 2000 42
  echo
done

if ! command -v hyperfine > /dev/null; then
  echo "hyperfine is not installed (apt-get install hyperfine): whole-process timings skipped" >&2
  exit 0
fi
commands=()
for kind in "${kinds[@]}"; do
  case "$kind" in
    nearby) commands+=("$bin/transit nearby 54.687 25.28 --radius 800 --format json --db $db") ;;
    departures) commands+=("$bin/transit departures --near 54.687,25.28 --radius 500 --at '2015-09-08 08:00' --format json --db $db") ;;
    search) commands+=("$bin/transit search 'vinco kud' --format json --db $db") ;;
  esac
done
hyperfine -N --warmup 5 --runs 100 "sqlite3 $db 'SELECT 1'" "${commands[@]}"
