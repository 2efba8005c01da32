// Telltale's instrument panel: a single page on the gateway's own Signal K stream. No network beyond the boat, no
// library: everything here is served from the gateway's binary.
"use strict";

// ---- Units and formats -----------------------------------------------------------------------------------------

const DEG = 180 / Math.PI;
const BEAUFORT = [0.5, 1.6, 3.4, 5.5, 8.0, 10.8, 13.9, 17.2, 20.8, 24.5, 28.5, 32.7]; // m/s, WMO upper bounds
function beaufort(ms) { let force = 0; while (force < 12 && ms >= BEAUFORT[force]) force++; return force; }
const UNITS = {
  speed: { kn: { f: 3600 / 1852, label: "kn" }, "m/s": { f: 1, label: "m/s" }, "km/h": { f: 3.6, label: "km/h" },
    Bft: { f: null, label: "Bft" } },
  depth: { m: { f: 1, label: "m" }, ft: { f: 1 / 0.3048, label: "ft" }, fathom: { f: 1 / 1.8288, label: "fm" } },
  distance: { NM: { f: 1 / 1852, label: "NM" }, km: { f: 1 / 1000, label: "km" } },
};
function convert(kind, unit, si) {
  const u = UNITS[kind][unit] || Object.values(UNITS[kind])[0];
  return u.f === null ? beaufort(si) : si * u.f;
}
function unitLabel(kind, unit) { return (UNITS[kind][unit] || Object.values(UNITS[kind])[0]).label; }
function fixed(x, decimals) {
  if (x === null || x === undefined || !isFinite(x)) return "—";
  const text = x.toFixed(decimals);
  return text === "-" + (0).toFixed(decimals) ? (0).toFixed(decimals) : text;
}
function bearing(rad) { let d = Math.round(rad * DEG) % 360; if (d < 0) d += 360; return String(d).padStart(3, "0"); }
function signedAngle(rad) { let d = rad * DEG; while (d > 180) d -= 360; while (d <= -180) d += 360; return d; }
function clock(seconds) {
  const sign = seconds < 0 ? "−" : "+";
  const s = Math.abs(Math.round(seconds));
  return sign + Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

// ---- Live values: per path, per source, with their age -----------------------------------------------------------

// Seconds a value stays current without a new reading (the server's own timeouts: it withdraws the value then).
const TIMEOUTS = { "environment.wind": 5, "navigation.heading": 5, "navigation.attitude": 3, "navigation.rateOfTurn": 5,
  "performance": 5, "navigation.magneticVariation": 3600, "navigation.racing": 5, "notifications": Infinity };
function timeoutOf(path) {
  for (const prefix in TIMEOUTS) if (path.startsWith(prefix)) return TIMEOUTS[prefix];
  return 10;
}
const COMPUTED = "telltale.computed";
const store = new Map(); // path -> Map(source -> {value, at})
const traces = new Map(); // path -> [[t, value]] for the sparklines, a sample a second, 3 minutes
function now() { return performance.now() / 1000; }
function put(path, source, value) {
  let sources = store.get(path);
  if (value === null) { if (sources) sources.delete(source); return; }
  if (!sources) { sources = new Map(); store.set(path, sources); }
  sources.set(source, { value, at: now() });
}
// The value to show: Telltale's own (damped, what the plotter gets) while current, else the freshest input's.
function reading(path) {
  const sources = store.get(path);
  if (!sources || sources.size === 0) return null;
  let best = null;
  for (const [source, entry] of sources) {
    const preferred = source === COMPUTED;
    if (!best || (preferred && !best.preferred) || (preferred === best.preferred && entry.at > best.at)) {
      best = { value: entry.value, at: entry.at, preferred };
    }
  }
  const age = now() - best.at;
  const timeout = timeoutOf(path);
  // Older than its timeout: greyed; twice that: blanked (never shown as current).
  if (age > 2 * timeout) return null;
  return { value: best.value, stale: age > timeout || !connected };
}
function number(path) { const r = reading(path); return r && typeof r.value === "number" ? r : null; }

// ---- Settings and layouts, kept in the browser -------------------------------------------------------------------

function load(key, fallback) {
  try { const text = localStorage.getItem("telltale." + key); return text ? JSON.parse(text) : fallback; }
  catch (e) { return fallback; }
}
function save(key, value) { try { localStorage.setItem("telltale." + key, JSON.stringify(value)); } catch (e) { } }

const PRESETS = [
  { name: "Sailing", tiles: ["aw", "tw", "speed", "heading", "heel", "depth"] },
  { name: "Racing", tiles: ["race", "line", "polar", "tw", "layline", "windhistory"] },
  { name: "Navigation", tiles: ["waypoint", "cog", "heading", "depth", "speed", "rot"] },
  { name: "Motion", tiles: ["heel", "pitch", "heelhistory", "rot"] },
];
function layouts() { return PRESETS.concat(load("layouts", [])); }

// ---- Instruments -------------------------------------------------------------------------------------------------

function svg(viewBox, inner, stretch) {
  return `<svg class="graphic" viewBox="${viewBox}"${stretch ? ' preserveAspectRatio="none"' : ""} aria-hidden="true">${inner}</svg>`;
}
function dial(extra) {
  let ticks = "";
  for (let a = 0; a < 360; a += 30) {
    const r = (a * Math.PI) / 180, x = Math.sin(r), y = -Math.cos(r);
    ticks += `<line class="dim" x1="${50 + 40 * x}" y1="${50 + 40 * y}" x2="${50 + 46 * x}" y2="${50 + 46 * y}"/>`;
  }
  return `<circle class="ink" cx="50" cy="50" r="46"/>${ticks}` +
    `<path class="portfill" opacity=".35" d="${arc(-60, -20, 46, 40)}"/>` +
    `<path class="stbdfill" opacity=".35" d="${arc(20, 60, 46, 40)}"/>` +
    `<path class="ink" d="M50 28 C56 38 57 52 55 70 L45 70 C43 52 44 38 50 28 Z"/>` + extra;
}
function arc(from, to, outer, inner) {
  const p = (a, r) => { const t = (a * Math.PI) / 180; return `${50 + r * Math.sin(t)} ${50 - r * Math.cos(t)}`; };
  return `M${p(from, outer)} A${outer} ${outer} 0 0 1 ${p(to, outer)} L${p(to, inner)} A${inner} ${inner} 0 0 0 ${p(from, inner)} Z`;
}
// The wind arrow: from the rim, where the wind comes from, pointing at the boat.
function windArrow(cls) { return `<g class="needle ${cls}"><path class="accent" d="M50 30 L57 16 L52.5 16 L52.5 3 L47.5 3 L47.5 16 L43 16 Z"/></g>`; }
function spark(cls) { return svg("0 0 100 50", `<polyline class="ink ${cls}" points="" stroke-width="1.5"/>`); }
function numberLine(q, label) { return `<div class="line">${label} <b class="v" data-q="${q}">—</b><span class="unit" data-u="${q}"></span></div>`; }
function big(q) { return `<div class="big"><span class="v" data-q="${q}">—</span><span class="unit" data-u="${q}"></span></div>`; }

// Each instrument: its title, what its settings offer, its markup, and how it shows the current values.
const INSTRUMENTS = {
  aw: {
    title: "Apparent wind", units: "speed", defaultUnit: "kn", decimals: 1,
    html: () => `<div class="numbers">${big("aws")}${numberLine("awa", "AWA")}</div>` + svg("0 0 100 100", dial(windArrow("awa"))),
    update(t) {
      const speed = number("environment.wind.speedApparent"), angle = number("environment.wind.angleApparent");
      t.speed("aws", speed);
      t.angle("awa", angle, true);
      t.rotate("awa", angle && signedAngle(angle.value));
    },
  },
  tw: {
    title: "True wind", units: "speed", defaultUnit: "kn", decimals: 1, reference: true,
    html: () => `<div class="numbers">${big("tws")}${numberLine("twa", "TWA")}${numberLine("twd", "TWD")}${numberLine("bft", "Force")}</div>` +
      svg("0 0 100 100", dial(windArrow("twa"))),
    update(t) {
      const speed = number("environment.wind.speedTrue"), angle = number("environment.wind.angleTrueWater");
      const direction = number(t.settings.reference === "magnetic" ? "environment.wind.directionMagnetic" : "environment.wind.directionTrue");
      t.speed("tws", speed);
      t.angle("twa", angle, true);
      t.text("twd", direction && bearing(direction.value), direction, t.settings.reference === "magnetic" ? "°M" : "°T");
      t.text("bft", speed && String(beaufort(speed.value)), speed, "Bft");
      t.rotate("twa", angle && signedAngle(angle.value));
    },
  },
  speed: {
    title: "Boat speed", units: "speed", defaultUnit: "kn", decimals: 2,
    html: () => `<div class="numbers">${big("stw")}${numberLine("sog", "SOG")}</div>` + spark("stw"),
    update(t) {
      t.speed("stw", number("navigation.speedThroughWater"));
      t.speed("sog", number("navigation.speedOverGround"));
      t.spark("stw", "navigation.speedThroughWater");
    },
  },
  heading: {
    title: "Heading", reference: true, decimals: 0,
    html: () => `<div class="numbers">${big("hdg")}</div>` + svg("0 0 100 100", rose()),
    update(t) {
      const magnetic = t.settings.reference === "magnetic";
      const heading = number(magnetic ? "navigation.headingMagnetic" : "navigation.headingTrue");
      t.text("hdg", heading && bearing(heading.value), heading, magnetic ? "°M" : "°T");
      t.rotate("rose", heading && -heading.value * DEG);
    },
  },
  cog: {
    title: "COG / SOG", units: "speed", defaultUnit: "kn", decimals: 1, reference: true,
    html: () => `<div class="numbers">${big("cogv")}${numberLine("sogv", "SOG")}</div>` + svg("0 0 100 100", rose()),
    update(t) {
      const magnetic = t.settings.reference === "magnetic";
      const course = number(magnetic ? "navigation.courseOverGroundMagnetic" : "navigation.courseOverGroundTrue");
      t.text("cogv", course && bearing(course.value), course, magnetic ? "°M" : "°T");
      t.speed("sogv", number("navigation.speedOverGround"));
      t.rotate("rose", course && -course.value * DEG);
    },
  },
  heel: {
    title: "Heel", decimals: 0,
    html: () => `<div class="numbers">${big("heel")}${numberLine("mean", "Mean")}</div>` + svg("0 0 100 100", astern()),
    update(t) {
      const attitude = reading("navigation.attitude");
      const roll = attitude && attitude.value.roll !== null && attitude.value.roll !== undefined
        ? { value: attitude.value.roll * DEG, stale: attitude.stale } : null;
      t.text("heel", roll && fixed(Math.abs(roll.value), t.decimals), roll, "°");
      t.side("heel", roll && roll.value);
      const m = meanHeel();
      t.text("mean", m === null ? null : fixed(Math.abs(m), t.decimals), roll, "°");
      t.side("mean", m);
      t.rotate("hull", roll && roll.value);
      t.rotate("mean-mark", m);
      const over = history.heelAlarm && history.heelAlarm.over;
      t.limits(over);
    },
  },
  pitch: {
    title: "Pitch", decimals: 1,
    html: () => `<div class="numbers">${big("pitch")}</div>` + svg("0 0 100 100", side()),
    update(t) {
      const attitude = reading("navigation.attitude");
      const pitch = attitude && attitude.value.pitch !== null && attitude.value.pitch !== undefined
        ? { value: attitude.value.pitch * DEG, stale: attitude.stale } : null;
      t.text("pitch", pitch && fixed(pitch.value, t.decimals), pitch, "°");
      t.rotate("side", pitch && -pitch.value);
    },
  },
  depth: {
    title: "Depth", units: "depth", defaultUnit: "m", decimals: 1,
    html: () => `<div class="numbers">${big("depth")}</div>` + spark("depth"),
    update(t) {
      const path = number("environment.depth.belowTransducer") ? "environment.depth.belowTransducer" : "environment.depth.belowSurface";
      t.length("depth", number(path), "depth");
      t.spark("depth", path, true);
    },
  },
  vmg: {
    title: "VMG to windward", units: "speed", defaultUnit: "kn", decimals: 2,
    html: () => `<div class="numbers">${big("vmg")}</div>` + spark("vmg"),
    update(t) { t.speed("vmg", number("performance.velocityMadeGood")); t.spark("vmg", "performance.velocityMadeGood"); },
  },
  waypoint: {
    title: "Next waypoint", units: "distance", defaultUnit: "NM", decimals: 2,
    html: () => `<div class="numbers">${big("dtw")}${numberLine("btw", "BTW")}${numberLine("xte", "XTE")}${numberLine("eta", "ETA")}</div>` +
      svg("0 0 100 100", `<line class="dim" x1="50" y1="10" x2="50" y2="90"/><g class="needle steer"><path class="accent" d="M50 20 L62 40 L54 40 L54 80 L46 80 L46 40 L38 40 Z"/></g>`),
    update(t) {
      const base = "navigation.courseGreatCircle.";
      t.length("dtw", number(base + "nextPoint.distance"), "distance");
      const b = number(base + "nextPoint.bearingTrue");
      t.text("btw", b && bearing(b.value), b, "°T");
      const xte = number(base + "crossTrackError");
      // Signal K: positive = the vessel is right of the course line, so steer left (port).
      const steerLeft = xte && xte.value > 0;
      const xteNM = xte && Math.abs(xte.value) / 1852;
      t.text("xte", xte && fixed(xteNM, 2) + (xteNM < 0.005 ? "" : steerLeft ? " ◀ steer L" : " steer R ▶"), xte, "NM");
      const eta = reading(base + "nextPoint.estimatedTimeOfArrival");
      t.text("eta", eta && typeof eta.value === "string" ? new Date(eta.value).toTimeString().slice(0, 5) : null, eta, "");
      t.rotate("steer", xte && Math.max(-60, Math.min(60, (steerLeft ? -1 : 1) * Math.min(60, xteNM * 600))));
    },
  },
  rot: {
    title: "Rate of turn", decimals: 0,
    html: () => `<div class="numbers">${big("rot")}</div>` +
      svg("0 0 100 40", `<line class="dim" x1="50" y1="5" x2="50" y2="35"/><rect class="bar accent" x="50" y="12" width="0" height="16"/>`),
    update(t) {
      const rate = number("navigation.rateOfTurn");
      const perMinute = rate && rate.value * DEG * 60;
      t.text("rot", rate && fixed(Math.abs(perMinute), t.decimals), rate, "°/min");
      t.side("rot", perMinute);
      t.bar(perMinute === null ? null : Math.max(-1, Math.min(1, perMinute / 300)));
    },
  },
  race: {
    title: "Race timer", decimals: 0,
    html: () => `<div class="numbers">${big("race")}<div class="race-buttons"><button data-race="start">Start</button>` +
      `<button data-race="sync">Sync</button><button data-race="reset">Reset</button></div></div>` +
      svg("0 0 100 100", `<circle class="dim" cx="50" cy="50" r="40" stroke-width="6"/><circle class="ink progress" cx="50" cy="50" r="40" stroke-width="6" transform="rotate(-90 50 50)" stroke-dasharray="0 252"/>`),
    update(t) {
      const left = number("navigation.racing.timeToStart");
      t.text("race", left && clock(-left.value), left, "");
      t.progress(left && left.value > 0 ? (left.value % 60) / 60 : 0);
    },
  },
  line: {
    title: "Start line", units: "depth", defaultUnit: "m", decimals: 0,
    html: () => `<div class="numbers">${big("toline")}${numberLine("burn", "Burn")}${numberLine("ttl", "To line")}` +
      `${numberLine("bias", "Bias")}<div class="race-buttons"><button data-race="port">Ping port</button>` +
      `<button data-race="starboard">Ping stbd</button></div></div>`,
    update(t) {
      const base = "navigation.racing.";
      const distance = number(base + "distanceStartline");
      t.length("toline", distance, "depth");
      if (distance && distance.value < 0) t.setValue("toline", "OVER " + fixed(Math.abs(distance.value), 0), distance.stale, "m");
      const burn = number(base + "timeToBurn");
      t.text("burn", burn && clock(burn.value), burn, "");
      const ttl = number(base + "timeToLine");
      t.text("ttl", ttl && clock(ttl.value).slice(1), ttl, "");
      const bias = number(base + "startLineBias");
      const degrees = bias && bias.value * DEG;
      t.text("bias", bias && fixed(Math.abs(degrees), 0) + (Math.abs(degrees) < 0.5 ? "" : degrees > 0 ? " stbd" : " port"),
        bias, "°");
    },
  },
  polar: {
    title: "Polar", units: "speed", defaultUnit: "kn", decimals: 1,
    html: () => `<div class="numbers">${big("pct")}${numberLine("tgtspd", "Target")}${numberLine("tgttwa", "TWA")}` +
      `${numberLine("polspd", "Polar")}</div>` + spark("pct"),
    update(t) {
      const ratio = number("performance.polarSpeedRatio");
      t.text("pct", ratio && fixed(ratio.value * 100, 0), ratio, "%");
      t.speed("tgtspd", number("performance.targetSpeed"));
      const angle = number("performance.targetAngle");
      t.text("tgttwa", angle && fixed(angle.value * DEG, 0), angle, "°");
      t.speed("polspd", number("performance.polarSpeed"));
      t.spark("pct", "performance.polarSpeedRatio");
    },
  },
  layline: {
    title: "Laylines", units: "distance", defaultUnit: "NM", decimals: 2,
    html: () => `<div class="numbers">${big("lay")}${numberLine("laytime", "Time")}${numberLine("own", "Own")}</div>`,
    update(t) {
      const base = "navigation.racing.";
      t.length("lay", number(base + "layline.distance"), "distance");
      const time = number(base + "layline.time");
      t.text("laytime", time && clock(time.value).slice(1), time, "");
      t.length("own", number(base + "oppositeLayline.distance"), "distance");
    },
  },
  windhistory: {
    title: "True wind history", window: true, units: "speed", defaultUnit: "kn", decimals: 1, wide: true,
    html: () => `<div class="numbers">${numberLine("tws-range", "TWS")}${numberLine("twd-range", "TWD")}</div>` +
      svg("0 0 200 100", `<polyline class="ink tws" points="" vector-effect="non-scaling-stroke"/><line class="dim" x1="0" y1="50" x2="200" y2="50" vector-effect="non-scaling-stroke"/><polyline class="ink twd" points="" vector-effect="non-scaling-stroke"/>`, true),
    update(t) { t.windHistory(); },
  },
  heelhistory: {
    // Port heel plotted above the line, starboard below.
    title: "Heel history", decimals: 0, wide: true,
    html: () => `<div class="numbers">${numberLine("heel-range", "5 min")}</div>` +
      svg("0 0 200 100", `<line class="dim" x1="0" y1="50" x2="200" y2="50" vector-effect="non-scaling-stroke"/><line class="alarmline over-a" x1="0" x2="200" vector-effect="non-scaling-stroke"/><line class="alarmline over-b" x1="0" x2="200" vector-effect="non-scaling-stroke"/><polyline class="ink heel" points="" vector-effect="non-scaling-stroke"/>`, true),
    update(t) { t.heelHistory(); },
  },
};
function rose() {
  let marks = "";
  for (let a = 0; a < 360; a += 10) {
    const r = (a * Math.PI) / 180, x = Math.sin(r), y = -Math.cos(r), long = a % 30 === 0;
    marks += `<line class="dim" x1="${50 + (long ? 36 : 40) * x}" y1="${50 + (long ? 36 : 40) * y}" x2="${50 + 45 * x}" y2="${50 + 45 * y}"/>`;
  }
  const label = (text, a) => { const r = (a * Math.PI) / 180; return `<text x="${50 + 29 * Math.sin(r) - 3}" y="${50 - 29 * Math.cos(r) + 3}" ${text === "N" ? 'class="accent"' : ""}>${text}</text>`; };
  return `<g class="needle rose">${marks}${label("N", 0)}${label("E", 90)}${label("S", 180)}${label("W", 270)}</g>` +
    `<path class="accent" d="M50 2 L54 10 L46 10 Z"/>`;
}
function astern() {
  return `<line class="dim" x1="10" y1="70" x2="90" y2="70"/>` +
    `<g class="needle limit-a"><line class="alarmline" x1="50" y1="70" x2="50" y2="8"/></g>` +
    `<g class="needle limit-b"><line class="alarmline" x1="50" y1="70" x2="50" y2="8"/></g>` +
    `<g class="needle hull"><path class="ink" stroke-width="2" d="M30 62 L70 62 L64 76 L36 76 Z"/><line class="ink" stroke-width="2" x1="50" y1="62" x2="50" y2="12"/><line class="ink" x1="48" y1="76" x2="48" y2="90"/></g>` +
    `<g class="needle mean-mark"><path class="accent" d="M50 4 L53 10 L47 10 Z"/></g>`;
}
function side() {
  return `<line class="dim" x1="5" y1="60" x2="95" y2="60"/>` +
    `<g class="needle side"><path class="ink" stroke-width="2" d="M12 56 L88 56 L80 66 L22 66 Z"/><line class="ink" stroke-width="2" x1="45" y1="56" x2="45" y2="14"/><text x="80" y="52">bow</text></g>`;
}

// ---- Heel mean and the server's history --------------------------------------------------------------------------

const heelSamples = []; // [t, degrees], the last 30 s
function meanHeel() {
  const cut = now() - 30;
  while (heelSamples.length && heelSamples[0][0] < cut) heelSamples.shift();
  if (heelSamples.length === 0) return null;
  return heelSamples.reduce((s, x) => s + x[1], 0) / heelSamples.length;
}
let history = { windInterval: 10, speedTrue: [], directionTrue: [], roll: [], heelAlarm: {} };
async function fetchHistory() {
  try {
    const response = await fetch("/telltale/v1/history", { cache: "no-store" });
    if (response.ok) history = await response.json();
  } catch (e) { }
}

// ---- Tiles: building and updating ------------------------------------------------------------------------------

function settingsOf(id) {
  const spec = INSTRUMENTS[id];
  const s = Object.assign({ unit: spec.defaultUnit, decimals: spec.decimals, smoothing: 0, reference: "true", window: 30 },
    load("settings." + id, {}));
  return s;
}
const smoothers = new Map();
function smooth(key, value, seconds, angular) {
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

class Tile {
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
    const n = Math.round((Number(this.settings.window) * 60) / (history.windInterval || 10));
    const speeds = history.speedTrue.slice(-n), directions = history.directionTrue.slice(-n);
    const unit = this.settings.unit in UNITS.speed ? this.settings.unit : "kn";
    const shown = speeds.map(v => (v === null ? null : convert("speed", unit, v)));
    const present = shown.filter(v => v !== null);
    this.setValue("tws-range", present.length ? `${fixed(Math.min(...present), this.decimals)}–${fixed(Math.max(...present), this.decimals)}` : null,
      false, unitLabel("speed", unit) + ` (${this.settings.window} min)`);
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
    const roll = history.roll.map(v => (v === null ? null : v * DEG));
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
  update() { try { this.spec.update(this); } catch (e) { console.error(e); } }
}
function plot(line, values, n, top, bottom) {
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

// ---- The page: layouts, swipes, dialogs ----------------------------------------------------------------------

let current = Math.min(load("layout", 0), layouts().length - 1);
let tiles = [];
const page = document.getElementById("page");
function show(index, direction) {
  const all = layouts();
  current = (index + all.length) % all.length;
  save("layout", current);
  const layout = all[current];
  page.replaceChildren();
  tiles = layout.tiles.filter(id => INSTRUMENTS[id]).map(id => new Tile(id));
  for (const t of tiles) page.appendChild(t.element);
  document.getElementById("layout-name").textContent = layout.name;
  const dots = document.getElementById("dots");
  dots.replaceChildren(...all.map((_, i) => { const d = document.createElement("span"); if (i === current) d.className = "on"; return d; }));
  if (direction) toast((direction < 0 ? "◀ " : "") + layout.name + (direction > 0 ? " ▶" : ""));
  render();
}
let toastTimer = null;
function toast(text) {
  const t = document.getElementById("toast");
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 900);
}
function render() { for (const t of tiles) t.update(); renderAlarms(); }

// Swipes: a horizontal drag of 50 px or more, mostly sideways. Double taps: two within 350 ms on one tile.
const main = document.getElementById("pages");
let down = null, lastTap = { id: null, at: 0 };
main.addEventListener("pointerdown", e => { down = { x: e.clientX, y: e.clientY, at: now() }; });
main.addEventListener("pointerup", e => {
  if (!down) return;
  const dx = e.clientX - down.x, dy = e.clientY - down.y;
  down = null;
  if (Math.abs(dx) >= 50 && Math.abs(dx) > 1.5 * Math.abs(dy)) { show(current + (dx < 0 ? 1 : -1), dx < 0 ? 1 : -1); return; }
  if (Math.abs(dx) < 10 && Math.abs(dy) < 10) {
    const tile = e.target.closest(".tile");
    if (!tile || e.target.closest("button")) return;
    if (lastTap.id === tile.dataset.id && now() - lastTap.at < 0.35) { lastTap = { id: null, at: 0 }; openSettings(tile.dataset.id); }
    else lastTap = { id: tile.dataset.id, at: now() };
  }
});
main.addEventListener("pointercancel", () => { down = null; });
document.addEventListener("keydown", e => {
  if (document.querySelector("dialog[open]")) return;
  if (e.key === "ArrowRight") show(current + 1, 1);
  if (e.key === "ArrowLeft") show(current - 1, -1);
});
main.addEventListener("click", e => {
  const button = e.target.closest("button[data-race]");
  if (button) command("telltale/race/command", button.dataset.race);
});

async function command(path, value) {
  try {
    const response = await fetch("/signalk/v1/api/vessels/self/" + path, {
      method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ value }) });
    if (!response.ok) toast("Not allowed from here");
  } catch (e) { toast("No connection"); }
}

