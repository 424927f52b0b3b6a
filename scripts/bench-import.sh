#!/usr/bin/env bash
# Import benchmark: `transit import` of the large feed against the sqlite3 shell's bare .import
# of the same stops.txt and stop_times.txt plus the same two compound indexes (the floor any
# SQLite importer is held to), timed in turn in one run, with transit's peak RSS.
#
#   scripts/bench-import.sh [RUNS]       (default 5 runs each; needs a release build)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
bin=.build/release/transit
feed=bench/large.zip
shared=../shared/feeds

[ -x "$bin" ] || { echo "build first: swift build -c release" >&2; exit 1; }
mkdir -p bench
if [ ! -f "$feed" ]; then
  echo "making $feed (vilnius.zip tiled 10 times)…" >&2
  python3 "$shared/make-large-feed.py" "$shared/vilnius.zip" 10 "$feed"
fi
if [ ! -d bench/large ]; then
  mkdir -p bench/large && (cd bench/large && unzip -q -o ../large.zip stops.txt stop_times.txt)
fi

floor_sql=$(mktemp)
cat > "$floor_sql" <<'SQL'
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
BEGIN;
.mode csv
.import bench/large/stops.txt stops
.import bench/large/stop_times.txt stop_times
CREATE INDEX stops_by_location ON stops (stop_lon, stop_lat);
CREATE INDEX stop_times_by_stop_departure ON stop_times (stop_id, departure_time);
COMMIT;
SQL

now() { date +%s.%N; }
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

transit_times=() floor_times=()
for i in $(seq "$runs"); do
  rm -f bench/transit.sqlite bench/floor.sqlite
  t0=$(now); "$bin" import "$feed" --db bench/transit.sqlite --quiet; t1=$(now)
  transit_times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')")
  t0=$(now); sqlite3 bench/floor.sqlite < "$floor_sql" > /dev/null; t1=$(now)
  floor_times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')")
  echo "run $i: transit ${transit_times[-1]} s, sqlite3 .import ${floor_times[-1]} s" >&2
done
rm -f "$floor_sql"

transit_median=$(printf '%s\n' "${transit_times[@]}" | median)
floor_median=$(printf '%s\n' "${floor_times[@]}" | median)
rm -f bench/transit.sqlite
rss=$( { /usr/bin/time -v "$bin" import "$feed" --db bench/transit.sqlite --quiet; } 2>&1 | awk -F: '/Maximum resident set size/ { gsub(/ /, "", $2); print $2 }')

# The journey planner's share of the import: its step in --timings (its trips are gathered while
# stop_times.txt loads, inside that step's time) and its table's BLOBs against the file's size.
rm -f bench/transit.sqlite
timings=$("$bin" import "$feed" --db bench/transit.sqlite --timings 2>&1)
total_s=$(echo "$timings" | awk '/^Imported feed/ { print $(NF - 1) }')
planner_s=$(echo "$timings" | awk '/journey planner timetable/ { print ($NF == "ms") ? $(NF - 1) / 1000 : $(NF - 1) }')
planner_bytes=$(sqlite3 bench/transit.sqlite "SELECT sum(length(data)) FROM planner_1")
file_bytes=$(stat -c %s bench/transit.sqlite)

echo "import of $feed ($(unzip -p "$feed" stop_times.txt | wc -l) stop_times lines), $runs runs each, medians:"
printf '  transit import            %6.2f s   peak RSS %d MB\n' "$transit_median" "$((rss / 1024))"
printf '  sqlite3 .import + indexes %6.2f s   (stops.txt + stop_times.txt only, text times)\n' "$floor_median"
awk -v a="$transit_median" -v b="$floor_median" 'BEGIN { printf "  ratio transit / sqlite3   %6.2f\n", a / b }'
awk -v p="$planner_s" -v t="$total_s" -v b="$planner_bytes" -v f="$file_bytes" 'BEGIN {
  printf "  journey planner timetable %6.2f s of %.2f s (+%.1f %% over the rest), %.1f MB of BLOBs in %.1f MB (+%.1f %%)\n",
         p, t, 100 * p / (t - p), b / 1e6, f / 1e6, 100 * b / (f - b) }'
