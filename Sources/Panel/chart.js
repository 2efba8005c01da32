// The chart: Leaflet (Debian's libjs-leaflet, served by the gateway), offline MBTiles, the boat and its track,
// the route with its XTE corridor and laylines, the start line, AIS targets, the anchor's circle and swing
import { command } from "./access.js";
import { link, load, now, number, position, reading, save } from "./store.js";
import { passageLines } from "./historytiles.js";
import { historyApi, keepsHistory, passage, PASSAGE_PATHS } from "./trends.js";
import { ahead, DEG, NM } from "./units.js";

export const chart = { map: null, element: null, follow: true, headUp: false, info: null, layers: {}, targets: new Map(),
  track: [], swing: [], trackAt: 0, swingAt: 0, route: null, routeAt: 0 };
// Layers other parts add to the chart's menu (the forecast wind): each makes its layer for a map, with its name.
export const chartOverlayMakers = [];

export function leaflet() {
  if (window.L) return Promise.resolve(true);
  if (chart.loading) return chart.loading;
  chart.loading = new Promise(resolve => {
    const css = document.createElement("link");
    css.rel = "stylesheet"; css.href = "/leaflet/leaflet.css";
    document.head.appendChild(css);
    const script = document.createElement("script");
    script.src = "/leaflet/leaflet.js";
    script.onload = () => resolve(true);
    script.onerror = () => { chart.loading = null; resolve(false); };
    document.head.appendChild(script);
  });
  return chart.loading;
}

// A plain grid with its minutes of latitude and longitude: the chart with no chart file and no internet.
export function gridLayer() {
  const Grid = L.GridLayer.extend({
    createTile(coords) {
      const tile = document.createElement("canvas"), size = this.getTileSize();
      tile.width = size.x; tile.height = size.y;
      const g = tile.getContext("2d");
      g.strokeStyle = "rgba(128,128,128,0.5)"; g.lineWidth = 1;
      g.strokeRect(0.5, 0.5, size.x, size.y);
      return tile;
    },
  });
  return new Grid({ className: "chart-grid" });
}

