#!/usr/bin/env python3
"""Journey-planner benchmark on nigiri (the routing core of MOTIS), through its Python binding:
the same questions as `transit plan`, under the same walking rule, for a side-by-side comparison.

    scripts/bench-plan-nigiri.py FEED DATE (--questions CSV | --random N [--seed S])
                                 [--walk METRES] [--max-rides N] [--json OUT] [--write-questions CSV]
                                 [--stay-seated] [--nigiri-footpaths] [--keep DIR]

    e.g. scripts/bench-plan-nigiri.py bench/large.zip 2015-09-15 --random 300 --seed 42 --walk 500

FEED is a GTFS zip or folder; DATE (YYYY-MM-DD) is the day of the --random questions and the middle
of the days loaded. Questions come from a CSV with the header `from,to,at` (stop ids, the feed's
local time `YYYY-MM-DD HH:MM`), or are N seeded random pairs of distinct served stops that trips
join (so that a journey can exist; each copy of a tiled feed is a part of its own; the same pairs
whatever --walk), at a minute from 06:00 to 20:00 on DATE. Needs `pip install pynigiri` (without
it: one line saying so, exit status 2).

What it measures, in one process:
  * load: nigiri's load_timetable on the feed's folder, from DATE - 1 day to DATE + 2 days (wider
    when questions fall on other days), in seconds, and the process's peak RSS (ru_maxrss) after it;
  * query: one Pareto query per question (earliest arrival x rides, leaving at `at`, at most
    --max-rides rides), time.perf_counter around nigiri's route() alone; median and p90;
    the CPU times beside them (time.process_time, time.thread_time) show how much of a wall time
    was waiting for a busy machine's cores;
  * first question: the whole process up to its first answer: start-up counted from the command's
    exec (a shell shim in front of python3, as pyenv's, adds about 0.2 s to it), the import, the load and the first query. Unpacking
    the feed, writing its footpaths and drawing the questions happen before, in a child process
    (so that their memory stays out of the peak RSS), and are not counted.
With --json OUT, each question's Pareto answers: departure (leaving the origin) and arrival as
ISO 8601 with the feed's UTC offset, and the number of rides. --write-questions writes the
questions as a CSV that --questions reads back (and a benchmark of `transit plan` can ask).

Walking follows transit's rule unless --nigiri-footpaths: two stops are linked when they are at most
--walk metres apart on the great circle (haversine, R = 6,371,008.8 m), the walk takes
ceil(distance / 1.33 m/s) seconds, and changing vehicles at one stop takes no time. nigiri counts
whole minutes, so a walk becomes the whole minutes it costs before the next departure can be
caught (exact when the timetable is in whole minutes, as GTFS feeds mostly are). How that is given
to nigiri, in a temporary copy of the feed:
  * transfers.txt is replaced by one that lists every linked pair (transfer_type 2,
    min_transfer_time = the walk's whole minutes in seconds; nigiri floors seconds to minutes) and
    every stop to itself with 0 (else nigiri waits its GTFS default of 2 minutes at a stop);
  * nigiri's own linking is off (LoaderConfig.link_stop_distance = 0);
  * nigiri closes the footpaths transitively (a transfer may chain links) and keeps, in groups of
    three stops or more, only walks shorter than FinalizeOptions.max_footpath_length minutes: that
    is set to the longest direct walk + 1, so every link stays and chains no longer than it are added;
  * the origin and the destination are intermodal offsets: the stop itself at 0 and each linked
    stop at its walk (one link, not nigiri's footpath graph);
  * trips.txt's block_id is emptied, so that each trip is a ride (nigiri would otherwise stay
    seated into the block's next trip, as one ride); --stay-seated keeps it;
  * nigiri counts transfers: max_transfers = rides - 1; it never answers with a walk alone, and
    when the origin's and the destination's walks reach a common stop (or each other), it reaches
    the destination by walking alone in its first round, so it answers only journeys arriving
    before that walk would (often none), even where the walk chains two links, which transit's
    rule does not allow: --json marks those questions "walk_overlap" (with "walk_minutes" when the
    two stops are linked).
With --nigiri-footpaths, nigiri links stops itself (link_stop_distance = --walk): at about 1.5 m/s
(90 m a minute), rounded up to whole minutes, at least the stop's 2-minute transfer time, never farther than 500 m whatever the
distance asked; the feed's transfers.txt stays, journeys walk from the origin over nigiri's footpath
graph (use_start_footpaths), and a journey's departure is its first leg's, as nigiri puts it (a
first walk starts at the query's time).
"""
import argparse
import csv
import datetime as dt
import importlib.metadata
import importlib.util
import json
import math
import os
import random
import resource
import shutil
import statistics
import sys
import tempfile
import time
import zipfile
from zoneinfo import ZoneInfo

