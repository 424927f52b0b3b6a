#!/usr/bin/env bash
# Kills imports of the large feed with SIGKILL at random moments, N times (default 20): the
# previous database must be intact after every kill, and the next import must remove the temporary
# files the killed ones left.
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
before=$(sha256sum "$db" | cut -d' ' -f1)

intact=0
for i in $(seq "$kills"); do
  # A random moment within the import (it takes several seconds on this feed).
  delay=$(awk -v r="$RANDOM" 'BEGIN { printf "%.2f", 0.05 + (r % 700) / 100 }')
  "$bin" import "$feed" --db "$db" --quiet &
  pid=$!
  sleep "$delay"
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null && status=0 || status=$?
  now=$(sha256sum "$db" | cut -d' ' -f1)
  left=$(ls -a bench | grep -c '^\.kill-test\.sqlite\.import-.*\.tmp$' || true)
  if [ "$status" -eq 0 ]; then
    echo "kill $i after ${delay}s: the import had already finished; re-creating the old database" >&2
    "$bin" import data/lindenau --db "$db" --quiet
    before=$(sha256sum "$db" | cut -d' ' -f1)
    continue
  fi
  if [ "$now" = "$before" ]; then intact=$((intact + 1)); else echo "kill $i after ${delay}s: DATABASE CHANGED" >&2; fi
  echo "kill $i after ${delay}s: exit $status, database intact: $([ "$now" = "$before" ] && echo yes || echo NO), temporary files: $left" >&2
done
"$bin" import data/lindenau --db "$db" --quiet
remaining=$(ls -a bench | grep -c '^\.kill-test\.sqlite\.import-.*\.tmp$' || true)
echo "$kills imports killed with SIGKILL: database intact after $intact; temporary files left after the next import: $remaining"
rm -f "$db"
[ "$remaining" -eq 0 ] && [ "$intact" -gt 0 ]
