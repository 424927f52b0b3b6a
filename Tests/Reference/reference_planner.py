#!/usr/bin/env python3
"""A brute-force reference journey planner for transit databases.

It answers `plan` and `reach` the slow, obvious way so that the Swift planner can be checked
against it on many random questions. Standard library only.

    reference_planner.py --db DB [--source FEEDNAME=PATH]... plan FROM TO --at "2026-03-02 08:00"
    reference_planner.py --db DB plan FROM TO --arrive-by "2026-03-02 09:00" [--max-rides 8]
    reference_planner.py --db DB reach FROM --at "2026-03-02 08:00" --within 30
    (every question also takes --max-walk METRES (500), --max-access-walk METRES (1000),
    --walk-speed M/S (1.33) and --check,
    which checks each journey leg by leg with check_journey before printing it)
    reference_planner.py --db DB [--source ...] batch < questions.jsonl
    (one question a line as a JSON array of its arguments, e.g. ["plan", "A", "B", "--at",
    "2026-03-02 08:00"]; one JSON answer a line; the database is read once)
    --realtime (before the command) applies every realtime change stored in the database
    (rule 17); the caller makes sure the data is fresh for its questions.

INTERPRETATION DECISIONS (the Swift planner must match these)
=============================================================
Time
 1. All feeds of the database plan together. Times given on the command line are local times of
    the zone of the first feed (lowest feeds.id); in a daylight-saving gap or overlap the first
    reading applies (Python's fold=0). Every time written out (journey, leg and reach times) is
    ISO 8601 with that same zone's offset, e.g. 2026-03-02T08:00:00+01:00.
 2. A call's instant is (noon - 12 h of its service date in its feed's zone) + its GTFS time.
    Service dates used: D-1, D and D+1, where D is the local date (in each feed's zone) of the
    given time, and also D-j for every j >= 2 with the feed's largest_time > j * 24 h. The same
    dates serve --at, --arrive-by and reach.
 3. frequencies.txt: for each row, runs start at start_time, start_time + headway, ... while
    < end_time; a call of a run happens at run start + (that call's time - the departure of the
    trip's first call that has a departure time, by stop_sequence). exact_times changes nothing.
    A trip with frequency rows runs only as those runs.
 4. A call can be boarded when pickup_type != 1 and it has a departure; left when drop_off_type != 1
    and it has an arrival (interpolated times count; calls still without times cannot be used).
Places
 5. FROM / TO: a stop_id of any feed (FEED:ID picks the feed; an id found in several feeds is an
    error); a station (location_type 1) means its child stops of location_type 0, each reached at
    0 s; a stop of location_type 0 means itself; other location types are refused. LAT,LON is a
    point: it is joined to the boarding points (location_type 0, all feeds) within
    --max-access-walk (not --max-walk: a walk to or from a point may be longer than a walk between
    two rides) by a walk of ceil(distance / speed) seconds (transfer rows never apply to a point).
Journeys
 6. A journey is [walk] ride [walk] ride ... [walk], at most --max-rides rides, at most one walk
    before the first ride, between two rides and after the last. The rider may wait anywhere
    (at a stop, or before/after a walk: a walk may be taken at any later time).
 7. A ride boards a run at a boardable call whose departure >= the time the rider is there
    (equal allowed) and leaves it at a later leavable call, at its arrival.
 8. Walks between rides may start or end anywhere, including the origin's or the destination's
    own points (nothing is special about them mid-journey). Boarding points are the stops of
    location_type 0.
 9. Changing without walking (leave a ride at stop s, board the next at s): 0 s, unless the
    transfer rule for s -> s (see 11) has type 2 (then min_transfer_time, 0 s when empty) or
    type 3 (no change at s). Types 0 and 1 change nothing there.
10. A walk a -> b (a != b, both boarding points) exists when the transfer rule for a -> b has type
    0, 1 or 2 (seconds: min_transfer_time when given, else ceil(distance / speed); it counts even
    beyond --max-walk), or when there is no rule for a -> b and the great-circle distance is
    <= --max-walk (seconds ceil(distance / speed)). A rule of type 3 forbids the walk a -> b.
    A rule a -> b never changes b -> a. A walk that ends at a stop and is followed by boarding
    there is the transfer: no change rule of that stop applies. A stop without coordinates has
    no distance walks (a transfer row with min_transfer_time still gives one, metres null).
11. Transfer rules: transfers.txt rows with empty/absent from_route_id, to_route_id, from_trip_id
    and to_trip_id; types 4 and 5 (and unknown types, and rows naming unknown stops) are skipped
    as if absent; an empty transfer_type is 0. The rule for a -> b is the most specific row of:
    a -> b, a -> station(b), station(a) -> b, station(a) -> station(b) (a row naming a station
    applies to each of its boarding points). A later row with the same (from, to) replaces an
    earlier one. transfers.txt is read from --source FEED=PATH (folder or zip, BOM tolerated);
    without --source, from feeds.source when that path exists; otherwise the feed has no rules.
12. Distances: haversine, R = 6,371,008.8 m. A walk's "metres" is the distance rounded half up.
    Walk seconds = ceil(distance / speed).
13. A point origin always starts with a walk leg (from_stop_id null) and a point destination
    always ends with one (to_stop_id null), even of 0 m; point to point within --max-walk is one
    walk leg (null -> null) when within --max-access-walk. A stop/station origin that is (or shares a point with) the
    destination gives a 0-ride journey with no legs, leaving and arriving at the given time.
14. Journey departure = when its first leg starts: a leading walk starts just in time for the
    first ride (first ride departure - walk seconds); a 0-ride journey leaves at --at (with
    --arrive-by: at the given time - walk seconds). Journey arrival = the last ride's arrival +
    a trailing walk's seconds (the trailing walk starts on leaving the ride).
    --at: the journey leaves at or after the given time; --arrive-by: it arrives by it.
Answers
15. plan --at T: for k = 0..N the earliest arrival EA_k with <= k rides, kept when strictly
    earlier than EA_j for all j < k. The journey shown for a kept k is found by an arrive-by
    search to the destination by EA_k with <= k rides, leaving at or after T: it leaves as late
    as possible (and then uses exactly k rides and arrives exactly at EA_k).
    plan --arrive-by T: the mirror: for k = 0..N the latest departure LD_k with <= k rides
    arriving by T, kept when strictly later than for every j < k; the journey shown is found by an
    --at search from LD_k with <= k rides and arrives as early as possible.
    Journeys are listed by rides, ascending. Ties between equal journeys are broken arbitrarily.
16. reach FROM --at T --within M: every boarding point whose earliest arrival (<= N rides) is
    <= T + 60 M, with that arrival and the fewest rides reaching it then. The origin's own points
    are reached at T with 0 rides; points reached by walking from the origin have 0 rides. An
    arrival at a stop is on leaving a ride there or at the end of a walk (no change time added).
    Sorted by arrival, then stop_id, then feed. Each entry also names its "feed".

Realtime
17. With --realtime, the rows of realtime_stop_times (what `transit realtime` stored: per changed
    stop time of a run, its delay or that it is skipped) change the runs they name: the run of
    `trip` on `service_date` (for a frequency trip, the run starting at `run_start`). A skipped
    call can be neither boarded nor left; a delayed call's arrival and departure both move by the
    delay; calls without a row keep the timetable. Then times never go back along the run: over
    the calls that can still be used, in order, an arrival is raised to the last usable time
    before it, and a departure to the last usable time before it (its own arrival included).
    A ride on a changed run has "realtime": true.

The search (run once per direction): a round-based label search over "runs" (one run = one trip
on one service date, or one frequency run) with labels ready[k][stop] (the earliest time the
rider can board there after <= k rides) and arrived[k][stop] (the earliest arrival by the
k-th or an earlier ride); each round scans every run of the question's window in full, boarding
each at its first call where the rider is ready in time. The arrive-by search is the same code
run on the mirrored network: every run reversed and its times negated (boarding and leaving
swap), every walk reversed; the journey found is mirrored back. Two shortcuts keep it quick and
cannot change an answer: runs with no boardable call after the question's start (or no leavable
call before its end) are never read, and once the destination is reached at time t, runs that
cannot be left before t are dropped from later rounds (only strictly earlier arrivals count).
The tests check the search against an enumeration of every journey on small random feeds.
"""