function openSettings(id) {
  const spec = INSTRUMENTS[id], s = settingsOf(id);
  document.getElementById("settings-title").textContent = spec.title;
  const form = document.getElementById("settings-form");
  const select = (name, label, options, value) => `<label>${label} <select name="${name}">` +
    options.map(([v, text]) => `<option value="${v}"${String(v) === String(value) ? " selected" : ""}>${text}</option>`).join("") + `</select></label>`;
  let html = "";
  if (spec.units) html += select("unit", "Units", Object.keys(UNITS[spec.units]).map(u => [u, u]), s.unit);
  if (spec.reference) html += select("reference", "North", [["true", "True"], ["magnetic", "Magnetic"]], s.reference);
  if (spec.window) html += select("window", "Window", [[10, "10 min"], [30, "30 min"], [60, "60 min"]], s.window);
  html += select("smoothing", "Smoothing", [[0, "Off"], [2, "2 s"], [5, "5 s"], [10, "10 s"]], s.smoothing);
  html += select("decimals", "Decimals", [[0, "0"], [1, "1"], [2, "2"]], s.decimals);
  html += `<p><button value="save" id="settings-save">Save</button> <button value="cancel">Cancel</button> <button value="reset">Defaults</button></p>`;
  form.innerHTML = html;
  const dialog = document.getElementById("settings");
  dialog.onclose = () => {
    if (dialog.returnValue === "save") {
      const chosen = {};
      for (const field of form.querySelectorAll("select")) chosen[field.name] = field.value;
      save("settings." + id, chosen);
    } else if (dialog.returnValue === "reset") {
      try { localStorage.removeItem("telltale.settings." + id); } catch (e) { }
    }
    for (const t of tiles) t.refresh();
    render();
  };
  dialog.showModal();
}

