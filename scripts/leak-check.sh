#!/usr/bin/env bash
# Runs every transit command once from the AddressSanitizer build with LeakSanitizer on, and fails
# when one reports a leak (dependency leaks are suppressed in scripts/lsan.supp, with reasons).
#
#   scripts/leak-check.sh BUILD_DIR      (the ASan build's bin folder, e.g. .build-asan/debug)
set -uo pipefail
cd "$(dirname "$0")/.."
bin=$1/transit
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp" ASAN_OPTIONS=detect_leaks=1
failed=0
run() {
  if ! "$bin" "$@" > /dev/null 2> "$work/err" && grep -q LeakSanitizer "$work/err"; then
    echo "leak in: transit $*" >&2; cat "$work/err" >&2; failed=1
  elif grep -q LeakSanitizer "$work/err"; then
    echo "leak in: transit $*" >&2; cat "$work/err" >&2; failed=1
  fi
}
run import data/lindenau --db "$work/db.sqlite"
[ -f ../shared/feeds/sample_gtfs.zip ] && run import ../shared/feeds/sample_gtfs.zip --db "$work/sample.sqlite"
run nearby 52.5249 13.3692 --radius 2500 --explain --db "$work/db.sqlite"
run nearby 52.5249 13.3692 --format geojson --db "$work/db.sqlite"
run search "gorli strasse" --explain --db "$work/db.sqlite"
run departures --stop HBF --at "2026-03-02 07:55" --within 60 --format json --db "$work/db.sqlite"
run departures --near 52.5249,13.3692 --at "2026-03-02 23:45" --db "$work/db.sqlite"
run stats --date 2026-03-02 --stop HBF --db "$work/db.sqlite"
run list stop-times --format json --db "$work/db.sqlite"
run nearby 91 0 --db "$work/db.sqlite"
run import "$work/missing" --db "$work/db.sqlite"
[ "$failed" -eq 0 ] && echo "leak check: no leaks in any command"
exit "$failed"
