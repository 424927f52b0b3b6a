#!/usr/bin/env bash
# PostgreSQL benchmark: `transit import` of the large feed into an empty SQLite file and into an
# empty PostgreSQL primary (with a hot standby replaying it), in turn, in one run; the ratio, the
# import helper's peak RSS, and how long the standby takes to replay the import after it commits.
#
#   scripts/bench-postgres.sh [RUNS]      (default 3 runs each; needs a release build and PostgreSQL)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
bin=.build/release/transit
feed=bench/large.zip
shared=../shared/feeds

[ -x "$bin" ] || { echo "build first: make build" >&2; exit 1; }
if [ -z "${TRANSIT_TEST_POSTGRES:-}" ]; then
  command -v psql > /dev/null || { echo "bench-postgres: psql is missing (apt install postgresql)" >&2; exit 1; }
  exec scripts/with-postgres.sh "$0" "$@"
fi
if [ ! -f "$feed" ]; then
  echo "making $feed (vilnius.zip tiled 10 times)…" >&2
  python3 "$shared/make-large-feed.py" "$shared/vilnius.zip" 10 "$feed"
fi

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
primary=$TRANSIT_TEST_POSTGRES
standby=$TRANSIT_TEST_POSTGRES_STANDBY

file_times=() server_times=() replays=()
for run in $(seq "$runs"); do
  rm -f "$work/large.sqlite"
  /usr/bin/time -f "%e %M" -o "$work/file.time" "$bin" import "$feed" --db "$work/large.sqlite" --quiet
  read -r seconds file_kb < "$work/file.time"
  file_times+=("$seconds")

  psql "$primary" -qc 'SET client_min_messages = warning; DROP SCHEMA IF EXISTS transit CASCADE'
  /usr/bin/time -f "%e %M" -o "$work/server.time" "$bin" import "$feed" --db "$primary" --quiet
  read -r seconds server_kb < "$work/server.time"
  server_times+=("$seconds")
  # The standby's replay: from the primary's commit until its replay LSN passes it.
  lsn=$(psql "$primary" -Atc 'SELECT pg_current_wal_lsn()')
  start=$(date +%s.%N)
  until [ "$(psql "$standby" -Atc "SELECT pg_last_wal_replay_lsn() >= '$lsn'::pg_lsn")" = t ]; do :; done
  replays+=("$(awk -v a="$(date +%s.%N)" -v b="$start" 'BEGIN { printf "%.3f", a - b }')")
  echo "run $run: file ${file_times[-1]} s ($((file_kb / 1024)) MiB), PostgreSQL ${server_times[-1]} s ($((server_kb / 1024)) MiB), standby caught up ${replays[-1]} s later" >&2
done

file=$(printf '%s\n' "${file_times[@]}" | median)
server=$(printf '%s\n' "${server_times[@]}" | median)
echo "import of $feed, median of $runs runs each, in turn:"
echo "  into an SQLite file:        $file s"
echo "  into PostgreSQL (+ swap):   $server s   ($(awk -v a="$server" -v b="$file" 'BEGIN { printf "%.2f", a / b }')x the file)"
echo "  standby replay after commit: $(printf '%s\n' "${replays[@]}" | median) s"