export async function openChart(element) {
  chart.element = element;
  // What it draws over the map, loaded with Leaflet: a page that opens on the instruments does without both.
  const [loaded, { drawLayers, scaleControl }] = await Promise.all([leaflet(), import("./chartlayers.js")]);
  chart.drawLayers = drawLayers;
  if (!loaded) {
    element.textContent = "The chart needs Leaflet on the gateway (Debian's libjs-leaflet): the instruments work on.";
    return;
  }
  if (chart.element !== element) return;
  // The map in a square over the page's diagonal, so that it can turn under a head-up boat with no corner bare.
  const inner = document.createElement("div");
  inner.className = "chart-map";
  element.appendChild(inner);
  const map = L.map(inner, { attributionControl: false, zoomSnap: 1, inertia: false });
  chart.boat = null;
  chart.map = map;
  chart.targets = new Map();
  let info = { charts: [], baseLayer: null, seamarks: null };
  try { const r = await fetch("/charts/", { cache: "no-store" }); if (r.ok) info = await r.json(); } catch (e) { }
  chart.info = info;
  const bases = {}, overlays = {};
  for (const c of info.charts.filter(c => !c.error)) {
    const options = { maxZoom: 20, maxNativeZoom: c.maxzoom || 18, minNativeZoom: c.minzoom || 0 };
    if (c.bounds) options.bounds = [[c.bounds[1], c.bounds[0]], [c.bounds[3], c.bounds[2]]];
    bases[c.title || c.name] = L.tileLayer("/charts/" + c.name + "/{z}/{x}/{y}", options);
  }
  bases["Grid (no chart)"] = gridLayer();
  if (info.baseLayer) bases["Online map"] = L.tileLayer(info.baseLayer, { maxZoom: 19 });
  if (info.seamarks) overlays["Seamarks (online)"] = L.tileLayer(info.seamarks, { maxZoom: 18 });
  for (const make of chartOverlayMakers) { const [name, layer] = make(map); if (name) overlays[name] = layer; }
  // The offline base map under every chart (on unless the sailor turned it off), loaded with the chart.
  if (info.baseMap) {
    try {
      const { baseMapLayer } = await import("./basemap.js");
      overlays["Coastlines (offline)"] = chart.baseMap = baseMapLayer(map);
      if (!load("chart.overlays", null) || load("chart.overlays", []).includes("Coastlines (offline)")) chart.baseMap.addTo(map);
    } catch (e) { }
  }
  const chosen = load("chart.base", null);
  (bases[chosen] || Object.values(bases)[0]).addTo(map);
  for (const name of load("chart.overlays", [])) if (overlays[name] && !map.hasLayer(overlays[name])) overlays[name].addTo(map);
  L.control.layers(bases, overlays, { position: "topright" }).addTo(map);
  map.on("baselayerchange", e => save("chart.base", e.name));
  map.on("overlayadd overlayremove", () => save("chart.overlays", Object.keys(overlays).filter(n => map.hasLayer(overlays[n]))));
  const scale = scaleControl().addTo(map);
  map.on("zoomend moveend", () => scale.update(map));
  // Leaflet's controls (zoom, layers, scale) out of the square that turns head up: they stay upright on the screen.
  const controls = inner.querySelector(".leaflet-control-container");
  if (controls) {
    element.appendChild(controls);
    if (inner.classList.contains("leaflet-touch")) element.classList.add("leaflet-touch");
  }
  const layer = name => (chart.layers[name] = L.layerGroup().addTo(map));
  for (const name of ["track", "swing", "anchor", "route", "laylines", "line", "targets", "boat"]) layer(name);
  chart.boat = L.marker([0, 0], { icon: L.divIcon({ className: "chart-boat", iconSize: [24, 24], iconAnchor: [12, 12],
    html: '<svg viewBox="-12 -12 24 24" width="24" height="24"><path d="M0,-11 L6,8 L0,5 L-6,8 Z"/></svg>' }),
    interactive: false, keyboard: false }).addTo(chart.layers.boat);
  chart.vector = L.polyline([], { className: "chart-vector" }).addTo(chart.layers.boat);
  chart.heading = L.polyline([], { className: "chart-heading", dashArray: "4 4" }).addTo(chart.layers.boat);
  chart.trackLine = L.polyline([], { className: "chart-track" }).addTo(chart.layers.track);
  chart.swingLine = L.polyline([], { className: "chart-swing" }).addTo(chart.layers.swing);
  const here = position("navigation.position");
  map.setView(here || load("chart.view", [50.8, -1.3]), load("chart.zoom", 15));
  map.on("dragstart", () => setFollow(false));
  map.on("zoomend", () => save("chart.zoom", map.getZoom()));
  const buttons = document.createElement("div");
  buttons.className = "chart-buttons";
  buttons.innerHTML = '<button id="chart-follow" hidden>⌖ Follow</button><button id="chart-up">North up</button>' +
    '<button id="chart-anchor">⚓ Anchor</button><button id="chart-clear">Clear track</button>' +
    '<button id="chart-plan">✎ Route</button><button id="chart-weather-route">⛵ Weather route</button>' +
    '<button id="chart-mark">⚑ Mark</button><button id="chart-find">Find</button>' +
    '<button id="chart-day">🕘 Day</button><input type="date" id="chart-day-date" hidden>';
  element.appendChild(buttons);
  L.DomEvent.disableClickPropagation(buttons);
  buttons.querySelector("#chart-follow").onclick = () => setFollow(true);
  buttons.querySelector("#chart-up").onclick = () => {
    chart.headUp = !chart.headUp;
    // Head up, the map turns about the boat: it follows, and a drag (which would go the turned way) is off.
    if (chart.headUp) map.dragging.disable(); else map.dragging.enable();
    chart.element.classList.toggle("head-up", chart.headUp);
    map.invalidateSize({ animate: false });
    setFollow(true);
  };
  buttons.querySelector("#chart-anchor").onclick = () => import("./chartanchor.js").then(m => m.anchorMenu(updateChart));
  // The route editor starts from the route followed when it is one the crew saved (not the configured file's).
  buttons.querySelector("#chart-plan").onclick = () => {
    const id = chart.routeHref && chart.routeHref.split("/").pop();
    const own = chart.route && id && id !== "7e11a1e0-2c5b-4d0a-9f3e-5a1b0c7d2e94";
    // Planned north up: a tap's place on a turned map would not be where it looks.
    if (chart.headUp) buttons.querySelector("#chart-up").onclick();
    setFollow(false);
    routes().then(r => r.openEditor(map, element, own ? { id, resource: chart.route } : null));
  };
  buttons.querySelector("#chart-mark").onclick = () => routes().then(r => r.markHere());
  buttons.querySelector("#chart-weather-route").onclick = () => {
    if (chart.headUp) buttons.querySelector("#chart-up").onclick();
    setFollow(false);
    import("./weatherroute.js").then(m => m.openRouting(map, element));
  };
  buttons.querySelector("#chart-find").onclick = () => import("./search.js").then(m => m.openSearch(chart, element));
  const day = buttons.querySelector("#chart-day-date");
  buttons.querySelector("#chart-day").onclick = async () => {
    if (chart.dayLine || chart.dayBox) { clearDay(); return; }
    day.hidden = !day.hidden;
    if (!day.hidden) { if (!day.value) day.value = new Date((await boatNow()) * 1000).toISOString().slice(0, 10); day.focus(); }
  };
  day.onchange = () => { if (day.value) showDay(day.value); };
  // Offered where the gateway keeps a history (its features say so; updateChart looks again).
  buttons.querySelector("#chart-day").hidden = !keepsHistory();
  buttons.querySelector("#chart-clear").onclick = () => { if (confirm("Clear the track kept on the gateway?")) { command("telltale/track/command", "clear"); chart.track = []; chart.trackAt = 0; } };
  // Ashore the chart shows the boat, read-only: nothing that would command her (anchor, track, route, marks).
  if (link.boat) for (const id of ["anchor", "clear", "plan", "weather-route", "mark"]) buttons.querySelector("#chart-" + id).remove();
  scale.update(map);
  fetchTrack(true);
  updateChart();
}
// The boat's clock for "today": the GNSS time the page last heard (a replay's is its log's), else the clock the
// history is kept on (the end of a query's range that names none), else the phone's.
async function boatNow() {
  const r = reading("navigation.datetime");
  const t = r && typeof r.value === "string" ? Date.parse(r.value) : NaN;
  if (isFinite(t)) return t / 1000 + (now() - r.at);
  try {
    const answer = await (await fetch(historyApi() + "?paths=navigation.speedOverGround&duration=60&resolution=60", { cache: "no-store" })).json();
    const end = Date.parse(answer.range.to);
    if (isFinite(end)) return end / 1000;
  } catch (e) { }
  return Date.now() / 1000;
}

