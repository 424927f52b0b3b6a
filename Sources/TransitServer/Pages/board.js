// The departures board of one stop, for a kiosk: /board/{stop}[?at=YYYY-MM-DD HH:MM].
//
// Rows: every departure of the next 60 minutes, and at least the next 8 (`/api/departures` with
// cancelled=1&within=60&limit=50, so what realtime data cancels stays on the board, struck through; when that gives fewer than 8 rows, the next 8 of the coming day, within=1440&limit=8,
// of which the 60-minute rows are the first). Badges: `/api/routes?stop=`. Alerts: `/api/alerts?stop=`.
// Without ?at= it refreshes every 30 s with fetch; a failed refresh keeps the last good rows and says
// "stale since HH:MM". With ?at= the moment is fixed, so it loads once.
// The header shows the day beside the clock and is always the stop's name (from the departures, else
// /api/list/stops by stop_id). Rows that would make a kiosk scroll are hidden (`hidden`, still in the
// DOM) and counted in a line below the last one shown.
'use strict';

(() => {
  const { api, el, hhmm, pathTail, routeBadge } = Transit;

  const REFRESH_MS = 30_000;
  const WINDOW_MINUTES = 60;
  const WINDOW_LIMIT = 50;
  const MIN_ROWS = 8;
  const WIDE_WINDOW_MINUTES = 1440;

  const stop = pathTail('/board/');
  const at = new URLSearchParams(location.search).get('at') || null;

  const heading = document.getElementById('stop-name');
  const clock = document.getElementById('clock');
  const clockLabel = document.getElementById('clock-label');
  const dayLine = document.getElementById('day');
  const moreLine = document.getElementById('more');
  const tbody = document.getElementById('rows');
  const message = document.getElementById('message');
  const staleLine = document.getElementById('stale');
  const alertsBox = document.getElementById('alerts');

  let routes = null; // Map "feed\u0000route_id" → route row, once loaded
  let timeZone = null; // the agency time zone of the stop's feed, from /api/feeds
  let lastGood = null; // Date of the last successful refresh
  let stopName = null;

  function setState(state) {
    document.body.dataset.state = state;
  }

  /** HH:MM of `date` in the feed's time zone when known (else the browser's). */
  function clockText(date) {
    try {
      return new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: timeZone || undefined }).format(date);
    } catch {
      return new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(date);
    }
  }

  /** "Friday 27 November" of `date` in the feed's time zone when known (else the browser's). */
  function dayOf(date) {
    const format = { weekday: 'long', day: 'numeric', month: 'long' };
    try {
      return new Intl.DateTimeFormat('en-GB', { ...format, timeZone: timeZone || undefined }).format(date);
    } catch {
      return new Intl.DateTimeFormat('en-GB', format).format(date);
    }
  }

  function tick() {
    if (at) {
      clockLabel.textContent = 'at';
      clock.textContent = hhmm(at.replace(' ', 'T')) || at;
      clock.dateTime = at;
      const [year, month, day] = at.slice(0, 10).split('-').map(Number);
      dayLine.textContent = year && month && day
        ? new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(year, month - 1, day)))
        : '';
    } else {
      const now = new Date();
      clock.textContent = clockText(now);
      clock.dateTime = now.toISOString();
      dayLine.textContent = dayOf(now);
    }
  }

  /** Hides the last rows while the page would scroll (a kiosk has no scrollbar), and counts them. */
  function fitRows() {
    const rows = [...tbody.rows];
    rows.forEach((r) => { r.hidden = false; });
    moreLine.hidden = true;
    let hidden = 0;
    const overflows = () => !sqlPanel.open && document.documentElement.scrollHeight > window.innerHeight + 1;
    for (let i = rows.length - 1; i > 0 && overflows(); i -= 1) {
      rows[i].hidden = true;
      hidden += 1;
      moreLine.textContent = `${hidden} more departure${hidden === 1 ? '' : 's'} below: a taller screen shows ${hidden === 1 ? 'it' : 'them'}.`;
      moreLine.hidden = false;
    }
    document.body.dataset.hiddenRows = String(hidden);
  }
  // Only while the SQL panel is closed: whoever opens it wants to scroll.
  const sqlPanel = document.getElementById('sql-panel');
  window.addEventListener('resize', fitRows);

  /** The stop's name when nothing departs (the departures carry it otherwise). */
  async function nameOfStop() {
    const id = severalFeeds && stop.includes(':') ? stop.slice(stop.indexOf(':') + 1) : stop;
    const found = await api('/api/list/stops', { where: 'stop_id == %@', arg: id, limit: 1 });
    return found.length ? found[0].stop_name : null;
  }

  function showName(name) {
    stopName = name;
    heading.textContent = name;
    document.title = `${name}: departures`;
  }

  function minutesText(minutes) {
    if (typeof minutes !== 'number' || minutes <= 0) return 'now';
    if (minutes < 60) return `${minutes} min`;
    const hours = Math.floor(minutes / 60);
    const rest = minutes % 60;
    return rest ? `${hours} h ${rest} min` : `${hours} h`;
  }

  /** "+3 min", "on time", "−2 min" (early), "cancelled" for realtime rows; nothing for timetable rows. */
  function delayMark(departure) {
    if (!departure.realtime) return null;
    if (departure.cancelled) return el('span', { className: 'delay-mark cancelled', text: 'cancelled' });
    const minutes = Math.round((departure.delay_s ?? 0) / 60);
    if (minutes === 0) return el('span', { className: 'delay-mark on-time', text: 'on time' });
    if (minutes > 0) return el('span', { className: 'delay-mark late', text: `+${minutes} min` });
    return el('span', { className: 'delay-mark early', text: `\u2212${-minutes} min` });
  }

  function row(departure) {
    const route = routes ? routes.get(`${departure.feed}\u0000${departure.route_id}`) : null;
    const label = (route && route.short_name) || departure.route || (route && route.long_name) || departure.route_id;
    const tripRef = Transit.idRef(departure.feed, departure.trip_id, severalFeeds);
    const tripHref = Transit.apiURL(`/trip/${encodeURIComponent(tripRef)}`, { date: departure.service_date });
    const time = hhmm(departure.departure);
    const scheduled = hhmm(departure.scheduled);
    return el('tr', {
      className: departure.cancelled ? 'departure cancelled' : 'departure',
      dataset: {
        cancelled: departure.cancelled ? 'true' : 'false',
        tripId: departure.trip_id,
        feed: departure.feed ?? '',
        stopId: departure.stop_id ?? '',
        serviceDate: departure.service_date ?? '',
        departure: departure.departure ?? '',
        minutes: String(departure.minutes ?? ''),
      },
    },
    el('td', { className: 'route' }, routeBadge(label, route)),
    el('td', { className: 'headsign' }, el('a', { className: 'trip-link', href: tripHref, text: departure.headsign || '' })),
    el('td', { className: 'time' },
      el('time', { dateTime: departure.departure ?? '', text: time }),
      scheduled && scheduled !== time && !departure.cancelled ? el('s', { className: 'scheduled', text: scheduled, title: 'scheduled' }) : null),
    el('td', { className: 'minutes', text: departure.cancelled ? '' : minutesText(departure.minutes) }),
    el('td', { className: 'delay' }, delayMark(departure)));
  }

  /**
   * Identical departures (same feed, stop, time, route, headsign and cancellation: a feed that
   * lists one train under several trip ids) as one row each with their count, where the first stands.
   */
  function mergingIdentical(departures) {
    const merged = [];
    const index = new Map();
    for (const departure of departures) {
      const key = [departure.feed, departure.stop_id, departure.departure, departure.route_id, departure.headsign, departure.cancelled].join('\u001f');
      if (index.has(key)) merged[index.get(key)].copies += 1;
      else {
        index.set(key, merged.length);
        merged.push({ departure, copies: 1 });
      }
    }
    return merged;
  }

  function renderAlerts(alerts) {
    if (!Array.isArray(alerts) || alerts.length === 0) {
      alertsBox.hidden = true;
      alertsBox.replaceChildren();
      return;
    }
    alertsBox.replaceChildren(el('ul', {}, ...alerts.map((alert) => el('li', { className: 'alert', dataset: { alertId: alert.alert_id ?? '' } },
      el('strong', { text: alert.header || alert.description || alert.alert_id || 'Alert' }),
      alert.header && alert.description ? el('span', { className: 'alert-description', text: ` ${alert.description}` }) : null))));
    alertsBox.hidden = false;
  }

  let emptyNote = null; // why the last answer was empty ({"note": …}), said to the rider

  async function loadDepartures() {
    const options = { cache: 'no-cache' };
    const soon = await api('/api/departures', { stop, at, within: WINDOW_MINUTES, limit: WINDOW_LIMIT, cancelled: 1 }, options);
    if (soon.length >= MIN_ROWS) return soon;
    const wide = await api('/api/departures', { stop, at, within: WIDE_WINDOW_MINUTES, limit: MIN_ROWS, cancelled: 1 }, { ...options, withNote: true });
    emptyNote = wide.note;
    return wide.result;
  }

  /** "3 March 2026" from YYYY-MM-DD. */
  function dayText(date) {
    const [year, month, day] = (date || '').split('-').map(Number);
    if (!year || !month || !day) return date || '';
    return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(year, month - 1, day)));
  }

  /** What the board says when nothing departs in the next 24 hours, in a rider's words. */
  function emptyText(note) {
    const next = note && note.next ? `The next departure is on ${dayText(note.next.slice(0, 10))} at ${note.next.slice(11, 16)}.` : '';
    switch (note && note.note) {
      case 'outside_service':
        return `This timetable runs from ${dayText(note.first_date)} to ${dayText(note.last_date)}: it has no departures for this day. Ask the operator for a newer timetable.`;
      case 'none_in_window':
        return `No departures in the next 24 hours. ${next || 'Nothing leaves in the week after either.'}`;
      case 'not_served':
        return 'No bus, tram or train picks up passengers at this stop.';
      default:
        return 'No departures in the next 24 hours.';
    }
  }

  async function loadRoutes() {
    const list = await api('/api/routes', { stop });
    routes = new Map(list.map((route) => [`${route.feed}\u0000${route.route_id}`, route]));
  }

  let severalFeeds = false; // trip links say FEED:trip_id when the database holds several feeds

  /** The agency time zone of `feed` (else of the first feed) for the clock, from /api/feeds. */
  async function loadFeeds(feed) {
    const list = await Transit.feeds();
    severalFeeds = list.length > 1;
    const match = list.find((f) => f.feed === feed) || list[0];
    if (match && match.time_zone) timeZone = match.time_zone;
  }

  /** Links to the boards of up to 8 stops called like `text` (/api/search), below the message. */
  async function offerStopsCalledLike(text) {
    let found = [];
    try {
      found = await api('/api/search', { text, limit: 8 });
    } catch {
      found = [];
    }
    if (!found.length) {
      message.append(' Check the address of this board.');
      return;
    }
    message.append(' Choose one:');
    const several = new Set(found.map((s) => s.feed)).size > 1 || severalFeeds;
    message.append(el('ul', { className: 'board-choices' }, ...found.map((s) => el('li', {},
      el('a', { href: `/board/${encodeURIComponent(Transit.idRef(s.feed, s.stop_id, several))}${at ? `?at=${encodeURIComponent(at)}` : ''}`,
        text: s.name }),
      el('span', { className: 'choice-id', text: ` ${s.stop_id}` })))));
  }

  async function refresh() {
    Transit.feeds().catch(() => null); // asked beside the first departures; awaited below
    try {
      const [departures, alerts] = await Promise.all([
        loadDepartures(),
        api('/api/alerts', { stop, at }, { cache: 'no-cache' }).catch(() => undefined),
        routes ? null : loadRoutes().catch(() => null),
      ]);
      if (!timeZone) await loadFeeds(departures.length ? departures[0].feed : null).catch(() => null);
      if (!stopName) {
        const name = departures.length ? departures[0].stop_name : await nameOfStop().catch(() => null);
        if (name) showName(name);
      }
      tbody.replaceChildren(...mergingIdentical(departures).map(({ departure, copies }) => {
        const line = row(departure);
        if (copies > 1) {
          line.dataset.copies = String(copies);
          line.querySelector('td.headsign').append(el('span', { className: 'copies', text: ` \u00d7${copies}`, title: `${copies} trips` }));
        }
        return line;
      }));
      message.textContent = departures.length ? '' : emptyText(emptyNote);
      message.dataset.note = departures.length || !emptyNote ? '' : emptyNote.note;
      if (alerts !== undefined) renderAlerts(alerts);
      lastGood = new Date();
      staleLine.hidden = true;
      staleLine.textContent = '';
      setState('ready');
    } catch (error) {
      if (lastGood) {
        staleLine.textContent = `Stale since ${clockText(lastGood)}: ${error.message}`;
        staleLine.hidden = false;
        setState('stale');
      } else {
        // A rider gets words, not a command line: an unknown or ambiguous stop is said as such,
        // with the stops called like it as links to their boards.
        if (error.status === 404 || error.status === 400) {
          message.textContent = error.status === 404 ? `There is no stop \u201c${stop}\u201d in this timetable.`
            : `\u201c${stop}\u201d is the name of several stops.`;
          await offerStopsCalledLike(stop);
        } else {
          message.textContent = error.message;
        }
        setState('error');
      }
    }
    tick();
    fitRows();
    if (!at) setTimeout(refresh, REFRESH_MS);
  }

  if (!stop) {
    heading.textContent = 'No stop';
    message.textContent = 'The address names no stop: /board/STOP_ID.';
    setState('error');
    return;
  }
  heading.textContent = stop;
  document.title = `${stop}: departures`;
  tick();
  if (!at) setInterval(tick, 10_000);
  refresh();
})();
