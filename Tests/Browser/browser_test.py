#!/usr/bin/env python3
"""Browser test of the pages of `transit serve`, in headless Chromium, against a running server.

    python3 Tests/Browser/browser_test.py --base http://127.0.0.1:PORT --stop HBF --at "2026-03-02 07:55" \\
        [--trip T1] [--lat 52.5249 --lon 13.3692 --zoom 14] [--screenshot board.png] [--map-screenshot map.png]

Each page is loaded with `chromium --headless --dump-dom` (with --virtual-time-budget, so its fetches
finish), and what it drew is compared with what the JSON API answers the same question:

  board   /board/STOP?at=AT: the rows (data-trip-id, td.time, the cancelled mark) are the API's
          departures with cancelled=1, in order: all of the next 60 minutes (within=60&limit=50), or
          the next 8 when those are fewer (within=1440&limit=8);
          the header shows the day, and is the stop's name even when nothing departs;
  map     /?lat=&lon=&zoom=: the markers (data-stop-id, data-feed) are the stops /api/nearby answers
          the request the page made (document.body.dataset.nearbyUrl); the routes drawn (paths with
          data-route-id) are those /api/routes answers its request (routesUrl); each feed's extent
          is drawn; some stop names are shown; the status line shows no error;
  trip    /trip/TRIP: the calls listed (li.call: data-stop-id, its times) are /api/trip/TRIP's, and
          the title says the headsign the API's GeoJSON gives;

and for every page: no console message at all (the pages log nothing; Chromium's stderr log does not
say a console message's level, so any is a failure, "Uncaught" errors included), no request to
another origin and no request answered with an error status (read from Chromium's NetLog).

Prints one line per check; exits 0 when all pass, 1 when one fails, 77 when no Chromium is found.
Standard library only (Python 3.9+).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from html.parser import HTMLParser

SKIP = 77
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
WINDOW = "1280,800"
VIRTUAL_TIME_MS = 8000
TIMEOUT_S = 120

# The board's rule (Pages/board.js): all departures of the next 60 minutes, at least the next 8.
WINDOW_MINUTES, WINDOW_LIMIT, MIN_ROWS, WIDE_WINDOW_MINUTES = 60, 50, 8, 1440
# The map's rule (Pages/map.js ROUTE_LIMIT): the first 60 routes near the centre are drawn.
MAP_ROUTE_LIMIT = 60


# ----- A small DOM from Chromium's --dump-dom output ---------------------------------------------

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Node:
    def __init__(self, tag, attrs, parent=None):
        self.tag = tag
        self.attrs = {k: (v if v is not None else "") for k, v in attrs}
        self.parent = parent
        self.children = []

    def classes(self):
        return self.attrs.get("class", "").split()

    def walk(self):
        for child in self.children:
            if isinstance(child, Node):
                yield child
                yield from child.walk()

    def find_all(self, predicate):
        return [node for node in self.walk() if predicate(node)]

    def first(self, predicate):
        return next((node for node in self.walk() if predicate(node)), None)

    def text(self):
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)


class DOMBuilder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", [])
        self.current = self.root

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs, self.current)
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_startendtag(self, tag, attrs):
        self.current.children.append(Node(tag, attrs, self.current))

    def handle_endtag(self, tag):
        node = self.current
        while node is not self.root and node.tag != tag:
            node = node.parent
        if node is not self.root:
            self.current = node.parent

    def handle_data(self, data):
        self.current.children.append(data)


def parse_dom(html):
    builder = DOMBuilder()
    builder.feed(html)
    builder.close()
    return builder.root


def has_class(name):
    return lambda node: name in node.classes()


# ----- Chromium ----------------------------------------------------------------------------------

def find_browser():
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    return None


class PageLoad:
    def __init__(self, url, dom, console, requests, stderr):
        self.url = url
        self.dom = dom
        self.console = console  # console messages (lines of Chromium's log)
        self.requests = requests  # [(url, status or None, initiated by the page)]
        self.stderr = stderr


def read_netlog(path):
    """The requests in a NetLog file: [(source id, url, initiator, request type, status line or None)]."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return None
    try:
        log = json.loads(text)
    except json.JSONDecodeError:
        try:  # a log cut short (Chromium killed): close it
            log = json.loads(text.rstrip().rstrip(",") + "]}")
        except json.JSONDecodeError:
            return None
    names = {number: name for name, number in log.get("constants", {}).get("logEventTypes", {}).items()}
    starts, statuses = {}, {}
    for event in log.get("events", []):
        name = names.get(event.get("type"))
        params = event.get("params") or {}
        source = (event.get("source") or {}).get("id")
        if name == "URL_REQUEST_START_JOB" and params.get("url"):
            starts.setdefault(source, (params["url"], params.get("initiator", ""), params.get("request_type", "")))
        elif name == "HTTP_TRANSACTION_READ_RESPONSE_HEADERS":
            headers = params.get("headers") or []
            if headers:
                statuses[source] = headers[0]
    return [(source, url, initiator, kind, statuses.get(source)) for source, (url, initiator, kind) in starts.items()]


