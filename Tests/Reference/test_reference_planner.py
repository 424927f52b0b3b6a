"""Unit tests of the reference planner on tiny hand-made feeds whose answers are computed by hand.

Run with `python3 -m unittest discover -s Tests/Reference -v`. Each test writes a small GTFS
feed into a temporary folder, imports it with the transit binary ($TRANSIT_BINARY, default
/work/main/.build/release/transit) and compares the reference's answers with answers worked out
by hand in the comments. Tests skip, saying so, when the binary is absent.

Hand computations use stops on the equator, where the haversine distance is exactly
R * delta-longitude in radians with R = 6,371,008.8 m, so 0.001 degrees is 111.195 m (111 m,
ceil(111.195 / 1.33) = 84 s at the default speed), 0.0001 degrees is 11.12 m (11 m, 9 s),
0.002 degrees is 222.39 m (222 m, 168 s), 0.01 degrees is 1111.95 m (1112 m, 837 s). Stops
0.1 degrees (11 km) apart have no walk between them. The agency zone is Europe/Berlin and the
questions are on Monday 2026-03-02 (UTC+1) unless a test says otherwise.
"""

import itertools
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
import unittest
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference_planner as rp  # noqa: E402

BINARY = os.environ.get("TRANSIT_BINARY", "/work/main/.build/release/transit")
FEEDS = os.environ.get("TRANSIT_FEEDS", "/work/shared/feeds")
PLANNER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference_planner.py")


def needs_binary(test):
    return unittest.skipUnless(os.access(BINARY, os.X_OK), f"no transit binary at {BINARY} (set TRANSIT_BINARY)")(test)


def hms(text, date="2026-03-02", offset="+01:00"):
    """An ISO time as the planner writes it: hms("08:00") -> 2026-03-02T08:00:00+01:00."""
    if text.count(":") == 1:
        text += ":00"
    return f"{date}T{text}{offset}"


def write_feed(folder, stops, trips, transfers=None, frequencies=None, services=None, zone="Europe/Berlin"):
    """Writes a GTFS feed.

    stops: "stop_id,lat,lon[,location_type,parent_station]" lines.
    trips: {trip_id: ["stop_id,arrival,departure[,pickup_type,drop_off_type]", ...]}; each trip is
      its own route, whose id is R_<trip_id> and short name the trip_id; its service is ALL (every
      day of 2026) unless `services` maps the trip to a service id defined by calendar_dates
      lines "service_id,date".
    transfers: "from_stop_id,to_stop_id,transfer_type,min_transfer_time" lines (a header with
      other columns may be given as the first line starting with "from_stop_id").
    frequencies: "trip_id,start_time,end_time,headway_secs[,exact_times]" lines.
    """
    os.makedirs(folder, exist_ok=True)

    def put(name, lines):
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")

    put("agency.txt", ["agency_name,agency_url,agency_timezone", f"Test,http://example.com,{zone}"])
    rows = ["stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station"]
    for line in stops:
        parts = line.split(",") + ["", ""]
        stop_id, lat, lon, kind, parent = parts[:5]
        rows.append(f"{stop_id},{stop_id},{lat},{lon},{kind},{parent}")
    put("stops.txt", rows)
    put("routes.txt", ["route_id,route_short_name,route_type"] + [f"R_{t},{t},3" for t in trips])
    services = services or {}
    put("trips.txt", ["route_id,service_id,trip_id"] + [f"R_{t},{services.get(t, 'ALL')},{t}" for t in trips])
    rows = ["trip_id,stop_id,stop_sequence,arrival_time,departure_time,pickup_type,drop_off_type"]
    for trip, calls in trips.items():
        for sequence, call in enumerate(calls, 1):
            parts = call.split(",") + ["", ""]
            stop_id, arrival, departure, pickup, drop_off = parts[:5]
            rows.append(f"{trip},{stop_id},{sequence},{arrival},{departure},{pickup},{drop_off}")
    put("stop_times.txt", rows)
    put("calendar.txt", ["service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date",
                         "ALL,1,1,1,1,1,1,1,20260101,20261231"])
    extra = [line for line in (services.get("_dates") or [])]
    if extra:
        put("calendar_dates.txt", ["service_id,date,exception_type"] + [f"{line},1" for line in extra])
    if transfers is not None:
        lines = list(transfers)
        header = "from_stop_id,to_stop_id,transfer_type,min_transfer_time"
        if lines and lines[0].startswith("from_stop_id"):
            header = lines.pop(0)
        put("transfers.txt", [header] + lines)
    if frequencies is not None:
        put("frequencies.txt", ["trip_id,start_time,end_time,headway_secs,exact_times"] + list(frequencies))


