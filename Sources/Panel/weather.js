// Weather: the forecasts on board (GRIB files), the meteogram at the boat, the forecast along the route, the
// barograph, a GRIB sent from the phone, and the forecast wind on the chart
import { authorised, refused } from "./access.js";
import { chartOverlayMakers } from "./chart.js";
import { INSTRUMENTS, numberLine, svg } from "./instruments.js";
import { changed, now, number, reading, windIsForecast } from "./store.js";
import { column, values as historyValues } from "./trends.js";
import { toast } from "./ui.js";
import { barb, beaufort, compass, DEG, fixed, HOUR, hhmm, KNOTS, windText } from "./units.js";

// The weather page's data (/telltale/v1/weather), read every 30 s while a weather tile is shown.
let weather = { grids: [], meteogram: [], route: [], barograph: [], time: null };
export const WEATHER_TILES = ["weathernow", "meteogram", "routeweather", "barograph", "forecasts", "tw"];
// Whether a weather tile is shown (the page says), so the page's data is worth reading every 30 s.
let wanted = false;
// `soon`: read now (a weather tile shown); the true wind tile's Sky alone waits for the 30 s round, so the first page
// does not fetch the weather page's data for one line.
export function wantWeather(on, soon = on) { wanted = on; if (soon) fetchWeather(); }
export async function fetchWeather(force) {
  if (!force && !wanted) return;
  try {
    const response = await fetch("/telltale/v1/weather", { cache: "no-store" });
    if (response.ok) { weather = await response.json(); weather.fetched = now(); changed(); }
  } catch (e) { }
}
// The boat's clock (UNIX seconds): the GNSS time when a fix gives it (a replay's is its log's), else the phone's.
export function boatTime() {
  const r = reading("navigation.datetime");
  const t = r && typeof r.value === "string" ? Date.parse(r.value) : NaN;
  return isFinite(t) ? t / 1000 + (now() - r.at) : Date.now() / 1000;
}

