// The forecast anywhere (#42): a tap on the chart shows a summary of the forecast there (wind, gust, pressure, rain,
// cloud, now and the next hours, with its run), from Signal K's weather API; its button opens the meteogram there
// for as long as the forecasts on board reach. Outside every forecast it says which areas they cover. Loaded on the
// first tap, not with the first page.
import { fetchWeather, meteogramSVG, weatherGrids } from "./weather.js";
import { barb, compass, DEG, fixed, HOUR, hhmm, KNOTS } from "./units.js";

const style = document.createElement("style");
style.textContent = `
.forecast-here table { border-collapse: collapse; font-size: 14px; }
.forecast-here td, .forecast-here th { padding: 1px 4px; text-align: right; white-space: nowrap; }
.forecast-here p { margin: .3em 0 0; font-size: 12px; }
.forecast-here button { font-size: 14px; min-height: 32px; }
.forecast-sheet { position: absolute; left: 4px; right: 4px; bottom: 4px; z-index: 1000; background: var(--bg);
  color: var(--fg); border: 1px solid var(--line); border-radius: 6px; padding: 6px; max-height: 70%; overflow: auto; }
.forecast-sheet > .forecast-close { float: right; font-size: 20px; min-width: 44px; min-height: 44px; background: none;
  color: var(--fg); border: 0; }
.forecast-here td svg line, .forecast-here td svg circle { stroke: var(--fg); stroke-width: 2; }
.forecast-here td svg path { fill: var(--fg); }
.forecast-mark { stroke: var(--accent); }
.forecast-detail-head { display: flex; justify-content: space-between; align-items: center; font-size: 15px; }
.forecast-detail-head button { font-size: 20px; min-width: 44px; min-height: 44px; background: none; color: var(--fg); border: 0; }
.forecast-detail svg.meteogram { width: 100%; height: auto; font-size: 14px; }`;
document.head.appendChild(style);


// Signal K's point forecasts (/signalk/v2/api/weather/forecasts/point) as the weather page's samples.
export function pointSamples(answer) {
  return (Array.isArray(answer) ? answer : []).map(p => {
    const wind = p.wind || {}, outside = p.outside || {};
    const run = /run (\S+)/.exec(p.description || "");
    return {
      time: Date.parse(p.date) / 1000, run: run ? Date.parse(run[1]) / 1000 : null,
      windSpeed: typeof wind.speedTrue === "number" ? wind.speedTrue : null,
      windDirection: typeof wind.directionTrue === "number" ? wind.directionTrue * DEG : null,
      gust: typeof wind.gust === "number" ? wind.gust : null,
      pressure: typeof outside.pressure === "number" ? outside.pressure : null,
      precipitation: typeof outside.precipitationVolume === "number" ? outside.precipitationVolume * 1000 : null,
      cloud: typeof outside.cloudCover === "number" ? outside.cloudCover * 100 : null,
    };
  }).filter(s => isFinite(s.time) && (s.windSpeed !== null || s.pressure !== null));
}

function place(lat, lon) {
  const part = (v, pos, neg) => `${Math.abs(v).toFixed(3)}°${v >= 0 ? pos : neg}`;
  return `${part(lat, "N", "S")} ${part(lon, "E", "W")}`;
}

// The hours a summary shows: now, then the samples nearest +3, +6, +12 and +24 h.
export function summaryRows(samples) {
  if (!samples.length) return [];
  const t0 = samples[0].time, rows = [samples[0]];
  for (const h of [3, 6, 12, 24]) {
    const want = t0 + h * HOUR;
    const best = samples.reduce((a, s) => (Math.abs(s.time - want) < Math.abs(a.time - want) ? s : a), samples[0]);
    if (!rows.includes(best) && Math.abs(best.time - want) <= 3 * HOUR) rows.push(best);
  }
  return rows;
}

