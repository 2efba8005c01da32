// The shared store: the live values per path and per source, with their age, as the stream delivers them; the
// traces the sparklines draw; what this browser keeps (settings, layouts, the device's token). Pure but for the
// clock, which tests set (`clock.now`).

// Seconds a value stays current without a new reading (the server's own timeouts: it withdraws the value then).
export const TIMEOUTS = { "environment.wind": 5, "navigation.heading": 5, "navigation.attitude": 3,
  "navigation.rateOfTurn": 5, "performance": 5, "navigation.magneticVariation": 3600, "navigation.racing": 5,
  "notifications": Infinity };
export function timeoutOf(path) {
  for (const prefix in TIMEOUTS) if (path.startsWith(prefix)) return TIMEOUTS[prefix];
  return 10;
}
export const COMPUTED = "telltale.computed";
export const store = new Map(); // path -> Map(source -> {value, at})
export const traces = new Map(); // path -> [[t, value]] for the sparklines, a sample a second, 3 minutes
// The stream's state (the connection sets it) and what the panel serves: a boat, or a fleet ashore.
// Ashore, `boat`: the boat shown from home (ashore.js).
export const link = { connected: false, fleet: false, boat: null };
export const clock = { now: () => performance.now() / 1000 };
export function now() { return clock.now(); }
export function put(path, source, value, age = 0) {
  let sources = store.get(path);
  if (value === null) { if (sources) sources.delete(source); return; }
  if (!sources) { sources = new Map(); store.set(path, sources); }
  sources.set(source, { value, at: now() - age });
}
// The value to show: Telltale's own (damped, what the plotter gets) while current, else the freshest input's.
export function reading(path) {
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
  // Ashore (values every 10 s or so): greyed after 90 s, never blanked.
  const timeout = link.boat ? Math.max(90, timeoutOf(path)) : timeoutOf(path);
  // Older than its timeout: greyed; twice that: blanked (never shown as current).
  if (age > 2 * timeout && !link.boat) return null;
  return { value: best.value, stale: age > timeout || !link.connected, at: best.at };
}
export function number(path) { const r = reading(path); return r && typeof r.value === "number" ? r : null; }
export function position(path) {
  const r = reading(path);
  return r && r.value && typeof r.value.latitude === "number" ? [r.value.latitude, r.value.longitude] : null;
}
// The wind is the forecast's (no anemometer heard): the wind tiles say so.
export function windIsForecast() { const r = reading("telltale.wind.forecast"); return !!(r && r.value === true); }

// ---- Kept in the browser -----------------------------------------------------------------------------------------

export function load(key, fallback) {
  try { const text = localStorage.getItem("telltale." + key); return text ? JSON.parse(text) : fallback; }
  catch (e) { return fallback; }
}
export function save(key, value) { try { localStorage.setItem("telltale." + key, JSON.stringify(value)); } catch (e) { } }
export function forget(key) { try { localStorage.removeItem("telltale." + key); } catch (e) { } }

// The page asks to be drawn again (new data came): the page listens for this.
export function changed() { document.dispatchEvent(new Event("telltale:render")); }