document.getElementById("menu-button").onclick = () => document.getElementById("menu").showModal();
document.getElementById("menu-close").onclick = () => document.getElementById("menu").close();
for (const b of document.querySelectorAll("[data-theme]")) b.onclick = () => theme(b.dataset.theme);
function theme(name) {
  document.body.className = "theme-" + name;
  save("theme", name);
  const colour = getComputedStyle(document.body).getPropertyValue("--bg").trim();
  document.querySelector('meta[name="theme-color"]').setAttribute("content", colour);
}

// The layout editor: the user's own layouts, after the presets, kept in the browser.
const editor = document.getElementById("editor");
let editing = null;
function editorFill() {
  const own = load("layouts", []);
  const pick = document.getElementById("editor-layout");
  pick.replaceChildren(...own.map((l, i) => new Option(l.name, i)));
  if (editing === null && own.length) editing = { index: 0, ...own[0] };
  if (editing) { pick.value = editing.index; document.getElementById("editor-name").value = editing.name; }
  const list = document.getElementById("editor-tiles");
  list.replaceChildren(...(editing ? editing.tiles : []).map((id, i) => {
    const li = document.createElement("li");
    li.textContent = INSTRUMENTS[id].title;
    for (const [label, move] of [["↑", -1], ["↓", 1], ["✕", 0]]) {
      const b = document.createElement("button");
      b.textContent = label;
      b.onclick = () => {
        if (move === 0) editing.tiles.splice(i, 1);
        else if (i + move >= 0 && i + move < editing.tiles.length) [editing.tiles[i], editing.tiles[i + move]] = [editing.tiles[i + move], editing.tiles[i]];
        editorFill();
      };
      li.appendChild(b);
    }
    return li;
  }));
  document.getElementById("editor-add").replaceChildren(...Object.keys(INSTRUMENTS).map(id => new Option(INSTRUMENTS[id].title, id)));
}
document.getElementById("edit-layouts").onclick = () => { document.getElementById("menu").close(); editing = null; editorFill(); editor.showModal(); };
document.getElementById("editor-layout").onchange = e => { const own = load("layouts", []); const i = Number(e.target.value); editing = { index: i, ...own[i] }; editorFill(); };
document.getElementById("editor-new").onclick = () => {
  const own = load("layouts", []);
  editing = { index: own.length, name: "Layout " + (own.length + 1), tiles: ["aw", "speed"] };
  own.push({ name: editing.name, tiles: editing.tiles.slice() });
  save("layouts", own);
  editorFill();
};
document.getElementById("editor-add-button").onclick = () => { if (editing) { editing.tiles.push(document.getElementById("editor-add").value); editorFill(); } };
document.getElementById("editor-save").onclick = () => {
  if (!editing) return;
  const own = load("layouts", []);
  own[editing.index] = { name: document.getElementById("editor-name").value.trim() || "Layout", tiles: editing.tiles.slice() };
  save("layouts", own);
  editor.close();
  show(PRESETS.length + editing.index, 1);
};
document.getElementById("editor-delete").onclick = () => {
  if (!editing) return;
  const own = load("layouts", []);
  own.splice(editing.index, 1);
  save("layouts", own);
  editing = null;
  editorFill();
  show(Math.min(current, layouts().length - 1));
};
document.getElementById("editor-close").onclick = () => editor.close();
document.getElementById("editor-name").oninput = e => { if (editing) editing.name = e.target.value; };

