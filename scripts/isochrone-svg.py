#!/usr/bin/env python3
"""Draws `transit reach … --format geojson` as an SVG picture: each reached stop a dot coloured by
its minutes (green soon, red late), no map tiles needed (these machines reach no tile server).

    transit reach 0:5409 --at "2015-09-08 08:00" --within 30 --format geojson --db DB > reach.geojson
    python3 scripts/isochrone-svg.py reach.geojson docs/isochrone.svg --title "30 minutes from …"
"""
import json
import math
import sys


def colour(fraction):
    """Green (0) through yellow to red (1)."""
    fraction = max(0.0, min(1.0, fraction))
    red = int(255 * min(1.0, 2 * fraction))
    green = int(200 * min(1.0, 2 * (1 - fraction)))
    return f"#{red:02x}{green:02x}40"


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 64
    title = argv[argv.index("--title") + 1] if "--title" in argv else "Reached stops"
    with open(argv[1], encoding="utf-8") as f:
        features = json.load(f)["features"]
    points = [(f["geometry"]["coordinates"][0], f["geometry"]["coordinates"][1], f["properties"]["minutes"],
               f["properties"]["rides"]) for f in features]
    if not points:
        print("no stops in the GeoJSON", file=sys.stderr)
        return 1
    lons = [p[0] for p in points]
    lats = [p[1] for p in points]
    middle = math.cos(math.radians(sum(lats) / len(lats)))
    width, height, margin = 720, 560, 40
    span_x = max((max(lons) - min(lons)) * middle, 1e-6)
    span_y = max(max(lats) - min(lats), 1e-6)
    scale = min((width - 2 * margin) / span_x, (height - 2 * margin - 40) / span_y)
    longest = max(p[2] for p in points) or 1

    def xy(lon, lat):
        return margin + (lon - min(lons)) * middle * scale, height - margin - (lat - min(lats)) * scale

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
           f'<rect width="{width}" height="{height}" fill="#f8f8f4"/>',
           f'<text x="{margin}" y="28" font-family="sans-serif" font-size="16">{title}</text>']
    # A scale bar of 1 km.
    bar = 1000 / 111195 * scale
    out.append(f'<line x1="{width - margin - bar:.1f}" y1="{height - 16}" x2="{width - margin}" y2="{height - 16}" stroke="#333" stroke-width="2"/>')
    out.append(f'<text x="{width - margin - bar:.1f}" y="{height - 22}" font-family="sans-serif" font-size="11">1 km</text>')
    for lon, lat, minutes, rides in sorted(points, key=lambda p: -p[2]):
        x, y = xy(lon, lat)
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{4 if rides else 6}" fill="{colour(minutes / longest)}" stroke="#333" stroke-width="0.3">'
                   f'<title>{minutes} min, {rides} ride{"s" if rides != 1 else ""}</title></circle>')
    for index, minutes in enumerate(range(0, longest + 1, max(longest // 5, 1))):
        out.append(f'<circle cx="{margin + 8 + index * 70}" cy="{height - 16}" r="5" fill="{colour(minutes / longest)}"/>'
                   f'<text x="{margin + 16 + index * 70}" y="{height - 12}" font-family="sans-serif" font-size="11">{minutes} min</text>')
    out.append("</svg>")
    with open(argv[2], "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
