// The boat's history on the card, for the tiles and the chart (#40): the History API v2 asked over a span that ends at
// the history's own clock (a query without `to` ends there on the gateway), each answer kept for a while so that a tile
// redrawn several times a second asks once; the passage summary worked out from an answer. Pure but for `values`.
import { changed, link } from "./store.js";
import { NM } from "./units.js";

// Ashore: the boat's history from the shore's store.
export const historyApi = () => (link.boat ? `/telltale/v1/fleet/boats/${link.boat}/history/values` : "/signalk/v2/api/history/values");
// The window choices of the history tiles, in minutes (10 minutes to a day).
export const WINDOWS = [[5, "5 min"], [10, "10 min"], [30, "30 min"], [60, "1 h"], [180, "3 h"], [360, "6 h"],
  [720, "12 h"], [1440, "24 h"]];
export function windowLabel(minutes) {
  const found = WINDOWS.find(([m]) => m === Number(minutes));
  return found ? found[1] : `${minutes} min`;
}

// The rows asked for a window: about `rows` of them, whole seconds.
export function resolution(minutes, rows) { return Math.max(1, Math.ceil((minutes * 60) / rows)); }

// Whether the gateway keeps a history (its features list the History API): asked once; nothing is asked of the
// History API where there is none.
let kept = null;
// Whether the gateway keeps a history, once its features have answered (false until then).
export function keepsHistory() {
  if (link.boat) return true;
  if (kept === null) {
    kept = fetch("/signalk/v2/features", { cache: "no-store" })
      .then(r => (r.ok ? r.json() : {}))
      .then(features => { kept = Array.isArray(features.apis) && features.apis.includes("history"); if (kept) changed(); })
      .catch(() => { kept = false; });
  }
  return kept === true;
}

const answers = new Map(); // query -> { at, data, asking }
// The answer to a query (`paths` as the API takes them, with aggregates), or null until it has come; asked again when
// older than `fresh` seconds. `range` is `duration=...` or `from=...&to=...`.
export function values(paths, range, seconds, fresh = 30) {
  if (!keepsHistory()) return null;
  const query = `${historyApi()}?paths=${paths}&${range}&resolution=${seconds}`;
  let entry = answers.get(query);
  if (!entry) { entry = { at: 0, data: null, asking: false }; answers.set(query, entry); }
  const t = Date.now() / 1000;
  if (!entry.asking && t - entry.at > fresh) {
    entry.asking = true;
    fetch(query, { cache: "no-store" })
      .then(r => (r.ok ? r.json() : null))
      .then(answer => { entry.data = answer; entry.at = Date.now() / 1000; })
      .catch(() => { entry.at = Date.now() / 1000; })
      .finally(() => { entry.asking = false; changed(); });
    if (answers.size > 40) answers.delete(answers.keys().next().value);
  }
  return entry.data;
}

// One column of an answer, in order: [UNIX seconds, value or null].
export function column(answer, index) {
  if (!answer || !Array.isArray(answer.data)) return [];
  return answer.data.map(row => [Date.parse(row[0]) / 1000, row[index + 1] === undefined ? null : row[index + 1]]);
}

// The great-circle distance between two [lon, lat] in metres (a sphere of the mean radius: well within a metre a mile).
export function distance(a, b) {
  const R = 6371008.8, rad = Math.PI / 180;
  const dLat = (b[1] - a[1]) * rad, dLon = (b[0] - a[0]) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[1] * rad) * Math.cos(b[1] * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(h)));
}

// The paths a passage summary asks for, in the order `passage` reads them.
export const PASSAGE_PATHS = "navigation.position:first,navigation.speedOverGround,navigation.speedOverGround:max," +
  "navigation.attitude.roll:max,navigation.attitude.roll:min,environment.wind.speedTrue:min," +
  "environment.wind.speedTrue:max";
// A summary of a passage from an answer to PASSAGE_PATHS: the distance sailed (the positions joined, a jump of more
// than 5 NM between two rows taken for a gap, not sailed), the time from the first position to the last, the time
// under way (rows moving faster than half a knot), the average speed under way, the top speed, the greatest heel
// either side (degrees, positive starboard), and the true wind's range. Null when the answer holds no position.
export function passage(answer) {
  if (!answer || !Array.isArray(answer.data)) return null;
  const rows = answer.data;
  const step = rows.length > 1 ? (Date.parse(rows[1][0]) - Date.parse(rows[0][0])) / 1000 : 0;
  let metres = 0, last = null, first = null, end = null, moving = 0, top = null, starboard = null, port = null;
  let lowWind = null, highWind = null;
  const max = (a, b) => (b === null || b === undefined ? a : a === null ? b : Math.max(a, b));
  const min = (a, b) => (b === null || b === undefined ? a : a === null ? b : Math.min(a, b));
  for (const row of rows) {
    const t = Date.parse(row[0]) / 1000, p = row[1];
    if (p) {
      if (last) { const d = distance(last, p); if (d < 5 * NM) metres += d; }
      last = p;
      if (first === null) first = t;
      end = t;
    }
    if (row[2] !== null && row[2] > 0.5 * NM / 3600) moving += step;
    top = max(top, row[3]);
    starboard = max(starboard, row[4]);
    port = min(port, row[5]);
    lowWind = min(lowWind, row[6]);
    highWind = max(highWind, row[7]);
  }
  if (first === null) return null;
  const heel = [starboard, port].filter(v => v !== null);
  const worst = heel.length ? heel.reduce((a, b) => (Math.abs(b) > Math.abs(a) ? b : a)) : null;
  return {
    metres, from: first, to: end, seconds: end - first + step, moving,
    average: moving > 0 ? metres / moving : null, top,
    heel: worst === null ? null : (worst * 180) / Math.PI,
    wind: lowWind === null ? null : [lowWind, highWind],
  };
}
