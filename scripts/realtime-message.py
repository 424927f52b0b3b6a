#!/usr/bin/env python3
"""Writes a GTFS-Realtime FeedMessage of seeded trip updates for a database's trips (protobuf
encoded by hand: no protobuf package needed).

    scripts/realtime-message.py DB TRIPS STOPS_PER_TRIP TIMESTAMP OUT [SEED] [--skipped P] [--cancelled P]

TRIPS trips drawn from the first feed, each with a TripUpdate (trip_id, start_date of the day of
TIMESTAMP in UTC) holding STOPS_PER_TRIP StopTimeUpdates by stop_sequence with departure delays of
-60..600 s. With --skipped P each of those stop time updates is a SKIPPED stop instead with
probability P; with --cancelled P each trip update is CANCELED (no stop time updates) with
probability P. Without them the message is the same as before they existed, seed for seed.
"""
import argparse, datetime, random, sqlite3

parser = argparse.ArgumentParser(description="A seeded GTFS-Realtime message of trip updates for a database's trips.")
parser.add_argument("db")
parser.add_argument("trips", type=int)
parser.add_argument("per_trip", type=int)
parser.add_argument("timestamp", type=int)
parser.add_argument("out")
parser.add_argument("seed", type=int, nargs="?", default=42)
parser.add_argument("--skipped", type=float, default=0.0, help="probability that a stop time update is a SKIPPED stop")
parser.add_argument("--cancelled", type=float, default=0.0, help="probability that a trip update is CANCELED")
args = parser.parse_args()
path, trips, per_trip, timestamp, out = args.db, args.trips, args.per_trip, args.timestamp, args.out
rng = random.Random(args.seed)
# Skips and cancellations are drawn from a generator of their own, so the delays stay as they were.
choices = random.Random(args.seed + 1)
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
    delays = [rng.randint(-60, 600) for _ in sequences]
    if args.cancelled and choices.random() < args.cancelled:
        # TripDescriptor.schedule_relationship (field 4) CANCELED (3).
        descriptor = field(1, 2, text(1, trip_id) + text(3, date) + number(4, 3))
        entities += field(2, 2, text(1, f"tu-{trip_id}") + field(3, 2, descriptor))
        continue
    descriptor = field(1, 2, text(1, trip_id) + text(3, date))
    updates = b""
    for sequence, delay in zip(sequences, delays):
        if args.skipped and choices.random() < args.skipped:
            # StopTimeUpdate.schedule_relationship (field 5) SKIPPED (1).
            updates += field(2, 2, number(1, sequence) + number(5, 1))
        else:
            updates += field(2, 2, number(1, sequence) + field(3, 2, number(1, delay)))
    entities += field(2, 2, text(1, f"tu-{trip_id}") + field(3, 2, descriptor + updates))
with open(out, "wb") as f:
    f.write(header + bytes(entities))