// A past day's track from the history on the card (a position every 30 s), over the chart, with the day's passage.
export async function showDay(date) {
  if (!chart.map) return;
  const from = `${date}T00:00:00Z`, to = `${date}T23:59:59Z`;
  let answer = null;
  try {
    const r = await fetch(`${historyApi()}?paths=${PASSAGE_PATHS}&from=${from}&to=${to}&resolution=31`, { cache: "no-store" });
    if (r.ok) answer = await r.json();
  } catch (e) { }
  clearDay();
  const points = answer && Array.isArray(answer.data) ? answer.data.filter(row => row[1]).map(row => [row[1][1], row[1][0]]) : [];
  const box = document.createElement("div");
  box.className = "chart-passage";
  box.id = "chart-passage";
  const summary = passageLines(passage(answer));
  box.textContent = summary
    ? `${date}: ${summary.distance} in ${summary.time}, average ${summary.average}, top ${summary.top}, heel ${summary.heel}, TWS ${summary.wind}`
    : `${date}: nothing kept that day`;
  chart.element.appendChild(box);
  chart.dayBox = box;
  if (points.length < 2) return;
  chart.dayLine = L.polyline(points, { className: "chart-day-track" }).addTo(chart.map);
  setFollow(false);
  chart.map.fitBounds(chart.dayLine.getBounds(), { padding: [20, 20] });
  document.getElementById("chart-day").textContent = "✕ Day";
}
function clearDay() {
  if (chart.dayLine) { chart.dayLine.remove(); chart.dayLine = null; }
  if (chart.dayBox) { chart.dayBox.remove(); chart.dayBox = null; }
  const button = document.getElementById("chart-day");
  if (button) button.textContent = "🕘 Day";
}

// The route editor, loaded the first time it is asked for: the page's first paint does without it.
let editor = null;
function routes() { return editor || (editor = import("./routes.js")); }