import argparse
import csv
import datetime as dt
import io
import itertools
import json
import math
import operator
import os
import re
import sqlite3
import sys
import zipfile
from zoneinfo import ZoneInfo

EARTH_RADIUS = 6_371_008.8
INFINITY = float("inf")


def haversine(lat1, lon1, lat2, lon2):
    """Great-circle distance in metres (the same formula as the Swift Geo.distance)."""
    phi1, phi2 = math.radians(lat1), math.radians(lat2)
    dphi, dlambda = math.radians(lat2 - lat1), math.radians(lon2 - lon1)
    a = math.sin(dphi / 2) * math.sin(dphi / 2) + math.cos(phi1) * math.cos(phi2) * math.sin(dlambda / 2) * math.sin(dlambda / 2)
    return 2 * EARTH_RADIUS * math.asin(min(1.0, math.sqrt(a)))


def round_metres(distance):
    return None if distance is None else int(math.floor(distance + 0.5))


class PlannerError(Exception):
    """A question that cannot be asked (unknown stop, bad time, ...)."""


# ---------------------------------------------------------------------------------------------
# The network: feeds, stops, transfer rules, walks
# ---------------------------------------------------------------------------------------------

class Feed:
    def __init__(self, key, name, zone, largest_time, source):
        self.key, self.name, self.zone, self.largest_time, self.source = key, name, zone, largest_time, source

    def noon_minus_12h(self, yyyymmdd):
        year, month, day = yyyymmdd // 10000, yyyymmdd // 100 % 100, yyyymmdd % 100
        return int(dt.datetime(year, month, day, 12, tzinfo=self.zone).timestamp()) - 12 * 3600


class Stop:
    __slots__ = ("key", "feed", "stop_id", "name", "lat", "lon", "location_type", "parent")

    def __init__(self, key, feed, stop_id, name, lat, lon, location_type, parent):
        self.key, self.feed, self.stop_id, self.name = key, feed, stop_id, name
        self.lat, self.lon, self.location_type, self.parent = lat, lon, location_type, parent


class Walk:
    """A walk leg: stops are keys, None for a point."""
    __slots__ = ("origin", "target", "seconds", "metres")

    def __init__(self, origin, target, seconds, metres):
        self.origin, self.target, self.seconds, self.metres = origin, target, seconds, metres

    def mirrored(self):
        return Walk(self.target, self.origin, self.seconds, self.metres)


class Ride:
    """A ride leg: board run.calls[board], leave run.calls[leave]."""
    __slots__ = ("run", "board", "leave")

    def __init__(self, run, board, leave):
        self.run, self.board, self.leave = run, board, leave

    def mirrored(self):
        last = len(self.run.calls) - 1
        return Ride(self.run.mirrored(), last - self.leave, last - self.board)

    @property
    def departure(self):
        return self.run.calls[self.board][2]

    @property
    def arrival(self):
        return self.run.calls[self.leave][1]


class Trip:
    """A trip's calls in GTFS seconds, by stop_sequence: (trip key, stop key, arrival or None when
    it cannot be left there, departure or None when it cannot be boarded there) (rule 4), and its
    frequency rows."""
    __slots__ = ("key", "feed", "trip_id", "route_id", "route_short_name", "calls", "sequences", "frequencies", "first_departure",
                 "realtime", "_bounds")

    def __init__(self, key, feed, trip_id, route_id, route_short_name):
        self.key, self.feed, self.trip_id, self.route_id, self.route_short_name = key, feed, trip_id, route_id, route_short_name
        self.calls, self.sequences, self.frequencies, self.first_departure = [], [], [], None
        self.realtime = False
        self._bounds = None

    def predicted(self, changes):
        """Rule 17: a copy of this trip whose calls are changed by `changes` ({stop_sequence:
        (delay or None, skipped)}), marked realtime."""
        copy = Trip(self.key, self.feed, self.trip_id, self.route_id, self.route_short_name)
        copy.frequencies, copy.first_departure, copy.sequences, copy.realtime = self.frequencies, self.first_departure, self.sequences, True
        calls, last = [], -INFINITY
        for (trip, stop, arrival, departure), sequence in zip(self.calls, self.sequences):
            delay, skipped = changes.get(sequence, (None, False))
            if skipped:
                arrival = departure = None
            elif delay is not None:
                arrival = None if arrival is None else arrival + delay
                departure = None if departure is None else departure + delay
            if arrival is not None:
                arrival = last = max(arrival, last)
            if departure is not None:
                departure = last = max(departure, last)
            calls.append((trip, stop, arrival, departure))
        copy.calls = calls
        return copy

    def bounds(self):
        """(latest boardable departure, earliest leavable arrival), GTFS seconds, +-infinity if none."""
        if self._bounds is None:
            departures = [d for _, _, _, d in self.calls if d is not None]
            arrivals = [a for _, _, a, _ in self.calls if a is not None]
            self._bounds = (max(departures) if departures else -INFINITY, min(arrivals) if arrivals else INFINITY)
        return self._bounds


