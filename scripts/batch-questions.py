#!/usr/bin/env python3
"""Writes seeded random batch questions for `transit … --input`, drawn from a database's stops.

    scripts/batch-questions.py nearby|departures|search DB COUNT [SEED] > questions.csv

nearby: a point within 500 m of a random stop (radius from the flag); departures: such a point,
radius 500 m, at a minute 05:00-23:00 on one of days 7-34 after the earliest calendar start;
search: 3-5 letters of a word (of 3 letters or more) of a random stop's name (every fourth question two words).
"""
import csv, datetime, math, random, re, sqlite3, sys

kind, path, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 42)
db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
out = csv.writer(sys.stdout, lineterminator="\n")

def point():
    lat, lon = stops[rng.randrange(len(stops))]
    distance, bearing = rng.uniform(0, 500) / 6371008.8, rng.uniform(0, 2 * math.pi)
    lat1, lon1 = math.radians(lat), math.radians(lon)
    lat2 = math.asin(math.sin(lat1) * math.cos(distance) + math.cos(lat1) * math.sin(distance) * math.cos(bearing))
    lon2 = lon1 + math.atan2(math.sin(bearing) * math.sin(distance) * math.cos(lat1), math.cos(distance) - math.sin(lat1) * math.sin(lat2))
    return f"{math.degrees(lat2):.6f}", f"{math.degrees(lon2):.6f}"

if kind in ("nearby", "departures"):
    stops = db.execute("SELECT stop_lat, stop_lon FROM stops WHERE stop_lat IS NOT NULL ORDER BY id").fetchall()
if kind == "nearby":
    out.writerow(["lat", "lon"])
    for _ in range(count):
        out.writerow(point())
elif kind == "departures":
    first = str(db.execute("SELECT MIN(start_date) FROM calendar").fetchone()[0])
    start = datetime.date(int(first[:4]), int(first[4:6]), int(first[6:]))
    out.writerow(["lat", "lon", "radius", "at"])
    for _ in range(count):
        lat, lon = point()
        day = start + datetime.timedelta(days=rng.randrange(7, 35))
        minute = rng.randint(5 * 60, 23 * 60)
        out.writerow([lat, lon, 500, f"{day} {minute // 60:02d}:{minute % 60:02d}"])
elif kind == "search":
    names = [row[0] for row in db.execute("SELECT stop_name FROM stops ORDER BY id")]
    def prefix():
        words = re.findall(r"[^\W\d_]{3,}", names[rng.randrange(len(names))])
        return rng.choice(words)[:rng.randint(3, 5)] if words else "sto"
    out.writerow(["text"])
    for index in range(count):
        out.writerow([prefix() + " " + prefix() if index % 4 == 3 else prefix()])
else:
    sys.exit(f"unknown kind {kind}: nearby, departures or search")
