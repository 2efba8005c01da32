// Tides: the Tide tile (the height now, the next high and low water, the curve from twelve hours ago to a day ahead
// with "now", the stream predicted beside the current measured), the depth tile's water at the next low, and the
// tidal streams on the chart at a chosen time. From /telltale/v1/tides (the gateway's predictions, offline).
import { chartOverlayMakers } from "./chart.js";
import { INSTRUMENTS, numberLine } from "./instruments.js";
import { changed, now, number, reading } from "./store.js";
import { fixed, hhmm } from "./units.js";

let tides = null;
export const TIDE_TILES = ["tide"];
let wanted = false;
export function wantTides(on) { wanted = on; if (on) fetchTides(); }
export async function fetchTides() {
  if (!wanted) return;
  try {
    const response = await fetch("/telltale/v1/tides", { cache: "no-store" });
    if (response.ok) { tides = await response.json(); tides.fetched = now(); changed(); }
  } catch (e) { }
}
// Read again every minute while the tile is shown.
export function startTides() { setInterval(fetchTides, 60000); }

const when = iso => hhmm(Date.parse(iso) / 1000);

Object.assign(INSTRUMENTS, {
  tide: {
    title: "Tide", wide: true, decimals: 2,
    html: () => `<div class="numbers">${numberLine("td-now", "Now")}${numberLine("td-high", "HW")}` +
      `${numberLine("td-low", "LW")}${numberLine("td-stream", "Stream")}${numberLine("td-measured", "Measured")}</div>` +
      `<svg class="graphic tide-curve" viewBox="0 0 480 160" aria-label="Tide curve"></svg>` +
      `<div class="small tide-station"></div>`,
    // The tile's code comes the first time it is shown (the page's first load stays small): tidetile.js.
    update(t) { import("./tidetile.js").then(m => m.update(t, tides)); },
  },
});

// The depth tile: the water at the next low, and when ("LW 2.1 m 04:12"), below the keel when the draft is known.
if (INSTRUMENTS.depth) {
  const { html, update } = INSTRUMENTS.depth;
  INSTRUMENTS.depth.html = () => html().replace(/<\/div>(?=<svg)/, numberLine("lw", "LW") + "</div>");
  INSTRUMENTS.depth.update = t => {
    update(t);
    const atLow = number("environment.tide.depthAtLow"), lowAt = reading("environment.tide.timeLow");
    t.setValue("lw", atLow && lowAt ? fixed(atLow.value, 1) + " m " + when(lowAt.value) : null, atLow && atLow.stale, "");
  };
}

// The tidal streams overlay: its code comes when it is first switched on (tidestreams.js).
chartOverlayMakers.push(map => {
  const group = L.layerGroup();
  let started = false;
  map.on("overlayadd", e => {
    if (e.layer !== group || started) return;
    started = true;
    import("./tidestreams.js").then(m => m.startStreams(map, group));
  });
  return ["Tidal streams", group];
});
