#!/usr/bin/env bash
# Asks one binary a fixed list of questions on the demo feed and the shared feeds (Lithuania,
# Queensland, Nevada) and writes each answer, and each --explain's SQL and plan (timings cut), to a
# folder: two folders from two builds are compared with `diff -r` to show that a refactoring
# changed no answer.
#
#   scripts/answer-snapshot.sh OLD/transit /tmp/before
#   scripts/answer-snapshot.sh .build/release/transit /tmp/after
#   diff -r /tmp/before /tmp/after && echo identical
#
# Each feed is imported by the binary given (so the import is compared too: `stats` and `list`
# read back what it wrote). Needs ../shared/feeds beside the project root for the shared feeds;
# without it only the demo feed is asked.
set -euo pipefail
bin=$(realpath "$1")
out=$2
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$root/../shared}/feeds
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# What changes from run to run and is no answer: the import's time and folder, the moment of import.
steady() { sed -E 's/"imported": "[^"]*"/"imported": "T"/; s/^(Imported feed .*) into .* in [0-9.]+ m?s:/\1:/; s/,[0-9TZ:-]+Z,\//,T,\//'; }

# ask NAME DB ARGS…: the answer on stdout, and --explain's SQL, values and plan without timings.
ask() {
    local name=$1 db=$2
    shift 2
    { "$bin" "$@" --db "$db" 2>&1 || echo "exit $?"; } | steady >"$out/$name.out"
    "$bin" "$@" --db "$db" --explain 2>&1 >/dev/null | sed -E 's/ in [0-9.]+ ms//; s/[0-9.]+ ms/T ms/g' >"$out/$name.explain" || true
}

# questions FEED DB LAT LON STOP DATE FROM TO: the same questions of any feed.
questions() {
    local f=$1 db=$2 lat=$3 lon=$4 stop=$5 date=$6 from=$7 to=$8
    ask "$f-nearby" "$db" nearby "$lat" "$lon" --radius 800 --format json
    ask "$f-nearby-table" "$db" nearby "$lat" "$lon" --radius 800
    ask "$f-departures-stop" "$db" departures --stop "$stop" --at "$date 07:55" --within 90 --format json
    ask "$f-departures-table" "$db" departures --stop "$stop" --at "$date 07:55" --within 90
    ask "$f-departures-near" "$db" departures --near "$lat,$lon" --at "$date 07:55" --within 30 --format json
    ask "$f-departures-late" "$db" departures --stop "$stop" --at "$date 23:50" --within 120 --format csv
    ask "$f-departures-expired" "$db" departures --stop "$stop" --at "2031-01-01 08:00" --format json
    ask "$f-search" "$db" search "$(printf %s "$9" | cut -c1-6)" --format json
    ask "$f-search-routes" "$db" search "$9" --routes
    ask "$f-routes" "$db" routes --format json
    ask "$f-routes-stop" "$db" routes --stop "$stop" --format json
    ask "$f-stats" "$db" stats --date "$date" --format json
    ask "$f-stats-stop" "$db" stats --date "$date" --stop "$stop"
    ask "$f-plan" "$db" plan "$from" "$to" --at "$date 07:55" --format json --stops
    ask "$f-plan-table" "$db" plan "$from" "$to" --at "$date 07:55"
    ask "$f-plan-arrive" "$db" plan "$from" "$to" --arrive-by "$date 10:00" --format json
    ask "$f-plan-points" "$db" plan "$lat,$lon" "$to" --at "$date 08:10" --format json
    ask "$f-reach" "$db" reach "$from" --at "$date 08:00" --within 30 --format json
    ask "$f-list-stops" "$db" list stops --predicate "stop_name BEGINSWITH[cd] 'a'" --format json
    ask "$f-list-routes" "$db" list routes --format csv
    ask "$f-list-trips" "$db" list trips --predicate "route.route_type == 3" --limit 20 --format json
    ask "$f-list-stop-times" "$db" list stop_times --predicate "departure_time > '08:00:00'" --limit 30 --format csv
    ask "$f-list-agency" "$db" list agency --format json
    ask "$f-feeds" "$db" feeds --format json
    local trip
    trip=$("$bin" list trips --limit 1 --format csv --db "$db" | sed -n 2p | cut -d, -f4)
    ask "$f-trip" "$db" trip "$trip" --date "$date" --format json
    ask "$f-trip-geojson" "$db" trip "$trip" --date "$date" --format geojson
    local route
    route=$("$bin" list routes --limit 1 --format csv --db "$db" | sed -n 2p | cut -d, -f2)
    ask "$f-route" "$db" route "$route" --format json
}

import() { "$bin" import "$1" --db "$2" 2>&1 | steady >"$out/$3-import.out"; }

import "$root/data/lindenau" "$work/demo.sqlite" demo
questions demo "$work/demo.sqlite" 52.5249 13.3692 HBF 2026-03-02 HBF STR "gorli strasse"
if [ -d "$shared" ]; then
    import "$shared/vilnius.zip" "$work/vilnius.sqlite" vilnius
    questions vilnius "$work/vilnius.sqlite" 54.687 25.28 5245 2015-09-15 5245 5103 "Stoties"
    import "$shared/cairns_gtfs.zip" "$work/cairns.sqlite" cairns
    questions cairns "$work/cairns.sqlite" -16.9245 145.7710 750128 2014-06-03 750128 750047 "Abbott"
    import "$shared/sample_gtfs.zip" "$work/sample.sqlite" sample
    questions sample "$work/sample.sqlite" 36.9055 -116.7621 STAGECOACH 2008-06-03 STAGECOACH BEATTY_AIRPORT "Bullfrog"
else
    echo "answer-snapshot: $shared is missing: only the demo feed was asked" >&2
fi
echo "answer-snapshot: $(ls "$out" | wc -l) files in $out"