class Run:
    """One trip on one service date, or one frequency run: its calls shifted by `shift` seconds
    (instants), or, mirrored, reversed with times negated (boarding and leaving swap)."""
    __slots__ = ("trip", "service_date", "shift", "reversed", "mirror", "_calls", "latest_boarding", "earliest_leaving")

    def __init__(self, trip, service_date, shift, reversed_=False):
        self.trip, self.service_date, self.shift, self.reversed = trip, service_date, shift, reversed_
        self.mirror, self._calls = None, None
        # The latest boarding and the earliest leaving: a run outside a window is never useful.
        latest, earliest = trip.bounds()
        latest, earliest = latest + shift, earliest + shift
        self.latest_boarding, self.earliest_leaving = (-earliest, -latest) if reversed_ else (latest, earliest)

    @property
    def calls(self):
        """(stop key, arrival instant or None, departure instant or None), in riding order."""
        if self._calls is None:
            k = self.shift
            if self.reversed:
                self._calls = [(s, None if d is None else -(d + k), None if a is None else -(a + k))
                               for _, s, a, d in reversed(self.trip.calls)]
            else:
                self._calls = [(s, None if a is None else a + k, None if d is None else d + k) for _, s, a, d in self.trip.calls]
        return self._calls

    def mirrored(self):
        if self.mirror is None:
            self.mirror = Run(self.trip, self.service_date, self.shift, not self.reversed)
            self.mirror.mirror = self
        return self.mirror


def open_feed_file(source, name):
    """The text of `name` (e.g. transfers.txt) in a feed folder or zip, or None."""
    if source is None or not os.path.exists(source):
        return None
    if os.path.isdir(source):
        path = os.path.join(source, name)
        if not os.path.isfile(path):
            return None
        with open(path, "rb") as f:
            data = f.read()
    else:
        with zipfile.ZipFile(source) as archive:
            members = [m for m in archive.namelist() if m.rsplit("/", 1)[-1] == name]
            if not members:
                return None
            members.sort(key=lambda m: m.count("/"))
            data = archive.read(members[0])
    return data.decode("utf-8-sig", errors="replace")


