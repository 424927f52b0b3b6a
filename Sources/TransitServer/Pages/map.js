// The map of stops: / [?lat=&lon=&zoom=] [&tiles=URL-template[&attribution=TEXT]].
//
// No tile layer unless ?tiles= gives one (these pages fetch nothing from outside the server; the
// "Tiles" control at the bottom left sets it). Without tiles the map still says where you are: each
// feed's extent (from /api/feeds: south, west, north, east) as a dashed box with its name, the routes
// serving the view (/api/routes near the centre) drawn from their shapes, else their stops in order
// (/api/route/ID?format=geojson), in their route_color, and stop names wherever they fit without
// overlapping (nearest the centre first). The stops in view come from /api/nearby around the map
// centre, with a radius reaching the view's corners (at most 5000 m, the API's limit) and limit=1000;
// from zoom 17 on, with platforms=1 (every boarding point); a view whose corners are more than
// 10 km from its centre (a whole city or country) shows no stops, only the extents and routes.
// For tests: document.body.dataset.nearbyUrl is the last nearby request (without explain=1) and
// nearbyState says "loading", "done" or "error"; routesUrl and routesState the same for the routes.
'use strict';

(() => {
  const { api, apiURL, el, isAbort } = Transit;

  const MAX_RADIUS = 5000;
  const NEARBY_LIMIT = 1000;
  const PLATFORM_ZOOM = 17;
  const SEARCH_LIMIT = 10;
  const SEARCH_DELAY_MS = 150;
  const STOPS_VIEW_RADIUS = 2 * MAX_RADIUS; // wider views show the extents and routes only
  const ROUTE_LIMIT = 60; // routes drawn at most (those serving stops nearest the centre first)
  const ROUTE_FETCHES = 4; // route shapes asked at once
  const DEFAULT_ROUTE_COLOR = '#5b6b7a';

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

  /** A visible way to add a tile server: its URL template goes into ?tiles= and the page reloads. */
  const TilesControl = L.Control.extend({
    options: { position: 'bottomleft' },
    onAdd() {
      const input = el('input', { attrs: { type: 'url', placeholder: 'https://tile.example.org/{z}/{x}/{y}.png', 'aria-label': 'Tile URL template' } });
      input.value = tiles || '';
      const form = el('form', { className: 'tiles-form' }, input, el('button', { text: tiles ? 'Change' : 'Show', attrs: { type: 'submit' } }));
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        const value = input.value.trim();
        if (value) params.set('tiles', value); else params.delete('tiles');
        location.search = params.toString().replaceAll('+', '%20');
      });
      const box = el('details', { className: 'tiles-control' },
        el('summary', { text: tiles ? 'Tiles' : 'No background map: add a tile server' }), form);
      L.DomEvent.disableClickPropagation(box);
      return box;
    },
  });
  new TilesControl().addTo(map);

  const extentLayer = L.layerGroup().addTo(map);
  const routesLayer = L.layerGroup().addTo(map);
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
    // The name beside the marker, shown where it fits (placeLabels); the marker's aria-label says it already.
    marker.bindTooltip(el('span', { text: stop.name, attrs: { 'aria-hidden': 'true' } }),
      { permanent: true, direction: 'right', offset: [8, 0], className: 'stop-label' });
    marker.addTo(stopsLayer);
    markers.set(key, marker);
  }

  let labelOrder = []; // marker keys, nearest the centre first: the order labels are placed in

  function drawStops(stops) {
    const keep = new Set();
    labelOrder = [];
    for (const stop of stops) {
      if (typeof stop.lat !== 'number' || typeof stop.lon !== 'number') continue;
      const key = `${stop.feed}\u0000${stop.stop_id}`;
      keep.add(key);
      labelOrder.push(key);
      if (!markers.has(key)) addMarker(stop, key);
    }
    for (const [key, marker] of markers) {
      if (!keep.has(key)) {
        stopsLayer.removeLayer(marker);
        markers.delete(key);
      }
    }
    placeLabels();
  }

  /**
   * Shows the names that fit: nearest the centre first, each where it overlaps no name shown already
   * (nor leaves the view); the others are hidden until a zoom gives them room.
   */
  function placeLabels() {
    const placed = [];
    const size = map.getSize();
    for (const key of labelOrder) {
      const marker = markers.get(key);
      const label = marker && marker.getTooltip() && marker.getTooltip().getElement();
      if (!label) continue;
      const point = map.latLngToContainerPoint(marker.getLatLng());
      const box = { left: point.x + 8, right: point.x + 10 + label.offsetWidth, top: point.y - 9, bottom: point.y + 9 };
      const fits = box.left >= 0 && box.right <= size.x && box.top >= 0 && box.bottom <= size.y
        && !placed.some((p) => box.left < p.right && p.left < box.right && box.top < p.bottom && p.top < box.bottom);
      label.classList.toggle('label-hidden', !fits);
      if (fits) placed.push(box);
    }
  }

  // ----- The feeds' extents and the routes in view ---------------------------------------------------

  /** A dashed box around each feed's stops, named at its north-west corner. */
  function drawExtents(feeds) {
    for (const feed of feeds) {
      if (![feed.south, feed.west, feed.north, feed.east].every((v) => typeof v === 'number')) continue;
      // A box across the antimeridian (west > east) is drawn east of it, as worldCopyJump shows it.
      const east = feed.east < feed.west ? feed.east + 360 : feed.east;
      const box = L.rectangle([[feed.south, feed.west], [feed.north, east]],
        { className: 'feed-extent', weight: 1.5, dashArray: '6 6', fill: false, interactive: false });
      box.on('add', () => { box.getElement().dataset.feedExtent = feed.feed; });
      box.addTo(extentLayer);
      L.marker([feed.north, feed.west], {
        interactive: false, keyboard: false,
        icon: L.divIcon({ className: 'feed-extent-name', html: '', iconSize: null }),
      }).on('add', (event) => { event.target.getElement().textContent = feed.feed; }).addTo(extentLayer);
    }
  }

  const routeLines = new Map(); // "feed\u0000route_id" → L.GeoJSON (or null while loading)
  let routesController = null;

  async function drawRoute(route, signal) {
    const key = `${route.feed}\u0000${route.route_id}`;
    routeLines.set(key, null);
    const id = Transit.idRef(route.feed, route.route_id, multiFeed);
    try {
      const shapes = await api(`/api/route/${encodeURIComponent(id)}`, { format: 'geojson' }, { signal });
      const color = Transit.cssColor(route.color) || DEFAULT_ROUTE_COLOR;
      const line = L.geoJSON(shapes, { interactive: false, style: () => ({ color, weight: 4, opacity: 0.85, className: 'route-line' }) });
      line.on('add', () => line.eachLayer((layer) => {
        const element = layer.getElement();
        if (element) { element.dataset.routeId = route.route_id; element.dataset.feed = route.feed; }
      }));
      line.addTo(routesLayer);
      routeLines.set(key, line);
    } catch (error) {
      routeLines.delete(key);
      throw error;
    }
  }

  /** The routes serving stops near the centre, each drawn once; failures are said in the status. */
  async function loadRoutes(centre, radius) {
    if (routesController) routesController.abort();
    const controller = new AbortController();
    routesController = controller;
    const query = { near: `${centre.lat.toFixed(6)},${centre.lng.toFixed(6)}`, radius };
    document.body.dataset.routesUrl = apiURL('/api/routes', query);
    document.body.dataset.routesState = 'loading';
    try {
      const routes = (await api('/api/routes', query, { signal: controller.signal })).slice(0, ROUTE_LIMIT);
      const missing = routes.filter((r) => !routeLines.has(`${r.feed}\u0000${r.route_id}`));
      for (let i = 0; i < missing.length; i += ROUTE_FETCHES) {
        await Promise.all(missing.slice(i, i + ROUTE_FETCHES).map((route) => drawRoute(route, controller.signal)));
      }
      if (controller === routesController) document.body.dataset.routesState = 'done';
    } catch (error) {
      if (isAbort(error)) return;
      status(`Routes could not be loaded: ${error.message}`, true);
      document.body.dataset.routesState = 'error';
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
    loadRoutes(centre, radius);
    if (nearbyController) nearbyController.abort();
    if (wanted > STOPS_VIEW_RADIUS) {
      // A city or a country at once: its extent and routes, not a blot of overlapping stops.
      nearbyController = null;
      drawStops([]);
      status('Zoom in to see the stops.');
      document.body.dataset.nearbyUrl = '';
      document.body.dataset.nearbyState = 'done';
      return;
    }
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

  map.on('moveend', () => {
    placeLabels();
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

  /** Without ?lat=&lon=: fit the map to the first feed's extent (its stops' box). */
  function fitToFirstFeed(feeds) {
    const feed = feeds.find((f) => [f.south, f.west, f.north, f.east].every((v) => typeof v === 'number'));
    if (!feed) return false;
    const east = feed.east < feed.west ? feed.east + 360 : feed.east;
    map.fitBounds([[feed.south, feed.west], [feed.north, east]], { padding: [40, 40], maxZoom: 16 });
    return true;
  }

  async function start() {
    let feeds = null;
    try {
      feeds = await Transit.feeds();
      multiFeed = feeds.length > 1;
      drawExtents(feeds);
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
      if (fitToFirstFeed(feeds)) return;
      startNote = feeds.length ? 'No stop has a position to start from: find one by name.'
        : 'The database has no feeds yet: import one with `transit import`.';
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