export function closeChart() {
  if (editor) editor.then(r => r.closeEditor());
  chart.dayLine = null;
  chart.dayBox = null;
  if (chart.map) { chart.map.remove(); chart.map = null; }
  chart.element = null;
}
export function setFollow(on) {
  chart.follow = on;
  const b = document.getElementById("chart-follow");
  if (b) b.hidden = on;
  if (on) updateChart();
}

async function fetchTrack(force) {
  const t = now();
  if (!chart.map) return;
  if (link.boat) { if (force || t - chart.trackAt > 30) import("./ashore.js").then(m => m.boatTrack(chart, t)); return; }
  if (force || t - chart.trackAt > 30) {
    chart.trackAt = t;
    try {
      const r = await fetch("/signalk/v1/api/vessels/self/track", { cache: "no-store" });
      if (r.ok) chart.track = (await r.json()).coordinates.map(line => line.map(p => [p[1], p[0]]));
    } catch (e) { }
  }
  if (reading("navigation.anchor.position") && (force || t - chart.swingAt > 10)) {
    chart.swingAt = t;
    try {
      const r = await fetch("/signalk/v1/api/vessels/self/track?since=anchor", { cache: "no-store" });
      if (r.ok) chart.swing = (await r.json()).coordinates.map(line => line.map(p => [p[1], p[0]]));
    } catch (e) { }
  }
  // The route drawn is the one followed (the Course API's activeRoute), fetched again when it changes.
  const active = reading("navigation.course.activeRoute");
  const href = active && active.value && active.value.href;
  if (!href) {
    chart.route = null;
    chart.routeHref = null;
  } else if (force || href !== chart.routeHref || t - chart.routeAt > 15) {
    chart.routeAt = t;
    try {
      const r = await fetch("/signalk/v2/api" + href, { cache: "no-store" });
      if (r.ok) { chart.route = await r.json(); chart.routeHref = href; }
    } catch (e) { }
  }
}

export function updateChart() {
  const map = chart.map;
  if (!map || !chart.boat) return;
  const dayButton = document.getElementById("chart-day");
  if (dayButton && dayButton.hidden === keepsHistory()) dayButton.hidden = !keepsHistory();
  const here = position("navigation.position");
  const heading = number("navigation.headingTrue"), cog = number("navigation.courseOverGroundTrue"), sog = number("navigation.speedOverGround");
  const up = heading || cog;
  const rotation = chart.headUp && up ? -up.value * DEG : 0;
  chart.element.classList.toggle("head-up", chart.headUp);
  document.getElementById("chart-up") && (document.getElementById("chart-up").textContent = chart.headUp ? "Head up" : "North up");
  chart.element.style.setProperty("--rotation", rotation + "deg");
  if (here) {
    chart.boat.setLatLng(here);
    const icon = chart.boat.getElement();
    if (icon) { icon.style.setProperty("--heading", ((up ? up.value * DEG : 0)) + "deg"); icon.classList.toggle("stale", !!(reading("navigation.position") || {}).stale); }
    chart.vector.setLatLngs(cog && sog ? [here, ahead(here, cog.value * DEG, sog.value * 360)] : []);
    chart.heading.setLatLngs(heading ? [here, ahead(here, heading.value * DEG, NM)] : []);
    if (chart.follow) map.panTo(here, { animate: false });
    save("chart.view", here);
    const last = chart.track.length ? chart.track[chart.track.length - 1] : null;
    if (last && last.length && L.latLng(last[last.length - 1]).distanceTo(here) > 10) last.push(here);
  }
  chart.trackLine.setLatLngs(chart.track);
  chart.swingLine.setLatLngs(chart.swing);
  const anchor = position("navigation.anchor.position"), radius = number("navigation.anchor.maxRadius");
  chart.layers.anchor.clearLayers();
  if (anchor && radius) {
    const dragging = (reading("notifications.navigation.anchor") || { value: {} }).value.state === "emergency";
    L.circle(anchor, { radius: radius.value, className: "chart-anchor" + (dragging ? " dragging" : "") }).addTo(chart.layers.anchor);
    L.marker(anchor, { icon: L.divIcon({ className: "chart-anchor-icon", html: "⚓", iconSize: [20, 20] }), interactive: false }).addTo(chart.layers.anchor);
  } else { chart.swing = []; }
  chart.drawLayers(chart);
}

// The chart's own clock: the track, the swing and the route read again while it is shown.
export function startChart() { setInterval(() => fetchTrack(false), 2000); }
