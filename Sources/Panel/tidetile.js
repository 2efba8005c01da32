// The Tide tile, loaded the first time it is shown (tides.js): the height now and whether it rises, the next high and
// low water, the stream predicted beside the current measured, and the curve from twelve hours ago to a day ahead,
// "now" as a line, each high and low water marked with its time.
import { number, reading } from "./store.js";
import { bearing, fixed, hhmm, KNOTS } from "./units.js";

const when = iso => hhmm(Date.parse(iso) / 1000);
const metres = h => fixed(h, 2);

export function update(t, tides) {
  const height = number("environment.tide.heightNow");
  const rising = tides && tides.now ? (tides.now.rising ? " ↑" : " ↓") : "";
  t.setValue("td-now", height ? metres(height.value) + rising : null, height && height.stale, "m");
  const high = number("environment.tide.heightHigh"), highAt = reading("environment.tide.timeHigh");
  t.setValue("td-high", high && highAt ? when(highAt.value) + " " + metres(high.value) : null, high && high.stale, "m");
  const low = number("environment.tide.heightLow"), lowAt = reading("environment.tide.timeLow");
  t.setValue("td-low", low && lowAt ? when(lowAt.value) + " " + metres(low.value) : null, low && low.stale, "m");
  const set = number("environment.tide.streamSetTrue"), drift = number("environment.tide.streamDrift");
  t.setValue("td-stream", set && drift ? bearing(set.value) + "° " + fixed(drift.value * KNOTS, 1) : null,
    drift && drift.stale, "kn");
  const mset = number("environment.current.setTrue"), mdrift = number("environment.current.drift");
  t.setValue("td-measured", mset && mdrift ? bearing(mset.value) + "° " + fixed(mdrift.value * KNOTS, 1) : null,
    mdrift && mdrift.stale, "kn");
  drawCurve(t, tides);
}

// The curve (height against time), "now" as a line, each high and low water marked with its time.
function drawCurve(t, tides) {
  const graphic = t.element.querySelector("svg.tide-curve"), caption = t.element.querySelector(".tide-station");
  const station = tides && tides.station;
  const key = tides ? tides.fetched : null;
  if (graphic.dataset.key === String(key)) return;
  graphic.dataset.key = String(key);
  if (!station || !tides.curve || tides.curve.length < 2) {
    graphic.innerHTML = "";
    caption.textContent = tides ? "No tide station within reach of the boat" : "";
    return;
  }
  caption.textContent = `${station.name} (${station.datum}${station.distance !== undefined ? ", " +
    fixed(station.distance, 1) + " NM" : ""})`;
  const points = tides.curve.map(p => [Date.parse(p.time) / 1000, p.height]);
  const t0 = points[0][0], t1 = points[points.length - 1][0];
  const values = points.map(p => p[1]);
  const low = Math.min(...values) - 0.1, high = Math.max(...values) + 0.1;
  const x = time => ((time - t0) / (t1 - t0)) * 460 + 10, y = h => 140 - ((h - low) / (high - low)) * 120;
  let inner = `<polyline class="ink" fill="none" stroke-width="2" points="${points.map(([a, h]) =>
    `${x(a).toFixed(1)},${y(h).toFixed(1)}`).join(" ")}"/>`;
  for (const e of tides.events || []) {
    const at = Date.parse(e.time) / 1000;
    if (at < t0 || at > t1) continue;
    inner += `<circle class="accent" cx="${x(at).toFixed(1)}" cy="${y(e.height).toFixed(1)}" r="3"/>` +
      `<text class="dim" x="${x(at).toFixed(1)}" y="${(e.type === "high" ? y(e.height) - 7 : y(e.height) + 16).toFixed(1)}" ` +
      `text-anchor="middle" font-size="13">${hhmm(at)}</text>`;
  }
  const time = Date.parse(tides.time) / 1000;
  inner += `<line class="accent now" x1="${x(time).toFixed(1)}" x2="${x(time).toFixed(1)}" y1="10" y2="150" stroke-dasharray="4 3"/>`;
  graphic.innerHTML = inner;
}

