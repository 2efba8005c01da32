// Tiles: an instrument on the page, built from its markup and updated from the store several times a second, with the
// sailor's settings for it (units, smoothing, decimals, north), kept in the browser.
import { history } from "./history.js";
import { INSTRUMENTS } from "./instruments.js";
import { load, now, reading, traces, windIsForecast } from "./store.js";
import { ranked, traffic } from "./traffic.js";
import { column, resolution, values, windowLabel } from "./trends.js";
import { bearing, clock, convert, DEG, fixed, signedAngle, unitLabel, UNITS } from "./units.js";

export function settingsOf(id) {
  const spec = INSTRUMENTS[id];
  const s = Object.assign({ unit: spec.defaultUnit, decimals: spec.decimals, smoothing: 0, reference: "true", window: spec.defaultWindow || 30 },
    load("settings." + id, {}));
  return s;
}
const smoothers = new Map();
export function smooth(key, value, seconds, angular) {
  if (!seconds || value === null) { smoothers.delete(key); return value; }
  const t = now(), old = smoothers.get(key);
  if (!old) { smoothers.set(key, { x: Math.cos(value), y: Math.sin(value), v: value, t }); return value; }
  const k = 1 - Math.exp(-(t - old.t) / seconds);
  old.t = t;
  if (angular) {
    old.x += k * (Math.cos(value) - old.x); old.y += k * (Math.sin(value) - old.y);
    return Math.atan2(old.y, old.x);
  }
  old.v += k * (value - old.v);
  return old.v;
}

// Where each graphic turns: the heel boat about its waterline, the side view about its own; dials about the centre.
const PIVOTS = { hull: 70, "limit-a": 70, "limit-b": 70, "mean-mark": 70, side: 60 };

