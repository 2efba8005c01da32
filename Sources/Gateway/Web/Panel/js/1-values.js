// Telltale's instrument panel: a single page on the gateway's own Signal K stream. No network beyond the boat, no
// library: everything here is served from the gateway's binary.
"use strict";

// ---- Units and formats -----------------------------------------------------------------------------------------

const DEG = 180 / Math.PI;
const BEAUFORT = [0.5, 1.6, 3.4, 5.5, 8.0, 10.8, 13.9, 17.2, 20.8, 24.5, 28.5, 32.7]; // m/s, WMO upper bounds
function beaufort(ms) { let force = 0; while (force < 12 && ms >= BEAUFORT[force]) force++; return force; }
const UNITS = {
  speed: { kn: { f: 3600 / 1852, label: "kn" }, "m/s": { f: 1, label: "m/s" }, "km/h": { f: 3.6, label: "km/h" },
    Bft: { f: null, label: "Bft" } },
  depth: { m: { f: 1, label: "m" }, ft: { f: 1 / 0.3048, label: "ft" }, fathom: { f: 1 / 1.8288, label: "fm" } },
  distance: { NM: { f: 1 / 1852, label: "NM" }, km: { f: 1 / 1000, label: "km" } },
};
function convert(kind, unit, si) {
  const u = UNITS[kind][unit] || Object.values(UNITS[kind])[0];
  return u.f === null ? beaufort(si) : si * u.f;
}
function unitLabel(kind, unit) { return (UNITS[kind][unit] || Object.values(UNITS[kind])[0]).label; }
function fixed(x, decimals) {
  if (x === null || x === undefined || !isFinite(x)) return "—";
  const text = x.toFixed(decimals);
  return text === "-" + (0).toFixed(decimals) ? (0).toFixed(decimals) : text;
}
function bearing(rad) { let d = Math.round(rad * DEG) % 360; if (d < 0) d += 360; return String(d).padStart(3, "0"); }
function signedAngle(rad) { let d = rad * DEG; while (d > 180) d -= 360; while (d <= -180) d += 360; return d; }
function clock(seconds) {
  const sign = seconds < 0 ? "−" : "+";
  const s = Math.abs(Math.round(seconds));
  return sign + Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

// ---- Live values: per path, per source, with their age -----------------------------------------------------------

// Seconds a value stays current without a new reading (the server's own timeouts: it withdraws the value then).
const TIMEOUTS = { "environment.wind": 5, "navigation.heading": 5, "navigation.attitude": 3, "navigation.rateOfTurn": 5,
  "performance": 5, "navigation.magneticVariation": 3600, "navigation.racing": 5, "notifications": Infinity };
function timeoutOf(path) {
  for (const prefix in TIMEOUTS) if (path.startsWith(prefix)) return TIMEOUTS[prefix];
  return 10;
}
const COMPUTED = "telltale.computed";
const store = new Map(); // path -> Map(source -> {value, at})
const traces = new Map(); // path -> [[t, value]] for the sparklines, a sample a second, 3 minutes
function now() { return performance.now() / 1000; }
function put(path, source, value) {
  let sources = store.get(path);
  if (value === null) { if (sources) sources.delete(source); return; }
  if (!sources) { sources = new Map(); store.set(path, sources); }
  sources.set(source, { value, at: now() });
}
// The value to show: Telltale's own (damped, what the plotter gets) while current, else the freshest input's.
function reading(path) {
  const sources = store.get(path);
  if (!sources || sources.size === 0) return null;
  let best = null;
  for (const [source, entry] of sources) {
    const preferred = source === COMPUTED;
    if (!best || (preferred && !best.preferred) || (preferred === best.preferred && entry.at > best.at)) {
      best = { value: entry.value, at: entry.at, preferred };
    }
  }
  const age = now() - best.at;
  const timeout = timeoutOf(path);
  // Older than its timeout: greyed; twice that: blanked (never shown as current).
  if (age > 2 * timeout) return null;
  return { value: best.value, stale: age > timeout || !connected, at: best.at };
}
function number(path) { const r = reading(path); return r && typeof r.value === "number" ? r : null; }

// ---- Settings and layouts, kept in the browser -------------------------------------------------------------------

function load(key, fallback) {
  try { const text = localStorage.getItem("telltale." + key); return text ? JSON.parse(text) : fallback; }
  catch (e) { return fallback; }
}
function save(key, value) { try { localStorage.setItem("telltale." + key, JSON.stringify(value)); } catch (e) { } }

const PRESETS = [
  { name: "Sailing", tiles: ["aw", "tw", "speed", "heading", "heel", "depth"] },
  { name: "Racing", tiles: ["race", "line", "polar", "tw", "layline", "windhistory"] },
  { name: "Navigation", tiles: ["waypoint", "cog", "heading", "depth", "speed", "rot"] },
  { name: "Motion", tiles: ["heel", "pitch", "heelhistory", "rot"] },
  // The chart, with the instruments chosen for its strip (the layout editor's "Chart strip").
  { name: "Chart", chart: true, tiles: ["speed", "depth", "aw", "heading"] },
  // The forecasts on board beside what the instruments say: now, the next 48 hours, the route, the barometer.
  { name: "Weather", tiles: ["weathernow", "barograph", "meteogram", "routeweather", "forecasts"] },
];
function layouts() {
  // Ashore (`telltale fleet`) there is no boat of its own: the Fleet layout alone.
  if (typeof fleet !== "undefined" && fleet.on) return [{ name: "Fleet", fleet: true, tiles: [] }];
  const strip = load("chart.strip", null);
  const presets = PRESETS.map(p => (p.chart && strip ? { ...p, tiles: strip } : p));
  return presets.concat(load("layouts", []));
}