// The weather's tiles, among the instruments.
Object.assign(INSTRUMENTS, {
  weathernow: {
    title: "Weather now", units: "speed", defaultUnit: "kn", decimals: 0,
    html: () => `<div class="numbers">${numberLine("wn-measured", "Measured")}${numberLine("wn-gust", "Gust")}` +
      `${numberLine("wn-forecast", "Forecast")}${numberLine("wn-fgust", "F. gust")}${numberLine("wn-pressure", "Baro")}` +
      `${numberLine("wn-tendency", "3 h")}${numberLine("wn-force", "Force")}</div>`,
    update(t) {
      const forecastWind = windIsForecast();
      const speed = forecastWind ? null : number("environment.wind.speedTrue");
      const direction = forecastWind ? null : number("environment.wind.directionTrue");
      t.setValue("wn-measured", speed ? compass(direction && direction.value * DEG) + " " + fixed(speed.value * KNOTS, t.decimals) : null,
        speed && speed.stale, "kn");
      const gust = number("environment.wind.gust");
      t.setValue("wn-gust", gust ? fixed(gust.value * KNOTS, t.decimals) : null, gust && gust.stale, "kn");
      const f = weather.meteogram && weather.meteogram[0];
      t.setValue("wn-forecast", f ? windText(f).replace(" kn", "") : null, false, "kn");
      t.setValue("wn-fgust", f && f.gust !== null ? fixed(f.gust * KNOTS, t.decimals) : null, false, "kn");
      const pressure = number("environment.outside.pressure");
      const shown = pressure ? pressure.value : f && f.pressure;
      t.setValue("wn-pressure", shown ? fixed(shown / 100, 1) : null, pressure && pressure.stale, pressure ? "hPa" : "hPa F");
      const change = number("environment.outside.pressureChange"), words = reading("telltale.weather.tendency");
      t.setValue("wn-tendency", change ? (change.value > 0 ? "+" : "") + fixed(change.value / 100, 1) + " " + (words ? words.value : "") : null,
        change && change.stale, "hPa");
      const force = speed ? speed.value : f && f.windSpeed;
      t.setValue("wn-force", force !== null && force !== undefined ? String(beaufort(force)) : null, false, speed ? "Bft" : "Bft F");
    },
  },
  meteogram: {
    // 48 hours at the boat from the forecast: wind and gusts (kn), where it comes from, pressure (hPa), rain (mm/h).
    title: "Forecast at the boat", wide: true, decimals: 0,
    html: () => `<div class="numbers">${numberLine("mg-run", "Run")}</div>` +
      `<svg class="graphic meteogram" viewBox="0 0 480 200" aria-label="Meteogram"></svg>`,
    update(t) { drawMeteogram(t); },
  },
  routeweather: {
    title: "Forecast on the route", wide: true,
    html: () => `<table class="route-weather"><thead><tr><th>Mark</th><th>ETA</th><th>Wind</th><th>Gust</th><th>hPa</th>` +
      `<th>Rain</th></tr></thead><tbody></tbody></table>`,
    update(t) {
      const body = t.element.querySelector("tbody");
      const key = JSON.stringify(weather.route);
      if (body.dataset.key === key) return;
      body.dataset.key = key;
      if (!weather.route || weather.route.length === 0) {
        body.innerHTML = `<tr><td colspan="6" class="small">No route followed, or no forecast for it</td></tr>`;
        return;
      }
      body.replaceChildren(...weather.route.map(w => {
        const row = document.createElement("tr"), f = w.forecast;
        const cells = [w.name, w.arrival ? hhmm(w.arrival) : "—", f ? windText(f) : "—",
          f && f.gust !== null ? fixed(f.gust * KNOTS, 0) : "—", f && f.pressure ? fixed(f.pressure / 100, 0) : "—",
          f && f.precipitation !== null ? fixed(f.precipitation, 1) : "—"];
        for (const text of cells) { const cell = document.createElement("td"); cell.textContent = text; row.appendChild(cell); }
        return row;
      }));
    },
  },
  barograph: {
    title: "Barograph", wide: true, decimals: 1,
    html: () => `<div class="numbers">${numberLine("bg-now", "Now")}${numberLine("bg-trend", "3 h")}</div>` +
      svg("0 0 200 100", `<polyline class="ink baro" points="" vector-effect="non-scaling-stroke"/>`, true),
    update(t) {
      const pressure = number("environment.outside.pressure");
      t.setValue("bg-now", pressure ? fixed(pressure.value / 100, 1) : null, pressure && pressure.stale, "hPa");
      const words = reading("telltale.weather.tendency");
      t.setValue("bg-trend", words ? words.value : null, words && words.stale, "");
      // The last 24 hours from the history on the card (it survives a restart); the page's own barograph without it.
      const kept = column(historyValues("environment.outside.pressure", "duration=86400", 300, 120), 0).filter(x => x[1] !== null);
      const newest = kept.length ? kept[kept.length - 1][0] : 0;
      const points = kept.length >= 2 ? kept.map(([time, pa]) => [(newest - time) / 60, pa]) : weather.barograph || [];
      const line = t.element.querySelector("polyline.baro");
      if (!pressure && points.length < 2) t.setValue("bg-trend", "no barometer heard", false, "");
      if (points.length < 2) { line.setAttribute("points", ""); return; }
      const values = points.map(p => p[1]);
      const low = Math.min(...values) - 50, high = Math.max(...values) + 50;
      line.setAttribute("points", points.map(([ago, pa]) =>
        `${(200 - ago / (24 * 60) * 200).toFixed(1)},${(100 - (pa - low) / (high - low) * 100).toFixed(1)}`).join(" "));
    },
  },
  forecasts: {
    title: "Forecasts on board", wide: true,
    html: () => `<div class="forecast-list small"></div><p><label class="button">Add a GRIB file…` +
      `<input type="file" class="grib-file" hidden></label> <span class="grib-progress small"></span></p>`,
    update(t) {
      const list = t.element.querySelector(".forecast-list");
      const key = JSON.stringify(weather.grids);
      if (list.dataset.key === key) return;
      list.dataset.key = key;
      if (!weather.grids || weather.grids.length === 0) { list.textContent = "No forecast on board: add a GRIB file."; return; }
      list.replaceChildren(...weather.grids.map(g => {
        const row = document.createElement("div");
        row.textContent = `${g.label}: run ${new Date(g.run * 1000).toUTCString().slice(5, 22)}Z, to ` +
          `${new Date(g.end * 1000).toUTCString().slice(5, 22)}Z — ${g.use}`;
        if (g.used) row.className = "used";
        return row;
      }));
      const input = t.element.querySelector(".grib-file");
      input.onchange = () => { if (input.files[0]) uploadGRIB(input.files[0], t.element.querySelector(".grib-progress")); };
    },
  },
});

// The sky on the true wind tile, from the forecast at the boat now, as the dinghy app said it (the force is the line
// above): windy from force 6, else rain, else the cloud in a word, then the cloud cover ("windy 70%"). Short, to fit
// a 360 px phone's tile. Nothing without a forecast at the boat.
export function skyWords(f) {
  if (!f) return null;
  const c = f.cloud, cloud = c !== null && c !== undefined;
  const word = f.windSpeed && beaufort(f.windSpeed) >= 6 ? "windy" : f.precipitation >= 0.5 ? "rain" :
    !cloud ? null : c < 15 ? "clear" : c < 45 ? "fair" : c < 80 ? "cloudy" : "overcast";
  if (!word) return null;
  return word + (cloud ? " " + Math.round(c) + "%" : "");
}
if (INSTRUMENTS.tw) {
  const { html, update } = INSTRUMENTS.tw;
  // The line at the end of the numbers, before the dial.
  INSTRUMENTS.tw.html = () => html().replace(/<\/div>(?=<svg)/, numberLine("sky", "Sky") + "</div>");
  INSTRUMENTS.tw.update = t => { update(t); t.setValue("sky", skyWords(weather.meteogram && weather.meteogram[0]), false, ""); };
}

