// The instruments: each one's title, what its settings offer, its markup, and how it shows the current values on a
// tile (``Tile`` in tiles.js does the showing). Pure: markup as text, values from the store.
import { history, meanHeel } from "./history.js";
import { number, reading } from "./store.js";
import { beaufort, bearing, clock, DEG, fixed, signedAngle } from "./units.js";

export function svg(viewBox, inner, stretch) {
  return `<svg class="graphic" viewBox="${viewBox}"${stretch ? ' preserveAspectRatio="none"' : ""} aria-hidden="true">${inner}</svg>`;
}
export function dial(extra) {
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
export function arc(from, to, outer, inner) {
  const p = (a, r) => { const t = (a * Math.PI) / 180; return `${50 + r * Math.sin(t)} ${50 - r * Math.cos(t)}`; };
  return `M${p(from, outer)} A${outer} ${outer} 0 0 1 ${p(to, outer)} L${p(to, inner)} A${inner} ${inner} 0 0 0 ${p(from, inner)} Z`;
}
// The wind arrow: from the rim, where the wind comes from, pointing at the boat.
export function windArrow(cls) { return `<g class="needle ${cls}"><path class="accent" d="M50 30 L57 16 L52.5 16 L52.5 3 L47.5 3 L47.5 16 L43 16 Z"/></g>`; }
export function spark(cls) { return svg("0 0 100 50", `<polyline class="ink ${cls}" points="" stroke-width="1.5"/>`); }
export function numberLine(q, label) { return `<div class="line">${label} <b class="v" data-q="${q}">—</b><span class="unit" data-u="${q}"></span></div>`; }
export function big(q) { return `<div class="big"><span class="v" data-q="${q}">—</span><span class="unit" data-u="${q}"></span></div>`; }

// Each instrument: its title, what its settings offer, its markup, and how it shows the current values.
export const INSTRUMENTS = {
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
  ais: {
    title: "AIS traffic", units: "distance", defaultUnit: "NM", decimals: 2, wide: true,
    html: () => `<table class="traffic"><thead><tr><th>Ship</th><th>Range</th><th>Brg</th><th>CPA</th><th>TCPA</th></tr></thead>` +
      `<tbody></tbody></table>`,
    update(t) { t.traffic(); },
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
    // With the autopilot steering, "Tack now": lit once the layline is reached (within 10 s of it, or past it).
    html: () => `<div class="numbers">${big("lay")}${numberLine("laytime", "Time")}${numberLine("own", "Own")}` +
      `<button class="tack-now" data-tack-now hidden>Tack now</button></div>`,
    update(t) {
      const base = "navigation.racing.";
      const distance = number(base + "layline.distance");
      t.length("lay", distance, "distance");
      const time = number(base + "layline.time");
      t.text("laytime", time && clock(time.value).slice(1), time, "");
      t.length("own", number(base + "oppositeLayline.distance"), "distance");
      const pilot = reading("steering.autopilot.state"), twa = number("environment.wind.angleTrueWater");
      const button = t.element.querySelector("[data-tack-now]");
      button.hidden = !(pilot && !pilot.stale && pilot.value === "auto" && twa);
      if (twa) button.dataset.side = twa.value > 0 ? "starboard" : "port";
      button.classList.toggle("due", !!((time && time.value <= 10) || (distance && distance.value <= 0)));
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
    title: "Heel history", decimals: 0, wide: true, window: true, defaultWindow: 5,
    html: () => `<div class="numbers">${numberLine("heel-range", "Range")}</div>` +
      svg("0 0 200 100", `<line class="dim" x1="0" y1="50" x2="200" y2="50" vector-effect="non-scaling-stroke"/><line class="alarmline over-a" x1="0" x2="200" vector-effect="non-scaling-stroke"/><line class="alarmline over-b" x1="0" x2="200" vector-effect="non-scaling-stroke"/><polyline class="ink heel" points="" vector-effect="non-scaling-stroke"/>`, true),
    update(t) { t.heelHistory(); },
  },
  // The autopilot: its keys and whether the pilot took each command are in pilot.js, loaded when the tile is first
  // drawn (the first page stays small).
  pilot: {
    title: "Autopilot", wide: true, decimals: 0,
    html: () => `<div class="numbers pilot">—</div>`,
    update(t) { lazyPilot(t); },
  },
};
let pilotModule = null, pilotLoading = false;
function lazyPilot(t) {
  if (pilotModule) { pilotModule.render(t); return; }
  if (pilotLoading) return;
  pilotLoading = true;
  import("./pilot.js").then(m => { m.startPilot(document); pilotModule = m; });
}
export function rose() {
  let marks = "";
  for (let a = 0; a < 360; a += 10) {
    const r = (a * Math.PI) / 180, x = Math.sin(r), y = -Math.cos(r), long = a % 30 === 0;
    marks += `<line class="dim" x1="${50 + (long ? 36 : 40) * x}" y1="${50 + (long ? 36 : 40) * y}" x2="${50 + 45 * x}" y2="${50 + 45 * y}"/>`;
  }
  const label = (text, a) => { const r = (a * Math.PI) / 180; return `<text x="${50 + 29 * Math.sin(r) - 3}" y="${50 - 29 * Math.cos(r) + 3}" ${text === "N" ? 'class="accent"' : ""}>${text}</text>`; };
  return `<g class="needle rose">${marks}${label("N", 0)}${label("E", 90)}${label("S", 180)}${label("W", 270)}</g>` +
    `<path class="accent" d="M50 2 L54 10 L46 10 Z"/>`;
}
export function astern() {
  return `<line class="dim" x1="10" y1="70" x2="90" y2="70"/>` +
    `<g class="needle limit-a"><line class="alarmline" x1="50" y1="70" x2="50" y2="8"/></g>` +
    `<g class="needle limit-b"><line class="alarmline" x1="50" y1="70" x2="50" y2="8"/></g>` +
    `<g class="needle hull"><path class="ink" stroke-width="2" d="M30 62 L70 62 L64 76 L36 76 Z"/><line class="ink" stroke-width="2" x1="50" y1="62" x2="50" y2="12"/><line class="ink" x1="48" y1="76" x2="48" y2="90"/></g>` +
    `<g class="needle mean-mark"><path class="accent" d="M50 4 L53 10 L47 10 Z"/></g>`;
}
export function side() {
  return `<line class="dim" x1="5" y1="60" x2="95" y2="60"/>` +
    `<g class="needle side"><path class="ink" stroke-width="2" d="M12 56 L88 56 L80 66 L22 66 Z"/><line class="ink" stroke-width="2" x1="45" y1="56" x2="45" y2="14"/><text x="80" y="52">bow</text></g>`;
}
