// The map of stops: / [?lat=&lon=&zoom=] [&tiles=URL-template[&attribution=TEXT]].
//
// No tile layer unless ?tiles= gives one (these pages fetch nothing from outside the server). The stops in
// view come from /api/nearby around the map centre, with a radius reaching the view's corners (at most
// 5000 m, the API's limit) and limit=1000; from zoom 17 on, with platforms=1 (every boarding point).
// The last nearby request (without explain=1) is left on document.body.dataset.nearbyUrl, and
// document.body.dataset.nearbyState says "loading", "done" or "error", for tests.
'use strict';

(() => {
  const { api, apiURL, el, isAbort } = Transit;

  const MAX_RADIUS = 5000;
  const NEARBY_LIMIT = 1000;
  const PLATFORM_ZOOM = 17;
  const LABEL_ZOOM = 15;
  const SEARCH_LIMIT = 10;
  const SEARCH_DELAY_MS = 150;
  // Common first letters of the words of stop names, tried in this order to find a feed's stops.
  const PROBE_LETTERS = 'sbhmpaklgcrtwndefoiuvzjyxq';

  const params = new URLSearchParams(location.search);
  const statusLine = document.getElementById('status');
  const input = document.getElementById('search-input');
  const list = document.getElementById('search-results');

  let multiFeed = false; // when several feeds are loaded, board links say FEED:stop_id
  let platformMode = null;
  let startNote = ''; // why the map shows the whole world, kept before the stops' count

  function status(text, isError = false) {
    statusLine.textContent = startNote && !isError ? `${startNote} ${text}` : text;
    statusLine.classList.toggle('error', isError);
  }

  function finite(name) {
    const raw = params.get(name);
    if (raw === null || raw.trim() === '') return null;
    const value = Number(raw);
    return Number.isFinite(value) ? value : null;
  }

  // ----- The map -----------------------------------------------------------------------------------

  const map = L.map('map', { zoomControl: true, keyboard: true, worldCopyJump: true });
  L.control.scale({ imperial: false }).addTo(map);

  const tiles = params.get('tiles');
  if (tiles && /^(https?:\/\/|\/)/i.test(tiles)) {
    // Leaflet's attribution is HTML: the text given is escaped first.
    const escaped = el('span', { text: params.get('attribution') || '' }).innerHTML;
    L.tileLayer(tiles, { maxZoom: 19, attribution: escaped }).addTo(map);
  }

  const stopsLayer = L.layerGroup().addTo(map);
  const markers = new Map(); // "feed\u0000stop_id" → L.Marker

  function boardHref(stop) {
    return `/board/${encodeURIComponent(Transit.idRef(stop.feed, stop.stop_id, multiFeed))}`;
  }

  function popupContent(stop) {
    const content = el('div', { className: 'stop-popup' },
      el('strong', { text: stop.name }),
      el('span', { className: 'stop-id', text: multiFeed ? `${stop.feed}: ${stop.stop_id}` : stop.stop_id }),
      el('a', { className: 'board-link', href: boardHref(stop), text: 'Departures \u2192' }));
    return content;
  }

  function stopIcon(platform) {
    const size = platform ? 12 : 16;
    return L.divIcon({ className: platform ? 'stop-marker platform' : 'stop-marker', iconSize: [size, size], html: '' });
  }

  function addMarker(stop, key) {
    const marker = L.marker([stop.lat, stop.lon], { icon: stopIcon(platformMode), keyboard: true, title: stop.name, riseOnHover: true });
    marker.on('add', () => {
      const element = marker.getElement();
      if (!element) return;
      element.dataset.stopId = stop.stop_id;
      element.dataset.feed = stop.feed;
      element.setAttribute('role', 'button');
      element.setAttribute('aria-label', `${stop.name} (${stop.stop_id})`);
    });
    marker.bindPopup(() => popupContent(stop), { autoPanPadding: [24, 24] });
    // The name beside the marker (hidden below LABEL_ZOOM by CSS); the marker's aria-label says it already.
    marker.bindTooltip(el('span', { text: stop.name, attrs: { 'aria-hidden': 'true' } }),
      { permanent: true, direction: 'right', offset: [8, 0], className: 'stop-label' });
    marker.addTo(stopsLayer);
    markers.set(key, marker);
  }

  function drawStops(stops) {
    const keep = new Set();
    for (const stop of stops) {
      if (typeof stop.lat !== 'number' || typeof stop.lon !== 'number') continue;
      const key = `${stop.feed}\u0000${stop.stop_id}`;
      keep.add(key);
      if (!markers.has(key)) addMarker(stop, key);
    }
    for (const [key, marker] of markers) {
      if (!keep.has(key)) {
        stopsLayer.removeLayer(marker);
        markers.delete(key);
      }
    }
  }

  // A popup's link gets the focus, so Enter on a marker (Leaflet opens the popup) then Enter again
  // follows it; Escape closes the popup and gives the focus back.
  let popupReturnFocus = null;
  map.on('popupopen', (event) => {
    popupReturnFocus = document.activeElement;
    const element = event.popup.getElement();
    const link = element && element.querySelector('a.board-link');
    if (link) link.focus({ preventScroll: true });
    if (element && !element.dataset.escapeBound) {
      element.dataset.escapeBound = '1';
      element.addEventListener('keydown', (keyEvent) => {
        if (keyEvent.key !== 'Escape') return;
        map.closePopup();
        if (popupReturnFocus && document.contains(popupReturnFocus)) popupReturnFocus.focus({ preventScroll: true });
      });
    }
  });

  // ----- The stops in view -------------------------------------------------------------------------

  /** Metres from the map centre to its farthest corner. */
  function viewRadius() {
    const centre = map.getCenter();
    const bounds = map.getBounds();
    return Math.max(
      centre.distanceTo(bounds.getNorthEast()), centre.distanceTo(bounds.getNorthWest()),
      centre.distanceTo(bounds.getSouthEast()), centre.distanceTo(bounds.getSouthWest()));
  }

  let nearbyController = null;
  let nearbyTimer = null;

  async function loadStops() {
    const centre = map.getCenter().wrap();
    const wanted = viewRadius();
    const radius = Math.max(1, Math.min(MAX_RADIUS, Math.ceil(wanted)));
    const platforms = map.getZoom() >= PLATFORM_ZOOM;
    if (platforms !== platformMode) {
      platformMode = platforms;
      stopsLayer.clearLayers();
      markers.clear();
    }
    const query = { lat: centre.lat.toFixed(6), lon: centre.lng.toFixed(6), radius, limit: NEARBY_LIMIT, platforms: platforms ? 1 : null };
    if (nearbyController) nearbyController.abort();
    const controller = new AbortController();
    nearbyController = controller;
    document.body.dataset.nearbyUrl = apiURL('/api/nearby', query);
    document.body.dataset.nearbyState = 'loading';
    try {
      const stops = await api('/api/nearby', query, { signal: controller.signal });
      if (controller !== nearbyController) return;
      drawStops(stops);
      const what = platforms ? 'boarding point' : 'stop';
      let text = `${stops.length} ${what}${stops.length === 1 ? '' : 's'} in view.`;
      if (stops.length >= NEARBY_LIMIT) text = `The ${stops.length} nearest ${what}s to the centre: zoom in to see the others.`;
      else if (wanted > MAX_RADIUS) text = `${stops.length} ${what}${stops.length === 1 ? '' : 's'} within 5 km of the centre: zoom in to see every one in view.`;
      status(text);
      document.body.dataset.nearbyState = 'done';
    } catch (error) {
      if (isAbort(error)) return;
      status(`Stops could not be loaded: ${error.message}`, true);
      document.body.dataset.nearbyState = 'error';
    }
  }

  function updateLabels() {
    map.getContainer().classList.toggle('hide-labels', map.getZoom() < LABEL_ZOOM);
  }
  map.on('zoomend', updateLabels);

  map.on('moveend', () => {
    updateLabels();
    clearTimeout(nearbyTimer);
    nearbyTimer = setTimeout(loadStops, 60);
    // Keep the view in the address, so a reload or a shared link shows the same place.
    const centre = map.getCenter().wrap();
    params.set('lat', centre.lat.toFixed(5));
    params.set('lon', centre.lng.toFixed(5));
    params.set('zoom', String(map.getZoom()));
    history.replaceState(null, '', `${location.pathname}?${params.toString().replaceAll('+', '%20')}`);
  });

  // ----- The first view ----------------------------------------------------------------------------

  /** The smallest zoom at which the view's corners are within `metres` of the centre at `lat`. */
  function zoomForRadius(lat, metres) {
    const size = map.getSize();
    const halfDiagonal = Math.hypot(size.x, size.y) / 2;
    const metresPerPixelAtZoom0 = (40075016.686 * Math.cos((lat * Math.PI) / 180)) / 256;
    return Math.ceil(Math.log2((halfDiagonal * metresPerPixelAtZoom0) / metres));
  }

  function median(values) {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
  }

  /**
   * Without ?lat=&lon=: fit the map to stops of the first feed. /api/feeds gives no bounding box (feed,
   * agencies, time_zone, counts, dates, source) and /api/nearby needs a point, so the page finds stops
   * of that feed by name: /api/search with one letter at a time, common first letters of stop-name words
   * first, until an answer (up to 50 stops whose names have a word beginning with that letter, so spread
   * over the feed's area) holds stops of the first feed. The map is fitted to those; when that view would
   * be wider than /api/nearby's 5 km radius it zooms in around the median stop instead, so that every
   * stop in view gets drawn.
   */
  async function fitToFirstFeed(feed) {
    for (const letter of PROBE_LETTERS) {
      const found = (await api('/api/search', { text: letter, limit: 50 })).filter((s) => s.feed === feed
        && typeof s.lat === 'number' && typeof s.lon === 'number');
      if (found.length === 0) continue;
      const bounds = L.latLngBounds(found.map((s) => [s.lat, s.lon]));
      const fitZoom = Math.min(16, map.getBoundsZoom(bounds, false, L.point(40, 40)));
      const centre = bounds.getCenter();
      const needed = zoomForRadius(centre.lat, MAX_RADIUS);
      if (fitZoom >= needed) map.setView(centre, fitZoom);
      else map.setView([median(found.map((s) => s.lat)), median(found.map((s) => s.lon))], Math.min(18, needed));
      return true;
    }
    return false;
  }

  async function start() {
    let feeds = null;
    try {
      feeds = await Transit.feeds();
      multiFeed = feeds.length > 1;
    } catch (error) {
      startNote = `The feeds could not be loaded: ${error.message}.`;
    }
    const lat = finite('lat');
    const lon = finite('lon');
    const zoom = finite('zoom');
    if (lat !== null && lon !== null && Math.abs(lat) <= 90 && Math.abs(lon) <= 180) {
      map.setView([lat, lon], zoom === null ? 15 : Math.max(0, Math.min(19, Math.round(zoom))));
      return;
    }
    if (feeds) {
      try {
        if (feeds.length && await fitToFirstFeed(feeds[0].feed)) return;
        startNote = feeds.length ? 'No stops found to start from: find one by name.'
          : 'The database has no feeds yet: import one with `transit import`.';
      } catch (error) {
        startNote = `Stops could not be loaded: ${error.message}.`;
      }
    }
    map.setView([20, 0], 2);
  }

  // ----- Search by name, with type-ahead -----------------------------------------------------------

  let results = [];
  let active = -1;
  let searchTimer = null;
  let searchController = null;

  function closeList() {
    list.hidden = true;
    list.replaceChildren();
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    results = [];
    active = -1;
  }

  function setActive(index) {
    active = index;
    list.querySelectorAll('[role="option"]').forEach((option, i) => option.setAttribute('aria-selected', String(i === index)));
    if (index >= 0) {
      const option = document.getElementById(`search-option-${index}`);
      input.setAttribute('aria-activedescendant', option.id);
      option.scrollIntoView({ block: 'nearest' });
    } else {
      input.removeAttribute('aria-activedescendant');
    }
  }

  function showResults(stops, text) {
    results = stops;
    active = -1;
    if (stops.length === 0) {
      list.replaceChildren(el('li', { className: 'empty', text: `No stop is called like \u201c${text}\u201d.`, attrs: { 'aria-disabled': 'true' } }));
    } else {
      list.replaceChildren(...stops.map((stop, index) => el('li', {
        id: `search-option-${index}`,
        attrs: { role: 'option', 'aria-selected': 'false' },
        dataset: { stopId: stop.stop_id, feed: stop.feed },
      }, el('span', { className: 'result-name', text: stop.name }),
      el('span', { className: 'result-id', text: multiFeed ? `${stop.feed}: ${stop.stop_id}` : stop.stop_id }))));
    }
    list.hidden = false;
    input.setAttribute('aria-expanded', 'true');
  }

  async function search(text) {
    if (searchController) searchController.abort();
    const controller = new AbortController();
    searchController = controller;
    try {
      const stops = await api('/api/search', { text, limit: SEARCH_LIMIT }, { signal: controller.signal });
      if (controller === searchController && input.value.trim() === text) showResults(stops, text);
    } catch (error) {
      if (isAbort(error)) return;
      if (error.status === 400) showResults([], text);
      else status(`Search failed: ${error.message}`, true);
    }
  }

  /** Pans to the stop and opens a popup with its name and the link to its board (which gets focus). */
  function choose(stop) {
    startNote = '';
    closeList();
    input.value = stop.name;
    map.setView([stop.lat, stop.lon], Math.max(map.getZoom(), 16));
    L.popup({ autoPan: false }).setLatLng([stop.lat, stop.lon]).setContent(popupContent(stop)).openOn(map);
  }

  input.addEventListener('input', () => {
    clearTimeout(searchTimer);
    const text = input.value.trim();
    if (!/[\p{L}\p{N}]/u.test(text)) {
      if (searchController) searchController.abort();
      closeList();
      return;
    }
    searchTimer = setTimeout(() => search(text), SEARCH_DELAY_MS);
  });

  input.addEventListener('keydown', (event) => {
    const open = !list.hidden && results.length > 0;
    if (event.key === 'ArrowDown' && open) {
      event.preventDefault();
      setActive(active + 1 >= results.length ? 0 : active + 1);
    } else if (event.key === 'ArrowUp' && open) {
      event.preventDefault();
      setActive(active <= 0 ? results.length - 1 : active - 1);
    } else if (event.key === 'Enter' && open) {
      event.preventDefault();
      choose(results[active >= 0 ? active : 0]);
    } else if (event.key === 'Escape') {
      if (!list.hidden) {
        event.preventDefault();
        closeList();
      }
    }
  });

  // The list's options are chosen with the mouse too; mousedown keeps the focus in the input.
  list.addEventListener('mousedown', (event) => event.preventDefault());
  list.addEventListener('click', (event) => {
    const option = event.target.closest('[role="option"]');
    if (!option) return;
    const index = Number(option.id.replace('search-option-', ''));
    if (results[index]) choose(results[index]);
  });
  input.addEventListener('blur', () => setTimeout(() => {
    if (document.activeElement !== input) closeList();
  }, 0));

  start();
})();
