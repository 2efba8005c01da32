// The tidal streams on the chart, loaded when the overlay is first switched on (tides.js): an arrow at each current
// station in view, at the hour chosen with the slider (twelve hours back to a day ahead).
import { fixed, HOUR, hhmm } from "./units.js";
import { boatTime } from "./weather.js";

const streams = { hours: 0, control: null, asked: 0 };
export function startStreams(map, group) {
  const refresh = () => { if (map.hasLayer(group)) drawStreams(map, group); };
  map.on("moveend", refresh);
  map.on("overlayadd", e => { if (e.layer === group && !streams.control) { streams.control = streamTime(refresh).addTo(map); refresh(); } });
  map.on("overlayremove", e => {
    if (e.layer === group && streams.control) { streams.control.remove(); streams.control = null; }
  });
  streams.control = streamTime(refresh).addTo(map);
  refresh();
}
function streamTime(whenChanged) {
  const Control = L.Control.extend({
    onAdd() {
      const box = L.DomUtil.create("div", "chart-time stream-time");
      box.innerHTML = `<input type="range" min="-12" max="24" step="1" value="${streams.hours}"> <span></span>`;
      const input = box.querySelector("input"), label = box.querySelector("span");
      const say = () => {
        label.textContent = (streams.hours >= 0 ? "+" : "") + streams.hours + " h " + hhmm(boatTime() + streams.hours * HOUR);
      };
      say();
      L.DomEvent.disableClickPropagation(box);
      input.oninput = () => { streams.hours = Number(input.value); say(); };
      input.onchange = whenChanged;
      return box;
    },
  });
  return new Control({ position: "bottomright" });
}
async function drawStreams(map, group) {
  const b = map.getBounds();
  if (b.getNorth() - b.getSouth() > 10) { group.clearLayers(); return; }
  const time = Math.round(boatTime() + streams.hours * HOUR), asked = ++streams.asked;
  let answer;
  try {
    const r = await fetch(`/telltale/v1/tides/currents?time=${time}&south=${b.getSouth()}&west=${b.getWest()}` +
      `&north=${b.getNorth()}&east=${b.getEast()}`, { cache: "no-store" });
    if (!r.ok) return;
    answer = await r.json();
  } catch (e) { return; }
  if (asked !== streams.asked) return; // a later view asked since: its answer draws, not this older one
  group.clearLayers();
  for (const s of answer.stations || []) {
    if (s.direction === null || s.direction === undefined) continue;
    const knots = Math.abs(s.speed), length = 10 + Math.min(knots, 5) * 5;
    L.marker([s.latitude, s.longitude], { keyboard: false, title: `${s.station}: ${s.kind} ${fixed(knots, 1)} kn`,
      icon: L.divIcon({ className: "chart-stream", iconSize: [60, 60], iconAnchor: [30, 30],
        html: `<svg viewBox="-30 -30 60 60" width="60" height="60" data-kn="${fixed(knots, 1)}" data-set="${s.direction}">` +
          `<g transform="rotate(${s.direction})"><line x1="0" y1="${length / 2}" x2="0" y2="${-length / 2}" ` +
          `stroke="currentColor" stroke-width="3"/><path d="M0 ${-length / 2 - 6} L5 ${-length / 2 + 2} L-5 ${-length / 2 + 2} Z" ` +
          `fill="currentColor"/></g><text x="8" y="24" font-size="12">${fixed(knots, 1)}</text></svg>` }) }).addTo(group);
  }
}
