// The layouts: the presets every boat starts with, then the sailor's own, kept in the browser. Pure but for `load`.
import { load } from "./store.js";

export const PRESETS = [
  { name: "Sailing", tiles: ["aw", "tw", "speed", "heading", "heel", "depth"] },
  { name: "Racing", tiles: ["race", "line", "polar", "tw", "layline", "windhistory"] },
  { name: "Navigation", tiles: ["waypoint", "cog", "heading", "depth", "speed", "rot"] },
  { name: "Motion", tiles: ["heel", "pitch", "heelhistory", "rot"] },
  // The chart, with the instruments chosen for its strip (the layout editor's "Chart strip").
  { name: "Chart", chart: true, tiles: ["speed", "depth", "aw", "heading"] },
  // The forecasts on board beside what the instruments say: now, the next 48 hours, the route, the barometer.
  { name: "Weather", tiles: ["weathernow", "barograph", "meteogram", "routeweather", "forecasts"] },
  // The tide where the boat is, the water under her at low water, the stream predicted beside the current measured.
  { name: "Tides", tiles: ["tide", "depth", "cog", "speed"] },
  // The history kept on the card: the passage so far and the traces over a window the sailor chooses.
  { name: "History", tiles: ["passage", "windhistory", "speedhistory", "depthhistory", "heelhistory", "barograph"] },
  // The autopilot's keys beside what it steers by: the heading, the wind, the next waypoint.
  { name: "Autopilot", tiles: ["pilot", "heading", "aw", "waypoint"] },
];

// Every layout, in the order the page swipes through them. Ashore (`telltale fleet`) there is no boat of its own:
// the Fleet layout, then those of the boat opened from home (ashore.js).
export function layouts(fleet, boat) {
  if (fleet) return [{ name: "Fleet", fleet: true, tiles: [] }].concat(boat || []);
  const strip = load("chart.strip", null);
  const presets = PRESETS.map(p => (p.chart && strip ? { ...p, tiles: strip } : p));
  return presets.concat(load("layouts", []));
}
