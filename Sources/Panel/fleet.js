// The fleet (`telltale fleet`, ashore): every boat that sends to the broker, on a chart and in a table.
// The layout itself (chart, table, class filter, replay and race buttons) is fleetlayout.js, loaded when shown: a
// boat's own panel never loads it.
import { disconnect, setConnected } from "./connection.js";
import { link } from "./store.js";

let ashore = null; // ashore.js, once ashore
export const fleet = { on: false, map: null, boats: new Map(), data: null, bounded: 0, moved: false, group: "", opened: 0 };
// A fleet file's names are the race office's text: shown as text, never as markup.
export const esc = t => String(t ?? "").replace(/[&<>"']/g, c => `&#${c.charCodeAt(0)};`);

// A fleet server answers /telltale/v1/fleet with its boats (a boat's gateway with {"fleet": false}): the panel then
// shows the Fleet layout alone.
export async function detectFleet() {
  try {
    const r = await fetch("/telltale/v1/fleet", { cache: "no-store" });
    // A shore with accounts, the session over: its login page.
    if (r.status === 401) { location.replace("/login.html"); return; }
    if (!r.ok) return;
    const data = await r.json();
    if (data.fleet !== true) return;
    fleet.on = true;
    link.fleet = true;
    fleet.data = data;
    disconnect();
    fleetConnected(true);
    // The page shows the Fleet layout alone.
    document.dispatchEvent(new Event("telltale:fleet"));
    setInterval(fetchFleet, 2000);
    ashore = await import("./ashore.js");
    ashore.pickOnly();
  } catch (e) { }
}
async function fetchFleet() {
  try {
    const r = await fetch("/telltale/v1/fleet", { cache: "no-store" });
    if (r.status === 401) { location.replace("/login.html"); return; }
    if (r.ok) { fleet.data = await r.json(); if (ashore) ashore.pickOnly(); fleetConnected(true); if (fleet.draw) fleet.draw(); return; }
  } catch (e) { }
  fleetConnected(false);
}
function fleetConnected(up) {
  const boats = fleet.data ? fleet.data.boats.length : 0;
  setConnected(up, up ? (ashore && ashore.boatStatus()) || `fleet: ${boats} boat${boats === 1 ? "" : "s"}` : "the fleet server is not answering");
}

export async function openFleet(element) {
  const opened = ++fleet.opened;
  const view = await import("./fleetlayout.js");
  if (opened === fleet.opened) { fleet.view = view; view.openFleet(element); }
}

export function closeFleet() {
  fleet.opened++;
  if (fleet.view) fleet.view.closeFleet();
}
