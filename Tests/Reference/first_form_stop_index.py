"""Rewrites the planner stop indexes of a transit database (argv[1]) in their first stored form,
as builds before the blocks wrote them: the whole index in row 0 (the stop count; latitudes,
longitudes, parent slots, location types; call offsets; (pattern, position) pairs), no blocks of
stops or tiles of the map. Used by StopIndexTests to check that such databases answer alike."""
import sqlite3
import struct
import sys

BLOCKS_FROM = -100_000_000


def first_form(db, table):
    """The first form of `table`'s stop index, gathered from its header and blocks."""
    header = db.execute(f'SELECT data FROM "{table}" WHERE id = 0').fetchone()[0]
    marker, count, size = struct.unpack_from('<III', header)
    assert marker == 0xFFFFFFFF, f'{table} is in the first form already'
    lats, lons, parents, types, offsets, calls = [], [], [], [], [0], []
    for block in range((count + size - 1) // size):
        data = db.execute(f'SELECT data FROM "{table}" WHERE id = ?', (BLOCKS_FROM - block,)).fetchone()[0]
        n, = struct.unpack_from('<I', data)
        at = 4
        lats += struct.unpack_from(f'<{n}d', data, at); at += 8 * n
        lons += struct.unpack_from(f'<{n}d', data, at); at += 8 * n
        parents += struct.unpack_from(f'<{n}i', data, at); at += 4 * n
        types += struct.unpack_from(f'<{n}B', data, at); at += n
        call_offsets = struct.unpack_from(f'<{n + 1}I', data, at)
        at += 2 * 4 * (n + 1)  # the call offsets, then the children's
        calls += struct.unpack_from(f'<{2 * call_offsets[n]}I', data, at)
        for i in range(n):
            offsets.append(offsets[-1] + call_offsets[i + 1] - call_offsets[i])
    return (struct.pack('<I', count) + struct.pack(f'<{count}d', *lats) + struct.pack(f'<{count}d', *lons)
            + struct.pack(f'<{count}i', *parents) + bytes(types) + struct.pack(f'<{count + 1}I', *offsets)
            + struct.pack(f'<{len(calls)}I', *calls))


def rewrite(path):
    db = sqlite3.connect(path)
    tables = [r[0] for r in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'planner\\_%' ESCAPE '\\'")]
    for table in tables:
        db.execute(f'UPDATE "{table}" SET data = ? WHERE id = 0', (first_form(db, table),))
        db.execute(f'DELETE FROM "{table}" WHERE id <= ?', (BLOCKS_FROM,))
    db.commit()
    print(f'{len(tables)} planner table(s) rewritten in the first form')


if __name__ == '__main__':
    rewrite(sys.argv[1])
