// One trip on the map, with its calls beside it: /trip/{id}[?date=YYYY-MM-DD].
//
// /api/trip/{id}?format=geojson gives a LineString (the trip's shape, or its stops joined when the feed
// has no shape: properties.path "shape" or "stops") and a Point per call; /api/trip/{id} gives the
// calls (the CLI's JSON rows). The route's badge and colour come from /api/routes?stop=<first call>.
'use strict';

(() => {
  const { api, el, hhmm, pathTail, cssColor, routeBadge } = Transit;

  const tripId = pathTail('/trip/');
  const date = new URLSearchParams(location.search).get('date') || null;

  const title = document.getElementById('trip-title');
  const meta = document.getElementById('trip-meta');
  const statusLine = document.getElementById('status');
  const callList = document.getElementById('calls');

  const map = L.map('map', { keyboard: true });
  L.control.scale({ imperial: false }).addTo(map);
  const pointLayers = new Map(); // stop_sequence → circle marker
  let severalFeeds = false; // board links say FEED:stop_id when the database holds several feeds

  function setState(state) {
    document.body.dataset.state = state;
  }

  function boardHref(call) {
    return `/board/${encodeURIComponent(Transit.idRef(call.feed, call.stop_id, severalFeeds))}`;
  }

  function callPopup(call) {
    const time = hhmm(call.departure) || hhmm(call.arrival);
    return el('div', { className: 'stop-popup' },
      el('strong', { text: call.stop_name || call.stop_id }),
      el('span', { className: 'stop-id', text: `${call.interpolated ? '~' : ''}${time}${call.platform_code ? `, platform ${call.platform_code}` : ''}` }),
      el('a', { className: 'board-link', href: boardHref(call), text: 'Departures \u2192' }));
  }

  function delayText(call) {
    if (!call.realtime) return '';
    const minutes = Math.round((call.delay_s ?? 0) / 60);
    if (minutes === 0) return 'on time';
    return minutes > 0 ? `+${minutes} min` : `\u2212${-minutes} min`;
  }

  function callItem(call) {
    const arrival = hhmm(call.arrival);
    const departure = hhmm(call.departure);
    const notes = [
      call.interpolated ? '~ interpolated' : '',
      call.skipped ? 'skipped' : '',
      call.pickup_type === 1 ? 'no boarding' : '',
      call.drop_off_type === 1 ? 'no alighting' : '',
      delayText(call),
    ].filter(Boolean).join(', ');
    const item = el('li', {
      className: `call${call.skipped ? ' skipped' : ''}`,
      dataset: {
        stopId: call.stop_id,
        stopSequence: String(call.stop_sequence),
        arrival: call.arrival ?? '',
        departure: call.departure ?? '',
      },
    },
    el('span', { className: 'seq', text: String(call.stop_sequence) }),
    el('span', { className: 'times' },
      arrival && arrival !== departure ? el('time', { className: 'arrival', dateTime: call.arrival, text: `${call.interpolated ? '~' : ''}${arrival}` }) : null,
      el('time', { className: 'departure', dateTime: call.departure ?? '', text: `${call.interpolated ? '~' : ''}${departure}` })),
    el('span', { className: 'stop' },
      el('a', { className: 'stop-name', href: boardHref(call), text: call.stop_name || call.stop_id }),
      call.platform_code ? el('span', { className: 'notes', text: ` platform ${call.platform_code}` }) : null,
      notes ? el('span', { className: 'notes', text: ` (${notes})` }) : null),
    pointLayers.has(call.stop_sequence)
      ? el('button', { className: 'locate', type: 'button', text: 'Map', title: `Show ${call.stop_name || call.stop_id} on the map`, dataset: { sequence: String(call.stop_sequence) } })
      : el('span'));
    return item;
  }

  callList.addEventListener('click', (event) => {
    const button = event.target.closest('button.locate');
    if (!button) return;
    const layer = pointLayers.get(Number(button.dataset.sequence));
    if (!layer) return;
    map.setView(layer.getLatLng(), Math.max(map.getZoom(), 15));
    layer.openPopup();
  });

  async function routeOf(calls, routeId) {
    if (!routeId || !calls.length) return null;
    try {
      const routes = await api('/api/routes', { stop: Transit.idRef(calls[0].feed, calls[0].stop_id, severalFeeds) });
      return routes.find((r) => r.route_id === routeId && (!calls[0].feed || r.feed === calls[0].feed)) || null;
    } catch {
      return null;
    }
  }

  async function start() {
    if (!tripId) {
      statusLine.textContent = 'The address names no trip: /trip/TRIP_ID.';
      setState('error');
      return;
    }
    title.textContent = `Trip ${tripId}`;
    document.title = `Trip ${tripId}`;
    const path = `/api/trip/${encodeURIComponent(tripId)}`;
    let geojson;
    let calls;
    try {
      let feedList;
      [geojson, calls, feedList] = await Promise.all([api(path, { date, format: 'geojson' }), api(path, { date }),
        Transit.feeds().catch(() => [])]);
      severalFeeds = feedList.length > 1;
    } catch (error) {
      statusLine.textContent = error.message;
      statusLine.classList.add('error');
      map.setView([20, 0], 2);
      setState('error');
      return;
    }
    const features = Array.isArray(geojson && geojson.features) ? geojson.features : [];
    const line = features.find((f) => f.geometry && f.geometry.type === 'LineString');
    const routeId = line && line.properties ? line.properties.route_id : null;
    const route = await routeOf(calls, routeId);
    const colour = cssColor(route && route.color) || '#1f6feb';

    const layer = L.geoJSON(geojson, {
      style: () => ({ color: colour, weight: 5, opacity: 0.85 }),
      pointToLayer: (feature, latlng) => L.circleMarker(latlng, { radius: 7, color: '#ffffff', weight: 2, fillColor: colour, fillOpacity: 1 }),
      onEachFeature: (feature, featureLayer) => {
        if (!feature.geometry || feature.geometry.type !== 'Point') return;
        const call = feature.properties || {};
        pointLayers.set(call.stop_sequence, featureLayer);
        featureLayer.bindPopup(() => callPopup(call));
        featureLayer.on('add', () => {
          const element = featureLayer.getElement();
          if (element) {
            element.dataset.stopId = call.stop_id ?? '';
            element.dataset.stopSequence = String(call.stop_sequence ?? '');
          }
        });
      },
    }).addTo(map);
    const bounds = layer.getBounds();
    if (bounds.isValid()) map.fitBounds(bounds, { padding: [24, 24], maxZoom: 16 });
    else map.setView([20, 0], 2);

    const label = (route && route.short_name) || (route && route.long_name) || routeId;
    // The headsign the command line and the board show (trip_headsign, else the last stop's name).
    const headsign = line && line.properties ? line.properties.headsign : null;
    const towards = !headsign ? '' : /^to /i.test(headsign) ? ` ${headsign}` : ` to ${headsign}`;
    title.replaceChildren(label ? routeBadge(label, route) : '', ` Trip ${tripId}`, towards);
    const serviceDate = calls.length ? calls[0].service_date : date;
    meta.textContent = [
      serviceDate ? `on ${serviceDate}` : '',
      route && route.long_name ? route.long_name : '',
      line && line.properties && line.properties.path === 'stops' ? 'line drawn from stop to stop (the feed gives no shape)' : '',
    ].filter(Boolean).join(' \u00b7 ');
    // The sequence column as wide as the longest stop_sequence (feeds number calls 1, 10 or 1010).
    const digits = Math.max(2, ...calls.map((c) => String(c.stop_sequence).length));
    callList.style.setProperty('--sequence-digits', String(digits));
    callList.replaceChildren(...calls.map(callItem));
    statusLine.textContent = calls.length ? '' : 'This trip has no calls.';
    setState('ready');
  }

  start();
})();
