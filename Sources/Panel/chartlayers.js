// What the chart draws over the map: on each update the route followed with its XTE corridor, the laylines to the
// next mark, the start line, the AIS targets with their vectors; and the scale bar.
import { number, position } from "./store.js";
import { settingsOf } from "./tiles.js";
import { traffic } from "./traffic.js";
import { ahead, DEG, NM } from "./units.js";

// The layers of `chart` (chart.js's state) drawn again from the values now.
export function drawLayers(chart) {
  drawRoute(chart.layers.route, chart);
  drawLaylines(chart.layers.laylines);
  drawStartLine(chart.layers.line);
  drawTargets(chart.layers.targets, chart);
}

function drawRoute(group, chart) {
  group.clearLayers();
  const next = position("navigation.course.nextPoint.position") || position("navigation.courseGreatCircle.nextPoint.position");
  const previous = position("navigation.course.previousPoint.position") || position("navigation.courseGreatCircle.previousPoint.position");
  const feature = chart.route && chart.route.feature;
  if (feature && feature.geometry) {
    const points = feature.geometry.coordinates.map(p => [p[1], p[0]]);
    const names = (feature.properties && feature.properties.coordinatesMeta || []).map(m => m && m.name);
    L.polyline(points, { className: "chart-route" }).addTo(group);
    points.forEach((p, i) => {
      const isNext = next && Math.abs(p[0] - next[0]) < 1e-6 && Math.abs(p[1] - next[1]) < 1e-6;
      L.circleMarker(p, { radius: isNext ? 7 : 4, className: isNext ? "chart-waypoint next" : "chart-waypoint" })
        .bindTooltip(names[i] || String(i + 1), { permanent: true, direction: "right", className: "chart-label" }).addTo(group);
    });
  } else if (next && previous) {
    L.polyline([previous, next], { className: "chart-route" }).addTo(group);
  }
  if (next && !feature) L.circleMarker(next, { radius: 7, className: "chart-waypoint next" }).addTo(group);
  // The XTE corridor: the alarm's limit either side of the leg.
  const limit = chart.info && chart.info.xteLimit;
  if (next && previous && limit) {
    const leg = L.latLng(previous).distanceTo(next);
    if (leg > 1) {
      const b = Math.atan2(Math.sin((next[1] - previous[1]) / DEG) * Math.cos(next[0] / DEG),
        Math.cos(previous[0] / DEG) * Math.sin(next[0] / DEG) - Math.sin(previous[0] / DEG) * Math.cos(next[0] / DEG) * Math.cos((next[1] - previous[1]) / DEG)) * DEG;
      const side = s => [ahead(previous, b + 90 * s, limit), ahead(next, b + 90 * s, limit)];
      L.polygon([...side(1), ...side(-1).reverse()], { className: "chart-corridor" }).addTo(group);
    }
  }
}

function drawLaylines(group) {
  group.clearLayers();
  const next = position("navigation.course.nextPoint.position") || position("navigation.courseGreatCircle.nextPoint.position");
  const twd = number("environment.wind.directionTrue"), beat = number("performance.beatAngle"), gybe = number("performance.gybeAngle");
  const here = position("navigation.position");
  if (!next || !twd || !here || (!beat && !gybe)) return;
  const towards = Math.atan2(next[1] - here[1], next[0] - here[0]) * DEG;
  const upwind = Math.cos((towards - twd.value * DEG) / DEG) > 0;
  const angle = upwind ? (beat && beat.value) : (gybe && gybe.value);
  if (!angle) return;
  const length = Math.max(L.latLng(here).distanceTo(next) * 1.5, 500);
  for (const s of [1, -1]) {
    // A layline runs from the mark back the way a boat on that tack comes from.
    const course = twd.value * DEG + s * angle * DEG + (upwind ? 0 : 180);
    L.polyline([next, ahead(next, course + 180, length)], { className: "chart-layline" + (s > 0 ? " starboard" : " port") }).addTo(group);
  }
}

function drawStartLine(group) {
  group.clearLayers();
  const port = position("navigation.racing.startLinePort"), starboard = position("navigation.racing.startLineStb");
  if (!port || !starboard) return;
  L.polyline([port, starboard], { className: "chart-startline" }).addTo(group);
  L.circleMarker(port, { radius: 5, className: "chart-end port" }).bindTooltip("Pin", { permanent: true, className: "chart-label" }).addTo(group);
  L.circleMarker(starboard, { radius: 5, className: "chart-end starboard" }).bindTooltip("Boat", { permanent: true, className: "chart-label" }).addTo(group);
}

function drawTargets(group, chart) {
  const seen = new Set();
  for (const t of traffic) {
    if (!t.position) continue;
    const p = [t.position.latitude, t.position.longitude];
    seen.add(t.mmsi);
    let m = chart.targets.get(t.mmsi);
    if (!m) {
      m = { marker: L.marker(p, { icon: L.divIcon({ className: "chart-target", iconSize: [18, 18], iconAnchor: [9, 9],
        html: '<svg viewBox="-9 -9 18 18" width="18" height="18"><path d="M0,-8 L6,7 L-6,7 Z"/></svg>' }) }).addTo(group),
        vector: L.polyline([], { className: "chart-target-vector" }).addTo(group) };
      m.marker.bindTooltip(t.name || String(t.mmsi), { permanent: true, direction: "right", className: "chart-label" });
      chart.targets.set(t.mmsi, m);
    }
    m.marker.setLatLng(p);
    const danger = t.approach && t.approach.distance < ((chart.info && chart.info.collisionDistance) || 926) && t.approach.timeTo > 0 && t.approach.timeTo < 600;
    const svg = m.marker.getElement() && m.marker.getElement().querySelector("svg");
    if (svg) { svg.style.transform = "rotate(" + ((t.cog || 0) * DEG) + "deg)"; svg.classList.toggle("danger", !!danger); }
    m.vector.setLatLngs(typeof t.cog === "number" && t.sog ? [p, ahead(p, t.cog * DEG, t.sog * 360)] : []);
  }
  for (const [mmsi, m] of chart.targets) if (!seen.has(mmsi)) { group.removeLayer(m.marker); group.removeLayer(m.vector); chart.targets.delete(mmsi); }
}

// The scale bar in the user's distance unit (NM or km), a round length under 120 px.
export function scaleControl() {
  const Scale = L.Control.extend({
    onAdd() { this.bar = L.DomUtil.create("div", "chart-scale"); return this.bar; },
    update(map) {
      const y = map.getSize().y / 2, a = map.containerPointToLatLng([0, y]), b = map.containerPointToLatLng([100, y]);
      const metresPer100 = a.distanceTo(b), unit = settingsOf("waypoint").unit === "km" ? "km" : "NM";
      const per = unit === "km" ? 1000 : NM, max = metresPer100 * 1.2 / per;
      const steps = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500];
      const length = steps.filter(s => s <= max).pop() || steps[0];
      this.bar.style.width = Math.round(length * per / metresPer100 * 100) + "px";
      this.bar.textContent = (length < 1 ? length.toFixed(2).replace(/0$/, "") : length) + " " + unit;
    },
  });
  return new Scale({ position: "bottomleft" });
}