EARTH_RADIUS = 6_371_008.8  # metres, as transit's Geo.swift
WALK_SPEED = 1.33  # metres per second
NIGIRI_LINK_LIMIT = 500  # metres: nigiri's own linking goes no farther


def process_age():
    """Seconds since this process was exec'd (10 ms steps), or None without /proc."""
    try:
        with open("/proc/self/stat") as f:
            start_ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime") as f:
            uptime = float(f.read().split()[0])
        return uptime - start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def haversine(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    a = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * EARTH_RADIUS * math.asin(min(1.0, math.sqrt(a)))


def walk_minutes(metres):
    """Whole minutes between an arrival and the first departure a walk of `metres` can catch."""
    return math.ceil(math.ceil(metres / WALK_SPEED) / 60)


def read_table(folder, name):
    """Rows of a GTFS file as dicts (BOM and spaces around header names removed)."""
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        return
    with open(path, encoding="utf-8-sig", newline="") as f:
        reader = csv.reader(f)
        header = [h.strip() for h in next(reader, [])]
        for row in reader:
            if row:
                yield dict(zip(header, row))


def linked_pairs(stops, radius):
    """(a, b, metres) for every ordered pair of distinct stops at most `radius` metres apart."""
    if not stops or radius <= 0:
        return []
    max_lat = min(89.0, max(abs(lat) for _, lat, _ in stops))
    cell_lat = math.degrees(radius / EARTH_RADIUS) * 1.01
    cell_lon = cell_lat / math.cos(math.radians(max_lat))
    grid = {}
    for stop in stops:
        grid.setdefault((math.floor(stop[1] / cell_lat), math.floor(stop[2] / cell_lon)), []).append(stop)
    pairs = []
    for (i, j), cell in grid.items():
        near = [s for di in (-1, 0, 1) for dj in (-1, 0, 1) for s in grid.get((i + di, j + dj), ())]
        for a, alat, alon in cell:
            for b, blat, blon in near:
                if a != b:
                    d = haversine(alat, alon, blat, blon)
                    if d <= radius:
                        pairs.append((a, b, d))
    return pairs


def unpack(args, feed):
    """The feed's .txt files in folder `feed` (links to a folder's files, a zip's unpacked), with
    trips.txt's block_id emptied unless --stay-seated and transfers.txt left out unless
    --nigiri-footpaths."""
    os.mkdir(feed)
    if os.path.isdir(args.feed):
        for name in os.listdir(args.feed):
            if name.endswith(".txt"):
                os.symlink(os.path.abspath(os.path.join(args.feed, name)), os.path.join(feed, name))
    else:
        with zipfile.ZipFile(args.feed) as zf:
            for info in zf.infolist():
                name = os.path.basename(info.filename)
                if name.endswith(".txt") and not info.is_dir():
                    with zf.open(info) as src, open(os.path.join(feed, name), "wb") as dst:
                        shutil.copyfileobj(src, dst)
    trips = os.path.join(feed, "trips.txt")
    if not args.stay_seated and os.path.exists(trips):
        rows = list(read_table(feed, "trips.txt"))
        os.remove(trips)
        if rows:
            with open(trips, "w", newline="", encoding="utf-8") as f:
                out = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator="\n")
                out.writeheader()
                for row in rows:
                    if "block_id" in row:
                        row["block_id"] = ""
                    out.writerow(row)
    if not args.nigiri_footpaths and os.path.lexists(os.path.join(feed, "transfers.txt")):
        os.remove(os.path.join(feed, "transfers.txt"))