// The wind tiles marked while the wind is the forecast's.
for (const id of ["aw", "tw", "windhistory", "polar", "layline"]) if (INSTRUMENTS[id]) INSTRUMENTS[id].wind = true;

function drawMeteogram(t) {
  const graphic = t.element.querySelector("svg.meteogram");
  const samples = (weather.meteogram || []).filter(s => s.windSpeed !== null);
  const key = JSON.stringify(samples.map(s => [s.time, s.windSpeed]));
  if (graphic.dataset.key === key) return;
  graphic.dataset.key = key;
  t.setValue("mg-run", samples.length ? new Date(samples[0].run * 1000).toUTCString().slice(5, 22) + "Z" : null, false, "");
  if (samples.length < 2) { graphic.innerHTML = `<text x="240" y="100" text-anchor="middle" class="dim">No forecast at the boat</text>`; return; }
  graphic.innerHTML = meteogramSVG(samples, 48 * HOUR);
}

// A meteogram's inside (a 480 × 200 SVG): wind and gusts (kn), arrows where it comes from, pressure (hPa), rain
// (mm/h), over `span` seconds from the first sample (the weather page's samples: degrees, m/s, Pa, mm/h).
export function meteogramSVG(samples, span) {
  const W = 480, top = 30, bottom = 170, t0 = samples[0].time;
  const x = time => ((time - t0) / span * (W - 40) + 20);
  const windMax = Math.max(10, ...samples.map(s => Math.max(s.windSpeed, s.gust || 0) * KNOTS)) * 1.15;
  const yWind = kn => bottom - kn / windMax * (bottom - top);
  const pressures = samples.map(s => s.pressure).filter(p => p !== null);
  const pLow = Math.min(...pressures, 1e9) - 100, pHigh = Math.max(...pressures, -1e9) + 100;
  const yPressure = pa => bottom - (pa - pLow) / (pHigh - pLow) * (bottom - top);
  let out = "";
  // Hours: a tick every 6 h of the phone's local time.
  const every = span > 96 * HOUR ? 24 * HOUR : span > 48 * HOUR ? 12 * HOUR : 6 * HOUR;
  const first = Math.ceil(t0 / every) * every;
  for (let h = first; h <= t0 + span; h += every) {
    out += `<line class="dim" x1="${x(h)}" y1="${top}" x2="${x(h)}" y2="${bottom}"/>` +
      `<text class="hour" data-time="${h}" x="${x(h)}" y="190" text-anchor="middle">${hhmm(h)}</text>`;
  }
  // Rain as bars from the foot, 10 mm/h to the full height.
  for (const s of samples) if (s.precipitation > 0.05) {
    const h = Math.min(1, s.precipitation / 10) * (bottom - top);
    out += `<rect class="rain" x="${x(s.time) - 3}" y="${bottom - h}" width="6" height="${h}"/>`;
  }
  const line = (cls, f) => `<polyline class="${cls}" fill="none" points="${samples.filter(s => f(s) !== null)
    .map(s => `${x(s.time).toFixed(1)},${f(s).toFixed(1)}`).join(" ")}"/>`;
  if (pressures.length) out += line("pressure", s => s.pressure === null ? null : yPressure(s.pressure));
  out += line("gust", s => s.gust === null ? null : yWind(s.gust * KNOTS));
  out += line("ink wind", s => yWind(s.windSpeed * KNOTS));
  // Where the wind comes from, along the top, an arrow a sample, with the speed.
  for (const s of samples) {
    out += `<g class="arrow" data-time="${s.time}" data-kn="${(s.windSpeed * KNOTS).toFixed(1)}" ` +
      `data-hpa="${s.pressure === null ? "" : (s.pressure / 100).toFixed(1)}" transform="translate(${x(s.time).toFixed(1)},14) ` +
      `rotate(${(s.windDirection + 180).toFixed(0)})"><path d="M0,-8 L3,2 L0,0 L-3,2 Z"/></g>`;
  }
  out += `<text class="dim" x="2" y="${top + 8}">${Math.round(windMax)} kn</text>`;
  if (pressures.length) out += `<text class="pressure-label" x="${W - 2}" y="${top + 8}" text-anchor="end">${fixed(pHigh / 100, 0)} hPa</text>`;
  return out;
}