export class Tile {
  constructor(id) {
    this.id = id;
    this.spec = INSTRUMENTS[id];
    this.element = document.createElement("section");
    this.element.className = "tile" + (this.spec.wide ? " wide" : "");
    this.element.dataset.id = id;
    this.element.innerHTML = `<h3>${this.spec.title}</h3><div class="body">${this.spec.html()}</div>`;
    this.refresh();
  }
  refresh() { this.settings = settingsOf(this.id); this.decimals = Number(this.settings.decimals); }
  q(name) { return this.element.querySelector(`[data-q="${name}"]`); }
  setValue(name, text, stale, unit) {
    const v = this.q(name);
    if (!v) return;
    v.textContent = text === null || text === undefined ? "—" : text;
    v.classList.toggle("stale", !!stale && text !== null && text !== undefined);
    const u = this.element.querySelector(`[data-u="${name}"]`);
    if (u) u.textContent = unit;
  }
  text(name, text, r, unit) { this.setValue(name, r ? text : null, r && r.stale, unit); }
  speed(name, r) {
    const kind = this.spec.units === "speed" ? "speed" : "speed";
    const value = r ? smooth(this.id + name, r.value, Number(this.settings.smoothing), false) : null;
    const unit = this.settings.unit in UNITS.speed ? this.settings.unit : "kn";
    const shown = value === null ? null : convert(kind, unit, value);
    this.setValue(name, shown === null ? null : unit === "Bft" ? String(shown) : fixed(shown, this.decimals), r && r.stale,
      unitLabel(kind, unit));
  }
  length(name, r, kind) {
    const value = r ? smooth(this.id + name, r.value, Number(this.settings.smoothing), false) : null;
    this.setValue(name, value === null ? null : fixed(convert(kind, this.settings.unit, value), this.decimals), r && r.stale,
      unitLabel(kind, this.settings.unit));
  }
  angle(name, r, signed) {
    const value = r ? smooth(this.id + name, r.value, Number(this.settings.smoothing), true) : null;
    const degrees = value === null ? null : signedAngle(value);
    this.setValue(name, degrees === null ? null : fixed(Math.abs(degrees), 0), r && r.stale, "°");
    this.side(name, degrees);
  }
  side(name, value) {
    const v = this.q(name);
    if (!v) return;
    v.classList.toggle("starboard", value !== null && value !== undefined && value > 0.5);
    v.classList.toggle("port", value !== null && value !== undefined && value < -0.5);
    const u = this.element.querySelector(`[data-u="${name}"]`);
    if (u && value !== null && value !== undefined && Math.abs(value) > 0.5) {
      u.textContent = u.textContent.replace(/ [PS]$/, "") + (value > 0 ? " S" : " P");
    }
  }
  rotate(name, degrees) {
    const g = this.element.querySelector(`.needle.${name}`);
    if (!g) return;
    g.classList.toggle("hidden", degrees === null || degrees === undefined);
    if (degrees !== null && degrees !== undefined) g.setAttribute("transform", `rotate(${degrees.toFixed(1)} 50 ${PIVOTS[name] || 50})`);
  }
  limits(over) {
    this.rotate("limit-a", over ? over : null);
    this.rotate("limit-b", over ? -over : null);
  }
  bar(fraction) {
    const bar = this.element.querySelector(".bar");
    if (!bar) return;
    const width = fraction === null ? 0 : Math.abs(fraction) * 45;
    bar.setAttribute("x", fraction !== null && fraction < 0 ? 50 - width : 50);
    bar.setAttribute("width", width);
  }
  progress(fraction) {
    const ring = this.element.querySelector(".progress");
    if (ring) ring.setAttribute("stroke-dasharray", `${(fraction * 251.3).toFixed(1)} 252`);
  }
  // The AIS stations the gateway keeps: those closing within 2 NM first (soonest first), then the nearest; five.
  traffic() {
    const body = this.element.querySelector(".traffic tbody");
    const own = reading("navigation.position");
    const rows = ranked(traffic, own && own.value);
    const unit = this.settings.unit;
    const key = JSON.stringify(rows.slice(0, 5).map(r => [r.s.mmsi, Math.round(r.range), r.a && Math.round(r.a.timeTo)]));
    if (body.dataset.key === key) return;
    body.dataset.key = key;
    body.replaceChildren(...rows.slice(0, 5).map(r => {
      const tr = document.createElement("tr");
      if (r.danger) tr.className = "danger";
      const cpa = r.a && r.a.timeTo > 0 ? fixed(convert("distance", unit, r.a.distance), this.decimals) : "—";
      const tcpa = r.a && r.a.timeTo > 0 ? clock(-r.a.timeTo).slice(1) : "—";
      for (const text of [r.s.name || String(r.s.mmsi), fixed(convert("distance", unit, r.range), this.decimals),
        bearing(r.brg), cpa, tcpa]) {
        const td = document.createElement("td");
        td.textContent = text;
        tr.appendChild(td);
      }
      return tr;
    }));
  }
  spark(name, path, inverted) {
    const line = this.element.querySelector(`polyline.${name}`);
    const trace = traces.get(path) || [];
    if (!line) return;
    if (trace.length < 2) { line.setAttribute("points", ""); return; }
    const values = trace.map(x => x[1]);
    let lo = Math.min(...values), hi = Math.max(...values);
    if (hi - lo < 0.2) { hi += 0.1; lo -= 0.1; }
    const t0 = now() - 180;
    line.setAttribute("points", trace.map(([t, v]) => {
      const y = inverted ? 4 + ((v - lo) / (hi - lo)) * 42 : 46 - ((v - lo) / (hi - lo)) * 42;
      return `${(((t - t0) / 180) * 100).toFixed(1)},${y.toFixed(1)}`;
    }).join(" "));
  }
  windHistory() {
    // The last hour from what the server keeps in memory; longer from the history on the card.
    const minutes = Number(this.settings.window);
    let n = Math.round((minutes * 60) / (history.windInterval || 10));
    let speeds = history.speedTrue.slice(-n), directions = history.directionTrue.slice(-n);
    if (minutes > 60) {
      const seconds = resolution(minutes, 180);
      const answer = values("environment.wind.speedTrue,environment.wind.directionTrue", `duration=${minutes * 60}`, seconds);
      n = Math.round((minutes * 60) / seconds);
      speeds = column(answer, 0).map(x => x[1]);
      directions = column(answer, 1).map(x => x[1]);
    }
    const unit = this.settings.unit in UNITS.speed ? this.settings.unit : "kn";
    const shown = speeds.map(v => (v === null ? null : convert("speed", unit, v)));
    const present = shown.filter(v => v !== null);
    this.setValue("tws-range", present.length ? `${fixed(Math.min(...present), this.decimals)}–${fixed(Math.max(...present), this.decimals)}` : null,
      false, unitLabel("speed", unit) + ` (${windowLabel(minutes)})`);
    plot(this.element.querySelector("polyline.tws"), shown, n, 2, 48);
    // Direction unwrapped around its mean, so a shift across north is a step, not a leap across the plot.
    const ds = directions.filter(v => v !== null);
    const mean = ds.length ? Math.atan2(ds.reduce((s, v) => s + Math.sin(v), 0), ds.reduce((s, v) => s + Math.cos(v), 0)) : 0;
    const around = directions.map(v => (v === null ? null : signedAngle(v - mean)));
    const ap = around.filter(v => v !== null);
    this.setValue("twd-range", ap.length ? `${bearing(mean + Math.min(...ap) / DEG)}–${bearing(mean + Math.max(...ap) / DEG)}` : null,
      false, "°T");
    plot(this.element.querySelector("polyline.twd"), around, n, 52, 98);
  }
  heelHistory() {
    // The last five minutes a second at a time from the server's memory; longer from the history on the card.
    const minutes = Number(this.settings.window);
    let samples = history.roll;
    if (minutes > 5) samples = column(values("navigation.attitude.roll", `duration=${minutes * 60}`, resolution(minutes, 300)), 0).map(x => x[1]);
    const roll = samples.map(v => (v === null ? null : v * DEG));
    const present = roll.filter(v => v !== null);
    const over = history.heelAlarm && history.heelAlarm.over;
    const scale = Math.max(10, over ? over + 5 : 0, ...present.map(Math.abs));
    const heel = v => `${fixed(Math.abs(v), this.decimals)}°${Math.abs(v) < 0.5 ? "" : v < 0 ? " P" : " S"}`;
    const text = present.length ? `${heel(Math.min(...present))} to ${heel(Math.max(...present))}` : null;
    this.setValue("heel-range", text, false, "");
    const line = this.element.querySelector("polyline.heel");
    const n = 300;
    const pts = [];
    roll.slice(-n).forEach((v, i, all) => { if (v !== null) pts.push(`${(((n - all.length + i) / n) * 200).toFixed(1)},${(50 + (v / scale) * 46).toFixed(1)}`); });
    line.setAttribute("points", pts.join(" "));
    for (const [cls, sign] of [["over-a", 1], ["over-b", -1]]) {
      const l = this.element.querySelector("." + cls);
      l.classList.toggle("hidden", !over);
      if (over) { const y = (50 + (sign * over / scale) * 46).toFixed(1); l.setAttribute("y1", y); l.setAttribute("y2", y); }
    }
  }
  update() {
    // A wind instrument says so while the wind is the forecast's (no anemometer heard).
    if (this.spec.wind) this.element.classList.toggle("forecast", windIsForecast());
    try { this.spec.update(this); } catch (e) { console.error(e); }
    this.fit();
  }
  // Numbers fitted to their tile: the size the CSS gives first, then smaller (--fit), a step at a time, while a line
  // or its unit would run past the tile's edge ("4.29 k" for 4.29 kn on a 390 px phone's chart strip). Measured only
  // when the text or the tile's size changed.
  fit() {
    const numbers = this.element.querySelector(".numbers");
    if (!numbers || !numbers.isConnected) return;
    const key = numbers.textContent + "|" + numbers.clientWidth + "x" + numbers.clientHeight;
    if (this.fitted === key) return;
    this.fitted = key;
    let scale = 1;
    numbers.style.removeProperty("--fit");
    while (scale > 0.45 && overflows(numbers)) {
      scale -= 0.05;
      numbers.style.setProperty("--fit", scale.toFixed(2));
    }
  }
}
// Whether any text of `box` runs past its sides (measured on the text's own boxes, to the fraction of a pixel), or
// below its foot.
function overflows(box) {
  const limit = box.getBoundingClientRect();
  const range = document.createRange();
  range.selectNodeContents(box);
  for (const r of range.getClientRects()) if (r.width > 0 && (r.right > limit.right + 0.5 || r.left < limit.left - 0.5)) return true;
  return box.scrollHeight > box.clientHeight + 1;
}
export function plot(line, values, n, top, bottom) {
  const present = values.filter(v => v !== null);
  if (!line) return;
  if (present.length < 2) { line.setAttribute("points", ""); return; }
  let lo = Math.min(...present), hi = Math.max(...present);
  if (hi - lo < 1) { hi += 0.5; lo -= 0.5; }
  const pts = [];
  values.forEach((v, i) => {
    if (v !== null) pts.push(`${(((n - values.length + i) / Math.max(1, n - 1)) * 200).toFixed(1)},${(bottom - ((v - lo) / (hi - lo)) * (bottom - top)).toFixed(1)}`);
  });
  line.setAttribute("points", pts.join(" "));
}
