// Replay (`telltale fleet` with a store): any span the store keeps, played back at any speed with the tracks drawn
// and a time slider. Loaded on first use.
import { fixed } from "./units.js";

const SPEEDS = [1, 10, 60, 300, 1200];
let state = null;

function clock(t) {
  const d = new Date(t * 1000);
  return d.toISOString().slice(0, 10) + " " + d.toISOString().slice(11, 19) + " UTC";
}

// The point of a track (rows of [time, latitude, longitude]) at time t: the last one at or before it, or none.
function at(track, t) {
  let lo = 0, hi = track.length - 1;
  if (hi < 0 || track[0][0] > t) return -1;
  while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (track[mid][0] <= t) lo = mid; else hi = mid - 1; }
  return lo;
}

export async function openReplay(fleet, bar, day) {
  const started = performance.now();
  closeReplay();
  const days = (await (await fetch("/telltale/v1/fleet/days", { cache: "no-store" })).json()).days || [];
  if (!days.length) { bar.textContent = "Nothing kept to replay yet."; return; }
  day = day || days[0];
  const span = await (await fetch("/telltale/v1/fleet/span?day=" + day, { cache: "no-store" })).json();
  bar.innerHTML = `<select class="replay-day">${days.map(d => `<option${d === day ? " selected" : ""}>${d}</option>`).join("")}</select>` +
    `<button class="replay-play" aria-label="play">▶</button>` +
    `<input class="replay-slider" type="range" min="${span.first}" max="${span.last}" step="1" value="${span.first}">` +
    `<span class="replay-time"></span><select class="replay-speed">${SPEEDS.map(s => `<option value="${s}"${s === 60 ? " selected" : ""}>×${s}</option>`).join("")}</select>` +
    `<a class="replay-csv" href="#" download="positions.csv">CSV</a><button class="replay-live">Live</button>`;
  bar.querySelector(".replay-day").addEventListener("change", event => openReplay(fleet, bar, event.target.value));
  const slider = bar.querySelector(".replay-slider"), label = bar.querySelector(".replay-time");
  // A coarse picture first (100 points a boat), then finer tracks (400: a point a minute over six hours) in its place.
  const tracks = points => fetch(`/telltale/v1/fleet/tracks?from=${span.first}&to=${span.last}&points=${points}`,
    { cache: "no-store" }).then(r => r.json());
  const data = await tracks(100);
  const map = fleet.map;
  fleet.replay = true;
  for (const entry of fleet.boats.values()) { entry.track.remove(); if (entry.marker) entry.marker.remove(); }
  const layer = L.layerGroup().addTo(map), renderer = L.canvas({ padding: 0.2 });
  const boats = data.boats.map(b => ({
    id: b.id, track: b.track,
    line: L.polyline([], { renderer, color: "#0a58ca", weight: 1.5 }).addTo(layer),
    marker: L.circleMarker([b.track[0][1], b.track[0][2]], { renderer, radius: 4, color: "#000", weight: 1,
      fillColor: "#2a7" })
      .bindTooltip(b.id, { permanent: false }).addTo(layer),
  }));
  state = { fleet, bar, layer, boats, span, day, playing: false, timer: 0, last: 0, slider, label };
  function draw(t) {
    label.textContent = clock(t);
    const shown = [];
    for (const b of boats) {
      const i = at(b.track, t);
      if (i < 0) { b.line.setLatLngs([]); b.marker.setStyle({ opacity: 0, fillOpacity: 0 }); continue; }
      b.line.setLatLngs(b.track.slice(0, i + 1).map(p => [p[1], p[2]]));
      b.marker.setLatLng([b.track[i][1], b.track[i][2]]).setStyle({ opacity: 1, fillOpacity: 0.9 });
      shown.push({ id: b.id, time: b.track[i][0], latitude: b.track[i][1], longitude: b.track[i][2] });
    }
    state.shown = shown;
    state.time = t;
  }
  slider.addEventListener("input", () => draw(Number(slider.value)));
  const play = bar.querySelector(".replay-play"), speed = bar.querySelector(".replay-speed");
  play.addEventListener("click", () => {
    state.playing = !state.playing;
    play.textContent = state.playing ? "❚❚" : "▶";
    state.last = performance.now();
    if (state.playing) tick();
  });
  function tick() {
    if (!state || !state.playing) return;
    const now = performance.now(), t = Math.min(span.last, Number(slider.value) + (now - state.last) / 1000 * Number(speed.value));
    state.last = now;
    slider.value = t;
    draw(t);
    if (t >= span.last) { state.playing = false; play.textContent = "▶"; return; }
    state.timer = setTimeout(tick, 200);
  }
  bar.querySelector(".replay-live").addEventListener("click", () => closeReplay());
  // The positions drawn, as CSV (boat, time, latitude, longitude), for a spreadsheet.
  bar.querySelector(".replay-csv").addEventListener("click", event => {
    const rows = ["boat,time,latitude,longitude"];
    for (const b of boats) for (const p of b.track) rows.push(`${b.id},${new Date(p[0] * 1000).toISOString()},${fixed(p[1], 6)},${fixed(p[2], 6)}`);
    event.currentTarget.href = URL.createObjectURL(new Blob([rows.join("\n") + "\n"], { type: "text/csv" }));
  });
  const all = boats.flatMap(b => b.track.map(p => [p[1], p[2]]));
  if (all.length) map.fitBounds(all, { padding: [30, 30], maxZoom: 14 });
  draw(span.first);
  // The first picture: every boat's track up to the span's start drawn (measured by the checks and the benchmark).
  state.firstPicture = performance.now() - started;
  window.telltaleReplay = state;
  const mine = state, finer = await tracks(400);
  if (state !== mine) return;
  const byId = new Map(finer.boats.map(b => [b.id, b.track]));
  for (const b of boats) if (byId.has(b.id)) b.track = byId.get(b.id);
  state.refined = true;
  draw(state.time);
}

export function closeReplay() {
  if (!state) return;
  clearTimeout(state.timer);
  state.layer.remove();
  state.bar.textContent = "";
  const start = document.createElement("button"); start.textContent = "Replay"; start.className = "replay-open";
  const { fleet, bar } = state;
  start.onclick = () => openReplay(fleet, bar);
  bar.append(start);
  state.fleet.replay = false;
  for (const entry of state.fleet.boats.values()) { entry.track.addTo(state.fleet.map); if (entry.marker) entry.marker.addTo(state.fleet.map); }
  state = null;
  window.telltaleReplay = null;
}
