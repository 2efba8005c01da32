// The weather router on the chart (docs/routing.md), loaded the first time its button is pressed: a tap sets the
// destination, the departure is chosen (now or later, or a window of departures), the gateway plans in its own
// process (/telltale/v1/routing), the isochrones are drawn one after another, then the route; Follow hands the
// route it kept to the Course API, and the window's chart shows the time on the way against the departure.
import { authorised, refused } from "./access.js";
import { toast } from "./ui.js";

const state = { panel: null, layer: null, map: null, to: null, marker: null, polling: null };

async function call(method, body) {
  const response = await fetch("/telltale/v1/routing", {
    method, cache: "no-store", headers: authorised({ "Content-Type": "application/json" }),
    body: body ? JSON.stringify(body) : undefined });
  let answer = {};
  try { answer = await response.json(); } catch (e) { }
  if (response.status === 401 || response.status === 403) { refused(); return null; }
  if (!response.ok) { toast(answer.message || "Refused (" + response.status + ")"); return null; }
  return answer;
}

function hours(seconds) {
  const minutes = Math.round(seconds / 60);
  return Math.floor(minutes / 60) + "h" + String(minutes % 60).padStart(2, "0");
}

function said(text) { state.panel.querySelector(".routing-status").textContent = text; }

export function openRouting(map, element) {
  if (state.panel) return;
  state.map = map;
  state.layer = L.layerGroup().addTo(map);
  const panel = document.createElement("div");
  panel.className = "chart-plan-panel routing-panel";
  panel.innerHTML = '<p class="hint">Tap the destination on the chart.</p>' +
    '<div class="chart-plan-buttons"><label>Leave <select id="routing-depart">' +
    '<option value="0">now</option><option value="3">in 3 h</option><option value="6">in 6 h</option>' +
    '<option value="12">in 12 h</option><option value="24">in 24 h</option></select></label>' +
    '<label><input type="checkbox" id="routing-window"> every 3 h over a day</label></div>' +
    '<div class="chart-plan-buttons"><span class="button" id="routing-go">Plan</span>' +
    '<span class="button" id="routing-follow" hidden>Follow</span><span class="button" id="routing-close">Close</span></div>' +
    '<p class="routing-status hint"></p><div class="routing-window"></div>';
  element.appendChild(panel);
  state.panel = panel;
  // Any tap on the chart, a waypoint's marker included (a route's end is often where one goes), but its controls.
  state.onTap = event => {
    if (event.target.closest(".leaflet-control, .routing-panel")) return;
    pick({ latlng: map.mouseEventToLatLng(event) });
  };
  map.getContainer().addEventListener("click", state.onTap, true);
  panel.querySelector("#routing-go").onclick = plan;
  panel.querySelector("#routing-close").onclick = closeRouting;
  panel.querySelector("#routing-follow").onclick = follow;
  call("GET").then(answer => { if (answer && answer.missing) said("Cannot plan here: " + answer.missing); });
}

function pick(event) {
  state.to = event.latlng;
  if (state.marker) state.marker.remove();
  state.marker = L.circleMarker(event.latlng, { radius: 8, className: "routing-destination" }).addTo(state.layer);
  said("Destination " + event.latlng.lat.toFixed(4) + ", " + event.latlng.lng.toFixed(4) + ": press Plan.");
}

async function plan() {
  if (!state.to) { toast("Tap the destination first"); return; }
  const later = Number(state.panel.querySelector("#routing-depart").value);
  const body = { to: { latitude: state.to.lat, longitude: state.to.lng } };
  if (later) body.depart = Date.now() / 1000 + later * 3600;
  if (state.panel.querySelector("#routing-window").checked) { body.window = 24; body.every = 3; }
  const answer = await call("POST", body);
  if (!answer) return;
  said("Planning…");
  clearInterval(state.polling);
  state.polling = setInterval(poll, 1000);
}

async function poll() {
  const answer = await call("GET");
  if (!answer || answer.state === "running") {
    if (answer) said("Planning… " + Math.round(answer.seconds || 0) + " s");
    return;
  }
  clearInterval(state.polling);
  state.polling = null;
  if (answer.state === "failed") { said("No route: " + answer.message); return; }
  if (answer.window) { drawWindow(answer.window.departures || []); return; }
  if (answer.plan) draw(answer.plan, answer.route);
}

