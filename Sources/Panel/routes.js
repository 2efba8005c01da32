// The route editor on the chart (#40): tap to add a waypoint, drag one to move it, tap it to name, insert before or
// delete it, reverse; each leg's distance, bearing and time at the boat's speed shown as you plan; saved as a Signal K
// route resource on the gateway, activated (the engine follows it), exported and imported as GPX; and "mark this spot",
// a waypoint dropped at the boat's position with one tap.
import { authorised, refused } from "./access.js";
import { number, position } from "./store.js";
import { toast } from "./ui.js";
import { DEG, NM } from "./units.js";

const R = 6371008.8;

// ---- Pure helpers (Panel/tests) ---------------------------------------------------------------------------------

// Each leg between points {lat, lon}: great-circle distance (m), initial bearing (degrees true), seconds at `speed`
// (m/s; null when the boat is not moving).
export function legs(points, speed) {
  const out = [];
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1], b = points[i];
    const p1 = a.lat / DEG, p2 = b.lat / DEG, dl = (b.lon - a.lon) / DEG;
    const h = Math.sin((p2 - p1) / 2) ** 2 + Math.cos(p1) * Math.cos(p2) * Math.sin(dl / 2) ** 2;
    const distance = 2 * R * Math.asin(Math.min(1, Math.sqrt(h)));
    const y = Math.sin(dl) * Math.cos(p2), x = Math.cos(p1) * Math.sin(p2) - Math.sin(p1) * Math.cos(p2) * Math.cos(dl);
    const bearing = (Math.atan2(y, x) * DEG + 360) % 360;
    out.push({ distance, bearing, seconds: speed && speed > 0.2 ? distance / speed : null });
  }
  return out;
}

// A route as Signal K's route resource: a GeoJSON LineString, the points' names in coordinatesMeta.
export function toResource(name, points) {
  return {
    name, description: "Planned on Telltale's chart",
    distance: legs(points, null).reduce((sum, leg) => sum + leg.distance, 0),
    feature: { type: "Feature", geometry: { type: "LineString", coordinates: points.map(p => [round(p.lon), round(p.lat)]) },
      properties: { coordinatesMeta: points.map(p => ({ name: p.name })) } },
  };
}
function round(value) { return Math.round(value * 1e7) / 1e7; }

export function fromResource(resource) {
  const coordinates = ((resource.feature || {}).geometry || {}).coordinates || [];
  const meta = ((resource.feature || {}).properties || {}).coordinatesMeta || [];
  return { name: resource.name || "Route",
    points: coordinates.map((c, i) => ({ lat: c[1], lon: c[0], name: (meta[i] && meta[i].name) || "WP" + (i + 1) })) };
}