class Network:
    """Everything about the database that does not depend on the question's time."""

    def __init__(self, db_path, sources=None, max_walk=500.0, walk_speed=1.33, realtime=False, max_access_walk=1000.0):
        if not os.path.exists(db_path):
            raise PlannerError(f"no database at {db_path}")
        self.db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
        self.max_walk, self.walk_speed = float(max_walk), float(walk_speed)
        self.max_access_walk = float(max_access_walk)
        sources = dict(sources or {})
        self.feeds = {}
        for key, name, zone, largest, source in self.db.execute(
                "SELECT id, name, time_zone, largest_time, source FROM feeds ORDER BY id"):
            self.feeds[key] = Feed(key, name, ZoneInfo(zone), largest or 0, sources.pop(name, source))
        if not self.feeds:
            raise PlannerError("the database has no feeds")
        if sources:
            raise PlannerError(f"--source names no feed of the database: {', '.join(sorted(sources))}")
        self.first_feed = self.feeds[min(self.feeds)]
        self.zone = self.first_feed.zone
        self.stops = {}
        for row in self.db.execute(
                "SELECT id, feed, stop_id, stop_name, stop_lat, stop_lon, location_type, parent FROM stops"):
            stop = Stop(*row)
            self.stops[stop.key] = stop
        self.boarding_points = [s for s in self.stops.values() if s.location_type == 0]
        self.children = {}
        for stop in self.boarding_points:
            if stop.parent is not None:
                self.children.setdefault(stop.parent, []).append(stop.key)
        self.rules = self._read_transfer_rules()
        self.walks = self._walks()
        self.mirrored_walks = {}
        for a, targets in self.walks.items():
            for b, (seconds, metres) in targets.items():
                self.mirrored_walks.setdefault(b, {})[a] = (seconds, metres)
        self.change_seconds = {}  # stop -> seconds to stay and change there; absent: forbidden
        for stop in self.boarding_points:
            rule = self.rule(stop.key, stop.key)
            if rule is None or rule[0] in (0, 1):
                self.change_seconds[stop.key] = 0
            elif rule[0] == 2:
                self.change_seconds[stop.key] = rule[1] or 0
        self._trips = {}  # trip key -> Trip, read when first needed
        self._runs = {}  # (trip key, service date) -> [Run]
        self._running_by_date = {}  # (feed key, service date) -> [trip key]
        self._spans_by_feed = {}  # feed key -> {trip key: (largest departure, smallest arrival)}
        # Rule 17: (trip key, service date, run start or None) -> {stop_sequence: (delay, skipped)}.
        self.changes = self._read_realtime_changes() if realtime else {}
        delays = [delay for changes in self.changes.values() for delay, _ in changes.values() if delay is not None]
        self.earliest_delay, self.latest_delay = min(delays + [0]), max(delays + [0])

    def _read_realtime_changes(self):
        changes = {}
        try:
            rows = self.db.execute("SELECT trip, service_date, run_start, stop_sequence, delay, skipped FROM realtime_stop_times")
            for trip, date, run_start, sequence, delay, skipped in rows:
                changes.setdefault((trip, date, run_start), {})[sequence] = (delay, bool(skipped))
        except sqlite3.OperationalError:  # no realtime data was ever read into the database
            pass
        return changes

    # -- transfers --------------------------------------------------------------------------

    def _read_transfer_rules(self):
        """(from stop key, to stop key) -> (type, min_transfer_time or None), the keys naming
        boarding points or stations, as transfers.txt gives them (rows kept per rule 11)."""
        rules = {}
        for feed in self.feeds.values():
            text = open_feed_file(feed.source, "transfers.txt")
            if text is None:
                continue
            keys = {s.stop_id: s.key for s in self.stops.values() if s.feed == feed.key and s.location_type in (0, 1)}
            for row in csv.DictReader(io.StringIO(text)):
                row = {k.strip(): (v or "").strip() for k, v in row.items() if isinstance(k, str) and isinstance(v, (str, type(None)))}
                if any(row.get(c) for c in ("from_route_id", "to_route_id", "from_trip_id", "to_trip_id")):
                    continue
                kind = row.get("transfer_type", "") or "0"
                if kind not in ("0", "1", "2", "3"):
                    continue
                origin, target = keys.get(row.get("from_stop_id", "")), keys.get(row.get("to_stop_id", ""))
                if origin is None or target is None:
                    continue
                try:
                    minimum = int(float(row.get("min_transfer_time", ""))) if row.get("min_transfer_time", "") else None
                except ValueError:
                    minimum = None  # unreadable: as if empty
                rules[(origin, target)] = (int(kind), minimum)
        return rules

    def rule(self, a, b):
        """The transfer rule for boarding point a -> boarding point b, most specific first."""
        station_a, station_b = self.stops[a].parent, self.stops[b].parent
        for pair in ((a, b), (a, station_b), (station_a, b), (station_a, station_b)):
            if None not in pair and pair in self.rules:
                return self.rules[pair]
        return None

    def distance(self, a, b):
        sa, sb = self.stops[a], self.stops[b]
        if None in (sa.lat, sa.lon, sb.lat, sb.lon):
            return None
        return haversine(sa.lat, sa.lon, sb.lat, sb.lon)

    def walk_seconds(self, distance):
        return math.ceil(distance / self.walk_speed)

    def _walks(self):
        """a -> {b: (seconds, metres)}: every walk of rule 10 between boarding points."""
        walks = {}
        # Distance walks: sort by latitude; two points farther apart in latitude alone than
        # max_walk are farther apart on the sphere too (d >= R * |delta phi|).
        placed = sorted((s for s in self.boarding_points if s.lat is not None and s.lon is not None), key=lambda s: s.lat)
        reach = math.degrees(self.max_walk / EARTH_RADIUS) + 1e-9
        for i, a in enumerate(placed):
            for b in placed[i + 1:]:
                if b.lat - a.lat > reach:
                    break
                d = haversine(a.lat, a.lon, b.lat, b.lon)
                if d <= self.max_walk:
                    walk = (self.walk_seconds(d), round_metres(d))
                    walks.setdefault(a.key, {})[b.key] = walk
                    walks.setdefault(b.key, {})[a.key] = walk
        # Transfer rules replace the distance rule for exactly the pairs they name.
        def points(key):  # a station means each of its boarding points
            return self.children.get(key, []) if self.stops[key].location_type == 1 else [key]

        named = {(a, b) for origin, target in self.rules for a in points(origin) for b in points(target) if a != b}
        for a, b in named:
            kind, minimum = self.rule(a, b)
            walks.setdefault(a, {}).pop(b, None)
            if kind == 3:
                continue
            d = self.distance(a, b)
            if minimum is not None:
                walks[a][b] = (minimum, round_metres(d))
            elif d is not None:
                walks[a][b] = (self.walk_seconds(d), round_metres(d))
        return {a: targets for a, targets in walks.items() if targets}

    def point_walks(self, lat, lon):
        """stop key -> (seconds, metres) for the boarding points within max_access_walk of a point."""
        found = {}
        for s in self.boarding_points:
            if s.lat is None or s.lon is None:
                continue
            d = haversine(lat, lon, s.lat, s.lon)
            if d <= self.max_access_walk:
                found[s.key] = (self.walk_seconds(d), round_metres(d))
        return found

    # -- places and times ---------------------------------------------------------------------

    def resolve(self, text):
        """A Place for FROM / TO (rule 5)."""
        match = re.fullmatch(r"\s*(-?\d+(?:\.\d*)?)\s*,\s*(-?\d+(?:\.\d*)?)\s*", text)
        if match:
            lat, lon = float(match.group(1)), float(match.group(2))
            if not (-90 <= lat <= 90 and -180 <= lon <= 180):
                raise PlannerError(f"{text}: not a latitude,longitude")
            return Place(text, point=(lat, lon))
        candidates = {s.key for s in self.stops.values() if s.stop_id == text}
        if ":" in text:
            feed_name, stop_id = text.split(":", 1)
            candidates |= {s.key for s in self.stops.values()
                           if s.stop_id == stop_id and self.feeds[s.feed].name == feed_name}
        if not candidates:
            raise PlannerError(f"no stop {text!r}")
        if len(candidates) > 1:
            names = sorted(f"{self.feeds[self.stops[k].feed].name}:{self.stops[k].stop_id}" for k in candidates)
            raise PlannerError(f"stop {text!r} is ambiguous: {', '.join(names)}")
        stop = self.stops[candidates.pop()]
        if stop.location_type == 1:
            points = sorted(self.children.get(stop.key, []))
            if not points:
                raise PlannerError(f"station {text!r} has no boarding points")
            return Place(text, stops=points)
        if stop.location_type == 0:
            return Place(text, stops=[stop.key])
        raise PlannerError(f"{text!r} is neither a boarding point nor a station (location_type {stop.location_type})")

    def parse_time(self, text):
        match = re.fullmatch(r"\s*(\d{4})-(\d{2})-(\d{2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?\s*", text)
        if not match:
            raise PlannerError(f"{text!r}: expected YYYY-MM-DD HH:MM[:SS]")
        y, mo, d, h, mi, s = (int(g or 0) for g in match.groups())
        return int(dt.datetime(y, mo, d, h, mi, s, tzinfo=self.zone, fold=0).timestamp())

    def iso(self, instant):
        return dt.datetime.fromtimestamp(instant, self.zone).isoformat()

    # -- runs -----------------------------------------------------------------------------------

    def service_dates(self, feed, instant):
        """Rule 2: the service dates whose trips count for a question at `instant`."""
        local = dt.datetime.fromtimestamp(instant, feed.zone).date()
        back = 1
        while feed.largest_time > (back + 1) * 86400:
            back += 1
        return [int((local + dt.timedelta(days=offset)).strftime("%Y%m%d")) for offset in range(-back, 2)]

    def runs(self, instant, earliest=-INFINITY, latest=INFINITY):
        """The runs (rules 2, 3, 4) of the service dates around `instant`, all feeds, leaving out
        runs with no boardable call at or after `earliest` or no leavable call at or before
        `latest`: they cannot be part of a journey within [earliest, latest]."""
        found = []
        for feed in self.feeds.values():
            spans = self._spans(feed)
            wanted = []
            for date in self.service_dates(feed, instant):
                base = feed.noon_minus_12h(date)
                for trip in self._running(feed, date):
                    span = spans.get(trip)
                    # A quick look before reading a trip: its largest departure and smallest
                    # arrival over all calls (frequency trips are always read).
                    # Realtime data may move a run by up to its largest delays.
                    if span == "frequencies" or (span is not None and span[0] is not None and span[1] is not None
                                                 and span[0] + base + self.latest_delay >= earliest
                                                 and span[1] + base + self.earliest_delay <= latest):
                        wanted.append((trip, date, base))
            self._read_trips(feed, {trip for trip, _, _ in wanted if trip not in self._trips})
            for trip, date, base in wanted:
                found.extend(self._trip_runs(self._trips[trip], date, base))
        return [run for run in found if run.latest_boarding >= earliest and run.earliest_leaving <= latest]

    def _spans(self, feed):
        """trip key -> (largest departure, smallest arrival) in GTFS seconds, or "frequencies"."""
        if feed.key not in self._spans_by_feed:
            n = feed.key
            spans = {trip: (latest, earliest) for trip, latest, earliest in self.db.execute(
                f"SELECT trip, max(departure), min(arrival) FROM stop_times_{n} GROUP BY trip")}
            for (trip,) in self.db.execute(
                    "SELECT DISTINCT f.trip FROM frequencies f JOIN trips t ON t.id = f.trip WHERE t.feed = ?", (n,)):
                if trip in spans:
                    spans[trip] = "frequencies"
            self._spans_by_feed[feed.key] = spans
        return self._spans_by_feed[feed.key]

    def _running(self, feed, date):
        """The keys of the trips of `feed` whose service runs on `date`."""
        if (feed.key, date) not in self._running_by_date:
            n = feed.key
            self._running_by_date[(feed.key, date)] = [trip for (trip,) in self.db.execute(
                f"SELECT t.id FROM trips t JOIN service_days_{n} d ON d.service = t.service "
                f"WHERE t.feed = ? AND d.date = ? ORDER BY t.id", (n, date))]
        return self._running_by_date[(feed.key, date)]

    def _trip_runs(self, trip, date, base):
        """The runs of `trip` on service date `date` (whose noon - 12 h is `base`)."""
        key = (trip.key, date)
        if key not in self._runs:
            def changed(run_start):
                # Rule 17: the trip as realtime data changes this run of it.
                changes = self.changes.get((trip.key, date, run_start))
                return trip.predicted(changes) if changes else trip
            if not trip.calls:
                runs = []
            elif not trip.frequencies:
                runs = [Run(changed(None), date, base)]
            elif trip.first_departure is None:
                runs = []
            else:
                # Rule 3: runs start at start, start + headway, ... while < end; each call keeps
                # its offset from the trip's first timed departure.
                runs = [Run(changed(run_start), date, base + run_start - trip.first_departure)
                        for start, end, headway in trip.frequencies for run_start in range(start, end, headway)]
            self._runs[key] = runs
        return self._runs[key]

    def _read_trips(self, feed, keys):
        """Reads the trips `keys` of `feed`: names, frequency rows, calls."""
        if not keys:
            return
        n = feed.key
        wanted = json.dumps(sorted(keys))
        for key, trip_id, route_id, short_name in self.db.execute(
                "SELECT t.id, t.trip_id, r.route_id, r.route_short_name FROM trips t JOIN routes r ON r.id = t.route "
                "WHERE t.id IN (SELECT value FROM json_each(?))", (wanted,)):
            self._trips[key] = Trip(key, feed, trip_id, route_id, short_name)
        for key, start, end, headway in self.db.execute(
                "SELECT trip, start_time, end_time, headway_secs FROM frequencies "
                "WHERE trip IN (SELECT value FROM json_each(?)) ORDER BY trip, start_time", (wanted,)):
            if headway is not None and headway > 0 and None not in (start, end):
                self._trips[key].frequencies.append((start, end, headway))
        # Rule 3 counts from the trip's first timed departure, whatever its pickup_type.
        for key, departure in self.db.execute(f"""
                SELECT st.trip, st.departure FROM stop_times_{n} st
                WHERE st.trip IN (SELECT DISTINCT trip FROM frequencies WHERE trip IN (SELECT value FROM json_each(?)))
                  AND st.stop_sequence = (SELECT min(stop_sequence) FROM stop_times_{n}
                                          WHERE trip = st.trip AND departure IS NOT NULL)""", (wanted,)):
            self._trips[key].first_departure = departure
        # Rule 4: an arrival where leaving is not allowed, a departure where boarding is not, is
        # read as no time. Calls are kept as the rows read: (trip key, stop key, arrival, departure).
        rows = self.db.execute(f"""
            SELECT trip, stop, CASE WHEN drop_off_type IS 1 THEN NULL ELSE arrival END,
                   CASE WHEN pickup_type IS 1 THEN NULL ELSE departure END, stop_sequence
            FROM stop_times_{n} WHERE trip IN (SELECT value FROM json_each(?)) ORDER BY trip, stop_sequence""", (wanted,))
        for key, calls in itertools.groupby(rows, key=operator.itemgetter(0)):
            calls = list(calls)
            self._trips[key].calls = [call[:4] for call in calls]
            self._trips[key].sequences = [call[4] for call in calls]