class PlannerTestCase(unittest.TestCase):
    def setUp(self):
        if not os.access(BINARY, os.X_OK):
            self.skipTest(f"no transit binary at {BINARY} (set TRANSIT_BINARY)")
        self.directory = tempfile.TemporaryDirectory(prefix="reference-planner-")
        self.db = os.path.join(self.directory.name, "transit.sqlite")
        self.sources = {}

    def tearDown(self):
        self.directory.cleanup()

    def reset(self):
        """A new empty database (for each variant of a test)."""
        self.tearDown()
        self.setUp()

    def feed(self, name="test", **feed):
        """Writes a feed (see write_feed) and imports it as `name` into this test's database."""
        folder = os.path.join(self.directory.name, name)
        write_feed(folder, **feed)
        result = subprocess.run([BINARY, "import", folder, "--db", self.db, "--feed", name, "--quiet"],
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.sources[name] = folder
        return folder

    def ask(self, *arguments):
        """The JSON answer of the planner to a command line (sources of every feed given), after
        checking each journey leg by leg."""
        argv = ["--db", self.db]
        for name, folder in self.sources.items():
            argv += ["--source", f"{name}={folder}"]
        return rp.answer(argv + list(arguments) + (["--check"] if arguments[0] == "plan" else []))

    def summary(self, *arguments):
        """[(rides, departure, arrival)] of a plan answer."""
        return [(j["rides"], j["departure"], j["arrival"]) for j in self.ask(*arguments)["journeys"]]

    def legs(self, *arguments, journey=0):
        """The legs of one journey, each as a short tuple: ("ride", trip, from, to, dep, arr) or
        ("walk", from, to, seconds, metres)."""
        legs = self.ask(*arguments)["journeys"][journey]["legs"]
        return [("ride", leg["trip_id"], leg["from_stop_id"], leg["to_stop_id"], leg["departure"], leg["arrival"])
                if leg["mode"] == "ride" else ("walk", leg["from_stop_id"], leg["to_stop_id"], leg["seconds"], leg["metres"])
                for leg in legs]


A, B, C, D = "A,0,0", "B,0,0.1", "C,0,0.2", "D,0,0.3"


class RideRules(PlannerTestCase):
    def test_direct_ride(self):
        # T1 leaves A at 08:00 and reaches B at 08:30; asked at 07:50 it is the only answer.
        self.feed(stops=[A, B], trips={"T1": ["A,08:00:00,08:00:00", "B,08:30:00,08:30:00"]})
        self.assertEqual(self.summary("plan", "A", "B", "--at", "2026-03-02 07:50"), [(1, hms("08:00"), hms("08:30"))])
        self.assertEqual(self.legs("plan", "A", "B", "--at", "2026-03-02 07:50"),
                         [("ride", "T1", "A", "B", hms("08:00"), hms("08:30"))])
        # Boarding at exactly the time the rider is there is allowed; a second later it is gone
        # and the next service day's T1 (Tuesday 08:00, same service ALL) is the answer.
        self.assertEqual(self.summary("plan", "A", "B", "--at", "2026-03-02 08:00"), [(1, hms("08:00"), hms("08:30"))])
        self.assertEqual(self.summary("plan", "A", "B", "--at", "2026-03-02 08:00:01"),
                         [(1, hms("08:00", "2026-03-03"), hms("08:30", "2026-03-03"))])
        # The day after next does not count: asked on Monday 23:00 with T1 running on Wednesday
        # only (service W), nothing; asked on Tuesday, Wednesday's T1 is found.
        self.reset()
        self.feed(stops=[A, B], services={"T1": "W", "_dates": ["W,20260304"]},
                  trips={"T1": ["A,08:00:00,08:00:00", "B,08:30:00,08:30:00"]})
        self.assertEqual(self.summary("plan", "A", "B", "--at", "2026-03-02 23:00"), [])
        self.assertEqual(self.summary("plan", "A", "B", "--at", "2026-03-03 00:00"),
                         [(1, hms("08:00", "2026-03-04"), hms("08:30", "2026-03-04"))])

    def test_one_change_beats_slower_direct_and_pareto_keeps_both(self):
        # SLOW: A 08:00 -> C 10:00 (1 ride). F0 A 07:50 -> B 08:05, F1 A 08:05 -> B 08:20, then
        # F2 B 08:25 -> C 08:50 (2 rides, arriving 08:50 < 10:00, so both are kept). The 2-ride
        # journey leaves as late as possible for 08:50: F1 at 08:05 (F0 would leave at 07:50).
        # With 3+ rides nothing is earlier than 08:50: not kept.
        self.feed(stops=[A, B, C], trips={
            "SLOW": ["A,08:00:00,08:00:00", "C,10:00:00,10:00:00"],
            "F0": ["A,07:50:00,07:50:00", "B,08:05:00,08:05:00"],
            "F1": ["A,08:05:00,08:05:00", "B,08:20:00,08:20:00"],
            "F2": ["B,08:25:00,08:25:00", "C,08:50:00,08:50:00"]})
        question = ("plan", "A", "C", "--at", "2026-03-02 07:45")
        self.assertEqual(self.summary(*question), [(1, hms("08:00"), hms("10:00")), (2, hms("08:05"), hms("08:50"))])
        self.assertEqual(self.legs(*question, journey=1), [
            ("ride", "F1", "A", "B", hms("08:05"), hms("08:20")), ("ride", "F2", "B", "C", hms("08:25"), hms("08:50"))])
        # --max-rides 1 leaves only the direct trip.
        self.assertEqual(self.summary(*question, "--max-rides", "1"), [(1, hms("08:00"), hms("10:00"))])

    def test_type_3_transfer_forbids_changing_at_a_stop(self):
        # As above, but transfers.txt says B -> B type 3: F1 then F2 at B is not allowed, so only
        # SLOW (08:00 -> 10:00) is left.
        self.feed(stops=[A, B, C], transfers=["B,B,3,"], trips={
            "SLOW": ["A,08:00:00,08:00:00", "C,10:00:00,10:00:00"],
            "F1": ["A,08:05:00,08:05:00", "B,08:20:00,08:20:00"],
            "F2": ["B,08:25:00,08:25:00", "C,08:50:00,08:50:00"]})
        self.assertEqual(self.summary("plan", "A", "C", "--at", "2026-03-02 07:45"), [(1, hms("08:00"), hms("10:00"))])

    def test_transfers_are_read_from_a_zip_with_a_bom_and_without_optional_columns(self):
        # The type-3 case above, with transfers.txt in a zip, starting with a byte-order mark
        # and without min_transfer_time: the change at B is still forbidden (only SLOW, 10:00).
        folder = os.path.join(self.directory.name, "zipped")
        write_feed(folder, stops=[A, B, C], trips={
            "SLOW": ["A,08:00:00,08:00:00", "C,10:00:00,10:00:00"],
            "F1": ["A,08:05:00,08:05:00", "B,08:20:00,08:20:00"], "F2": ["B,08:25:00,08:25:00", "C,08:50:00,08:50:00"]})
        with open(os.path.join(folder, "transfers.txt"), "w", encoding="utf-8-sig", newline="") as f:
            f.write("from_stop_id,to_stop_id,transfer_type\r\nB,B,3\r\n")
        archive = os.path.join(self.directory.name, "zipped.zip")
        with zipfile.ZipFile(archive, "w") as z:
            for name in os.listdir(folder):
                z.write(os.path.join(folder, name), name)
        result = subprocess.run([BINARY, "import", archive, "--db", self.db, "--feed", "zipped", "--quiet"], capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.sources["zipped"] = archive
        self.assertEqual(self.summary("plan", "A", "C", "--at", "2026-03-02 07:45"), [(1, hms("08:00"), hms("10:00"))])
        # Without --source the path the feed was imported from (feeds.source) is read.
        self.sources.clear()
        self.assertEqual(self.summary("plan", "A", "C", "--at", "2026-03-02 07:45"), [(1, hms("08:00"), hms("10:00"))])

    def test_type_2_minimum_change_time(self):
        # F1 reaches B at 08:20; F2 leaves B at 08:25 (-> C 08:50), F3 at 08:35 (-> C 09:00).
        # B -> B type 2 with 600 s: ready at 08:30, F2 is missed, F3 arrives 09:00.
        # With 300 s: ready at 08:25 = F2's departure (equal allowed): 08:50.
        # With an empty min_transfer_time: 0 s: 08:50. Types 0 and 1 with 600 s change nothing: 08:50.
        for row, arrival in (("B,B,2,600", "09:00"), ("B,B,2,300", "08:50"), ("B,B,2,", "08:50"),
                             ("B,B,0,600", "08:50"), ("B,B,1,600", "08:50")):
            with self.subTest(row=row):
                self.reset()
                self.feed(stops=[A, B, C], transfers=[row], trips={
                    "F1": ["A,08:05:00,08:05:00", "B,08:20:00,08:20:00"],
                    "F2": ["B,08:25:00,08:25:00", "C,08:50:00,08:50:00"],
                    "F3": ["B,08:35:00,08:35:00", "C,09:00:00,09:00:00"]})
                self.assertEqual(self.summary("plan", "A", "C", "--at", "2026-03-02 08:00"), [(2, hms("08:05"), hms(arrival))])

    def test_transfer_rows_naming_a_route_or_trip_or_type_4_5_are_ignored(self):
        # Every row here names a route or trip, or has type 4 or 5: as if transfers.txt were
        # empty, so F1 then F2 at B works (08:50), although each row would forbid it otherwise.
        self.feed(stops=[A, B, C], transfers=[
            "from_stop_id,to_stop_id,transfer_type,min_transfer_time,from_route_id,to_route_id,from_trip_id,to_trip_id",
            "B,B,3,,R_F1,,,", "B,B,3,,,R_F2,,", "B,B,3,,,,F1,", "B,B,3,,,,,F2", "B,B,4,,,,,", "B,B,5,,,,,"], trips={
            "F1": ["A,08:05:00,08:05:00", "B,08:20:00,08:20:00"],
            "F2": ["B,08:25:00,08:25:00", "C,08:50:00,08:50:00"]})
        self.assertEqual(self.summary("plan", "A", "C", "--at", "2026-03-02 08:00"), [(2, hms("08:05"), hms("08:50"))])

    def test_pickup_type_1_and_drop_off_type_1_forbid_boarding_and_leaving(self):
        # T: A 08:00 (pickup_type 1: no boarding) -> B 08:10 -> C 08:20 (drop_off_type 1: no
        # leaving) -> D 08:30.
        self.feed(stops=[A, B, C, D], trips={"T": ["A,08:00:00,08:00:00,1,0", "B,08:10:00,08:10:00",
                                                      "C,08:20:00,08:20:00,0,1", "D,08:30:00,08:30:00"]})
        at = ("--at", "2026-03-02 07:00")
        self.assertEqual(self.summary("plan", "A", "D", *at), [])  # cannot board at A
        self.assertEqual(self.summary("plan", "A", "B", *at), [])
        self.assertEqual(self.summary("plan", "B", "C", *at), [])  # cannot leave at C
        self.assertEqual(self.summary("plan", "B", "D", *at), [(1, hms("08:10"), hms("08:30"))])
        self.assertEqual(self.summary("plan", "C", "D", *at), [(1, hms("08:20"), hms("08:30"))])  # boarding at C is fine

    def test_interpolated_times_count_and_untimed_calls_cannot_be_used(self):
        # T: A 08:00, B (no time), C 08:20, D (no time, last): the import interpolates B at
        # 08:00 + (08:20 - 08:00) / 2 = 08:10; D keeps no time (no later neighbour).
        self.feed(stops=[A, B, C, D], trips={"T": ["A,08:00:00,08:00:00", "B,,", "C,08:20:00,08:20:00", "D,,"]})
        at = ("--at", "2026-03-02 07:00")
        self.assertEqual(self.summary("plan", "A", "B", *at), [(1, hms("08:00"), hms("08:10"))])
        self.assertEqual(self.summary("plan", "B", "C", *at), [(1, hms("08:10"), hms("08:20"))])
        self.assertEqual(self.summary("plan", "A", "D", *at), [])
        self.assertEqual(self.summary("plan", "C", "D", *at), [])

    def test_trip_of_yesterday_running_past_midnight(self):
        # Service ONE runs only on Sunday 2026-03-01; N calls at A at 24:20:00 and B at 25:10:00,
        # i.e. Monday 00:20 and 01:10. Asked on Monday at 00:10 it is yesterday's trip that counts.
        self.feed(stops=[A, B], services={"N": "ONE", "_dates": ["ONE,20260301"]},
                  trips={"N": ["A,24:20:00,24:20:00", "B,25:10:00,25:10:00"]})
        self.assertEqual(self.summary("plan", "A", "B", "--at", "2026-03-02 00:10"), [(1, hms("00:20"), hms("01:10"))])
        self.assertEqual(self.summary("plan", "A", "B", "--at", "2026-03-01 23:00"), [(1, hms("00:20"), hms("01:10"))])
        self.assertEqual(self.summary("plan", "A", "B", "--at", "2026-03-02 00:21"), [])
        # Arrive-by on Monday 02:00: the latest departure is still yesterday's trip.
        self.assertEqual(self.summary("plan", "A", "B", "--arrive-by", "2026-03-02 02:00"), [(1, hms("00:20"), hms("01:10"))])

    def test_times_count_from_noon_minus_12_hours_on_a_daylight_saving_day(self):
        # On Sunday 2026-03-29 Berlin moves from +01:00 to +02:00 at 02:00. Noon is 10:00 UTC, so
        # noon - 12 h is 22:00 UTC on 03-28 (23:00 local). GTFS 01:00:00 is 23:00 UTC = 00:00+01:00,
        # 01:30:00 is 00:30+01:00; GTFS 08:00:00 is 06:00 UTC = 08:00+02:00.
        self.feed(stops=[A, B], trips={"E": ["A,01:00:00,01:00:00", "B,01:30:00,01:30:00"],
                                       "M": ["B,08:00:00,08:00:00", "A,08:20:00,08:20:00"]})
        self.assertEqual(self.summary("plan", "A", "B", "--at", "2026-03-28 23:30"),
                         [(1, hms("00:00", "2026-03-29"), hms("00:30", "2026-03-29"))])
        self.assertEqual(self.summary("plan", "B", "A", "--at", "2026-03-29 07:00"),
                         [(1, hms("08:00", "2026-03-29", "+02:00"), hms("08:20", "2026-03-29", "+02:00"))])

    def test_frequencies_trip_runs_every_headway_before_end_time(self):
        # The template leaves A at 10:00:00 and reaches B at 10:10:00 (10 min after its first
        # departure); frequencies.txt runs it from 06:00 to 07:00 every 900 s: runs leave A at
        # 06:00, 06:15, 06:30, 06:45 (07:00 is not < end_time) and reach B 10 min later. The
        # template's own 10:00 run does not exist: after 06:45 the next run is Tuesday's 06:00.
        # exact_times makes no difference.
        for exact in ("0", "1", ""):
            with self.subTest(exact_times=exact):
                self.reset()
                self.feed(stops=[A, B], frequencies=[f"F,06:00:00,07:00:00,900,{exact}"],
                          trips={"F": ["A,10:00:00,10:00:00", "B,10:10:00,10:10:00"]})
                self.assertEqual(self.summary("plan", "A", "B", "--at", "2026-03-02 06:31"), [(1, hms("06:45"), hms("06:55"))])
                self.assertEqual(self.summary("plan", "A", "B", "--at", "2026-03-02 05:00"), [(1, hms("06:00"), hms("06:10"))])
                tomorrow = [(1, hms("06:00", "2026-03-03"), hms("06:10", "2026-03-03"))]
                self.assertEqual(self.summary("plan", "A", "B", "--at", "2026-03-02 06:46"), tomorrow)
                self.assertEqual(self.summary("plan", "A", "B", "--at", "2026-03-02 09:59"), tomorrow)


class PlaceRules(PlannerTestCase):
    STATION = ["S,0,0,1,", "S1,0,0,0,S", "S2,0,0.0001,0,S", "B,0,0.1"]

    def test_station_origin_and_destination_mean_their_platforms(self):
        # S is a station with platforms S1 and S2 (11 m apart, 9 s). T leaves S2 at 08:00 for B
        # (08:30); U goes B 09:00 -> S1 09:20. From S the rider is at both platforms at 07:50
        # (0 s), so T is boarded at S2 without a walk; to S, arriving at S1 is arriving.
        self.feed(stops=self.STATION, trips={"T": ["S2,08:00:00,08:00:00", "B,08:30:00,08:30:00"],
                                            "U": ["B,09:00:00,09:00:00", "S1,09:20:00,09:20:00"]})
        self.assertEqual(self.legs("plan", "S", "B", "--at", "2026-03-02 07:50"),
                         [("ride", "T", "S2", "B", hms("08:00"), hms("08:30"))])
        self.assertEqual(self.summary("plan", "B", "S", "--at", "2026-03-02 08:50"), [(1, hms("09:00"), hms("09:20"))])
        # From the platform S1 the rider walks 9 s to S2 and leaves at 08:00 - 9 s = 07:59:51.
        self.assertEqual(self.summary("plan", "S1", "B", "--at", "2026-03-02 07:50"), [(1, hms("07:59:51"), hms("08:30"))])
        self.assertEqual(self.legs("plan", "S1", "B", "--at", "2026-03-02 07:50"),
                         [("walk", "S1", "S2", 9, 11), ("ride", "T", "S2", "B", hms("08:00"), hms("08:30"))])

    def test_origin_that_is_the_destination_is_reached_at_once(self):
        # A station and one of its platforms share S1: 0 rides, no legs, leaving and arriving at --at.
        self.feed(stops=self.STATION, trips={"T": ["S2,08:00:00,08:00:00", "B,08:30:00,08:30:00"]})
        self.assertEqual(self.summary("plan", "S", "S1", "--at", "2026-03-02 07:50"), [(0, hms("07:50"), hms("07:50"))])
        self.assertEqual(self.ask("plan", "B", "B", "--at", "2026-03-02 07:50")["journeys"][0]["legs"], [])

    def test_point_origin_and_destination_walk_legs_have_null_stop_ids(self):
        # From the point 0,0 (on A: 0 m, 0 s) to the point 0,0.101 (111 m past B: 84 s).
        # T: A 08:00 -> B 08:30. The journey leaves at 08:00 - 0 s and arrives 08:30 + 84 s = 08:31:24.
        self.feed(stops=[A, B], trips={"T": ["A,08:00:00,08:00:00", "B,08:30:00,08:30:00"]})
        question = ("plan", "0,0", "0,0.101", "--at", "2026-03-02 07:50")
        self.assertEqual(self.summary(*question), [(1, hms("08:00"), hms("08:31:24"))])
        self.assertEqual(self.legs(*question), [("walk", None, "A", 0, 0), ("ride", "T", "A", "B", hms("08:00"), hms("08:30")),
                                                ("walk", "B", None, 84, 111)])
        # A point farther than --max-walk from every stop: nothing.
        self.assertEqual(self.summary("plan", "0,0.05", "B", "--at", "2026-03-02 07:50"), [])

    def test_point_to_point_within_max_walk_is_one_walk(self):
        # 0.002 degrees apart: 222 m, 168 s; leaves at --at 08:00, arrives 08:02:48. A stop (A)
        # between them changes nothing: the walk is one leg from point to point.
        self.feed(stops=[A, B], trips={"T": ["A,08:00:00,08:00:00", "B,08:30:00,08:30:00"]})
        question = ("plan", "0,-0.001", "0,0.001", "--at", "2026-03-02 08:00")
        self.assertEqual(self.summary(*question), [(0, hms("08:00"), hms("08:02:48"))])
        self.assertEqual(self.legs(*question), [("walk", None, None, 168, 222)])
        # With --max-access-walk 200 the points are too far apart, and A is 111 m from each, but a
        # journey cannot walk twice in a row: nothing. --max-walk (between rides) does not limit it.
        self.assertEqual(self.summary(*question, "--max-access-walk", "200"), [])
        self.assertEqual(self.summary(*question, "--max-walk", "100"), [(0, hms("08:00"), hms("08:02:48"))])

    def test_a_walk_from_a_point_may_be_longer_than_a_walk_between_rides(self):
        # 0,0.105 is 556 m past B: beyond --max-walk's 500 m, within --max-access-walk's 1000 m.
        self.feed(stops=[A, B], trips={"T": ["A,08:00:00,08:00:00", "B,08:30:00,08:30:00"]})
        question = ("plan", "A", "0,0.105", "--at", "2026-03-02 07:50")
        self.assertEqual(self.legs(*question)[-1][:2], ("walk", "B"))
        self.assertEqual(self.summary(*question, "--max-access-walk", "500"), [])

    def test_two_feeds_joined_by_a_walk(self):
        # Feed one: A -> B (T1 08:00 -> 08:30). Feed two: B2 111 m from B (84 s) -> C: T3 leaves
        # at 08:31 (missed: the rider is at B2 at 08:31:24), T2 at 08:32 reaching C at 09:00.
        # Feed two also has a stop A (far away), so "A" alone is ambiguous: one:A names it.
        self.feed("one", stops=[A, B], trips={"T1": ["A,08:00:00,08:00:00", "B,08:30:00,08:30:00"]})
        self.feed("two", stops=["A,0,1", "B2,0,0.101", C], trips={
            "T2": ["B2,08:32:00,08:32:00", "C,09:00:00,09:00:00"], "T3": ["B2,08:31:00,08:31:00", "C,08:50:00,08:50:00"]})
        question = ("plan", "one:A", "C", "--at", "2026-03-02 07:50")
        self.assertEqual(self.summary(*question), [(2, hms("08:00"), hms("09:00"))])
        self.assertEqual(self.legs(*question), [("ride", "T1", "A", "B", hms("08:00"), hms("08:30")), ("walk", "B", "B2", 84, 111),
                                                ("ride", "T2", "B2", "C", hms("08:32"), hms("09:00"))])
        with self.assertRaises(rp.PlannerError):
            self.ask("plan", "A", "C", "--at", "2026-03-02 07:50")

    def test_unreachable_destination_gives_no_journeys(self):
        # Nothing goes to C, and C is 11 km from everything.
        self.feed(stops=[A, B, C], trips={"T": ["A,08:00:00,08:00:00", "B,08:30:00,08:30:00"]})
        self.assertEqual(self.ask("plan", "A", "C", "--at", "2026-03-02 07:00"), {"journeys": []})
        self.assertEqual(self.ask("plan", "A", "C", "--arrive-by", "2026-03-02 23:00"), {"journeys": []})


class WalkRules(PlannerTestCase):
    def test_walk_beats_a_ride(self):
        # A2 is 111 m from A (84 s). T goes A 08:00 -> A2 08:10. At 07:59 walking arrives at
        # 08:00:24; the ride (08:10) is not earlier, so it is not kept.
        self.feed(stops=[A, "A2,0,0.001"], trips={"T": ["A,08:00:00,08:00:00", "A2,08:10:00,08:10:00"]})
        self.assertEqual(self.summary("plan", "A", "A2", "--at", "2026-03-02 07:59"), [(0, hms("07:59"), hms("08:00:24"))])
        self.assertEqual(self.legs("plan", "A", "A2", "--at", "2026-03-02 07:59"), [("walk", "A", "A2", 84, 111)])
        # With --max-walk 100 the walk does not exist: the ride.
        self.assertEqual(self.summary("plan", "A", "A2", "--at", "2026-03-02 07:59", "--max-walk", "100"),
                         [(1, hms("08:00"), hms("08:10"))])

    def test_walk_row_beyond_max_walk_counts_one_way(self):
        # A and B2 are 0.01 degrees apart (1112 m > 500 m). Row A -> B2 type 2 with 600 s: a walk
        # of 600 s (08:00 -> 08:10), 1112 m. No row B2 -> A and too far: nothing back.
        far = "B2,0,0.01"
        self.feed(stops=[A, far], transfers=["A,B2,2,600"], trips={"T": ["A,23:00:00,23:00:00", "B2,23:30:00,23:30:00"]})
        self.assertEqual(self.summary("plan", "A", "B2", "--at", "2026-03-02 08:00"), [(0, hms("08:00"), hms("08:10"))])
        self.assertEqual(self.legs("plan", "A", "B2", "--at", "2026-03-02 08:00"), [("walk", "A", "B2", 600, 1112)])
        self.assertEqual(self.summary("plan", "B2", "A", "--at", "2026-03-02 08:00"), [])
        # Type 0 without min_transfer_time: ceil(1111.95 / 1.33) = 837 s -> 08:13:57.
        self.reset()
        self.feed(stops=[A, far], transfers=["A,B2,0,"], trips={"T": ["A,23:00:00,23:00:00", "B2,23:30:00,23:30:00"]})
        self.assertEqual(self.summary("plan", "A", "B2", "--at", "2026-03-02 08:00"), [(0, hms("08:00"), hms("08:13:57"))])

    def test_type_3_row_forbids_a_walk_one_way(self):
        # A2 is 111 m from A; row A -> A2 type 3 forbids that walk, A2 -> A stays (84 s).
        self.feed(stops=[A, "A2,0,0.001"], transfers=["A,A2,3,"],
                  trips={"T": ["A,08:00:00,08:00:00", "A2,08:10:00,08:10:00"]})
        self.assertEqual(self.summary("plan", "A", "A2", "--at", "2026-03-02 07:59"), [(1, hms("08:00"), hms("08:10"))])
        self.assertEqual(self.summary("plan", "A2", "A", "--at", "2026-03-02 07:59"), [(0, hms("07:59"), hms("08:00:24"))])

    def test_station_to_station_row_applies_to_its_platforms(self):
        # Station S: S1 and S2, 11 m apart (9 s). T1: X 07:30 -> S1 08:00. From S: T2 S2 08:02,
        # T3 S2 08:06, T4 S1 08:03, T5 S1 08:07, reaching Y at 08:30, 08:40, 08:35, 08:45.
        # No row: walk S1 -> S2 (9 s) then T2: 08:30.
        # Row S -> S type 2, 300 s: staying at S1 takes 300 s (ready 08:05: T5, 08:45) and the
        # walk S1 -> S2 takes 300 s too (ready 08:05: T3, 08:40): 08:40.
        # Adding S1 -> S1 type 0 (more specific for staying at S1): change at S1 in 0 s: T4, 08:35.
        # Adding S1 -> S type 2, 120 s (stop -> station beats station -> station, for staying at S1
        # and for walking S1 -> S2): the walk takes 120 s, at S2 at 08:02 = T2's departure: 08:30.
        # Adding S -> S2 type 3 (station -> stop beats station -> station for S1 -> S2): no walk;
        # staying at S1 still takes 300 s (S -> S): T5, 08:45.
        stops = ["S,0,0.1,1,", "S1,0,0.1,0,S", "S2,0,0.1001,0,S", "X,0,0", "Y,0,0.2"]
        trips = {"T1": ["X,07:30:00,07:30:00", "S1,08:00:00,08:00:00"],
                 "T2": ["S2,08:02:00,08:02:00", "Y,08:30:00,08:30:00"], "T3": ["S2,08:06:00,08:06:00", "Y,08:40:00,08:40:00"],
                 "T4": ["S1,08:03:00,08:03:00", "Y,08:35:00,08:35:00"], "T5": ["S1,08:07:00,08:07:00", "Y,08:45:00,08:45:00"]}
        for rows, arrival, middle in (([], "08:30", ("walk", "S1", "S2", 9, 11)),
                                      (["S,S,2,300"], "08:40", ("walk", "S1", "S2", 300, 11)),
                                      (["S,S,2,300", "S1,S1,0,"], "08:35", None),
                                      (["S,S,2,300", "S1,S,2,120"], "08:30", ("walk", "S1", "S2", 120, 11)),
                                      (["S,S,2,300", "S,S2,3,"], "08:45", None)):
            with self.subTest(rows=rows):
                self.reset()
                self.feed(stops=stops, trips=trips, transfers=rows)
                question = ("plan", "X", "Y", "--at", "2026-03-02 07:00")
                self.assertEqual(self.summary(*question), [(2, hms("07:30"), hms(arrival))])
                legs = self.legs(*question)
                self.assertEqual(legs[1] if middle else len(legs), middle or 2)


class Answers(PlannerTestCase):
    def test_arrive_by_keeps_latest_departures_and_shows_the_earliest_arrival(self):
        # SLOW A 07:00 -> C 08:55 and SLOW2 A 07:00 -> C 08:40 leave together; F1 A 08:05 -> B
        # 08:20, F2 B 08:25 -> C 08:50. Arrive by 09:00: with 1 ride the latest departure is 07:00,
        # and of the journeys leaving then the one shown arrives first (SLOW2, 08:40); with 2 rides
        # 08:05 (later: kept), arriving 08:50.
        self.feed(stops=[A, B, C], trips={
            "SLOW": ["A,07:00:00,07:00:00", "C,08:55:00,08:55:00"], "SLOW2": ["A,07:00:00,07:00:00", "C,08:40:00,08:40:00"],
            "F1": ["A,08:05:00,08:05:00", "B,08:20:00,08:20:00"], "F2": ["B,08:25:00,08:25:00", "C,08:50:00,08:50:00"]})
        self.assertEqual(self.summary("plan", "A", "C", "--arrive-by", "2026-03-02 09:00"),
                         [(1, hms("07:00"), hms("08:40")), (2, hms("08:05"), hms("08:50"))])
        # Arriving by 08:50 exactly is allowed; by 08:49 only the 1-ride journey is left.
        self.assertEqual(self.summary("plan", "A", "C", "--arrive-by", "2026-03-02 08:50")[-1], (2, hms("08:05"), hms("08:50")))
        self.assertEqual(self.summary("plan", "A", "C", "--arrive-by", "2026-03-02 08:49"), [(1, hms("07:00"), hms("08:40"))])

    def test_reach_within_a_budget(self):
        # From A at 08:00: A at 08:00 (0 rides), A2 (111 m) walked at 08:01:24 (0 rides), B by T1
        # (A 08:10 -> B 08:20, 1 ride), C by T2 (B 08:25 -> C 08:40, 2 rides) or by T3 (A 08:05 ->
        # C 08:45, 1 ride): earliest 08:40 with 2 rides. D (11 km away, no trips) is never reached.
        self.feed(stops=[A, "A2,0,0.001", B, C, D], trips={
            "T1": ["A,08:10:00,08:10:00", "B,08:20:00,08:20:00"], "T2": ["B,08:25:00,08:25:00", "C,08:40:00,08:40:00"],
            "T3": ["A,08:05:00,08:05:00", "C,08:45:00,08:45:00"]})

        def reach(*options):
            return [(s["stop_id"], s["arrival"], s["rides"]) for s in self.ask("reach", "A", "--at", "2026-03-02 08:00", *options)["stops"]]

        self.assertEqual(reach("--within", "45"), [("A", hms("08:00"), 0), ("A2", hms("08:01:24"), 0),
                                                   ("B", hms("08:20"), 1), ("C", hms("08:40"), 2)])
        # 39 minutes: C (08:40) is out; 40 minutes: arriving exactly at the limit is in.
        self.assertEqual([s for s, _, _ in reach("--within", "39")], ["A", "A2", "B"])
        self.assertEqual([s for s, _, _ in reach("--within", "40")], ["A", "A2", "B", "C"])
        # With at most 1 ride C is reached by T3 at 08:45.
        self.assertEqual(reach("--within", "45", "--max-rides", "1")[-1], ("C", hms("08:45"), 1))

    def test_command_line_prints_the_json_answer(self):
        # The direct ride of test_direct_ride, through the command line, every field as specified.
        self.feed(stops=[A, B], trips={"T1": ["A,08:00:00,08:00:00", "B,08:30:00,08:30:00"]})
        result = subprocess.run([sys.executable, PLANNER, "--db", self.db, "plan", "A", "0,0.101", "--at", "2026-03-02 07:50"],
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(json.loads(result.stdout), {"journeys": [{
            "departure": "2026-03-02T08:00:00+01:00", "arrival": "2026-03-02T08:31:24+01:00", "rides": 1, "legs": [
                {"mode": "ride", "feed": "test", "trip_id": "T1", "route_id": "R_T1", "route_short_name": "T1",
                 "from_stop_id": "A", "to_stop_id": "B", "departure": "2026-03-02T08:00:00+01:00",
                 "arrival": "2026-03-02T08:30:00+01:00", "realtime": False},
                {"mode": "walk", "from_stop_id": "B", "to_stop_id": None, "seconds": 84, "metres": 111}]}]})
        result = subprocess.run([sys.executable, PLANNER, "--db", self.db, "plan", "NOPE", "B", "--at", "2026-03-02 07:50"],
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 2)
        self.assertIn("no stop 'NOPE'", result.stderr)


# ---------------------------------------------------------------------------------------------
# The label search against an exhaustive enumeration of every journey on small random feeds
# ---------------------------------------------------------------------------------------------

def every_journey(network, origin, destination, runs, max_rides, earliest=None, latest=None):
    """Every journey with >= 1 ride from origin to destination as (rides, departure, arrival),
    found by trying every sequence of legs (rules 6, 7, 9, 10, 13, 14) independently of the
    label search. Journeys leaving before `earliest` or arriving after `latest` are cut off."""
    found = []
    boardings = {}  # stop -> [(run, index of a boardable call there)]
    for run in runs:
        for index, (stop, _, departure) in enumerate(run.calls):
            if departure is not None:
                boardings.setdefault(stop, []).append((run, index))
    to_point = network.point_walks(*destination.point) if destination.point is not None else None

    def visit(stop, time, rides, departure, lead, last):
        # At `stop` at `time` (None before the first ride: the rider may be there any time),
        # `lead` seconds walked before the first ride, `last` leg "start", "ride" or "walk".
        if latest is not None and time is not None and time > latest:
            return
        if rides > 0:  # arrive: here, or with a last walk
            if to_point is None:
                if stop in destination.stops:
                    found.append((rides, departure, time))
                if last == "ride":
                    for target, (seconds, _) in network.walks.get(stop, {}).items():
                        if target in destination.stops:
                            found.append((rides, departure, time + seconds))
            elif last == "ride" and stop in to_point:
                found.append((rides, departure, time + to_point[stop][0]))
        if rides < max_rides:  # ride on
            wait = network.change_seconds.get(stop) if last == "ride" else 0
            if wait is not None:
                for run, board in boardings.get(stop, ()):
                    leaves_at = run.calls[board][2]
                    if time is not None and leaves_at < time + wait:
                        continue
                    start = departure if departure is not None else leaves_at - lead
                    if earliest is not None and start < earliest:
                        continue
                    for leave in range(board + 1, len(run.calls)):
                        target, arrival, _ = run.calls[leave]
                        if arrival is not None:
                            visit(target, arrival, rides + 1, start, lead, "ride")
        if last != "walk":  # walk on (not twice in a row)
            for target, (seconds, _) in network.walks.get(stop, {}).items():
                if time is None:
                    visit(target, None, rides, departure, lead + seconds, "walk")
                else:
                    visit(target, time + seconds, rides, departure, lead, "walk")

    if origin.point is not None:
        for stop, (seconds, _) in network.point_walks(*origin.point).items():
            visit(stop, None, 0, None, seconds, "walk")
    else:
        for stop in origin.stops:
            visit(stop, None, 0, None, 0, "start")
    return found


def zero_ride_seconds(network, origin, destination):
    """The shortest 0-ride journey (seconds) or None (rule 13)."""
    if origin.point is not None and destination.point is not None:
        d = rp.haversine(*origin.point, *destination.point)
        return math.ceil(d / network.walk_speed) if d <= network.max_access_walk else None
    if origin.point is not None or destination.point is not None:
        point, stops = (origin.point, destination.stops) if origin.point is not None else (destination.point, origin.stops)
        walks = network.point_walks(*point)
        return min((walks[s][0] for s in stops if s in walks), default=None)
    options = [0 for o in origin.stops if o in destination.stops]
    options += [network.walks[o][p][0] for o in origin.stops for p in destination.stops if p in network.walks.get(o, {})]
    return min(options, default=None)


def pareto_by_enumeration(network, origin, destination, time, max_rides, arrive_by):
    """[(rides, departure, arrival)] of rule 15, from every journey."""
    runs = network.runs(time)
    zero = zero_ride_seconds(network, origin, destination)
    answers = []
    if not arrive_by:
        journeys = every_journey(network, origin, destination, runs, max_rides, earliest=time)
        if zero is not None:
            journeys.append((0, time, time + zero))
        best_before = None
        for k in range(max_rides + 1):
            arrivals = [a for r, _, a in journeys if r <= k]
            if arrivals and (best_before is None or min(arrivals) < best_before):
                best_before = min(arrivals)
                departure = max(d for r, d, a in journeys if r <= k and a == best_before)
                answers.append((k, departure, best_before))
    else:
        journeys = [j for j in every_journey(network, origin, destination, runs, max_rides, latest=time) if j[2] <= time]
        if zero is not None:
            journeys.append((0, time - zero, time))
        best_before = None
        for k in range(max_rides + 1):
            departures = [d for r, d, _ in journeys if r <= k]
            if departures and (best_before is None or max(departures) > best_before):
                best_before = max(departures)
                arrival = min(a for r, d, a in journeys if r <= k and d == best_before)
                answers.append((k, best_before, arrival))
    return answers


class AgainstEnumeration(PlannerTestCase):
    NAMES = ["P", "Q", "R", "S", "U", "V", "W"]

    def random_feed(self, rng):
        """Seven stops (a station ST with platforms P and Q 111 m apart; R and S 445 m apart; U and
        V 111 m apart; W alone; the groups kilometres apart), sixteen random trips (morning ones
        and late ones running past midnight), random pickup and drop-off types, random transfer
        rows (stop or station, types 0-3, with or without min_transfer_time)."""
        coordinates = {"P": (0, 0), "Q": (0, 0.001), "R": (0, 0.02), "S": (0, 0.024), "U": (0, 0.05), "V": (0.001, 0.05),
                       "W": (0, 0.08)}
        stops = ["ST,0,0.0005,1,"]
        for name in self.NAMES:
            lat, lon = coordinates[name]
            stops.append(f"{name},{lat},{lon},0,{'ST' if name in 'PQ' else ''}")
        trips = {}
        for t in range(16):
            visited = rng.sample(self.NAMES, rng.randint(2, 5))
            clock = rng.choice([rng.randint(7 * 60, 8 * 60), rng.randint(23 * 60, 24 * 60 + 30)]) * 60
            calls = []
            for stop in visited:
                pickup, drop_off = rng.choice(["0", "0", "0", "0", "1"]), rng.choice(["0", "0", "0", "0", "1"])
                time_ = f"{clock // 3600:02d}:{clock // 60 % 60:02d}:00"
                calls.append(f"{stop},{time_},{time_},{pickup},{drop_off}")
                clock += rng.choice([60, 120, 300, 600])
            trips[f"T{t}"] = calls
        transfers = []
        for _ in range(rng.randint(0, 4)):
            a, b = rng.choice(self.NAMES + ["ST"]), rng.choice(self.NAMES + ["ST"])
            transfers.append(f"{a},{b},{rng.choice('0123')},{rng.choice(['', '60', '240'])}")
        return stops, trips, transfers

    def test_label_search_matches_every_journey_on_random_feeds(self):
        # For 30 random feeds ($REFERENCE_RANDOM_FEEDS, seed $REFERENCE_RANDOM_SEED) and 8 random questions each (stops, stations and points, --at and
        # --arrive-by, in the morning or around midnight, up to 4 rides), the planner's (rides,
        # departure, arrival) list equals the one found by enumerating every journey.
        feeds = int(os.environ.get("REFERENCE_RANDOM_FEEDS", "30"))
        rng = random.Random(int(os.environ.get("REFERENCE_RANDOM_SEED", "20261125")))
        groups = [["P", "Q", "ST", "0,0.0002"], ["R", "S", "0,0.022"], ["U", "V", "0,0.0502"], ["W"]]
        questions = 0
        for feed_number in range(feeds):
            self.reset()
            stops, trips, transfers = self.random_feed(rng)
            self.feed(stops=stops, trips=trips, transfers=transfers)
            network = rp.Network(self.db, self.sources)
            for _ in range(8):
                if rng.random() < 0.8:  # mostly between groups, where rides are needed
                    first, second = rng.sample(groups, 2)
                    origin_text, destination_text = rng.choice(first), rng.choice(second)
                else:
                    origin_text, destination_text = rng.sample(rng.choice(groups[:3]), 2)
                origin, destination = network.resolve(origin_text), network.resolve(destination_text)
                arrive_by = rng.random() < 0.5
                clock = rng.choice([rng.randint(6 * 60, 10 * 60), rng.randint(22 * 60, 25 * 60)]) % (24 * 60)
                day = "2026-03-03" if clock < 2 * 60 else "2026-03-02"
                when = network.parse_time(f"{day} {clock // 60:02d}:{clock % 60:02d}")
                max_rides = rng.choice([0, 1, 2, 3, 3, 4])
                journeys = rp.plan(network, origin, destination, when, max_rides, arrive_by)
                for journey in journeys:
                    rp.check_journey(network, journey, origin, destination, max_rides,
                                     at=None if arrive_by else when, arrive_by=when if arrive_by else None)
                got = [(j.rides, j.departure, j.arrival) for j in journeys]
                expected = pareto_by_enumeration(network, origin, destination, when, max_rides, arrive_by)
                self.assertEqual(got, expected, f"feed {feed_number}: {origin_text} -> {destination_text} "
                                                f"{'by' if arrive_by else 'at'} {clock // 60:02d}:{clock % 60:02d} "
                                                f"max {max_rides}\n{stops}\n{trips}\n{transfers}")
                questions += 1
        self.assertEqual(questions, 8 * feeds)


# ---------------------------------------------------------------------------------------------
# Real feeds: it finishes
# ---------------------------------------------------------------------------------------------

class RealFeeds(PlannerTestCase):
    def test_vilnius_twenty_random_questions(self):
        # 20 random stop-to-stop questions on the Vilnius feed (1,293 stops, 445,217 stop times),
        # every journey checked leg by leg; prints the time each takes.
        feed = os.path.join(FEEDS, "vilnius.zip")
        if not os.path.exists(feed):
            self.skipTest(f"no {feed} (set TRANSIT_FEEDS)")
        result = subprocess.run([BINARY, "import", feed, "--db", self.db, "--quiet"], capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        rng = random.Random(42)
        started = time.perf_counter()
        network = rp.Network(self.db)
        print(f"\n  Vilnius: network read in {time.perf_counter() - started:.2f} s", file=sys.stderr)
        points = sorted(s.stop_id for s in network.boarding_points)
        slowest = 0
        for number in range(20):
            a, b = rng.sample(points, 2)
            arrive_by = number % 3 == 2
            clock = rng.randint(5 * 60, 23 * 60 + 59)
            text = f"2015-09-{rng.randint(7, 11):02d} {clock // 60:02d}:{clock % 60:02d}"
            when = network.parse_time(text)
            origin, destination = network.resolve(a), network.resolve(b)
            began = time.perf_counter()
            journeys = rp.plan(network, origin, destination, when, 5, arrive_by)
            took = time.perf_counter() - began
            slowest = max(slowest, took)
            for journey in journeys:
                rp.check_journey(network, journey, origin, destination, 5,
                                 at=None if arrive_by else when, arrive_by=when if arrive_by else None)
            shown = ", ".join(f"{j.rides}: {network.iso(j.departure)[11:19]}-{network.iso(j.arrival)[11:19]}" for j in journeys)
            print(f"  {a:>5} -> {b:<5} {'by' if arrive_by else 'at'} {text}: {took:5.2f} s  [{shown}]", file=sys.stderr)
        # A point to a point and a reach, too.
        began = time.perf_counter()
        stops = rp.reach(network, network.resolve(points[0]), network.parse_time("2015-09-08 08:00"), 30)
        print(f"  reach {points[0]} 30 min: {len(stops)} stops in {time.perf_counter() - began:.2f} s", file=sys.stderr)
        print(f"  total {time.perf_counter() - started:.2f} s, slowest question {slowest:.2f} s", file=sys.stderr)
        self.assertTrue(stops)


if __name__ == "__main__":
    unittest.main()