function escape(text) {
  return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

// GPX 1.1 with one <rte>, as OpenCPN and Navionics read it.
export function toGPX(name, points) {
  return '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<gpx version="1.1" creator="Telltale" xmlns="http://www.topografix.com/GPX/1/1">\n' +
    "  <rte>\n    <name>" + escape(name) + "</name>\n" +
    points.map(p => `    <rtept lat="${round(p.lat)}" lon="${round(p.lon)}"><name>${escape(p.name)}</name></rtept>\n`).join("") +
    "  </rte>\n</gpx>\n";
}

// The first route of a GPX file (its <rtept>s), or, with none, its waypoints (<wpt>) in order, or a track's points;
// null when there is nothing to make a route of. Positions out of range are refused.
export function fromGPX(text) {
  const doc = new DOMParser().parseFromString(text, "application/xml");
  if (doc.getElementsByTagName("parsererror").length) return null;
  const pick = tag => Array.from(doc.getElementsByTagName(tag));
  const route = pick("rte")[0];
  let nodes = route ? Array.from(route.getElementsByTagName("rtept")) : [];
  if (!nodes.length) nodes = pick("wpt");
  if (!nodes.length) nodes = pick("trkpt");
  const points = [];
  for (const [i, node] of nodes.entries()) {
    const lat = Number(node.getAttribute("lat")), lon = Number(node.getAttribute("lon"));
    if (!isFinite(lat) || !isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
    const named = Array.from(node.children).find(c => c.localName === "name");
    points.push({ lat, lon, name: (named && named.textContent.trim()) || "WP" + (i + 1) });
  }
  if (points.length < 2) return null;
  const title = route && Array.from(route.children).find(c => c.localName === "name");
  return { name: (title && title.textContent.trim()) || "Imported route", points };
}

// ---- The editor ---------------------------------------------------------------------------------------------------

export const editor = { on: false, name: "", points: [], id: null, layer: null, panel: null, map: null };

async function send(method, path, body) {
  const response = await fetch("/signalk/v2/api" + path, {
    method, headers: authorised({ "Content-Type": "application/json" }), body: body ? JSON.stringify(body) : undefined });
  let answer = {};
  try { answer = await response.json(); } catch (e) { }
  if (response.status === 401 || response.status === 403) { refused(); return null; }
  if (!response.ok) { toast(answer.message || "Refused (" + response.status + ")"); return null; }
  return answer;
}

function nextName() {
  let n = editor.points.length + 1;
  while (editor.points.some(p => p.name === "WP" + n)) n++;
  return "WP" + n;
}

function draw() {
  if (!editor.layer) return;
  editor.layer.clearLayers();
  const line = editor.points.map(p => [p.lat, p.lon]);
  if (line.length > 1) L.polyline(line, { className: "chart-plan" }).addTo(editor.layer);
  editor.points.forEach((p, i) => {
    const marker = L.marker([p.lat, p.lon], { draggable: true, icon: L.divIcon({ className: "chart-plan-point", iconSize: [18, 18] }) })
      .bindTooltip(p.name, { permanent: true, direction: "right", className: "chart-label" }).addTo(editor.layer);
    marker.on("dragend", () => { const at = marker.getLatLng(); p.lat = at.lat; p.lon = at.lng; draw(); });
    marker.on("click", e => { L.DomEvent.stopPropagation(e); pointMenu(i); });
  });
  table();
}

function pointMenu(index) {
  const p = editor.points[index];
  const words = prompt(`${p.name}: a new name, or "delete", or "insert" (a point before it)`, p.name);
  if (words === null) return;
  if (words === "delete") editor.points.splice(index, 1);
  else if (words === "insert") {
    const before = editor.points[index - 1] || p;
    editor.points.splice(index, 0, { lat: (before.lat + p.lat) / 2, lon: (before.lon + p.lon) / 2, name: nextName() });
  } else if (words.trim()) p.name = words.trim().slice(0, 40);
  draw();
}

function table() {
  const body = editor.panel && editor.panel.querySelector("#plan-legs");
  if (!body) return;
  const sog = number("navigation.speedOverGround");
  const rows = legs(editor.points, sog ? sog.value : null);
  let total = 0, time = 0;
  body.innerHTML = rows.map((leg, i) => {
    total += leg.distance;
    time = leg.seconds == null || time == null ? null : time + leg.seconds;
    const hours = leg.seconds == null ? "–" : (leg.seconds / 3600).toFixed(1) + " h";
    return `<tr><td>${escape(editor.points[i + 1].name)}</td><td>${(leg.distance / NM).toFixed(2)} NM</td>` +
      `<td>${Math.round(leg.bearing).toString().padStart(3, "0")}°</td><td>${hours}</td></tr>`;
  }).join("") + `<tr class="plan-total"><td>total</td><td>${(total / NM).toFixed(2)} NM</td><td></td>` +
    `<td>${time == null ? "–" : (time / 3600).toFixed(1) + " h"}</td></tr>`;
}

async function saveRoute() {
  if (editor.points.length < 2) { toast("A route needs two points"); return null; }
  editor.name = editor.panel.querySelector("#plan-name").value.trim() || "Route";
  const resource = toResource(editor.name, editor.points);
  const answer = editor.id ? await send("PUT", "/resources/routes/" + editor.id, resource)
    : await send("POST", "/resources/routes", resource);
  if (!answer) return null;
  editor.id = editor.id || answer.id;
  toast("Route saved: " + editor.name);
  return editor.id;
}

async function activate() {
  const id = await saveRoute();
  if (!id) return;
  if (await send("PUT", "/vessels/self/navigation/course/activeRoute", { href: "/resources/routes/" + id, pointIndex: 0 }))
    toast("Following " + editor.name);
}

function exportGPX() {
  const text = toGPX(editor.panel.querySelector("#plan-name").value.trim() || "Route", editor.points);
  const link = editor.panel.querySelector("#plan-export-link");
  if (link.href) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(new Blob([text], { type: "application/gpx+xml" }));
  link.download = (editor.name || "route").replace(/[^A-Za-z0-9_-]+/g, "-") + ".gpx";
  link.click();
}

async function importGPX(file) {
  if (!file || file.size > 1 << 20) { toast("A GPX file of at most 1 MB"); return; }
  const route = fromGPX(await file.text());
  if (!route) { toast("No route in that file"); return; }
  editor.points = route.points;
  editor.name = route.name;
  editor.id = null;
  editor.panel.querySelector("#plan-name").value = route.name;
  draw();
  if (editor.map && route.points.length) editor.map.fitBounds(route.points.map(p => [p.lat, p.lon]), { padding: [30, 30] });
}

// A waypoint where the boat is, now: "mark this spot".
export async function markHere() {
  const here = position("navigation.position");
  if (!here) { toast("No position to mark"); return; }
  const name = "Mark " + new Date().toISOString().slice(5, 16).replace("T", " ");
  const answer = await send("POST", "/resources/waypoints",
    { name, type: "Mark", feature: { type: "Feature", geometry: { type: "Point", coordinates: [round(here[1]), round(here[0])] } } });
  if (answer) toast("Marked: " + name);
}

// Opens the editor on the chart `map` (with the route followed, when there is one to start from).
export function openEditor(map, element, start) {
  if (editor.on) return;
  editor.on = true;
  editor.map = map;
  editor.layer = L.layerGroup().addTo(map);
  if (start) {
    const route = fromResource(start.resource);
    editor.points = route.points;
    editor.name = route.name;
    editor.id = start.id;
  } else {
    editor.points = [];
    editor.name = "";
    editor.id = null;
  }
  const panel = document.createElement("div");
  panel.className = "chart-plan-panel";
  panel.innerHTML = '<input id="plan-name" placeholder="Route name" maxlength="60">' +
    '<table><tbody id="plan-legs"></tbody></table><div class="chart-plan-buttons">' +
    '<button id="plan-save">Save</button><button id="plan-activate">Activate</button>' +
    '<button id="plan-reverse">Reverse</button><button id="plan-clear">New</button>' +
    '<button id="plan-export">Export GPX</button><label class="button">Import GPX<input id="plan-import" type="file" ' +
    'accept=".gpx,application/gpx+xml" hidden></label><a id="plan-export-link" hidden></a>' +
    '<button id="plan-done">Done</button></div><p class="hint">Tap the chart to add a point; drag one to move it; ' +
    "tap it to rename, insert or delete.</p>";
  element.appendChild(panel);
  L.DomEvent.disableClickPropagation(panel);
  L.DomEvent.disableScrollPropagation(panel);
  editor.panel = panel;
  panel.querySelector("#plan-name").value = editor.name;
  panel.querySelector("#plan-save").onclick = saveRoute;
  panel.querySelector("#plan-activate").onclick = activate;
  panel.querySelector("#plan-reverse").onclick = () => { editor.points.reverse(); draw(); };
  panel.querySelector("#plan-clear").onclick = () => { editor.points = []; editor.id = null; editor.name = ""; panel.querySelector("#plan-name").value = ""; draw(); };
  panel.querySelector("#plan-export").onclick = exportGPX;
  panel.querySelector("#plan-import").onchange = e => importGPX(e.target.files[0]);
  panel.querySelector("#plan-done").onclick = closeEditor;
  // The map's own DOM clicks, not Leaflet's "click": Leaflet let the first click after the editor opened go unsaid.
  // A click that ended a drag, or fell on a point, a label or a control, adds nothing.
  map.getContainer().addEventListener("click", addPoint);
  draw();
}

function addPoint(e) {
  if (!editor.on || !editor.map) return;
  if (editor.map.dragging && editor.map.dragging.moved()) return;
  if (e.target.closest && e.target.closest(".leaflet-marker-icon, .leaflet-tooltip, .leaflet-control, .chart-plan-panel")) return;
  const at = editor.map.mouseEventToLatLng(e);
  editor.points.push({ lat: at.lat, lon: at.lng, name: nextName() });
  draw();
}

export function closeEditor() {
  if (!editor.on) return;
  editor.on = false;
  if (editor.map) editor.map.getContainer().removeEventListener("click", addPoint);
  if (editor.layer) editor.layer.remove();
  if (editor.panel) editor.panel.remove();
  editor.layer = editor.panel = editor.map = null;
}

window.telltaleRoutes = { editor, legs, toGPX, fromGPX, toResource, fromResource };
