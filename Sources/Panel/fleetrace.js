// The race office (`telltale fleet --races FILE [--entries FILE]`): a race's course on the chart and its standings,
// class by class, in order of corrected or elapsed time, with the results as CSV. Loaded on first use.
import { esc } from "./fleet.js";
import { fixed } from "./units.js";

let state = null;

function hms(s) {
  if (s === null || s === undefined) return "—";
  s = Math.round(s);
  return `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
}

export async function openRace(fleet, box, index) {
  closeRace();
  const races = (await (await fetch("/telltale/v1/fleet/races", { cache: "no-store" })).json()).races || [];
  if (!races.length) { box.textContent = "No races: start telltale fleet with --races FILE."; return; }
  index = index ?? races[races.length - 1].race;
  box.innerHTML = `<div class="race-bar"><select class="race-choice">${races.map(r =>
    `<option value="${r.race}"${r.race === index ? " selected" : ""}>${esc(r.name)}</option>`).join("")}</select>` +
    `<select class="race-order"><option value="corrected">Corrected time</option><option value="elapsed">Elapsed time</option></select>` +
    `<a class="race-csv" href="/telltale/v1/fleet/races/${index}/results.csv" download="results.csv">Results CSV</a>` +
    `<span class="race-time"></span><button class="race-close" aria-label="close">✕</button></div><div class="race-table"></div>`;
  const order = box.querySelector(".race-order");
  box.querySelector(".race-choice").onchange = e => openRace(fleet, box, Number(e.target.value));
  box.querySelector(".race-close").onclick = () => { closeRace(); box.innerHTML = ""; };
  state = { fleet, box, index, order, data: null, layer: null, timer: 0 };
  order.onchange = draw;
  document.addEventListener("telltale:class", draw);
  document.addEventListener("telltale:fleetclose", closeRace, { once: true });
  await load();
  // Standings under way move on; the server reads the store at most every 10 s.
  state.timer = setInterval(load, 10000);
}

async function load() {
  const s = state;
  if (!s) return;
  try {
    const r = await fetch(`/telltale/v1/fleet/races/${s.index}`, { cache: "no-store" });
    if (!r.ok || state !== s) return;
    s.data = await r.json();
  } catch (e) { return; }
  drawCourse();
  draw();
  // A race still being read from the store: again in a second.
  if (!s.data.complete) setTimeout(load, 1000);
}

function drawCourse() {
  const s = state, map = s.fleet.map, d = s.data;
  if (!map || s.layer || !window.L) return;
  s.layer = L.layerGroup().addTo(map);
  L.polyline(d.line, { color: "#080", weight: 3 }).addTo(s.layer).bindTooltip("start");
  L.polyline(d.finish, { color: "#c00", weight: 3, dashArray: "6 4" }).addTo(s.layer).bindTooltip("finish");
  for (const m of d.marks) {
    L.circle([m.latitude, m.longitude], { radius: m.zone, color: "#e60", weight: 1, fillOpacity: 0.1 })
      .addTo(s.layer).bindTooltip(esc(m.name), { permanent: true, direction: "right", className: "race-mark" });
  }
}

function draw() {
  const s = state;
  if (!s || !s.data) return;
  const d = s.data, by = s.order.value, group = s.fleet.group, marks = d.marks.length;
  const place = by === "elapsed" ? "placeElapsed" : "placeCorrected";
  const boats = d.boats.filter(b => !group || b.class === group)
    .sort((a, b) => a.class.localeCompare(b.class) || a[place] - b[place]);
  s.box.querySelector(".race-time").textContent = `${fixed(d.length / 1852, 1)} NM · at ${new Date(d.time * 1000).toISOString().slice(11, 19)} UTC` +
    (d.complete ? "" : ` · reading the race from the store: ${d.read} of ${d.entered} boats`);
  const status = b => b.stopped ? "stopped reporting" : b.status === "racing" ? `racing · ${b.rounded.length}/${marks} marks` : b.status;
  const time = (b, t) => b.status === "finished" ? hms(b[t]) : b.status === "racing" && t === "corrected" && b.projected ? `≈ ${hms(b.corrected)}` : "—";
  s.box.querySelector(".race-table").innerHTML = `<table><thead><tr><th>Place</th><th>Class</th><th>Sail</th><th>Boat</th>` +
    `<th>Rating</th><th>Status</th><th>Sailed</th><th>To go</th><th>Elapsed</th><th>Corrected</th></tr></thead><tbody>` +
    boats.map(b => `<tr data-boat="${b.id}" class="${b.stopped ? "stopped" : ""} ${b.status.replace(/ /g, "-")}">` +
      `<td>${b[place]}</td><td>${esc(b.class)}</td><td>${esc(b.sail)}</td><td>${esc(b.name || b.id)}</td><td>${esc(b.rating)}</td>` +
      `<td>${status(b)}</td><td>${fixed(b.sailed / 1852, 2)}</td><td>${b.toGo === null ? "—" : fixed(b.toGo / 1852, 2)}</td>` +
      `<td>${time(b, "elapsed")}</td><td>${time(b, "corrected")}</td></tr>`).join("") + `</tbody></table>`;
  // For checks and the curious: the order shown.
  window.telltaleRace = { race: d.race, order: by, group, rows: boats.map(b => b.id) };
}

export function closeRace() {
  if (!state) return;
  clearInterval(state.timer);
  document.removeEventListener("telltale:class", draw);
  if (state.layer) state.layer.remove();
  state = null;
}