// ---- Alarms: Signal K notifications, acknowledged from here ------------------------------------------------------

function renderAlarms() {
  const box = document.getElementById("alarms");
  const active = [];
  for (const [path, sources] of store) {
    if (!path.startsWith("notifications.")) continue;
    for (const entry of sources.values()) {
      const n = entry.value;
      if (n && typeof n === "object" && n.state && n.state !== "normal") active.push({ path, n });
    }
  }
  box.hidden = active.length === 0;
  const key = active.map(a => a.path + a.n.state).join();
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren(...active.map(({ path, n }) => {
    const row = document.createElement("div");
    row.textContent = (n.state === "alarm" || n.state === "emergency" ? "⚠ " : "") + (n.message || path);
    if (n.state === "alarm" || n.state === "emergency") {
      const b = document.createElement("button");
      b.textContent = "Acknowledge";
      b.onclick = () => command(path.split(".").join("/"), "acknowledge");
      row.appendChild(b);
    }
    return row;
  }));
}

// ---- The connection ----------------------------------------------------------------------------------------------

let connected = false, socket = null, lastMessage = 0, retry = 1, framePending = false;
function setConnected(up, text) {
  connected = up;
  const c = document.getElementById("connection");
  c.textContent = text;
  c.classList.toggle("down", !up);
  render();
}
function connect() {
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/signalk/v1/stream?subscribe=self";
  try { socket = new WebSocket(url); } catch (e) { setTimeout(connect, 1000); return; }
  socket.onopen = () => { retry = 1; lastMessage = now(); setConnected(true, "live"); fetchHistory(); };
  socket.onmessage = event => {
    lastMessage = now();
    // Shown at the next frame (the 4 Hz redraw covers a tab in the background, where frames stop).
    if (!framePending) { framePending = true; requestAnimationFrame(() => { framePending = false; render(); }); }
    let message;
    try { message = JSON.parse(event.data); } catch (e) { return; }
    for (const update of message.updates || []) {
      const source = update.$source || "?";
      for (const item of update.values || []) put(item.path, source, item.value);
    }
  };
  socket.onclose = () => {
    socket = null;
    // Values kept but greyed: nothing is shown as current without a connection.
    setConnected(false, "disconnected: reconnecting…");
    setTimeout(connect, retry * 1000);
    retry = Math.min(5, retry + 1);
  };
}
// A silent link (Wi-Fi out of range) sends no close: five seconds without a message is a lost connection too.
setInterval(() => { if (socket && connected && now() - lastMessage > 5) { setConnected(false, "no data: reconnecting…"); socket.close(); } }, 1000);
// A sample a second for the sparklines and the heel mean.
setInterval(() => {
  const t = now();
  for (const path of ["navigation.speedThroughWater", "environment.depth.belowTransducer", "environment.depth.belowSurface", "performance.velocityMadeGood"]) {
    const r = number(path);
    if (!r || r.stale) continue;
    const trace = traces.get(path) || [];
    trace.push([t, r.value]);
    while (trace.length && trace[0][0] < t - 180) trace.shift();
    traces.set(path, trace);
  }
  const attitude = reading("navigation.attitude");
  if (attitude && !attitude.stale && typeof attitude.value.roll === "number") heelSamples.push([t, attitude.value.roll * DEG]);
}, 1000);
setInterval(render, 250);
setInterval(() => { if (connected) fetchHistory(); }, 10000);

theme(load("theme", "day"));
show(current);
connect();