class Place:
    def __init__(self, text, stops=None, point=None):
        self.text, self.stops, self.point = text, stops, point


# ---------------------------------------------------------------------------------------------
# The search
# ---------------------------------------------------------------------------------------------

class Side:
    """A question in search orientation: in the forward search the origin is FROM and walks go
    a -> b; in the mirrored search the origin is TO, runs are mirrored and walks reversed."""

    def __init__(self, network, origin, destination, mirrored):
        self.network, self.origin, self.destination, self.mirrored = network, origin, destination, mirrored
        self.walks = network.mirrored_walks if mirrored else network.walks

    def starts(self):
        """stop -> list of (seconds, leg or None): how the rider reaches a stop before any ride."""
        starts = {}
        if self.origin.point is not None:
            for stop, (seconds, metres) in self.network.point_walks(*self.origin.point).items():
                starts.setdefault(stop, []).append((seconds, Walk(None, stop, seconds, metres)))
        else:
            for o in self.origin.stops:
                starts.setdefault(o, []).append((0, None))
                for stop, (seconds, metres) in self.walks.get(o, {}).items():
                    starts.setdefault(stop, []).append((seconds, Walk(o, stop, seconds, metres)))
        return starts

    def ends(self):
        """stop -> list of (seconds, leg or None): how the rider gets from leaving a ride at a stop
        to the destination."""
        ends = {}
        if self.destination.point is not None:
            for stop, (seconds, metres) in self.network.point_walks(*self.destination.point).items():
                ends.setdefault(stop, []).append((seconds, Walk(stop, None, seconds, metres)))
        else:
            targets = set(self.destination.stops)
            for p in targets:
                ends.setdefault(p, []).append((0, None))
            for a, walks in self.walks.items():
                for p in targets.intersection(walks):
                    seconds, metres = walks[p]
                    ends.setdefault(a, []).append((seconds, Walk(a, p, seconds, metres)))
        return ends

    def direct(self):
        """The 0-ride journeys: list of (seconds, legs)."""
        n, o, d = self.network, self.origin, self.destination
        found = []
        if o.point is not None and d.point is not None:
            distance = haversine(*o.point, *d.point)
            if distance <= n.max_access_walk:
                found.append((n.walk_seconds(distance), [Walk(None, None, n.walk_seconds(distance), round_metres(distance))]))
        elif o.point is not None:
            walks = n.point_walks(*o.point)
            found += [(walks[p][0], [Walk(None, p, *walks[p])]) for p in d.stops if p in walks]
        elif d.point is not None:
            walks = n.point_walks(*d.point)
            found += [(walks[s][0], [Walk(s, None, *walks[s])]) for s in o.stops if s in walks]
        else:
            for s in o.stops:
                for p in d.stops:
                    if s == p:
                        found.append((0, []))
                    elif p in self.walks.get(s, {}):
                        seconds, metres = self.walks[s][p]
                        found.append((seconds, [Walk(s, p, seconds, metres)]))
        return found


