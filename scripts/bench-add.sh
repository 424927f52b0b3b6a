#!/usr/bin/env bash
# Adding the large feed beside two others against importing it into an empty database, taken in
# turn, with wall time, CPU time (user + sys, which the machine's load changes less) and the
# import's own steps (`--timings`: an add's `commit` and `back to rest`, a new file's
# `sync and rename`). Ratios of CPU time are the ones to compare between runs on a busy machine.
#
#   scripts/bench-add.sh [RUNS]        (default 3 pairs; needs a release build and
#                                      bench/others.sqlite from scripts/bench-feeds.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
bin=.build/release
[ -f bench/others.sqlite ] && [ -f bench/large.zip ] || { echo "run scripts/bench-feeds.sh once first" >&2; exit 1; }
log=$(mktemp); trap 'rm -f "$log" "$log.time" "$log.out"' EXIT
one() { # kind database
  /usr/bin/time -f "%e %U %S" -o "$log.time" "$bin/transit-import" bench/large.zip --db "$2" --timings > "$log.out"
  read -r wall user sys < "$log.time"
  steps=$(grep -E "^  (commit|back to rest|sync and rename|trips.txt|index stop_times)" "$log.out" |
          awk '{ v = $(NF-1); if ($NF == "ms") v /= 1000; name = $1; for (i = 2; i < NF - 1; i++) name = name " " $i; printf "%s %.2f s; ", name, v }')
  echo "$1 wall=$wall cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') sys=$sys  ${steps}" | tee -a "$log" >&2
}
for i in $(seq "$runs"); do
  rm -f bench/empty.sqlite; one empty bench/empty.sqlite
  cp bench/others.sqlite bench/multi.sqlite; one add bench/multi.sqlite
done
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
for what in wall cpu sys; do
  e=$(grep '^empty' "$log" | grep -o " $what=[0-9.]*" | cut -d= -f2 | median)
  a=$(grep '^add' "$log" | grep -o " $what=[0-9.]*" | cut -d= -f2 | median)
  printf '%-4s median: into empty %6.2f s, beside two feeds %6.2f s, ratio %.2f\n' "$what" "$e" "$a" "$(awk -v a="$a" -v e="$e" 'BEGIN { print a / e }')"
done
