// The public race page (`telltale fleet --public-delay MINUTES`): the fleet file's boats where they were that many
// minutes ago, on a plain chart with their last half hour, and in a list; read again every 30 s. Nothing here needs a
// login, and nothing live is shown: the delay is the committee's.
const list = document.querySelector(".race-list tbody"), said = document.getElementById("race-said");
const when = document.getElementById("race-time");
const esc = s => String(s ?? "").replace(/[&<>"']/g, c => `&#${c.charCodeAt(0)};`);
let map = null, layer = null, fitted = false;

function draw(data) {
  const minutes = Math.round((data.delay || 0) / 60);
  when.textContent = data.time ? `as at ${data.time.slice(11, 16)} UTC, ${minutes} min ago` : "";
  const boats = data.boats || [];
  list.innerHTML = boats.map(b => `<tr data-boat="${esc(b.id)}"><td>${esc(b.sail)}</td><td>${esc(b.name || b.id)}</td>` +
    `<td>${esc(b.class)}</td><td>${esc((b.at || "").slice(11, 16))}</td></tr>`).join("");
  said.textContent = boats.length ? "" : "No boat of the race has a position that long ago yet.";
  if (!map) return;
  layer.clearLayers();
  const bounds = [];
  for (const b of boats) {
    const colour = b.colour || "#c0392b";
    if ((b.track || []).length > 1) L.polyline(b.track, { color: colour, weight: 2, opacity: 0.7 }).addTo(layer);
    L.circleMarker([b.latitude, b.longitude], { radius: 6, color: colour, fillOpacity: 0.9 })
      .bindTooltip(esc(b.sail || b.name || b.id), { permanent: true, direction: "right", className: "race-label" })
      .addTo(layer);
    bounds.push([b.latitude, b.longitude]);
  }
  if (!fitted && bounds.length) { map.fitBounds(bounds, { padding: [30, 30], maxZoom: 13 }); fitted = true; }
}

async function read() {
  try {
    const r = await fetch("/telltale/v1/fleet/public", { cache: "no-store" });
    if (r.ok) draw(await r.json());
    else said.textContent = "The race page is not open on this shore.";
  } catch (e) {
    said.textContent = "The shore cannot be reached.";
  }
}

if (window.L) {
  map = L.map("race-map", { attributionControl: false, zoomSnap: 1 }).setView([50.8, -1.3], 10);
  layer = L.layerGroup().addTo(map);
}
read();
setInterval(read, 30000);
