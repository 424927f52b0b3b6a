#!/usr/bin/env bash
# Kills imports of the large feed with SIGKILL at random moments, N times (default 20), while it
# is being added to a database that holds the demo feed: after every kill the database must pass
# PRAGMA integrity_check and hold exactly what it held (a dump of every table, compared), and the
# next import must leave no log or temporary file beside it.
#
#   scripts/kill-imports.sh [KILLS] [SEED]     (needs a release build)
set -euo pipefail
cd "$(dirname "$0")/.."
kills=${1:-20}
RANDOM=${2:-7}
bin=.build/release/transit
feed=bench/large.zip
db=bench/kill-test.sqlite
[ -x "$bin" ] || { echo "build first: make build" >&2; exit 1; }
mkdir -p bench
[ -f "$feed" ] || python3 ../shared/feeds/make-large-feed.py ../shared/feeds/vilnius.zip 10 "$feed"
rm -f "$db" bench/.kill-test.sqlite.import-*.tmp
"$bin" import data/lindenau --db "$db" --quiet
# What the database holds: "bad" unless the integrity check passes, else a hash of its dump.
contents() {
  [ "$(sqlite3 "$1" 'PRAGMA integrity_check')" = ok ] || { echo bad; return; }
  sqlite3 "$1" .dump | sha256sum | cut -d' ' -f1
}
leftovers() { ls -a bench | grep -c -e '^\.kill-test\.sqlite\.import-.*\.tmp$' -e '^kill-test\.sqlite-' || true; }
before=$(contents "$db")

intact=0
for i in $(seq "$kills"); do
  # A random moment within the import (it takes several seconds on this feed).
  delay=$(awk -v r="$RANDOM" 'BEGIN { printf "%.2f", 0.05 + (r % 700) / 100 }')
  "$bin" import "$feed" --db "$db" --quiet &
  pid=$!
  sleep "$delay"
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null && status=0 || status=$?
  left=$(leftovers)
  now=$(contents "$db")
  if [ "$status" -eq 0 ]; then
    echo "kill $i after ${delay}s: the import had already finished; re-creating the old database" >&2
    "$bin" import data/lindenau --db "$db" --quiet
    before=$(contents "$db")
    continue
  fi
  if [ "$now" != "$before" ] && [ "$now" != bad ] && [ "$(sqlite3 "$db" 'SELECT group_concat(name) FROM feeds')" = "large,lindenau" ]; then
    # Killed after its commit, while returning the database to rest: the new set, whole.
    echo "kill $i after ${delay}s: the add had committed; the database holds the new set of feeds, whole" >&2
    intact=$((intact + 1))
    "$bin" feeds remove large --db "$db" > /dev/null
    before=$(contents "$db")
    continue
  fi
  if [ "$now" = "$before" ]; then intact=$((intact + 1)); else echo "kill $i after ${delay}s: DATABASE CHANGED" >&2; fi
  echo "kill $i after ${delay}s: exit $status, database intact: $([ "$now" = "$before" ] && echo yes || echo NO), files left beside it: $left" >&2
done
"$bin" import data/lindenau --db "$db" --quiet
remaining=$(leftovers)
echo "$kills imports killed with SIGKILL: the old set of feeds or the new one, whole, after $intact; files left beside it after the next import: $remaining"
rm -f "$db"
[ "$remaining" -eq 0 ] && [ "$intact" -gt 0 ]