def label_search(runs, walks, change_seconds, starts, start_time, max_rides, after_round=None):
    """Round-based earliest-arrival labels in search orientation.

    after_round(k, ready, arrived), when given, is called after each round and returns a time
    from which on nothing matters any more (the best arrival at the destination so far: only
    strictly earlier arrivals can improve on it); runs that cannot be left before it are then
    dropped from later rounds. Labels at or after that time may then be missing or too late.

    ready[k][stop] = (time, how) the earliest the rider can be at stop ready to board after <= k
    rides; arrived[k][stop] = (time, how) the earliest arrival at stop leaving the k-th or an
    earlier ride. `how` is one of
        ("start", leg or None)               round 0: origin or a walk from it
        ("stay", round, stop)                change without walking after arrived[round][stop]
        ("walk", round, leg)                 a walk after arrived[round][leg.origin]
        ("ride", round, run, board, leave)   boarded with ready[round] (round = k - 1)
    """
    ready0 = {}
    for stop, options in starts.items():
        for seconds, leg in options:
            if stop not in ready0 or start_time + seconds < ready0[stop][0]:
                ready0[stop] = (start_time + seconds, ("start", leg))
    ready, arrived = [ready0], [{}]
    for k in range(1, max_rides + 1):
        previous = ready[k - 1]
        now = dict(arrived[k - 1])
        ready_at = {stop: label[0] for stop, label in previous.items()}.get
        for run in runs:
            calls = run.calls
            # Board at the first call where the rider is ready in time (boarding earlier never
            # loses anything: every later call stays reachable) ...
            board = 0
            for stop, _, departure in calls:
                if departure is not None and ready_at(stop, INFINITY) <= departure:
                    break
                board += 1
            # ... and leave at every later call that can be left.
            for leave in range(board + 1, len(calls)):
                stop, arrival, _ = calls[leave]
                if arrival is not None:
                    best = now.get(stop)
                    if best is None or arrival < best[0]:
                        now[stop] = (arrival, ("ride", k - 1, run, board, leave))
        nxt = dict(previous)
        for stop, (time, _) in now.items():
            change = change_seconds.get(stop)
            if change is not None and (stop not in nxt or time + change < nxt[stop][0]):
                nxt[stop] = (time + change, ("stay", k, stop))
            for target, (seconds, metres) in walks.get(stop, {}).items():
                if target not in nxt or time + seconds < nxt[target][0]:
                    nxt[target] = (time + seconds, ("walk", k, Walk(stop, target, seconds, metres)))
        ready.append(nxt)
        arrived.append(now)
        if after_round is not None:
            bound = after_round(k, ready, arrived)
            runs = [run for run in runs if run.earliest_leaving < bound]
    return ready, arrived


def legs_to(ready, arrived, round_, stop):
    """The legs (search orientation) of the journey behind arrived[round_][stop]."""
    legs = []
    how = arrived[round_][stop][1]
    while True:
        _, k, run, board, leave = how
        legs.append(Ride(run, board, leave))
        before = ready[k][run.calls[board][0]][1]
        if before[0] == "start":
            if before[1] is not None:
                legs.append(before[1])
            break
        if before[0] == "stay":
            how = arrived[before[1]][before[2]][1]
        else:
            legs.append(before[2])
            how = arrived[before[1]][before[2].origin][1]
    legs.reverse()
    return legs


class Found:
    """The best way to the destination with <= k rides, in search orientation."""

    def __init__(self, time, legs):
        self.time, self.legs = time, legs


def best_per_rides(side, runs, start_time, max_rides):
    """best[k] = Found (earliest search-orientation arrival with <= k rides) or None."""
    network = side.network
    best = [None] * (max_rides + 1)
    for seconds, legs in side.direct():
        if best[0] is None or start_time + seconds < best[0].time:
            best[0] = Found(start_time + seconds, legs)
    ends = side.ends()

    def arrivals(k, ready, arrived):
        best[k] = best[k - 1]
        for stop, (time, _) in arrived[k].items():
            for seconds, leg in ends.get(stop, ()):
                if best[k] is None or time + seconds < best[k].time:
                    legs = legs_to(ready, arrived, k, stop) + ([leg] if leg is not None else [])
                    best[k] = Found(time + seconds, legs)
        # A journey with more rides is kept only when it arrives strictly earlier (rule 15).
        return INFINITY if best[k] is None else best[k].time

    label_search(runs, side.walks, network.change_seconds, side.starts(), start_time, max_rides, arrivals)
    return best


def runs_in_window(runs, earliest, latest):
    """Runs (search orientation) with a boarding at or after `earliest` and a leaving at or
    before `latest`: no other run can be part of a journey within [earliest, latest]."""
    return [r for r in runs if r.latest_boarding >= earliest and r.earliest_leaving <= latest]


# ---------------------------------------------------------------------------------------------
# Journeys in real orientation
# ---------------------------------------------------------------------------------------------

class Journey:
    def __init__(self, departure, arrival, legs):
        self.departure, self.arrival, self.legs = departure, arrival, legs

    @property
    def rides(self):
        return sum(1 for leg in self.legs if isinstance(leg, Ride))


