// The page: layouts, swipes, dialogs, the editor, and everything started. The panel's one entry (index.html loads
// it as a module); every other module only declares, and is started from here.
import { command, pilotTack, refreshAccess, startAccess } from "./access.js";
import { renderAlarms } from "./alarms.js";
import { chart, closeChart, openChart, startChart, updateChart } from "./chart.js";
import { startConnection } from "./connection.js";
import { closeFleet, detectFleet, fleet, openFleet } from "./fleet.js";
import { INSTRUMENTS } from "./instruments.js";
import { layouts, PRESETS } from "./layouts.js";
import { startNotes } from "./notes.js";
import { link, load, now, save } from "./store.js";
import { settingsOf, Tile } from "./tiles.js";
import { fetchTraffic } from "./traffic.js";
import { toast } from "./ui.js";
import { UNITS } from "./units.js";
import { startWeather, WEATHER_TILES, wantWeather } from "./weather.js";
import { startTides, TIDE_TILES, wantTides } from "./tides.js";
import "./historytiles.js";
import { WINDOWS } from "./trends.js";

function allLayouts() { return layouts(link.fleet, link.layouts); }

let current = Math.min(load("layout", 0), allLayouts().length - 1);
// A phone that has chosen no layout yet opens on the one the gateway names ([panel] start, "chart" on a cruiser).
let startChosen = load("layout", null) !== null;
if (!startChosen) {
  fetch("/charts/", { cache: "no-store" }).then(r => r.ok ? r.json() : {}).then(info => {
    const start = allLayouts().findIndex(l => info.start && l.name.toLowerCase() === String(info.start).toLowerCase());
    if (start >= 0 && !startChosen) show(start);
  }).catch(() => { });
}
let tiles = [];
const page = document.getElementById("page");
function show(index, direction) {
  const all = allLayouts();
  current = (index + all.length) % all.length;
  save("layout", current);
  if (direction) startChosen = true;
  const layout = all[current];
  closeChart();
  closeFleet();
  page.replaceChildren();
  page.className = layout.chart || layout.fleet ? "chart-page" : "grid";
  tiles = layout.tiles.filter(id => INSTRUMENTS[id]).map(id => new Tile(id));
  if (layout.fleet) {
    openFleet(page);
  } else if (layout.chart) {
    // The chart fills the page; the instruments run in a strip along its foot.
    const map = document.createElement("div"), strip = document.createElement("div");
    map.id = "chart"; strip.className = "chart-strip";
    page.append(map, strip);
    for (const t of tiles) strip.appendChild(t.element);
    openChart(map);
  } else {
    for (const t of tiles) page.appendChild(t.element);
  }
  document.getElementById("layout-name").textContent = layout.name;
  const dots = document.getElementById("dots");
  dots.replaceChildren(...all.map((_, i) => { const d = document.createElement("span"); if (i === current) d.className = "on"; return d; }));
  if (direction) toast((direction < 0 ? "◀ " : "") + layout.name + (direction > 0 ? " ▶" : ""));
  wantWeather(tiles.some(t => WEATHER_TILES.includes(t.id)), tiles.some(t => t.id !== "tw" && WEATHER_TILES.includes(t.id)));
  wantTides(tiles.some(t => TIDE_TILES.includes(t.id)));
  render();
}
function render() { for (const t of tiles) t.update(); renderAlarms(); updateChart(); }

// Swipes: a horizontal drag of 50 px or more, mostly sideways. Double taps: two within 350 ms on one tile.
const main = document.getElementById("pages");
let down = null, lastTap = { id: null, at: 0 };
// A drag on the chart pans it: swipes are taken from the rest of the page only.
main.addEventListener("pointerdown", e => { down = e.target.closest("#chart") ? null : { x: e.clientX, y: e.clientY, at: now() }; });
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
  // The laylines' "Tack now": a tack of the default pilot, the way the wind says (onto the polar's angle).
  const tack = e.target.closest("button[data-tack-now]");
  if (tack) pilotTack(tack.dataset.side);
});

function openSettings(id) {
  const spec = INSTRUMENTS[id], s = settingsOf(id);
  document.getElementById("settings-title").textContent = spec.title;
  const form = document.getElementById("settings-form");
  const select = (name, label, options, value) => `<label>${label} <select name="${name}">` +
    options.map(([v, text]) => `<option value="${v}"${String(v) === String(value) ? " selected" : ""}>${text}</option>`).join("") + `</select></label>`;
  let html = "";
  if (spec.units) html += select("unit", "Units", Object.keys(UNITS[spec.units]).map(u => [u, u]), s.unit);
  if (spec.reference) html += select("reference", "North", [["true", "True"], ["magnetic", "Magnetic"]], s.reference);
  if (spec.window) html += select("window", "Window", WINDOWS.filter(([m]) => m >= Math.min(10, spec.defaultWindow || 10)), s.window);
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

document.getElementById("menu-button").onclick = () => { document.getElementById("menu").showModal(); refreshAccess(); };
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
  // The chart's strip is edited here too, as the first entry.
  pick.replaceChildren(new Option("Chart strip", "chart"), ...own.map((l, i) => new Option(l.name, i)));
  if (editing === null) editing = own.length ? { index: 0, ...own[0] } : chartStrip();
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
function chartStrip() { return { index: "chart", name: "Chart strip", tiles: allLayouts().find(l => l.chart).tiles.slice() }; }
document.getElementById("editor-layout").onchange = e => {
  if (e.target.value === "chart") { editing = chartStrip(); editorFill(); return; }
  const own = load("layouts", []); const i = Number(e.target.value); editing = { index: i, ...own[i] }; editorFill();
};
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
  if (editing.index === "chart") {
    save("chart.strip", editing.tiles.slice());
    editor.close();
    show(PRESETS.findIndex(p => p.chart), 1);
    return;
  }
  const own = load("layouts", []);
  own[editing.index] = { name: document.getElementById("editor-name").value.trim() || "Layout", tiles: editing.tiles.slice() };
  save("layouts", own);
  editor.close();
  show(PRESETS.length + editing.index, 1);
};
document.getElementById("editor-delete").onclick = () => {
  if (!editing || editing.index === "chart") return;
  const own = load("layouts", []);
  own.splice(editing.index, 1);
  save("layouts", own);
  editing = null;
  editorFill();
  show(Math.min(current, allLayouts().length - 1));
};
document.getElementById("editor-close").onclick = () => editor.close();
document.getElementById("editor-name").oninput = e => { if (editing) editing.name = e.target.value; };

document.addEventListener("telltale:render", render);
document.addEventListener("telltale:fleet", () => show(0));
// Ashore, a boat opened: her layouts shown.
document.addEventListener("telltale:boat", e => show(e.detail.show ? 1 : current));
// What the checks and a curious sailor reach from the console.
window.telltale = { show, theme, layouts: allLayouts, link, chart, fleet };
window.telltaleChart = chart;
window.telltaleFleet = fleet;

startChart();
detectFleet();
// The AIS stations read every 3 s while an AIS tile or the chart is shown.
setInterval(() => { if (tiles.some(t => t.id === "ais") || chart.map) fetchTraffic(); }, 3000);
startWeather();
startTides();
setInterval(render, 250);
theme(load("theme", "day"));
show(current);
startConnection();
startAccess();
startNotes();
