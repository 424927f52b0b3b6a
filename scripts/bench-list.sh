#!/usr/bin/env bash
# transit list stop-times --format csv on the large feed against sqlite3 -csv running the same SQL
# (taken from transit's own --explain), timed in turn; transit's peak RSS from /usr/bin/time -v.
#
#   scripts/bench-list.sh [RUNS]      (default 3; needs a release build and bench/large.sqlite)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
bin=.build/release/transit
db=bench/large.sqlite
[ -f "$db" ] || scripts/bench-queries.sh nearby > /dev/null
sql=$("$bin" list stop-times --db "$db" --explain 2>&1 >/dev/null | sed -n '2p')
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
ours=() theirs=()
for i in $(seq "$runs"); do
  t0=$(now); "$bin" list stop-times --db "$db" > /dev/null; t1=$(now); ours+=("$(elapsed "$t0" "$t1")")
  t0=$(now); sqlite3 -csv "$db" "$sql" > /dev/null; t1=$(now); theirs+=("$(elapsed "$t0" "$t1")")
  echo "run $i: transit ${ours[-1]} s, sqlite3 -csv ${theirs[-1]} s" >&2
done
rows=$("$bin" list stop-times --db "$db" | wc -l)
rss=$( { /usr/bin/time -v "$bin" list stop-times --db "$db" > /dev/null; } 2>&1 | awk -F: '/Maximum resident set size/ { gsub(/ /, "", $2); print $2 }')
a=$(printf '%s\n' "${ours[@]}" | median); b=$(printf '%s\n' "${theirs[@]}" | median)
echo "list stop-times --format csv ($((rows - 1)) rows), $runs runs each, medians:"
printf '  transit list     %6.2f s   peak RSS %d MB\n' "$a" "$((rss / 1024))"
printf '  sqlite3 -csv     %6.2f s   (the same SQL)\n' "$b"
awk -v a="$a" -v b="$b" 'BEGIN { printf "  ratio            %6.2f\n", a / b }'