def journey_from(found, mirrored):
    """A Journey (real orientation) from a search result; times per rule 14."""
    legs = [leg.mirrored() for leg in reversed(found.legs)] if mirrored else list(found.legs)
    rides = [leg for leg in legs if isinstance(leg, Ride)]
    if rides:
        first, last = legs.index(rides[0]), legs.index(rides[-1])
        departure = rides[0].departure - sum(leg.seconds for leg in legs[:first])
        arrival = rides[-1].arrival + sum(leg.seconds for leg in legs[last + 1:])
    else:
        walk = sum(leg.seconds for leg in legs)
        # found.time is the search-orientation arrival; the search started `walk` earlier.
        if mirrored:
            departure = -found.time
            arrival = departure + walk
        else:
            arrival = found.time
            departure = arrival - walk
    return Journey(departure, arrival, legs)


def plan(network, origin, destination, time, max_rides=8, arrive_by=False):
    """The Pareto set of rule 15: a list of Journeys, by rides ascending."""
    if max_rides < 0:
        raise PlannerError("--max-rides must be >= 0")
    runs = network.runs(time, -INFINITY, time) if arrive_by else network.runs(time, time, INFINITY)
    mirrored = arrive_by
    side = Side(network, destination, origin, True) if mirrored else Side(network, origin, destination, False)
    other = Side(network, origin, destination, False) if mirrored else Side(network, destination, origin, True)
    start = -time if mirrored else time
    oriented = [r.mirrored() for r in runs] if mirrored else runs
    other_oriented = runs if mirrored else [r.mirrored() for r in runs]
    best = best_per_rides(side, runs_in_window(oriented, start, INFINITY), start, max_rides)
    journeys = []
    previous = INFINITY
    for k in range(max_rides + 1):
        if best[k] is None or best[k].time >= previous:
            continue
        previous = best[k].time
        # The journey shown: the other direction's best with <= k rides from this answer,
        # within [given time, answer] (rule 15).
        window = runs_in_window(other_oriented, -best[k].time, -start)
        again = best_per_rides(other, window, -best[k].time, k)[k]
        assert again is not None and again.time <= -start, "the mirrored search lost the answer"
        journey = journey_from(again, not mirrored)
        # What rule 15 promises: exactly k rides, the answer's time, within the question.
        assert journey.rides == k, "fewer rides would have been found first"
        if mirrored:
            assert journey.departure == -best[k].time and journey.arrival <= time
        else:
            assert journey.arrival == best[k].time and journey.departure >= time
        journeys.append(journey)
    return journeys


def reach(network, origin, time, within_minutes, max_rides=8):
    """Rule 16: [(stop key, arrival, rides)] sorted by arrival, stop_id, feed."""
    limit = time + int(round(within_minutes * 60))
    side = Side(network, origin, Place("", stops=[]), False)
    runs = network.runs(time, time, limit)
    ready, arrived = label_search(runs, network.walks, network.change_seconds, side.starts(), time, max_rides)
    best = {}  # stop -> (arrival, rides)
    for stop, options in side.starts().items():
        for seconds, _ in options:
            if stop not in best or time + seconds < best[stop][0]:
                best[stop] = (time + seconds, 0)
    for k in range(1, max_rides + 1):
        for stop, (arrival, _) in arrived[k].items():
            candidates = [(stop, arrival)] + [(t, arrival + s) for t, (s, _) in network.walks.get(stop, {}).items()]
            for target, at in candidates:
                if target not in best or at < best[target][0]:
                    best[target] = (at, k)
    found = [(stop, at, rides) for stop, (at, rides) in best.items() if at <= limit]
    found.sort(key=lambda e: (e[1], network.stops[e[0]].stop_id, network.feeds[network.stops[e[0]].feed].name))
    return found


# ---------------------------------------------------------------------------------------------
# Checking a journey leg by leg (for the tests and --check)
# ---------------------------------------------------------------------------------------------

def check_journey(network, journey, origin, destination, max_rides, at=None, arrive_by=None):
    """Raise AssertionError unless `journey` obeys every rule, leg by leg."""
    legs = journey.legs
    kinds = "".join("R" if isinstance(leg, Ride) else "W" for leg in legs)
    assert "WW" not in kinds, f"two walks in a row: {kinds}"
    assert journey.rides <= max_rides, f"{journey.rides} rides > {max_rides}"

    def place_has(place, stop):
        return place.stops is not None and stop in place.stops

    if origin.point is not None:
        assert legs and isinstance(legs[0], Walk) and legs[0].origin is None, "a point origin starts with a walk from it"
    elif legs:
        first = legs[0]
        start_stop = first.origin if isinstance(first, Walk) else first.run.calls[first.board][0]
        assert place_has(origin, start_stop), "the journey does not start at the origin"
    if destination.point is not None:
        assert legs and isinstance(legs[-1], Walk) and legs[-1].target is None, "a point destination ends with a walk to it"
    elif legs:
        last = legs[-1]
        end_stop = last.target if isinstance(last, Walk) else last.run.calls[last.leave][0]
        assert place_has(destination, end_stop), "the journey does not end at the destination"
    else:
        assert set(origin.stops) & set(destination.stops), "no legs but origin is not the destination"
    for leg in legs:
        if isinstance(leg, Walk):
            assert leg.origin is None or leg.target is None or leg.origin != leg.target, "a walk from a stop to itself"
            if leg.origin is None or leg.target is None:
                a = origin.point if leg.origin is None else (network.stops[leg.origin].lat, network.stops[leg.origin].lon)
                b = destination.point if leg.target is None else (network.stops[leg.target].lat, network.stops[leg.target].lon)
                d = haversine(*a, *b)
                assert d <= network.max_access_walk, f"a point walk of {d} m > --max-access-walk"
                assert leg.seconds == math.ceil(d / network.walk_speed) and leg.metres == round_metres(d), "point walk time"
            else:
                rule = network.rule(leg.origin, leg.target)
                d = network.distance(leg.origin, leg.target)
                if rule is not None:
                    assert rule[0] in (0, 1, 2), f"a walk forbidden by a type {rule[0]} row"
                    expected = rule[1] if rule[1] is not None else math.ceil(d / network.walk_speed)
                else:
                    assert d is not None and d <= network.max_walk, "a walk longer than --max-walk without a row"
                    expected = math.ceil(d / network.walk_speed)
                assert leg.seconds == expected and leg.metres == round_metres(d), "walk seconds / metres"
        else:
            calls = leg.run.calls
            assert 0 <= leg.board < leg.leave < len(calls), "a ride must leave after it boards"
            assert calls[leg.board][2] is not None, "boarded where boarding is not allowed (or untimed)"
            assert calls[leg.leave][1] is not None, "left where leaving is not allowed (or untimed)"
    # Timing.
    now = journey.departure
    previous = None
    for leg in legs:
        if isinstance(leg, Walk):
            now += leg.seconds
        else:
            if isinstance(previous, Ride):
                stop = leg.run.calls[leg.board][0]
                assert previous.run.calls[previous.leave][0] == stop, "changed between different stops without walking"
                change = network.change_seconds.get(stop)
                assert change is not None, "changed where a type 3 row forbids it"
                now += change
            assert leg.departure >= now, f"boards at {leg.departure} before the rider is there at {now}"
            if previous is None:
                assert leg.departure == now, "the journey does not leave as late as its first ride allows"
            now = leg.arrival
        previous = leg
    assert now == journey.arrival, f"arrival {journey.arrival} != {now}"
    if at is not None:
        assert journey.departure >= at, "leaves before --at"
    if arrive_by is not None:
        assert journey.arrival <= arrive_by, "arrives after --arrive-by"


