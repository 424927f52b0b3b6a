#!/usr/bin/env bash
# Several feeds in one database, on the large feed:
# - adding it to a database that already holds two other feeds of 445,217 stop times each
#   (vilnius.zip moved 20° south, and moved 40° east: feeds somewhere else) against importing it
#   into an empty database, then removing it again, timed in turn;
# - the in-process query benchmarks (transit-bench) on the large feed alone and with the two other
#   feeds beside it, the random questions drawn from the large feed's stops, three rounds in turn.
#   The other feeds answer none of these questions but share the tables (and, for search, words):
#   this is the cost of holding other feeds. Then once with vilnius.zip itself beside it, which
#   overlaps the large feed's first tile, so every feed answering means more rows.
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

# vilnius.zip with every stop moved by (ARG3, ARG4) degrees.
moved() {
  [ -f "$2" ] || python3 - "$shared/vilnius.zip" "$2" "$3" "$4" <<'PY'
import csv, io, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as source, zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as target:
    for name in source.namelist():
        data = source.read(name)
        if name.endswith("stops.txt"):
            rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
            lat, lon = rows[0].index("stop_lat"), rows[0].index("stop_lon")
            for row in rows[1:]:
                if row[lat]:
                    row[lat] = "%.6f" % (float(row[lat]) + float(sys.argv[3]))
                    row[lon] = "%.6f" % (float(row[lon]) + float(sys.argv[4]))
            out = io.StringIO()
            csv.writer(out, lineterminator="\n").writerows(rows)
            data = out.getvalue().encode()
        target.writestr(name, data)
PY
}
moved - bench/south.zip -20 0
moved - bench/east.zip 0 40
rm -f bench/others.sqlite
"$bin/transit" import bench/south.zip --db bench/others.sqlite --quiet
"$bin/transit" import bench/east.zip --db bench/others.sqlite --quiet

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
printf '  add beside south + east            %6.2f s   ratio %.2f\n' "$add" "$(awk -v a="$add" -v b="$empty" 'BEGIN { print a / b }')"
printf '  remove it again (feeds remove)     %6.2f s   ratio %.2f\n' "$remove" "$(awk -v a="$remove" -v b="$empty" 'BEGIN { print a / b }')"
echo

# Queries: the large feed alone, beside the two other feeds, and beside vilnius.zip itself.
mv bench/empty.sqlite bench/single.sqlite
cp bench/others.sqlite bench/multi.sqlite
"$bin/transit" import "$feed" --db bench/multi.sqlite --quiet
rm -f bench/overlap.sqlite
"$bin/transit" import "$shared/vilnius.zip" --db bench/overlap.sqlite --quiet
"$bin/transit" import "$feed" --db bench/overlap.sqlite --quiet
median_of() { echo "$1" | grep -m1 -o 'median [0-9.]*' | awk '{ print $2 }'; }
rows_of() { echo "$1" | grep -m1 -o '[0-9]* rows' | awk '{ print $1 }'; }
for kind in nearby departures search; do
  alone=() beside=() only=()
  for round in 1 2 3; do
    out=$("$bin/transit-bench" "$kind" bench/single.sqlite 2000 42 large); alone+=("$(median_of "$out")"); rows_alone=$(rows_of "$out")
    out=$("$bin/transit-bench" "$kind" bench/multi.sqlite 2000 42 large); beside+=("$(median_of "$out")"); rows_beside=$(rows_of "$out")
    out=$("$bin/transit-bench" "$kind" bench/multi.sqlite 2000 42 large only); only+=("$(median_of "$out")")
  done
  overlap=$("$bin/transit-bench" "$kind" bench/overlap.sqlite 2000 42 large)
  a=$(printf '%s\n' "${alone[@]}" | median); b=$(printf '%s\n' "${beside[@]}" | median); c=$(printf '%s\n' "${only[@]}" | median)
  awk -v a="$a" -v b="$b" -v c="$c" -v d="$(median_of "$overlap")" -v ra="$rows_alone" -v rb="$rows_beside" \
      -v rd="$(rows_of "$overlap")" -v k="$kind" 'BEGIN {
        printf "%s, 2,000 seeded queries, median of 3 rounds of medians:\n", k
        printf "  large feed alone                         %7.1f µs  (%d rows)\n", a, ra
        printf "  beside two other feeds, all answering     %7.1f µs  (%d rows)  ratio %.2f\n", b, rb, b / a
        printf "  beside two other feeds, --feed large      %7.1f µs              ratio %.2f\n", c, c / a
        printf "  beside vilnius.zip (overlapping), all     %7.1f µs  (%d rows)  ratio %.2f (one round)\n\n", d, rd, d / a
      }'
done
