// The tiles that draw from the history kept on the card (#40): boat speed, depth and the passage summary over a window
// the sailor chooses (10 minutes to 24 hours); the wind and heel history tiles and the barograph read it too (tiles.js,
// weather.js) once their window reaches past what the page keeps in memory.
import { INSTRUMENTS, numberLine, svg } from "./instruments.js";
import { plot } from "./tiles.js";
import { column, passage, PASSAGE_PATHS, resolution, values, windowLabel } from "./trends.js";
import { convert, fixed, NM, unitLabel, UNITS } from "./units.js";

function windowed(t, rows) {
  const minutes = Number(t.settings.window);
  return { minutes, seconds: resolution(minutes, rows), range: `duration=${minutes * 60}` };
}

// Hours and minutes: "5h07".
function span(seconds) {
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, "0")}`;
}

// The text of a passage's summary, line by line (shared with the chart's day track).
export function passageLines(summary, unit = "kn") {
  if (!summary) return null;
  const speed = v => (v === null ? "—" : `${fixed(convert("speed", unit, v), 1)} ${unitLabel("speed", unit)}`);
  const heel = summary.heel === null ? "—" : `${fixed(Math.abs(summary.heel), 0)}°${Math.abs(summary.heel) < 0.5 ? "" : summary.heel < 0 ? " P" : " S"}`;
  return {
    distance: `${fixed(summary.metres / NM, 1)} NM`,
    time: `${span(summary.seconds)} (${span(summary.moving)} moving)`,
    average: speed(summary.average),
    top: speed(summary.top),
    heel,
    wind: summary.wind ? `${fixed(convert("speed", unit, summary.wind[0]), 0)}–${fixed(convert("speed", unit, summary.wind[1]), 0)} ${unitLabel("speed", unit)}` : "—",
  };
}

Object.assign(INSTRUMENTS, {
  speedhistory: {
    title: "Speed history", window: true, defaultWindow: 60, units: "speed", defaultUnit: "kn", decimals: 1, wide: true,
    html: () => `<div class="numbers">${numberLine("stw-range", "STW")}${numberLine("sog-top", "SOG max")}</div>` +
      svg("0 0 200 100", `<polyline class="ink stw" points="" vector-effect="non-scaling-stroke"/><polyline class="dim sog" points="" vector-effect="non-scaling-stroke"/>`, true),
    update(t) {
      const w = windowed(t, 200);
      const answer = values("navigation.speedThroughWater,navigation.speedOverGround,navigation.speedOverGround:max", w.range, w.seconds);
      const unit = t.settings.unit in UNITS.speed ? t.settings.unit : "kn";
      const shown = i => column(answer, i).map(([, v]) => (v === null ? null : convert("speed", unit, v)));
      const stw = shown(0), sog = shown(1), top = shown(2).filter(v => v !== null);
      const present = stw.filter(v => v !== null);
      t.setValue("stw-range", present.length ? `${fixed(Math.min(...present), t.decimals)}–${fixed(Math.max(...present), t.decimals)}` : null,
        false, unitLabel("speed", unit) + ` (${windowLabel(w.minutes)})`);
      t.setValue("sog-top", top.length ? fixed(Math.max(...top), t.decimals) : null, false, unitLabel("speed", unit));
      const n = Math.round((w.minutes * 60) / w.seconds);
      plot(t.element.querySelector("polyline.stw"), stw, n, 4, 96);
      plot(t.element.querySelector("polyline.sog"), sog, n, 4, 96);
    },
  },
  depthhistory: {
    // The shallowest of each moment, deeper drawn lower.
    title: "Depth history", window: true, defaultWindow: 60, units: "depth", defaultUnit: "m", decimals: 1, wide: true,
    html: () => `<div class="numbers">${numberLine("depth-range", "Depth")}</div>` +
      svg("0 0 200 100", `<polyline class="ink depth" points="" vector-effect="non-scaling-stroke"/>`, true),
    update(t) {
      const w = windowed(t, 200);
      const answer = values("environment.depth.belowTransducer:min", w.range, w.seconds);
      const unit = UNITS.depth && t.settings.unit in UNITS.depth ? t.settings.unit : "m";
      const depth = column(answer, 0).map(([, v]) => (v === null ? null : convert("depth", unit, v)));
      const present = depth.filter(v => v !== null);
      t.setValue("depth-range", present.length ? `${fixed(Math.min(...present), t.decimals)}–${fixed(Math.max(...present), t.decimals)}` : null,
        false, unitLabel("depth", unit) + ` (${windowLabel(w.minutes)})`);
      plot(t.element.querySelector("polyline.depth"), depth.map(v => (v === null ? null : -v)), Math.round((w.minutes * 60) / w.seconds), 4, 96);
    },
  },
  passage: {
    title: "Passage", window: true, defaultWindow: 360, units: "speed", defaultUnit: "kn", decimals: 1,
    html: () => `<div class="numbers">${numberLine("p-distance", "Sailed")}${numberLine("p-time", "Time")}` +
      `${numberLine("p-average", "Average")}${numberLine("p-top", "Top")}${numberLine("p-heel", "Max heel")}` +
      `${numberLine("p-wind", "TWS")}</div>`,
    update(t) {
      const w = windowed(t, 2800);
      const summary = passage(values(PASSAGE_PATHS, w.range, Math.max(10, w.seconds), 60));
      const unit = t.settings.unit in UNITS.speed ? t.settings.unit : "kn";
      const lines = passageLines(summary, unit);
      t.setValue("p-distance", lines && lines.distance, false, ` (${windowLabel(w.minutes)})`);
      t.setValue("p-time", lines && lines.time, false, "");
      t.setValue("p-average", lines && lines.average, false, "");
      t.setValue("p-top", lines && lines.top, false, "");
      t.setValue("p-heel", lines && lines.heel, false, "");
      t.setValue("p-wind", lines && lines.wind, false, "");
    },
  },
});