def random_questions(args, feed, stops):
    """--random questions: pairs of distinct served stops in one part of the network (stops joined
    by trips; not by walks, so that the questions are the same whatever --walk), at a minute from
    06:00 to 20:00 on DATE."""
    parent = {}

    def root(s):
        while parent.setdefault(s, s) != s:
            parent[s] = parent[parent[s]]
            s = parent[s]
        return s

    served, last_trip, last_stop = set(), None, None
    with open(os.path.join(feed, "stop_times.txt"), encoding="utf-8-sig", newline="") as f:
        reader = csv.reader(f)
        header = [h.strip() for h in next(reader)]
        trip_column, stop_column = header.index("trip_id"), header.index("stop_id")
        for row in reader:
            if len(row) > max(trip_column, stop_column):
                trip, stop = row[trip_column], row[stop_column]
                served.add(stop)
                if trip == last_trip and stop != last_stop:
                    parent[root(stop)] = root(last_stop)
                last_trip, last_stop = trip, stop
    order = [s for s, _, _ in stops if s in served]
    parts = {}
    for s in order:
        parts.setdefault(root(s), []).append(s)
    if not any(len(part) > 1 for part in parts.values()):
        raise ValueError("no two served stops are joined by trips")
    rng = random.Random(args.seed)
    day = dt.date.fromisoformat(args.date)
    questions = []
    while len(questions) < args.random:
        origin = order[rng.randrange(len(order))]
        part = parts[root(origin)]
        if len(part) < 2:
            continue
        target = origin
        while target == origin:
            target = part[rng.randrange(len(part))]
        minute = rng.randint(6 * 60, 20 * 60)
        questions.append((origin, target, f"{day} {minute // 60:02d}:{minute % 60:02d}"))
    return questions


def read_questions(path):
    questions = []
    with open(path, encoding="utf-8-sig", newline="") as f:
        for number, row in enumerate(csv.DictReader(f), 2):
            try:
                at = row["at"].strip()
                dt.datetime.strptime(at, "%Y-%m-%d %H:%M")
                questions.append((row["from"].strip(), row["to"].strip(), at))
            except (KeyError, ValueError, AttributeError):
                raise ValueError(f"{path}:{number}: expected from,to,at with at as YYYY-MM-DD HH:MM")
    if not questions:
        raise ValueError(f"{path}: no questions")
    return questions


def prepare(args, work):
    """Runs in a child process: writes the feed nigiri loads into `work`/feed (with its
    transfers.txt) and `work`/prep.json: the time zone, counts, and the questions with the
    walks from their origin and to their destination."""
    feed = os.path.join(work, "feed")
    unpack(args, feed)
    zone = next((a["agency_timezone"].strip() for a in read_table(feed, "agency.txt")
                 if a.get("agency_timezone", "").strip()), "")
    stops, stations, children = [], set(), {}
    for row in read_table(feed, "stops.txt"):
        stop_id = row.get("stop_id", "")
        if row.get("location_type", "").strip() == "1":
            stations.add(stop_id)
        if row.get("parent_station", "").strip():
            children.setdefault(row["parent_station"].strip(), []).append(stop_id)
        try:
            stops.append((stop_id, float(row["stop_lat"]), float(row["stop_lon"])))
        except (KeyError, ValueError):
            pass
    radius = min(args.walk, NIGIRI_LINK_LIMIT) if args.nigiri_footpaths else args.walk
    pairs = linked_pairs(stops, radius)
    longest = 0
    if not args.nigiri_footpaths:
        with open(os.path.join(feed, "transfers.txt"), "w", newline="", encoding="utf-8") as f:
            out = csv.writer(f, lineterminator="\n")
            out.writerow(["from_stop_id", "to_stop_id", "transfer_type", "min_transfer_time"])
            for stop_id, _, _ in stops:
                out.writerow([stop_id, stop_id, 2, 0])
            for a, b, d in pairs:
                minutes = walk_minutes(d)
                longest = max(longest, minutes)
                out.writerow([a, b, 2, 60 * minutes])
    questions = random_questions(args, feed, stops) if args.random else read_questions(args.questions)
    walks = {}
    if not args.nigiri_footpaths:
        asked = {s for origin, target, _ in questions for s in (origin, target)}
        for s in asked:
            walks[s] = {child: 0 for child in children.get(s, ())}
            walks[s][s] = 0
        for a, b, d in pairs:
            if a in asked:
                walks[a][b] = min(walks[a].get(b, math.inf), walk_minutes(d))
    with open(os.path.join(work, "prep.json"), "w", encoding="utf-8") as f:
        json.dump({"zone": zone, "stations": sorted(stations), "stops": len(stops), "pairs": len(pairs),
                   "longest_walk": longest, "questions": questions, "walks": walks}, f)


