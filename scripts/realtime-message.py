#!/usr/bin/env python3
"""Writes a GTFS-Realtime FeedMessage of seeded trip updates for a database's trips (protobuf
encoded by hand: no protobuf package needed).

    scripts/realtime-message.py DB TRIPS STOPS_PER_TRIP TIMESTAMP OUT [SEED]

TRIPS trips drawn from the first feed, each with a TripUpdate (trip_id, start_date of the day of
TIMESTAMP in UTC) holding STOPS_PER_TRIP StopTimeUpdates by stop_sequence with departure delays of
-60..600 s.
"""
import datetime, random, sqlite3, sys

path, trips, per_trip, timestamp, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
rng = random.Random(int(sys.argv[6]) if len(sys.argv) > 6 else 42)
db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
feed = db.execute("SELECT id FROM feeds ORDER BY name LIMIT 1").fetchone()[0]
keys = [row for row in db.execute("SELECT id, trip_id FROM trips WHERE feed = ? ORDER BY id", (feed,))]
chosen = rng.sample(keys, min(trips, len(keys)))
date = datetime.datetime.fromtimestamp(timestamp, datetime.timezone.utc).strftime("%Y%m%d")

def varint(value):
    value &= (1 << 64) - 1
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)

def field(number, wire, payload):
    return varint(number << 3 | wire) + (varint(len(payload)) + payload if wire == 2 else payload)

def text(number, value):
    return field(number, 2, value.encode())

def number(number_, value):
    return field(number_, 0, varint(value))

header = field(1, 2, text(1, "2.0") + number(2, 0) + number(3, timestamp))
entities = bytearray()
for key, trip_id in chosen:
    sequences = [row[0] for row in db.execute(f"SELECT stop_sequence FROM stop_times_{feed} WHERE trip = ? ORDER BY stop_sequence LIMIT ?", (key, per_trip))]
    descriptor = field(1, 2, text(1, trip_id) + text(3, date))
    updates = b"".join(field(2, 2, number(1, sequence) + field(3, 2, number(1, rng.randint(-60, 600)))) for sequence in sequences)
    entities += field(2, 2, text(1, f"tu-{trip_id}") + field(3, 2, descriptor + updates))
with open(out, "wb") as f:
    f.write(header + bytes(entities))