function draw(plan, href) {
  state.layer.clearLayers();
  if (state.marker) state.marker.addTo(state.layer);
  const lines = plan.isochrones || [];
  let index = 0;
  // The isochrones grow one after another, as the router grew them, then the route.
  const grow = setInterval(() => {
    if (!state.layer || index >= lines.length) {
      clearInterval(grow);
      if (!state.layer) return;
      const points = plan.waypoints.map(w => [w.lat, w.lon]);
      L.polyline(points, { className: "routing-route" }).addTo(state.layer);
      plan.waypoints.forEach((w, i) => L.circleMarker([w.lat, w.lon], { radius: 4, className: "routing-waypoint" })
        .bindTooltip(w.time.slice(11, 16) + (i && i < plan.waypoints.length - 1 ? "" : i ? " arrive" : " leave"),
          { permanent: true, direction: "right", className: "chart-label" }).addTo(state.layer));
      return;
    }
    L.polyline(lines[index], { className: "routing-isochrone" }).addTo(state.layer);
    index += 1;
  }, Math.max(10, Math.min(60, 2000 / Math.max(1, lines.length))));
  const s = plan.summary || {};
  said("ETA " + plan.eta.slice(0, 16).replace("T", " ") + " UTC: " + hours(plan.duration_s) + " for " +
    plan.distance_nm.toFixed(1) + " NM; upwind " + hours(s.upwind_s || 0) + ", " + (s.tacks || 0) + " tacks, " +
    (s.gybes || 0) + " gybes, wind at most " + (s.max_tws_kn || 0).toFixed(0) + " kn");
  state.href = href;
  state.panel.querySelector("#routing-follow").hidden = !href;
}

// The window: the time on the way against the departure, a bar each, the fastest marked.
function drawWindow(rows) {
  const ok = rows.filter(r => r.duration_s);
  if (!ok.length) { said("No departure of the window can be sailed: " + (rows[0] && rows[0].error || "")); return; }
  const longest = Math.max(...ok.map(r => r.duration_s));
  const fastest = ok.reduce((a, b) => (b.duration_s < a.duration_s ? b : a));
  const width = 300, height = 120, bar = width / rows.length;
  const bars = rows.map((r, i) => {
    const h = r.duration_s ? (r.duration_s / longest) * (height - 30) : 0;
    const label = r.departure.slice(11, 16);
    return '<rect class="window-bar' + (r === fastest ? ' fastest' : '') + '" data-departure="' + r.departure +
      '" data-duration="' + (r.duration_s || "") + '" x="' + (i * bar + 2) + '" y="' + (height - 15 - h) +
      '" width="' + (bar - 4) + '" height="' + h + '"><title>' + (r.duration_s ? hours(r.duration_s) + ", wind to " +
      r.max_tws_kn + " kn" : r.error) + '</title></rect><text x="' + (i * bar + bar / 2) + '" y="' + (height - 2) +
      '" text-anchor="middle">' + label + '</text>';
  }).join("");
  state.panel.querySelector(".routing-window").innerHTML =
    '<svg class="window-chart" viewBox="0 0 ' + width + ' ' + height + '" width="100%">' + bars + '</svg>';
  said("Fastest: leave " + fastest.departure.slice(0, 16).replace("T", " ") + " UTC, " + hours(fastest.duration_s) +
    " on the way (upwind " + hours(fastest.upwind_s) + ", wind to " + fastest.max_tws_kn + " kn)");
}

async function follow() {
  if (!state.href) return;
  const response = await fetch("/signalk/v2/api/vessels/self/navigation/course/activeRoute", {
    method: "PUT", headers: authorised({ "Content-Type": "application/json" }),
    body: JSON.stringify({ href: state.href, pointIndex: 1 }) });
  if (response.status === 401 || response.status === 403) { refused(); return; }
  toast(response.ok ? "Following the routed route" : "Refused (" + response.status + ")");
}

export function closeRouting() {
  clearInterval(state.polling);
  if (state.map) state.map.getContainer().removeEventListener("click", state.onTap, true);
  if (state.layer) state.layer.remove();
  if (state.panel) state.panel.remove();
  Object.assign(state, { panel: null, layer: null, map: null, to: null, marker: null, polling: null, href: null,
    onTap: null });
}
