// The Fleet layout (`telltale fleet`): every boat on a chart and in a table, a class shown alone, replay and the race
// office's standings behind their buttons. Loaded when the layout is shown.
import { gridLayer, leaflet } from "./chart.js";
import { esc, fleet } from "./fleet.js";
import { bearing, DEG, fixed } from "./units.js";

export async function openFleet(element) {
  const mapBox = document.createElement("div"), table = document.createElement("div"), bar = document.createElement("div");
  mapBox.id = "fleet-map"; table.className = "fleet-table"; bar.className = "fleet-replay";
  // Replay of what the store keeps: its module loaded on first use.
  const start = document.createElement("button"); start.textContent = "Replay"; start.className = "replay-open";
  start.onclick = async () => (await import("./fleetreplay.js")).openReplay(fleet, bar);
  // The race office: a class shown alone, and the races' standings (their module loaded on first use).
  const group = document.createElement("select"), race = document.createElement("button"), box = document.createElement("div");
  group.className = "fleet-class"; race.textContent = "Race"; race.className = "race-open"; box.className = "fleet-race";
  group.onchange = () => { fleet.group = group.value; drawFleet(); document.dispatchEvent(new Event("telltale:class")); };
  race.onclick = async () => (await import("./fleetrace.js")).openRace(fleet, box);
  fleet.classes = group; fleet.raceBox = box;
  bar.append(start, race, group);
  element.append(mapBox, bar, box, table);
  fleet.table = table;
  // A boat's own layouts from home, opened from her row.
  table.onclick = e => {
    const open = e.target.closest("button[data-open]");
    if (open) import("./ashore.js").then(m => m.openBoat(open.dataset.open, true));
  };
  fleet.draw = drawFleet;
  (await import("./fleetalerts.js")).openAlerts(element);
  if (!(await leaflet())) { mapBox.textContent = "The chart needs Leaflet (Debian's libjs-leaflet)."; drawFleet(); return; }
  const map = L.map(mapBox, { attributionControl: false, zoomSnap: 1 });
  fleet.map = map;
  fleet.boats = new Map();
  // The map follows the fleet (fitted again as boats join) until the crew pans or zooms it themselves.
  fleet.bounded = 0;
  fleet.moved = false;
  for (const kind of ["pointerdown", "wheel"]) mapBox.addEventListener(kind, () => { fleet.moved = true; }, { passive: true });
  let info = { charts: [] };
  try { const r = await fetch("/charts/", { cache: "no-store" }); if (r.ok) info = await r.json(); } catch (e) { }
  const chartFile = (info.charts || []).find(c => !c.error);
  (chartFile ? L.tileLayer("/charts/" + chartFile.name + "/{z}/{x}/{y}", { maxZoom: 20 }) : gridLayer()).addTo(map);
  // The coastlines of the offline base map, as on board, when the shore has it.
  if (info.baseMap) { try { (await import("./basemap.js")).baseMapLayer(map).addTo(map); } catch (e) { } }
  map.setView([50.8, -1.3], 12);
  drawFleet();
}

export function closeFleet() {
  if (fleet.map) { fleet.map.remove(); fleet.map = null; }
  fleet.table = null;
  fleet.raceBox = null;
  fleet.draw = null;
  document.dispatchEvent(new Event("telltale:fleetclose"));
}

function fleetValue(boat, path) { return boat[path] === undefined ? null : boat[path]; }