// A GRIB file from the phone to the gateway, 16 KB a request (the server's bound on a request's body).
async function uploadGRIB(file, progress) {
  const name = file.name.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "") || "forecast.grb";
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (bytes.length > 32 * 1024 * 1024) { toast("A GRIB file of 32 MB at most"); return; }
  for (let offset = 0; offset < bytes.length; offset += 16384) {
    progress.textContent = `${Math.round(offset / bytes.length * 100)} %`;
    const piece = bytes.subarray(offset, Math.min(bytes.length, offset + 16384));
    let response;
    try {
      response = await fetch(`/telltale/v1/weather/grib?name=${encodeURIComponent(name)}&offset=${offset}&total=${bytes.length}`,
        { method: "PUT", headers: authorised({ "Content-Type": "application/octet-stream" }), body: piece });
    } catch (e) { progress.textContent = ""; toast("No connection"); return; }
    if (response.status === 401 || response.status === 403) { progress.textContent = ""; refused(); return; }
    if (response.status >= 300) {
      let message = ""; try { message = (await response.json()).message; } catch (e) { }
      progress.textContent = ""; toast(message || "Refused (" + response.status + ")"); return;
    }
  }
  progress.textContent = "sent: importing…";
  setTimeout(() => { progress.textContent = ""; fetchWeather(true); }, 8000);
}

// ---- The forecast wind on the chart: barbs at a chosen time ----------------------------------------------------

const windLayer = { group: null, hours: 0, control: null };
chartOverlayMakers.push(map => {
  windLayer.group = L.layerGroup();
  const refresh = () => { if (map.hasLayer(windLayer.group)) drawWindField(map); };
  map.on("moveend", refresh);
  map.on("overlayadd", e => {
    if (e.layer !== windLayer.group || windLayer.control) return;
    windLayer.control = timeControl(refresh).addTo(map);
    refresh();
  });
  map.on("overlayremove", e => {
    if (e.layer === windLayer.group && windLayer.control) { windLayer.control.remove(); windLayer.control = null; }
  });
  return ["Forecast wind", windLayer.group];
});
function timeControl(whenChanged) {
  const Control = L.Control.extend({
    onAdd() {
      const box = L.DomUtil.create("div", "chart-time");
      box.innerHTML = `<input type="range" min="0" max="48" step="1" value="${windLayer.hours}"> <span></span>`;
      const input = box.querySelector("input"), label = box.querySelector("span");
      const say = () => { label.textContent = "+" + windLayer.hours + " h " + hhmm(boatTime() + windLayer.hours * HOUR); };
      say();
      L.DomEvent.disableClickPropagation(box);
      input.oninput = () => { windLayer.hours = Number(input.value); say(); };
      input.onchange = whenChanged;
      return box;
    },
  });
  return new Control({ position: "bottomright" });
}
async function drawWindField(map) {
  const b = map.getBounds();
  const time = Math.round(boatTime() + windLayer.hours * HOUR);
  let field;
  try {
    const r = await fetch(`/telltale/v1/weather/field?time=${time}&south=${b.getSouth()}&west=${b.getWest()}` +
      `&north=${b.getNorth()}&east=${b.getEast()}`, { cache: "no-store" });
    if (!r.ok) return;
    field = await r.json();
  } catch (e) { return; }
  windLayer.group.clearLayers();
  for (const [lat, lon, speed, from] of field.points) {
    const knots = speed * KNOTS;
    L.marker([lat, lon], { interactive: false, keyboard: false, icon: L.divIcon({ className: "chart-barb",
      iconSize: [40, 40], iconAnchor: [20, 20], html: `<svg viewBox="-20 -20 40 40" width="40" height="40" ` +
        `data-kn="${knots.toFixed(1)}">${barb(knots, from)}</svg>` }) }).addTo(windLayer.group);
  }
}

// The forecasts read again every 30 s while a weather tile is shown.
export function startWeather() { setInterval(fetchWeather, 30000); }

// ---- The forecast anywhere: a tap on the chart (forecasthere.js, loaded on the first tap) ------------------------

export function weatherGrids() { return weather.grids; }
// A tap on the chart (not while a route is being drawn, not on a mark, a control or a popup) asks for the forecast.
// The map's own DOM clicks, as the route editor takes them (Leaflet's "click" can go unsaid after a tap in a popup).
chartOverlayMakers.push(map => {
  map.getContainer().addEventListener("click", e => {
    if (document.querySelector(".chart-plan-panel") || (map.dragging && map.dragging.moved())) return;
    if (e.target.closest && e.target.closest(".leaflet-marker-icon, .leaflet-control, .leaflet-popup, .leaflet-tooltip")) return;
    const at = map.mouseEventToLatLng(e);
    import("./forecasthere.js").then(m => m.showForecastAt(map, at.lat, at.lng));
  });
  return [null, null];
});
