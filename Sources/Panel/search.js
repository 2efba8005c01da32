// Search on the chart (#42): by name, the places the gateway knows: waypoints and routes (the Resources API), AIS
// vessels by name or MMSI, the race's marks (the start line's ends and the active route's marks), and the
// gazetteer's towns (GeoNames via Debian's libgeonames0, beside the base map). A result centres the chart there and
// shows the forecast summary. Loaded when the Find button is first pressed.
import { traffic, fetchTraffic } from "./traffic.js";
import { position } from "./store.js";

const style = document.createElement("style");
style.textContent = `
.chart-search { position: absolute; top: 4px; left: 4px; right: 56px; z-index: 1001; background: var(--bg);
  color: var(--fg); border: 1px solid var(--line); border-radius: 6px; padding: 4px; }
.chart-search input { width: 100%; box-sizing: border-box; font-size: 18px; min-height: 44px; padding: 0 8px;
  background: var(--bg); color: var(--fg); border: 1px solid var(--line); border-radius: 4px; }
.chart-search ol { list-style: none; margin: 0; padding: 0; max-height: 50vh; overflow: auto; }
.chart-search li { min-height: 44px; display: flex; flex-direction: column; justify-content: center; padding: 2px 8px;
  border-bottom: 1px solid var(--line); cursor: pointer; }
.chart-search li small { color: var(--dim); }`;
document.head.appendChild(style);

let resources = null;

async function loadResources() {
  const out = [];
  for (const [kind, label] of [["waypoints", "Waypoint"], ["routes", "Route"]]) {
    try {
      const r = await fetch(`/signalk/v2/api/resources/${kind}`, { cache: "no-store" });
      if (!r.ok) continue;
      for (const [id, res] of Object.entries(await r.json())) {
        const g = res.feature && res.feature.geometry;
        if (!g || !g.coordinates) continue;
        const first = kind === "routes" ? g.coordinates[0] : g.coordinates;
        if (!first) continue;
        out.push({ name: res.name || id, kind: label, lat: first[1], lon: first[0], zoom: 14 });
        // A route's marks by their names, as the race's marks are.
        const names = kind === "routes" && res.feature.properties && res.feature.properties.coordinatesMeta;
        if (Array.isArray(names)) names.forEach((m, i) => {
          if (m && m.name && g.coordinates[i]) out.push({ name: m.name, kind: `Mark of ${res.name || id}`,
            lat: g.coordinates[i][1], lon: g.coordinates[i][0], zoom: 15 });
        });
      }
    } catch (e) { }
  }
  return out;
}

// What the gateway knows without asking it: the vessels, the start line's ends, the active route's marks.
function known(chart) {
  const out = [];
  for (const s of traffic) {
    if (!s.position) continue;
    out.push({ name: s.name || String(s.mmsi), extra: String(s.mmsi), kind: "AIS vessel · MMSI " + s.mmsi,
      lat: s.position.latitude, lon: s.position.longitude, zoom: 15 });
  }
  const port = position("navigation.racing.startLinePort"), stb = position("navigation.racing.startLineStb");
  if (port) out.push({ name: "Start line, port end (pin)", kind: "Race mark", lat: port[0], lon: port[1], zoom: 16 });
  if (stb) out.push({ name: "Start line, starboard end (boat)", kind: "Race mark", lat: stb[0], lon: stb[1], zoom: 16 });
  return out;
}

export function matches(items, text) {
  const q = text.trim().toLowerCase();
  if (!q) return [];
  const score = item => {
    const name = (item.name || "").toLowerCase(), extra = (item.extra || "").toLowerCase();
    if (name === q || extra === q) return 0;
    if (name.startsWith(q) || extra.startsWith(q)) return 1;
    if (name.includes(q)) return 2;
    return -1;
  };
  return items.map(i => [score(i), i]).filter(([s]) => s >= 0).sort((a, b) => a[0] - b[0]).map(([, i]) => i);
}

async function places(text) {
  try {
    const r = await fetch(`/charts/.gazetteer/${encodeURIComponent(text.trim())}`);
    if (!r.ok) return [];
    return (await r.json()).map(p => ({ name: p.name, kind: [p.region, p.country].filter(Boolean).join(", "),
      lat: p.latitude, lon: p.longitude, zoom: 12 }));
  } catch (e) { return []; }
}

export async function openSearch(chart, element) {
  const old = element.querySelector(".chart-search");
  if (old) { old.remove(); return; }
  const box = document.createElement("div");
  box.className = "chart-search";
  box.innerHTML = `<input type="search" placeholder="Waypoint, route, vessel, MMSI, town" aria-label="Find on the chart"><ol></ol>`;
  L.DomEvent.disableClickPropagation(box);
  L.DomEvent.disableScrollPropagation(box);
  element.appendChild(box);
  const input = box.querySelector("input"), list = box.querySelector("ol");
  input.focus();
  if (!resources) resources = loadResources();
  fetchTraffic();
  let asked = 0;
  input.oninput = async () => {
    const text = input.value, turn = ++asked;
    const local = matches((await resources).concat(known(chart)), text);
    const far = text.trim().length >= 2 ? await places(text) : [];
    if (turn !== asked) return;
    list.innerHTML = "";
    for (const item of local.concat(far).slice(0, 30)) {
      const li = document.createElement("li");
      li.innerHTML = `<span></span><small></small>`;
      li.firstChild.textContent = item.name;
      li.lastChild.textContent = item.kind;
      li.dataset.lat = item.lat;
      li.dataset.lon = item.lon;
      li.onclick = () => choose(chart, box, item);
      list.appendChild(li);
    }
  };
}

async function choose(chart, box, item) {
  box.remove();
  const { setFollow } = await import("./chart.js");
  setFollow(false);
  chart.map.setView([item.lat, item.lon], Math.max(chart.map.getZoom(), item.zoom), { animate: false });
  const { showForecastAt } = await import("./forecasthere.js");
  showForecastAt(chart.map, item.lat, item.lon);
}