def origin_of(url):
    """scheme://host[:port] as Chromium writes an initiator (no default port)."""
    parts = urllib.parse.urlsplit(url)
    default = {"http": 80, "https": 443}.get(parts.scheme)
    port = f":{parts.port}" if parts.port and parts.port != default else ""
    host = f"[{parts.hostname}]" if parts.hostname and ":" in parts.hostname else parts.hostname
    return f"{parts.scheme}://{host}{port}"


def load(browser, base, path, screenshot=None):
    """Loads base+path in headless Chromium; returns a PageLoad (dom None with a screenshot)."""
    url = base + path
    host = urllib.parse.urlsplit(base).hostname or "127.0.0.1"
    origin = origin_of(base)
    with tempfile.TemporaryDirectory(prefix="transit-browser-") as profile:
        netlog = os.path.join(profile, "netlog.json")
        command = [
            browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            f"--user-data-dir={os.path.join(profile, 'profile')}", f"--window-size={WINDOW}",
            f"--virtual-time-budget={VIRTUAL_TIME_MS}", "--enable-logging=stderr", "--v=0",
            f"--log-net-log={netlog}",
            # Nothing leaves the machine: every host but the server's fails to resolve.
            f"--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE {host}",
            "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--disable-default-apps", "--disable-extensions",
            "--mute-audio",
        ]
        command += [f"--screenshot={screenshot}"] if screenshot else ["--dump-dom"]
        command.append(url)
        try:
            run = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT_S,
                                 errors="replace", cwd=profile)
        except subprocess.TimeoutExpired:
            return PageLoad(url, None, [f"chromium did not finish within {TIMEOUT_S} s"], [], "")
        console = [line for line in run.stderr.splitlines() if ":CONSOLE" in line or "Uncaught" in line]
        entries = read_netlog(netlog)
        requests = None
        if entries is not None:
            requests = [(u, status, initiator == origin or (kind == "main frame" and u == url))
                        for _, u, initiator, kind, status in entries]
        dom = None if screenshot else parse_dom(run.stdout)
        if not screenshot and not run.stdout.strip():
            console.append(f"chromium printed no DOM (exit status {run.returncode})")
        return PageLoad(url, dom, console, requests, run.stderr)


# ----- The API -----------------------------------------------------------------------------------

def query(params):
    """A query string with spaces as %20 (never '+')."""
    return "&".join(f"{urllib.parse.quote(k, safe='')}={urllib.parse.quote(str(v), safe='')}" for k, v in params.items())