# ---------------------------------------------------------------------------------------------
# Output and command line
# ---------------------------------------------------------------------------------------------

def leg_json(network, leg):
    if isinstance(leg, Walk):
        sid = lambda key: None if key is None else network.stops[key].stop_id
        return {"mode": "walk", "from_stop_id": sid(leg.origin), "to_stop_id": sid(leg.target),
                "seconds": leg.seconds, "metres": leg.metres}
    run = leg.run
    trip = run.trip
    return {"mode": "ride", "feed": trip.feed.name, "trip_id": trip.trip_id, "route_id": trip.route_id,
            "route_short_name": trip.route_short_name,
            "from_stop_id": network.stops[run.calls[leg.board][0]].stop_id,
            "to_stop_id": network.stops[run.calls[leg.leave][0]].stop_id,
            "departure": network.iso(leg.departure), "arrival": network.iso(leg.arrival), "realtime": trip.realtime}


def journey_json(network, journey):
    return {"departure": network.iso(journey.departure), "arrival": network.iso(journey.arrival),
            "rides": journey.rides, "legs": [leg_json(network, leg) for leg in journey.legs]}


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description="Brute-force reference journey planner (see the comment at the top).")
    parser.add_argument("--db", required=True)
    parser.add_argument("--source", action="append", default=[], metavar="FEEDNAME=PATH",
                        help="the feed folder or zip to read transfers.txt from")
    parser.add_argument("--realtime", action="store_true", help="apply the stored realtime changes (rule 17)")
    commands = parser.add_subparsers(dest="command", required=True)

    def common(p):
        p.add_argument("--max-rides", type=int, default=8)
        p.add_argument("--max-walk", type=float, default=500.0)
        p.add_argument("--max-access-walk", type=float, default=1000.0)
        p.add_argument("--walk-speed", type=float, default=1.33)
        p.add_argument("--check", action="store_true", help="check every journey leg by leg")

    p = commands.add_parser("plan")
    p.add_argument("origin")
    p.add_argument("destination")
    when = p.add_mutually_exclusive_group(required=True)
    when.add_argument("--at")
    when.add_argument("--arrive-by")
    common(p)
    r = commands.add_parser("reach")
    r.add_argument("origin")
    r.add_argument("--at", required=True)
    r.add_argument("--within", type=float, required=True)
    common(r)
    commands.add_parser("batch", help="answer many questions: each line of stdin is a JSON array of one question's "
                                      "arguments (e.g. [\"plan\", \"A\", \"B\", \"--at\", \"2026-03-02 08:00\"]); "
                                      "each answer is one line of JSON ({\"error\": ...} for a bad question)")
    for q in (parser, p, r):
        # A point with a negative latitude ("-16.88,145.71") is a place, not an option.
        q._negative_number_matcher = re.compile(r"^-\d+(\.\d*)?(,-?\d+(\.\d*)?)?$")
        q._has_negative_number_optionals = []
    for q in (p, r):  # the global options may also follow the command
        q.add_argument("--db", dest="db_late", default=None)
        q.add_argument("--source", dest="source_late", action="append", default=[])
    args = parser.parse_args(argv)
    args.db = getattr(args, "db_late", None) or args.db
    args.source = args.source + getattr(args, "source_late", [])
    return args


def answer(argv, networks=None):
    """The JSON answer (a dict) to a command line, raising PlannerError for a bad question.
    `networks`, a dict, keeps the networks read for later questions (batch)."""
    try:
        args = parse_arguments(argv)
    except SystemExit as exit:  # argparse has printed why
        raise PlannerError(f"bad arguments: {' '.join(argv)}") from exit
    sources = {}
    for item in args.source:
        if "=" not in item:
            raise PlannerError(f"--source {item}: expected FEEDNAME=PATH")
        name, path = item.split("=", 1)
        sources[name] = path
    if args.walk_speed <= 0:
        raise PlannerError("--walk-speed must be > 0")
    key = (args.db, tuple(sorted(sources.items())), args.max_walk, args.walk_speed, args.realtime, args.max_access_walk)
    network = networks.get(key) if networks is not None else None
    if network is None:
        network = Network(args.db, sources, args.max_walk, args.walk_speed, args.realtime, args.max_access_walk)
        if networks is not None:
            networks[key] = network
    origin = network.resolve(args.origin)
    if args.command == "plan":
        destination = network.resolve(args.destination)
        arrive_by = args.arrive_by is not None
        time = network.parse_time(args.arrive_by if arrive_by else args.at)
        journeys = plan(network, origin, destination, time, args.max_rides, arrive_by)
        if args.check:
            for journey in journeys:
                check_journey(network, journey, origin, destination, args.max_rides,
                              at=None if arrive_by else time, arrive_by=time if arrive_by else None)
        return {"journeys": [journey_json(network, j) for j in journeys]}
    time = network.parse_time(args.at)
    stops = reach(network, origin, time, args.within, args.max_rides)
    return {"stops": [{"stop_id": network.stops[s].stop_id, "feed": network.feeds[network.stops[s].feed].name,
                       "arrival": network.iso(at), "rides": rides} for s, at, rides in stops]}


def batch(global_arguments):
    """Answers each question of stdin (a JSON array of arguments a line) on one line of stdout."""
    networks = {}
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            question = json.loads(line)
            if not isinstance(question, list) or not all(isinstance(a, str) for a in question):
                raise PlannerError("a question is a JSON array of strings")
            result = answer(global_arguments + question, networks)
        except (PlannerError, ValueError) as error:
            result = {"error": str(error)}
        sys.stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    return 0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    try:
        if "batch" in argv:
            args = parse_arguments(argv)
            if args.command == "batch":
                return batch(argv[:argv.index("batch")])
        result = answer(argv)
    except PlannerError as error:
        print(f"reference_planner: {error}", file=sys.stderr)
        return 2
    json.dump(result, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