function summaryHTML(lat, lon, samples, grids) {
  if (!samples.length) {
    const areas = (grids || []).filter(g => g.area).map(g => g.global ? `${g.label}: the whole world` :
      `${g.label}: ${g.area[0].toFixed(1)}° to ${g.area[2].toFixed(1)}° N, ${g.area[1].toFixed(1)}° to ${g.area[3].toFixed(1)}° E`);
    return `<div class="forecast-here" data-none="1"><b>No forecast here</b> <span class="dim">${place(lat, lon)}</span>` +
      `<p>${areas.length ? "The forecasts on board cover " + areas.join("; ") + "." : "No forecast on board: send a GRIB file on the Weather layout."}</p></div>`;
  }
  const rows = summaryRows(samples).map(s => {
    const kn = s.windSpeed === null ? null : s.windSpeed * KNOTS;
    return `<tr data-time="${s.time}"><td>${hhmm(s.time)}</td>` +
      `<td><svg viewBox="-20 -20 40 40" width="28" height="28">${kn === null ? "" : barb(kn, s.windDirection)}</svg></td>` +
      `<td class="wind" data-kn="${kn === null ? "" : kn.toFixed(1)}">${s.windDirection === null ? "" : compass(s.windDirection)} ` +
      `${kn === null ? "—" : fixed(kn, 0)}${s.gust === null ? "" : "–" + fixed(s.gust * KNOTS, 0)} kn</td>` +
      `<td class="hpa">${s.pressure === null ? "—" : fixed(s.pressure / 100, 0)}</td>` +
      `<td class="rain">${s.precipitation === null ? "—" : fixed(s.precipitation, 1)}</td>` +
      `<td class="cloud">${s.cloud === null ? "—" : fixed(s.cloud, 0) + "%"}</td></tr>`;
  }).join("");
  const run = samples[0].run ? new Date(samples[0].run * 1000).toUTCString().slice(5, 22) + "Z" : "";
  return `<div class="forecast-here" data-lat="${lat}" data-lon="${lon}"><b>Forecast here</b> ` +
    `<span class="dim">${place(lat, lon)}</span><table><thead><tr><th></th><th></th><th>Wind</th><th>hPa</th>` +
    `<th>mm/h</th><th>Cloud</th></tr></thead><tbody>${rows}</tbody></table>` +
    `<p class="dim">GRIB run ${run}, from the forecasts on board · <button class="forecast-more">Meteogram ›</button></p></div>`;
}

// The sheet at the foot of the chart (over the map, never under the chart's buttons), the place marked on the map.
const shown = { sheet: null, mark: null };

function closeSheet(map) {
  if (shown.sheet) shown.sheet.remove();
  if (shown.mark) map.removeLayer(shown.mark);
  shown.sheet = shown.mark = null;
}

function sheetFor(map) {
  closeSheet(map);
  const holder = map.getContainer().parentElement || document.body;
  const sheet = document.createElement("div");
  sheet.className = "forecast-sheet";
  L.DomEvent.disableClickPropagation(sheet);
  L.DomEvent.disableScrollPropagation(sheet);
  holder.appendChild(sheet);
  shown.sheet = sheet;
  return sheet;
}

// The summary at a place; its button turns it into the meteogram there for as long as the forecasts on board reach.
export async function showForecastAt(map, lat, lon) {
  let answer = [];
  try {
    const r = await fetch(`/signalk/v2/api/weather/forecasts/point?lat=${lat}&lon=${lon}&count=120`, { cache: "no-store" });
    if (r.ok) answer = await r.json();
  } catch (e) { }
  const samples = pointSamples(answer);
  if (!samples.length) await fetchWeather(true);
  const sheet = sheetFor(map);
  shown.mark = L.circleMarker([lat, lon], { radius: 7, weight: 2, fill: false, interactive: false, className: "forecast-mark" })
    .addTo(map);
  sheet.innerHTML = `<button class="forecast-close" aria-label="Close">✕</button>` + summaryHTML(lat, lon, samples, weatherGrids());
  sheet.querySelector(".forecast-close").onclick = () => closeSheet(map);
  const more = sheet.querySelector(".forecast-more");
  if (more) more.onclick = () => showMeteogram(map, sheet, lat, lon, samples);
}

function showMeteogram(map, sheet, lat, lon, samples) {
  const span = Math.max(HOUR, samples[samples.length - 1].time - samples[0].time);
  sheet.innerHTML = `<div class="forecast-detail"><div class="forecast-detail-head"><b>Forecast at ${place(lat, lon)}</b>` +
    `<button class="forecast-close" aria-label="Close">✕</button></div>` +
    `<svg class="graphic meteogram" viewBox="0 0 480 200" aria-label="Meteogram">${meteogramSVG(samples, span)}</svg>` +
    `<p class="dim">${Math.round(span / HOUR)} hours, as far as the forecasts on board reach</p></div>`;
  sheet.querySelector(".forecast-close").onclick = () => closeSheet(map);
}