def api(base, path_and_query):
    request = urllib.request.Request(base + path_and_query, headers={"Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            kind = response.headers.get("Content-Type", "")
            body = response.read()
    except urllib.error.HTTPError as error:
        try:
            message = json.loads(error.read()).get("error")
        except (ValueError, AttributeError):
            message = None
        raise AssertionError(f"{path_and_query} answered {error.code}: {message or error.reason}") from None
    if not kind.startswith("application/json") and not kind.startswith("application/geo+json"):
        raise AssertionError(f"{path_and_query} answered Content-Type {kind!r}, not JSON")
    return json.loads(body)


def hhmm(iso):
    match = re.match(r"^\d{4}-\d{2}-\d{2}[T ](\d{2}:\d{2})", iso or "")
    return match.group(1) if match else ""


# ----- Checks ------------------------------------------------------------------------------------

class Report:
    def __init__(self):
        self.failed = 0

    def check(self, name, ok, detail):
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {detail}")
        if not ok:
            self.failed += 1
        sys.stdout.flush()


def page_health(report, name, page, base):
    """No console message; no request elsewhere; no request answered with an error."""
    report.check(f"{name} console", not page.console,
                 "no console messages" if not page.console else "; ".join(m.strip()[-300:] for m in page.console[:5]))
    if page.requests is None:
        report.check(f"{name} requests", False, "Chromium's NetLog could not be read")
        return
    origin = origin_of(base)
    mine = [(u, s) for u, s, by_page in page.requests if by_page]
    foreign = [u for u, _ in mine if origin_of(u) != origin]
    failed = [f"{u} ({s})" for u, s in mine if origin_of(u) == origin
              and (s is None or not re.match(r"^HTTP/\S+ [23]\d\d", s))]
    problems = [f"request to another origin: {u}" for u in foreign] + [f"failed: {f}" for f in failed]
    report.check(f"{name} requests", bool(mine) and not problems,
                 f"{len(mine)} requests, all to the server and answered" if mine and not problems
                 else ("no request seen" if not mine else "; ".join(problems[:5])))


def check_board(report, browser, base, stop, at):
    page = load(browser, base, f"/board/{urllib.parse.quote(stop, safe='')}?{query({'at': at})}")
    page_health(report, "board", page, base)
    if page.dom is None:
        report.check("board rows", False, "no DOM")
        return
    body = page.dom.first(lambda n: n.tag == "body")
    state = body.attrs.get("data-state") if body else None
    rows = page.dom.find_all(lambda n: n.tag == "tr" and "data-trip-id" in n.attrs)
    shown = []
    for row in rows:
        time_cell = row.first(has_class("time"))
        time_node = time_cell.first(lambda n: n.tag == "time") if time_cell else None
        delay_cell = row.first(has_class("delay"))
        shown.append((row.attrs.get("data-feed", ""), row.attrs["data-trip-id"],
                      (time_node or time_cell).text().strip() if time_cell else "",
                      row.attrs.get("data-minutes", ""),
                      # A cancelled row is marked so in its class and its delay cell's words.
                      "cancelled" in row.classes() and delay_cell is not None and delay_cell.text().strip() == "cancelled"))
    soon = api(base, f"/api/departures?{query({'stop': stop, 'at': at, 'within': WINDOW_MINUTES, 'limit': WINDOW_LIMIT, 'cancelled': 1})}")
    rule = f"all {len(soon)} of the next {WINDOW_MINUTES} min"
    expected_rows = soon
    if len(soon) < MIN_ROWS:
        expected_rows = api(base, f"/api/departures?{query({'stop': stop, 'at': at, 'within': WIDE_WINDOW_MINUTES, 'limit': MIN_ROWS, 'cancelled': 1})}")
        rule = f"the next {MIN_ROWS} (only {len(soon)} within {WINDOW_MINUTES} min; {len(expected_rows)} within {WIDE_WINDOW_MINUTES} min)"
    # Identical departures (feed, stop, time, route, headsign, cancelled) are one row, the first's.
    seen, merged = set(), []
    for d in expected_rows:
        key = (d.get("feed"), d.get("stop_id"), d.get("departure"), d.get("route_id"), d.get("headsign"), d.get("cancelled"))
        if key not in seen:
            seen.add(key)
            merged.append(d)
    expected = [(d.get("feed", ""), d["trip_id"], hhmm(d["departure"]), str(d["minutes"]), d.get("cancelled") is True) for d in merged]
    report.check("board state", state == "ready", f"data-state={state!r}")
    report.check("board rows", shown == expected and len(expected) > 0,
                 f"{len(shown)} rows = {rule}: " + ", ".join(f"{t} {h}" + (" cancelled" if c else "") for _, t, h, _, c in shown)
                 if shown == expected and expected else f"shown {shown} != API {expected}" if expected
                 else "the API has no departures to compare with: choose --stop/--at with some")
    heading = page.dom.first(lambda n: n.attrs.get("id") == "stop-name")
    if expected_rows:
        name = expected_rows[0].get("stop_name", "")
        report.check("board heading", heading is not None and heading.text().strip() == name,
                     f"{heading.text().strip() if heading else None!r} (API stop_name {name!r})")
    day = page.dom.first(lambda n: n.attrs.get("id") == "day")
    report.check("board day", day is not None and re.search(r"\d", day.text()) is not None,
                 f"the header shows {day.text().strip() if day else None!r}")


def check_map(report, browser, base, lat, lon, zoom):
    page = load(browser, base, f"/?{query({'lat': lat, 'lon': lon, 'zoom': zoom})}")
    page_health(report, "map", page, base)
    if page.dom is None:
        report.check("map markers", False, "no DOM")
        return
    body = page.dom.first(lambda n: n.tag == "body")
    nearby_url = body.attrs.get("data-nearby-url") if body else None
    state = body.attrs.get("data-nearby-state") if body else None
    if not nearby_url or state != "done":
        report.check("map markers", False, f"the page's nearby request did not finish (url {nearby_url!r}, state {state!r})")
        return
    markers = page.dom.find_all(lambda n: "data-stop-id" in n.attrs and "stop-marker" in n.classes())
    drawn = sorted((m.attrs.get("data-feed", ""), m.attrs["data-stop-id"]) for m in markers)
    stops = api(base, nearby_url)
    expected = sorted((s.get("feed", ""), s["stop_id"]) for s in stops)
    report.check("map markers", drawn == expected and len(expected) > 0,
                 f"{len(drawn)} markers = {nearby_url}: " + ", ".join(s for _, s in drawn)
                 if drawn == expected and expected else f"drawn {drawn} != API {expected}" if expected
                 else f"{nearby_url} has no stops: choose --lat/--lon/--zoom inside the feed")
    routes_url = body.attrs.get("data-routes-url")
    if not routes_url or body.attrs.get("data-routes-state") != "done":
        report.check("map routes", False, f"the page's routes did not finish (url {routes_url!r}, state {body.attrs.get('data-routes-state')!r})")
    else:
        lines = page.dom.find_all(lambda n: n.tag == "path" and "data-route-id" in n.attrs)
        drawn_routes = sorted({(n.attrs.get("data-feed", ""), n.attrs["data-route-id"]) for n in lines})
        routes = sorted({(r.get("feed", ""), r["route_id"]) for r in api(base, routes_url)[:MAP_ROUTE_LIMIT]})
        report.check("map routes", drawn_routes == routes and len(routes) > 0,
                     f"{len(lines)} lines of {len(drawn_routes)} routes = {routes_url}: " + ", ".join(r for _, r in drawn_routes)
                     if drawn_routes == routes and routes else f"drawn {drawn_routes} != API {routes}")
    boxes = sorted(n.attrs["data-feed-extent"] for n in page.dom.find_all(lambda n: n.tag == "path" and "data-feed-extent" in n.attrs))
    feeds = sorted(f["feed"] for f in api(base, "/api/feeds") if f.get("south") is not None)
    report.check("map extents", boxes == feeds and len(feeds) > 0, f"extents drawn for {boxes} (feeds with stops: {feeds})")
    labels = page.dom.find_all(lambda n: "stop-label" in n.classes())
    shown = [n.text().strip() for n in labels if "label-hidden" not in n.classes()]
    report.check("map names", len(shown) > 0, f"{len(shown)} of {len(labels)} stop names shown: " + ", ".join(shown[:5]))
    line = page.dom.first(lambda n: n.attrs.get("id") == "status")
    report.check("map status", line is not None and "error" not in line.classes(), f"{line.text().strip() if line else None!r}")


def check_trip(report, browser, base, trip):
    page = load(browser, base, f"/trip/{urllib.parse.quote(trip, safe='')}")
    page_health(report, "trip", page, base)
    if page.dom is None:
        report.check("trip calls", False, "no DOM")
        return
    items = page.dom.find_all(lambda n: n.tag == "li" and "call" in n.classes())
    listed = []
    for item in items:
        departure = item.first(has_class("departure"))
        arrival = item.first(has_class("arrival"))
        departure_text = departure.text().strip().lstrip("~") if departure else ""
        listed.append((item.attrs.get("data-stop-id"), item.attrs.get("data-stop-sequence"),
                       arrival.text().strip().lstrip("~") if arrival else departure_text, departure_text))
    calls = api(base, f"/api/trip/{urllib.parse.quote(trip, safe='')}")
    expected = [(c["stop_id"], str(c["stop_sequence"]), hhmm(c["arrival"]), hhmm(c["departure"])) for c in calls]
    report.check("trip calls", listed == expected and len(expected) > 0,
                 f"{len(listed)} calls = /api/trip/{trip}: " + ", ".join(f"{s} {d}" for s, _, _, d in listed)
                 if listed == expected and expected else f"listed {listed} != API {expected}")
    lines = page.dom.find_all(lambda n: n.tag == "path" and "data-stop-id" in n.attrs)
    report.check("trip map", len(lines) == len(expected),
                 f"{len(lines)} call points drawn for {len(expected)} calls")
    shape = api(base, f"/api/trip/{urllib.parse.quote(trip, safe='')}?format=geojson")
    headsign = next((f["properties"].get("headsign") for f in shape["features"] if f["geometry"]["type"] == "LineString"), None)
    title = page.dom.first(lambda n: n.attrs.get("id") == "trip-title")
    title_text = " ".join(title.text().split()) if title else ""
    towards = headsign if re.match(r"(?i)^to ", headsign or "") else f"to {headsign}"
    report.check("trip headsign", bool(headsign) and title_text.endswith(f" {towards}"),
                 f"title {title_text!r}, API headsign {headsign!r}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the server, e.g. http://127.0.0.1:8080")
    parser.add_argument("--stop", default="HBF", help="the board's stop (default HBF)")
    parser.add_argument("--at", default="2026-03-02 07:55", help='the board\'s moment, "YYYY-MM-DD HH:MM"')
    parser.add_argument("--trip", default="T1", help="the trip page's trip (default T1)")
    parser.add_argument("--lat", default="52.5249", help="the map's centre (default: the demo feed's station)")
    parser.add_argument("--lon", default="13.3692")
    parser.add_argument("--zoom", default="14")
    parser.add_argument("--screenshot", metavar="PATH", help="save a 1280x800 screenshot of the board there")
    parser.add_argument("--map-screenshot", metavar="PATH", help="save a 1280x800 screenshot of the map (at --lat/--lon/--zoom) there")
    args = parser.parse_args()
    base = args.base.rstrip("/")

    browser = find_browser()
    if not browser:
        print("skipped: chromium not found (looked for " + ", ".join(BROWSERS) + " on PATH)")
        return SKIP
    try:
        api(base, "/api/feeds")
    except (urllib.error.URLError, OSError, AssertionError, ValueError) as error:
        print(f"FAIL server: {base}/api/feeds: {error}")
        return 1

    report = Report()
    for check in (lambda: check_board(report, browser, base, args.stop, args.at),
                  lambda: check_map(report, browser, base, args.lat, args.lon, args.zoom),
                  lambda: check_trip(report, browser, base, args.trip)):
        try:
            check()
        except (urllib.error.URLError, OSError, AssertionError, ValueError, KeyError) as error:
            report.check("api", False, f"{type(error).__name__}: {error}")
    if args.screenshot:
        path = os.path.abspath(args.screenshot)
        if os.path.exists(path):
            os.remove(path)
        page = load(browser, base, f"/board/{urllib.parse.quote(args.stop, safe='')}?{query({'at': args.at})}", screenshot=path)
        report.check("board screenshot", os.path.exists(path) and os.path.getsize(path) > 0,
                     f"saved {path}" if os.path.exists(path) else "chromium saved no screenshot")
    if args.map_screenshot:
        path = os.path.abspath(args.map_screenshot)
        if os.path.exists(path):
            os.remove(path)
        load(browser, base, f"/?{query({'lat': args.lat, 'lon': args.lon, 'zoom': args.zoom})}", screenshot=path)
        report.check("map screenshot", os.path.exists(path) and os.path.getsize(path) > 0,
                     f"saved {path}" if os.path.exists(path) else "chromium saved no screenshot")
    print("all checks passed" if report.failed == 0 else f"{report.failed} check(s) failed")
    return 0 if report.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