def run_prepare(args, work):
    """prepare() in a forked child, so that its memory stays out of this process's peak RSS."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            prepare(args, work)
        except Exception as error:
            print(f"{sys.argv[0]}: {error}", file=sys.stderr)
            code = 1
        sys.stderr.flush()
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(1)
    with open(os.path.join(work, "prep.json"), encoding="utf-8") as f:
        return json.load(f)


def quiet_stderr():
    """Sends file descriptor 2 (nigiri's log) to a temporary file; returns a function that puts
    it back and returns the text logged."""
    sys.stderr.flush()
    saved = os.dup(2)
    log = tempfile.TemporaryFile()
    os.dup2(log.fileno(), 2)

    def restore():
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)
        log.seek(0)
        return log.read().decode(errors="replace")
    return restore


def percentile(values, fraction):
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def main():
    started = process_age()
    summary, _, details = __doc__.partition("\n\n")
    parser = argparse.ArgumentParser(description=summary, epilog=details,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("feed", help="GTFS zip or folder")
    parser.add_argument("date", help="YYYY-MM-DD: the day of --random questions and of the days loaded")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--questions", metavar="CSV", help="questions: from,to,at (stop ids, local YYYY-MM-DD HH:MM)")
    source.add_argument("--random", type=int, metavar="N", help="N random questions drawn from the feed")
    parser.add_argument("--seed", type=int, default=42, help="seed of --random (default 42)")
    parser.add_argument("--walk", type=float, default=500, metavar="METRES",
                        help="walk radius in metres (default 500)")
    parser.add_argument("--max-rides", type=int, default=5, metavar="N", help="most rides in a journey (default 5)")
    parser.add_argument("--json", metavar="OUT", help="write each question's Pareto answers to OUT")
    parser.add_argument("--write-questions", metavar="CSV", help="write the questions asked to CSV")
    parser.add_argument("--stay-seated", action="store_true",
                        help="keep trips.txt's block_id: nigiri rides on into a block's next trip, as one ride")
    parser.add_argument("--nigiri-footpaths", action="store_true",
                        help="nigiri links stops itself (1.5 m/s, >= 2 min, <= 500 m) instead of transit's rule")
    parser.add_argument("--keep", metavar="DIR", help="copy the GTFS folder nigiri loaded (with its transfers.txt) to DIR")
    args = parser.parse_args()
    try:
        day = dt.date.fromisoformat(args.date)
    except ValueError:
        parser.error(f"date {args.date!r} is not YYYY-MM-DD")
    if args.max_rides < 1 or (args.random is not None and args.random < 1) or args.walk < 0:
        parser.error("--max-rides and --random must be at least 1, --walk at least 0")
    if importlib.util.find_spec("pynigiri") is None:
        print("pynigiri is not installed: pip install pynigiri", file=sys.stderr)
        sys.exit(2)
    if not os.path.exists(args.feed):
        parser.error(f"no feed at {args.feed}")

    with tempfile.TemporaryDirectory(prefix="bench-plan-nigiri-") as work:
        prep_started = time.perf_counter()
        prep = run_prepare(args, work)
        prep_seconds = time.perf_counter() - prep_started
        if not prep["zone"]:
            sys.exit(f"{args.feed}: agency.txt names no agency_timezone")
        zone = ZoneInfo(prep["zone"])
        questions = [(origin, target, dt.datetime.strptime(at, "%Y-%m-%d %H:%M").replace(tzinfo=zone))
                     for origin, target, at in prep["questions"]]
        days = [day] + [at.date() for _, _, at in questions]
        first_day, last_day = min(days) - dt.timedelta(days=1), max(days) + dt.timedelta(days=2)

        import_started = time.perf_counter()
        import pynigiri as ng
        import_seconds = time.perf_counter() - import_started

        config = ng.LoaderConfig()
        config.link_stop_distance = int(args.walk) if args.nigiri_footpaths else 0
        options = ng.FinalizeOptions()
        if not args.nigiri_footpaths:
            options.max_footpath_length = prep["longest_walk"] + 1
        restore = quiet_stderr()
        load_started, load_cpu_started = time.perf_counter(), time.process_time()
        try:
            timetable = ng.load_timetable([ng.TimetableSource("gtfs", os.path.join(work, "feed"), config)],
                                          first_day.isoformat(), last_day.isoformat(), options)
        except Exception as error:
            sys.stderr.write(restore()[-4000:])
            sys.exit(f"nigiri could not load {args.feed}: {error}")
        load_seconds = time.perf_counter() - load_started
        load_cpu = time.process_time() - load_cpu_started
        restore()
        peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        if args.keep:
            shutil.copytree(os.path.join(work, "feed"), args.keep, dirs_exist_ok=True)
        walk_note = (f"nigiri's own links (<= {min(args.walk, NIGIRI_LINK_LIMIT):g} m)" if args.nigiri_footpaths
                     else f"{prep['pairs']:,} links <= {args.walk:g} m, longest walk {prep['longest_walk']} min")
        print(f"feed {args.feed}: {prep['stops']:,} stops, {timetable.n_transports():,} nigiri transports, "
              f"days {first_day} to {last_day}; {walk_note}; prepared in {prep_seconds:.2f} s (not counted)")
        print(f"load: {load_seconds:.2f} s (CPU {load_cpu:.2f} s), peak RSS {peak_mib:.0f} MiB")

        stations = set(prep["stations"])
        results, times, cpu_times, skipped = [], [], [], 0
        for origin, target, at in questions:
            query = ng.Query()
            query.start_time = int(at.timestamp()) // 60
            query.max_transfers = args.max_rides - 1
            if args.nigiri_footpaths:
                start, dest = timetable.find_location(origin), timetable.find_location(target)
                ok = start is not None and dest is not None
                if ok:
                    query.start, query.destination = [ng.Offset(start, 0, 0)], [ng.Offset(dest, 0, 0)]
                    query.use_start_footpaths = True
                    exact, children = ng.LocationMatchMode.EXACT, ng.LocationMatchMode.ONLY_CHILDREN
                    query.start_match_mode = children if origin in stations else exact
                    query.dest_match_mode = children if target in stations else exact
            else:
                # The stop itself at 0 and each stop linked to it at its walk, in whole minutes.
                ends = []
                for stop_id in (origin, target):
                    places = [(timetable.find_location(s), minutes) for s, minutes in prep["walks"][stop_id].items()]
                    ends.append([ng.Offset(place, minutes, 0) for place, minutes in places if place is not None])
                ok = all(timetable.find_location(s) is not None for s in (origin, target))
                if ok:
                    query.start, query.destination = ends
                    query.start_match_mode = query.dest_match_mode = ng.LocationMatchMode.INTERMODAL
            if not ok:
                skipped += 1
                print(f"  skipped {origin} -> {target}: a stop not in the feed", file=sys.stderr)
                results.append((origin, target, at, None, []))
                continue
            query_started, cpu_started = time.perf_counter(), time.thread_time()
            journeys = ng.route(timetable, query)
            seconds = time.perf_counter() - query_started
            cpu_times.append(time.thread_time() - cpu_started)
            times.append(seconds)
            results.append((origin, target, at, seconds, journeys))
        if not times:
            sys.exit("no question could be asked: their stops are not in the feed")

        answered = sum(1 for *_, journeys in results if journeys)
        overlaps = 0 if args.nigiri_footpaths else sum(
            1 for origin, target, _ in questions if set(prep["walks"][origin]) & set(prep["walks"][target]))
        journey_count = sum(len(journeys) for *_, journeys in results)
        median, p90 = statistics.median(times), percentile(times, 0.9)
        print(f"queries: {len(times)} asked ({skipped} skipped), {answered} answered, "
              f"{journey_count / len(times):.2f} journeys each; median {median * 1000:.2f} ms, "
              f"p90 {p90 * 1000:.2f} ms, mean {statistics.fmean(times) * 1000:.2f} ms, max {max(times) * 1000:.2f} ms; "
              f"CPU median {statistics.median(cpu_times) * 1000:.2f} ms, p90 {percentile(cpu_times, 0.9) * 1000:.2f} ms")
        if overlaps:
            print(f"  {overlaps} of them with the origin's and the destination's walks meeting: nigiri answers there "
                  f"only what arrives before walking would (\"walk_overlap\" in --json)")
        if started is not None:
            whole = started + import_seconds + load_seconds + times[0]
            print(f"first question, whole process: {whole:.2f} s (start-up {started:.2f} s, "
                  f"import {import_seconds:.2f} s, load {load_seconds:.2f} s, query {times[0] * 1000:.1f} ms)")
        if args.write_questions:
            with open(args.write_questions, "w", newline="", encoding="utf-8") as f:
                out = csv.writer(f, lineterminator="\n")
                out.writerow(["from", "to", "at"])
                for origin, target, at in questions:
                    out.writerow([origin, target, at.strftime("%Y-%m-%d %H:%M")])
        if args.json:
            def local(minutes):
                return dt.datetime.fromtimestamp(minutes * 60, zone).isoformat()
            def departure(journey):
                # With transit's walks the legs are: the walk from the origin (an offset leg from
                # nigiri's START, maybe 0 minutes, which nigiri may put at the query's time), the
                # first ride, (walk, ride)*, the walk to the destination (to END). One leaves the
                # origin the walk's minutes before the first ride. With nigiri's footpaths a first
                # walk can't be told from a ride: departure is the first leg's, as nigiri has it.
                legs = journey.legs
                if args.nigiri_footpaths or len(legs) < 2:
                    return legs[0].dep_time
                return legs[1].dep_time - (legs[0].arr_time - legs[0].dep_time)

            answers = []
            for origin, target, at, seconds, journeys in results:
                found = [{"departure": local(departure(j)), "arrival": local(j.arrival_time()),
                          "rides": j.transfers + 1}  # Journey.transfers is rides - 1
                         for j in sorted(journeys, key=lambda j: (j.arrival_time(), j.transfers))]
                answer = {"from": origin, "to": target, "at": at.isoformat(), "journeys": found}
                if not args.nigiri_footpaths and set(prep["walks"][origin]) & set(prep["walks"][target]):
                    # A stop both walks reach: nigiri's destination is reached by walking alone in
                    # its round 0, which it never answers, and which hides later journeys by rides.
                    answer["walk_overlap"] = True
                    if target in prep["walks"][origin]:
                        answer["walk_minutes"] = prep["walks"][origin][target]
                if seconds is None:
                    answer["skipped"] = "a stop not in the feed"
                else:
                    answer["ms"] = round(seconds * 1000, 3)
                answers.append(answer)
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump({"planner": "nigiri", "pynigiri": importlib.metadata.version("pynigiri"),
                           "feed": args.feed, "time_zone": prep["zone"], "walk_radius_m": args.walk,
                           "max_rides": args.max_rides,
                           "footpaths": "nigiri" if args.nigiri_footpaths else "transit",
                           "stay_seated": args.stay_seated, "questions": answers}, f, ensure_ascii=False, indent=1)
                f.write("\n")
        walk_text = f"walk ≤ {args.walk:g} m" + (" by nigiri's links" if args.nigiri_footpaths else "")
        print(f"nigiri: load {load_seconds:.2f} s, {peak_mib:.0f} MiB; Pareto query median {median * 1000:.1f} ms, "
              f"p90 {p90 * 1000:.1f} ms ({len(times)} questions, {walk_text}, max {args.max_rides} rides)")


if __name__ == "__main__":
    main()
