// The owner's boat from home (`telltale fleet`): one boat's values read from the shore every 2 s into the store the
// boat's own layouts read, her active alarms as notifications, read-only. The boat is the one the account sees, or the
// one opened from the Fleet layout's table. Loaded only ashore.
import { setConnected } from "./connection.js";
import { fleet } from "./fleet.js";
import { changed, link, put, store, traces } from "./store.js";

let timer = null, asking = false;
// The account sees one boat: hers, opened at once (the page stays where it is).
export function pickOnly() {
  const boats = (fleet.data && fleet.data.boats) || [];
  if (!link.boat && boats.length === 1) openBoat(boats[0].id, false);
}
// A boat's layouts opened (`show`: the page goes to her instruments).
export function openBoat(id, show) {
  if (link.boat !== id) {
    link.boat = id;
    // Her layouts beside the Fleet layout: what her uplink sends, read-only.
    link.layouts = [{ name: id, tiles: ["speed", "tw", "aw", "heading", "heel", "depth"] },
      { name: id + ": chart", chart: true, tiles: ["speed", "depth", "tw", "heading"] },
      { name: id + ": history", tiles: ["passage", "windhistory", "speedhistory", "depthhistory", "heelhistory", "barograph"] }];
    store.clear();
    traces.clear();
    read();
    if (!timer) timer = setInterval(read, 2000);
  }
  document.dispatchEvent(new CustomEvent("telltale:boat", { detail: { show } }));
}
async function read() {
  const id = link.boat;
  if (!id || asking) return;
  asking = true;
  try {
    const r = await fetch(`/telltale/v1/fleet/boats/${encodeURIComponent(id)}/values`, { cache: "no-store" });
    if (r.status === 401) { location.replace("/login.html"); return; }
    if (!r.ok || id !== link.boat) return;
    take(await r.json());
    setConnected(true, boatStatus());
  } catch (e) {
  } finally { asking = false; }
}
// The shore's answer into the store: each value as old as the boat's clock says; the alarms the boat has on now as
// notifications (those gone withdrawn), so the alarm bar shows them, with no button (nothing ashore commands her).
// An alarm whose notification came as a value too is shown once, as the value.
export function take(answer) {
  link.silent = answer.silent;
  link.clock = answer.clock;
  link.online = answer.online;
  for (const v of answer.values || []) if (typeof v.path === "string") put(v.path, "uplink", v.value, Number(v.age) || 0);
  const active = new Set();
  for (const a of answer.alarms || []) {
    if (typeof a.path !== "string" || !a.path.startsWith("notifications.")) continue;
    active.add(a.path);
    const sources = store.get(a.path);
    if (sources && sources.has("uplink")) sources.delete("alarms");
    else put(a.path, "alarms", { state: a.state, message: a.message, method: [] });
  }
  for (const [path, sources] of store) if (sources.has("alarms") && !active.has(path)) sources.delete("alarms");
  changed();
}
// What the connection line says of her: heard lately, silent, or switched off.
export function boatStatus() {
  if (!link.boat) return null;
  const s = link.silent;
  const ago = s === undefined ? "" : s < 90 ? `heard ${Math.round(s)} s ago` : s < 5400 ? `silent ${Math.round(s / 60)} min` : `silent ${Math.round(s / 3600)} h`;
  return `${link.boat}${link.online === false ? " (switched off)" : ""}: ${ago}`;
}
// Her track on the chart: her last day by her own clock from the shore's store (every k-th position, 3,000 at most).
export async function boatTrack(chart, t) {
  if (typeof link.clock !== "number") return;
  chart.trackAt = t;
  const id = encodeURIComponent(link.boat), to = Math.ceil(link.clock);
  try {
    const r = await fetch(`/telltale/v1/fleet/tracks?boat=${id}&from=${to - 86400}&to=${to}&points=3000`, { cache: "no-store" });
    const boat = r.ok ? ((await r.json()).boats || [])[0] : null;
    if (boat) chart.track = [boat.track.map(p => [p[1], p[2]])];
  } catch (e) { }
}
