// Shared by every page of `transit serve`: the one function that asks the JSON API, the SQL panel it
// fills, and small DOM helpers. Text from the API only ever reaches the page through textContent
// (never innerHTML), so names like "O'Hara's <Corner>" stay text.
'use strict';

const Transit = (() => {
  /** An API answer with an error status (400/404/503), or no answer at all. */
  class ApiError extends Error {
    constructor(message, { status = 0, parameter = null, url = '' } = {}) {
      super(message);
      this.name = 'ApiError';
      this.status = status;
      this.parameter = parameter;
      this.url = url;
    }
  }

  /**
   * A path with its query string. Values that are null, undefined or '' are left out. Spaces are
   * encoded as %20 (encodeURIComponent), never '+', so `at=2026-03-02 07:55` needs no form decoding.
   */
  function apiURL(path, params = {}) {
    const pairs = Object.entries(params)
      .filter(([, value]) => value !== null && value !== undefined && value !== '')
      .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
    return pairs.length ? `${path}?${pairs.join('&')}` : path;
  }

  /**
   * Every data fetch of the pages goes through here: it asks `path` with `explain=1`, renders the
   * statements the server ran into the SQL panel, and returns the answer's `result` (the body the
   * CLI prints with `--format json`). Throws ApiError with the server's message on 400/404/503.
   * `options.signal` aborts (an AbortError is thrown then); `options.cache` is fetch's cache mode.
   */
  /** Why an answer is empty, as the command's JSON note ({"note": "outside_service", …}) among
   *  the explained answer's notes; null when there is none. */
  function noteIn(notes) {
    for (const text of Array.isArray(notes) ? notes : []) {
      if (typeof text !== 'string' || !text.startsWith('{"note": ')) continue;
      try {
        const note = JSON.parse(text);
        if (note.note !== 'stop_by_name') return note;
      } catch {
        // not a note after all
      }
    }
    return null;
  }

  /** GET an API path with explain=1; the result, or with options.withNote { result, note }. */
  async function api(path, params = {}, options = {}) {
    const url = apiURL(path, params);
    const explained = url + (url.includes('?') ? '&' : '?') + 'explain=1';
    let response;
    try {
      response = await fetch(explained, {
        headers: { Accept: 'application/json' },
        signal: options.signal,
        cache: options.cache || 'default',
      });
    } catch (error) {
      if (error.name === 'AbortError') throw error;
      throw new ApiError('the server did not answer', { url });
    }
    let body = null;
    try {
      body = await response.json();
    } catch (error) {
      if (error.name === 'AbortError') throw error;
      body = null;
    }
    if (!response.ok) {
      const failure = body && typeof body === 'object' ? (body.error !== undefined ? body : body.result) : null;
      const message = failure && typeof failure.error === 'string' ? failure.error : `HTTP ${response.status}`;
      throw new ApiError(message, { status: response.status, parameter: failure ? failure.parameter ?? null : null, url });
    }
    if (!body || typeof body !== 'object' || !('result' in body)) {
      throw new ApiError('the answer has no "result" (was explain=1 ignored?)', { status: response.status, url });
    }
    renderExplain(url, Array.isArray(body.explain) ? body.explain : []);
    if (options.withNote) return { result: body.result, note: noteIn(body.notes) };
    return body.result;
  }

  let feedsPromise = null;

  /** The feeds (/api/feeds), asked once per page; asked again after a failure. */
  function feeds() {
    if (!feedsPromise) {
      feedsPromise = api('/api/feeds');
      feedsPromise.catch(() => {
        feedsPromise = null;
      });
    }
    return feedsPromise;
  }

  /**
   * How a page's address names a stop or trip: its id, or FEED:id when the database holds several
   * feeds (the API then wants it so, as the CLI's --stop and trip ID do).
   */
  function idRef(feed, id, severalFeeds) {
    return severalFeeds && feed ? `${feed}:${id}` : id;
  }

  /** True for the error fetch throws when its AbortController aborts. */
  function isAbort(error) {
    return error && error.name === 'AbortError';
  }

  /**
   * A new element: `props` may hold className, text (textContent), dataset (object), attrs (object of
   * attributes) and any other DOM property (href, id, hidden, type, title…). Children are nodes or
   * strings (added as text).
   */
  function el(tag, props = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props)) {
      if (value === undefined || value === null) continue;
      if (key === 'text') node.textContent = String(value);
      else if (key === 'dataset') Object.assign(node.dataset, value);
      else if (key === 'attrs') for (const [name, v] of Object.entries(value)) node.setAttribute(name, String(v));
      else node[key] = value;
    }
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue;
      node.append(typeof child === 'string' ? document.createTextNode(child) : child);
    }
    return node;
  }

  /**
   * HH:MM of an ISO 8601 local time such as "2026-03-02T08:00:00+01:00": the characters as written,
   * with no time-zone conversion (the API already gives the feed's local time). '' otherwise.
   */
  function hhmm(iso) {
    const match = /^\d{4}-\d{2}-\d{2}[T ](\d{2}:\d{2})/.exec(String(iso ?? ''));
    return match ? match[1] : '';
  }

  /** The part of location.pathname after `prefix` ("/board/"), URL-decoded; null when malformed. */
  function pathTail(prefix) {
    let tail = location.pathname.startsWith(prefix) ? location.pathname.slice(prefix.length) : '';
    if (tail.endsWith('/')) tail = tail.slice(0, -1);
    try {
      return decodeURIComponent(tail);
    } catch {
      return null;
    }
  }

  /** A route colour from the feed ("FFCC00", maybe "#ffcc00") as CSS, or null if absent or malformed. */
  function cssColor(value) {
    const match = /^#?([0-9a-fA-F]{6})$/.exec(String(value ?? '').trim());
    return match ? `#${match[1]}` : null;
  }

  /** Black or white, whichever reads better on `background` (a #RRGGBB colour). */
  function contrastColor(background) {
    const n = parseInt(background.slice(1), 16);
    const channel = (c) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    const luminance = 0.2126 * channel(n >> 16) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
    return luminance > 0.179 ? '#000000' : '#ffffff';
  }

  /**
   * A route badge: the route's colours when the feed gives them (text colour computed for contrast when
   * only the background is given), a neutral badge otherwise.
   */
  function routeBadge(label, route) {
    const badge = el('span', { className: 'badge', text: label || '?' });
    const background = cssColor(route && route.color);
    if (background) {
      badge.style.backgroundColor = background;
      badge.style.color = cssColor(route.text_color) || contrastColor(background);
      badge.classList.add('badge-colored');
    } else {
      badge.classList.add('badge-neutral');
    }
    return badge;
  }

  // ----- SQL panel -------------------------------------------------------------------------------

  /** SQLite's EXPLAIN QUERY PLAN rows ({id, parent, detail}) drawn as the sqlite3 shell draws them. */
  function planText(plan) {
    if (!Array.isArray(plan) || plan.length === 0) return '(no plan)';
    const children = new Map();
    for (const row of plan) {
      const parent = row.parent ?? 0;
      if (!children.has(parent)) children.set(parent, []);
      children.get(parent).push(row);
    }
    const lines = ['QUERY PLAN'];
    const seen = new Set();
    const walk = (parent, prefix) => {
      const rows = children.get(parent) || [];
      rows.forEach((row, index) => {
        if (seen.has(row.id)) return;
        seen.add(row.id);
        const last = index === rows.length - 1;
        lines.push(`${prefix}${last ? '`--' : '|--'}${row.detail ?? ''}`);
        walk(row.id, prefix + (last ? '   ' : '|  '));
      });
    };
    walk(0, '');
    // Rows whose parent never appeared: list them flat rather than lose them.
    for (const row of plan) if (!seen.has(row.id)) lines.push(`?--${row.detail ?? ''}`);
    return lines.join('\n');
  }

  function argumentText(value) {
    if (typeof value === 'string') return `'${value.replaceAll("'", "''")}'`;
    if (value === null || value === undefined) return 'NULL';
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }

  function number(value, digits) {
    return typeof value === 'number' && Number.isFinite(value) ? value.toFixed(digits) : '?';
  }

  // The last request to each endpoint, newest first: a page asks several (the board: departures,
  // routes, alerts, feeds), and the panel shows what each of them ran.
  const recent = new Map(); // path without query → { url, statements }
  const RECENT_LIMIT = 6;

  function statementSection(statement, index) {
    const args = Array.isArray(statement.arguments) ? statement.arguments : [];
    const rows = typeof statement.rows === 'number' ? statement.rows : '?';
    return el('section', { className: 'sql-statement' },
      el('h3', { text: `Statement ${index + 1}: ${rows} row${rows === 1 ? '' : 's'} in ${number(statement.ms, 3)} ms` }),
      el('pre', { className: 'sql-text', text: statement.sql ?? '' }),
      el('p', { className: 'sql-arguments' },
        el('span', { className: 'sql-label', text: 'Arguments: ' }),
        el('code', { text: args.length ? args.map(argumentText).join(', ') : '(none)' })),
      el('pre', { className: 'sql-plan', text: planText(statement.plan) }));
  }

  /** A URL with its escapes decoded, for people to read (the text goes in with textContent). */
  function readable(url) {
    try {
      return decodeURIComponent(url);
    } catch {
      return url;
    }
  }

  /**
   * Fills the page's <details id="sql-panel">: for the last request (and the last one to each other
   * endpoint the page asked), the SQL statements the server ran, their bound arguments and query plans.
   */
  function renderExplain(url, statements) {
    const path = url.split('?')[0];
    recent.delete(path);
    recent.set(path, { url, statements });
    while (recent.size > RECENT_LIMIT) recent.delete(recent.keys().next().value);
    const panel = document.getElementById('sql-panel');
    if (!panel) return;
    const body = panel.querySelector('.sql-body');
    const summary = panel.querySelector('summary');
    const totalMs = statements.reduce((sum, s) => sum + (typeof s.ms === 'number' ? s.ms : 0), 0);
    if (summary) {
      summary.textContent = `SQL of the last request: ${statements.length} statement${statements.length === 1 ? '' : 's'}, ${totalMs.toFixed(3)} ms`;
    }
    const blocks = [...recent.values()].reverse().map((request, order) => el('section', { className: 'sql-request' },
      el('h2', {}, el('span', { className: 'sql-label', text: order === 0 ? 'Last request: ' : 'Earlier: ' }), el('code', { text: `GET ${readable(request.url)}` })),
      ...(request.statements.length ? request.statements.map(statementSection) : [el('p', { text: 'No SQL statement was reported for this request.' })])));
    body.replaceChildren(...blocks);
  }

  return { ApiError, api, apiURL, feeds, idRef, isAbort, el, hhmm, pathTail, cssColor, routeBadge, planText };
})();
