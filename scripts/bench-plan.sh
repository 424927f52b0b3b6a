#!/usr/bin/env bash
# Journeys on the large feed (vilnius.zip tiled 10 times), on a Tuesday (2015-09-15):
#   1. the questions: 300 seeded random pairs of served stops (scripts/bench-plan-nigiri.py
#      --write-questions, which picks pairs that trips join), 06:00-20:00;
#   2. `transit plan` in one process over all of them (transit-bench plan), walks <= 500 m and
#      <= 100 m, then `reach` for 30 minutes;
#   3. one whole `transit plan` process (hyperfine, next to `sqlite3 DB "SELECT 1"`), and its
#      peak memory (/usr/bin/time -v);
#   4. nigiri (pip install pynigiri) on the same questions, same day, same walking rule.
#
#   scripts/bench-plan.sh        (needs a release build: make build)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.build/release
db=bench/large.sqlite
feed=bench/large.zip
questions=bench/plan-questions.csv
shared=../shared/feeds

[ -x "$bin/transit-bench" ] || { echo "build first: make build" >&2; exit 1; }
mkdir -p bench
if [ ! -f "$feed" ]; then
  echo "making $feed (vilnius.zip tiled 10 times)…" >&2
  python3 "$shared/make-large-feed.py" "$shared/vilnius.zip" 10 "$feed"
fi
[ -f "$db" ] || "$bin/transit" import "$feed" --db "$db" --quiet
# A database of an earlier schema, or without the planner's timetable, is brought up to date.
"$bin/transit" feeds upgrade --db "$db" > /dev/null

nigiri=yes
python3 -c "import pynigiri" 2> /dev/null || nigiri=no
if [ ! -f "$questions" ]; then
  if [ "$nigiri" = yes ]; then
    python3 scripts/bench-plan-nigiri.py "$feed" 2015-09-15 --random 300 --seed 42 --walk 500 \
      --write-questions "$questions" --json bench/plan-nigiri-500.json
  else
    # Without pynigiri: pairs of stops of the same copy of the city (stop ids "k:…"), served by trips.
    sqlite3 -csv "$db" "SELECT s.stop_id FROM stops s WHERE s.location_type = 0 AND EXISTS (SELECT 1 FROM stop_times_1 st WHERE st.stop = s.id)" \
      | python3 -c '
import random, sys
stops = [line.strip().strip("\"") for line in sys.stdin if line.strip()]
random.seed(42)
print("from,to,at")
for _ in range(300):
    a = random.choice(stops)
    same = [s for s in stops if s.split(":")[0] == a.split(":")[0] and s != a]
    b = random.choice(same)
    minute = random.randint(6 * 60, 20 * 60)
    print(f"{a},{b},2015-09-15 {minute // 60:02d}:{minute % 60:02d}")' > "$questions"
  fi
fi

for walk in 500 100; do
  "$bin/transit-bench" plan "$db" "$questions" "$walk"
  echo
done

first=$(sed -n 2p "$questions")
IFS=, read -r from to at <<< "$first"
echo "one whole process: transit plan $from $to --at '$at' (walks <= 500 m):"
/usr/bin/time -f "  peak memory %M KB, %e s" "$bin/transit" plan "$from" "$to" --at "$at" --format json --db "$db" > /dev/null
if command -v hyperfine > /dev/null; then
  hyperfine -N --warmup 3 --runs 40 "sqlite3 $db 'SELECT 1'" "$bin/transit plan $from $to --at '$at' --format json --db $db"
else
  echo "hyperfine is not installed (apt-get install hyperfine): whole-process timings skipped" >&2
fi

if [ "$nigiri" = yes ]; then
  echo
  python3 scripts/bench-plan-nigiri.py "$feed" 2015-09-15 --questions "$questions" --walk 500
else
  echo "pynigiri is not installed (pip install pynigiri): the side-by-side run with nigiri is skipped" >&2
fi