function drawFleet() {
  const data = fleet.data;
  if (!data) return;
  const classes = data.classes || [];
  if (fleet.classes && fleet.classes.options.length !== classes.length + 1) {
    fleet.classes.innerHTML = `<option value="">All classes</option>` + classes.map(c => `<option>${esc(c)}</option>`).join("");
    fleet.classes.value = fleet.group;
  }
  if (fleet.classes) fleet.classes.hidden = !classes.length;
  const shown = b => !fleet.group || b.class === fleet.group;
  if (fleet.table) {
    const rows = data.boats.filter(shown).map(b => {
      const p = fleetValue(b, "navigation.position"), sog = fleetValue(b, "navigation.speedOverGround");
      const tws = fleetValue(b, "environment.wind.speedTrue"), twd = fleetValue(b, "environment.wind.directionTrue");
      const alarms = b.alarms.map(a => a.message).join("; ");
      // Not heard for two minutes while not known to be off: stopped reporting (out of range, sunk battery, worse).
      const stopped = b.age > 120 && b.online !== false, named = b.class !== undefined;
      return `<tr data-boat="${b.id}" class="${b.alarms.length ? "alarm" : ""}${b.online === false ? " offline" : ""}${stopped ? " stopped" : ""}">` +
        `<td><a href="/telltale/v1/fleet/boats/${b.id}/track.gpx" download>${b.id}</a></td>` +
        (classes.length ? `<td>${named ? esc(b.sail) : ""}</td><td>${named ? esc(b.name) : ""}</td><td>${named ? esc(b.class) : ""}</td>` : "") +
        `<td class="age">${b.age === null ? "never" : fixed(b.age, 0) + " s"}</td>` +
        `<td>${p ? fixed(p.latitude, 4) + ", " + fixed(p.longitude, 4) : "—"}</td>` +
        `<td>${sog === null ? "—" : fixed(sog * 3600 / 1852, 1) + " kn"}</td>` +
        `<td>${tws === null ? "—" : (twd === null ? "" : bearing(twd) + "° ") + fixed(tws * 3600 / 1852, 0) + " kn"}</td>` +
        `<td>${stopped ? "stopped reporting" : b.online === false ? "offline" : b.online ? "online" : "—"}</td><td>${alarms || ""}</td>` +
        `<td><button data-open="${b.id}">Open</button></td></tr>`;
    }).join("");
    fleet.table.innerHTML = `<table><thead><tr><th>Boat</th>${classes.length ? "<th>Sail</th><th>Name</th><th>Class</th>" : ""}<th>Last report</th><th>Position</th><th>SOG</th>` +
      `<th>Wind</th><th>Link</th><th>Alarms</th><th></th></tr></thead><tbody>${rows}</tbody></table>`;
  }
  const map = fleet.map;
  if (!map || fleet.replay) return;
  const points = [];
  for (const b of data.boats) {
    const p = fleetValue(b, "navigation.position");
    let entry = fleet.boats.get(b.id);
    if (!entry) {
      entry = { track: L.polyline([], { className: "fleet-track" }).addTo(map), marker: null };
      fleet.boats.set(b.id, entry);
    }
    const on = shown(b);
    entry.track.setLatLngs(on ? b.track : []);
    if (!p || !on) { if (entry.marker) { entry.marker.remove(); entry.marker = null; } continue; }
    points.push([p.latitude, p.longitude]);
    const course = fleetValue(b, "navigation.headingTrue") ?? fleetValue(b, "navigation.courseOverGroundTrue") ?? 0;
    const twd = fleetValue(b, "environment.wind.directionTrue"), tws = fleetValue(b, "environment.wind.speedTrue");
    const wind = twd === null ? "" : `<g transform="rotate(${(twd * DEG).toFixed(0)})"><path class="fleet-wind" ` +
      `d="M0,-26 L0,-14 M-3,-18 L0,-14 L3,-18"/></g>`;
    const html = `<svg viewBox="-30 -30 60 60" width="60" height="60" data-boat="${b.id}" ` +
      `data-lat="${p.latitude}" data-lon="${p.longitude}"${tws === null ? "" : ` data-tws="${tws}"`}>${wind}` +
      `<g transform="rotate(${(course * DEG).toFixed(0)})"><path class="fleet-boat${b.alarms.length ? " alarm" : ""}"${b.colour ? ` style="fill:${esc(b.colour)}"` : ""} ` +
      `d="M0,-10 L6,8 L0,5 L-6,8 Z"/></g></svg><span class="fleet-name">${esc(b.sail || b.id)}</span>`;
    if (!entry.marker) {
      entry.marker = L.marker([p.latitude, p.longitude], { interactive: false, keyboard: false,
        icon: L.divIcon({ className: "fleet-icon", iconSize: [60, 60], iconAnchor: [30, 30], html }) }).addTo(map);
    } else {
      entry.marker.setLatLng([p.latitude, p.longitude]);
      entry.marker.setIcon(L.divIcon({ className: "fleet-icon", iconSize: [60, 60], iconAnchor: [30, 30], html }));
    }
  }
  if (!fleet.moved && points.length > fleet.bounded) {
    fleet.bounded = points.length;
    map.fitBounds(points, { padding: [40, 40], maxZoom: 14 });
  }
}

