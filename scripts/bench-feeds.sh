#!/usr/bin/env bash
# Several feeds in one database, on the large feed:
# - adding it to a database that already holds two other feeds (vilnius.zip, cairns_gtfs.zip)
#   against importing it into an empty database, then removing it again, timed in turn;
# - the in-process query benchmarks (transit-bench) on the large feed alone and with the two other
#   feeds beside it, the random questions drawn from the large feed's stops in both.
#
#   scripts/bench-feeds.sh [RUNS]        (default 3 runs; needs a release build)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
bin=.build/release
feed=bench/large.zip
shared=../shared/feeds

[ -x "$bin/transit-bench" ] || { echo "build first: make build" >&2; exit 1; }
mkdir -p bench
if [ ! -f "$feed" ]; then
  echo "making $feed (vilnius.zip tiled 10 times)…" >&2
  python3 "$shared/make-large-feed.py" "$shared/vilnius.zip" 10 "$feed"
fi

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

rm -f bench/others.sqlite
"$bin/transit" import "$shared/vilnius.zip" --db bench/others.sqlite --quiet
"$bin/transit" import "$shared/cairns_gtfs.zip" --db bench/others.sqlite --quiet

empty_times=() add_times=() remove_times=()
for i in $(seq "$runs"); do
  rm -f bench/empty.sqlite
  t0=$(now); "$bin/transit" import "$feed" --db bench/empty.sqlite --quiet; empty_times+=("$(since "$t0")")
  cp bench/others.sqlite bench/multi.sqlite
  t0=$(now); "$bin/transit" import "$feed" --db bench/multi.sqlite --quiet; add_times+=("$(since "$t0")")
  t0=$(now); "$bin/transit" feeds remove large --db bench/multi.sqlite > /dev/null; remove_times+=("$(since "$t0")")
  echo "run $i: into empty ${empty_times[-1]} s, beside two feeds ${add_times[-1]} s, remove ${remove_times[-1]} s" >&2
done
empty=$(printf '%s\n' "${empty_times[@]}" | median)
add=$(printf '%s\n' "${add_times[@]}" | median)
remove=$(printf '%s\n' "${remove_times[@]}" | median)
echo "large feed ($(unzip -p "$feed" stop_times.txt | wc -l) stop_times lines), $runs runs each, medians:"
printf '  import into an empty database      %6.2f s\n' "$empty"
printf '  add beside vilnius + cairns        %6.2f s   ratio %.2f\n' "$add" "$(awk -v a="$add" -v b="$empty" 'BEGIN { print a / b }')"
printf '  remove it again (feeds remove)     %6.2f s   ratio %.2f\n' "$remove" "$(awk -v a="$remove" -v b="$empty" 'BEGIN { print a / b }')"
echo

# Queries: the large feed alone against the large feed with two feeds beside it.
mv bench/empty.sqlite bench/single.sqlite
cp bench/others.sqlite bench/multi.sqlite
"$bin/transit" import "$feed" --db bench/multi.sqlite --quiet
for kind in nearby departures search; do
  alone=$("$bin/transit-bench" "$kind" bench/single.sqlite 2000 42 large)
  beside=$("$bin/transit-bench" "$kind" bench/multi.sqlite 2000 42 large)
  echo "$kind, large feed alone:"; echo "$alone"
  echo "$kind, large feed beside vilnius + cairns:"; echo "$beside"
  a=$(echo "$alone" | grep -m1 -o 'median [0-9.]*' | awk '{ print $2 }')
  b=$(echo "$beside" | grep -m1 -o 'median [0-9.]*' | awk '{ print $2 }')
  awk -v a="$a" -v b="$b" -v k="$kind" 'BEGIN { printf "  %s: %.1f µs alone, %.1f µs beside two feeds, ratio %.2f\n\n", k, a, b, b / a }'
done
