// The offline base map (#42): GSHHG's world coastlines as the gateway keeps them (`telltale basemap`), land and
// water drawn on canvas tiles under the sailor's charts, from the first boot with no internet. Each resolution is
// cut into square bins (20° for the crude one, 1° for the full one); a bin's bytes are fetched once, kept, and drawn
// into every tile over it. Loaded with the chart, not with the first page.

// letter, the first zoom it is drawn at, its bins' size in minutes.
export const RESOLUTIONS = [["c", 0, 1200], ["l", 4, 600], ["i", 6, 300], ["h", 8, 120], ["f", 10, 60]];
const SIDE = 65535;
const MAX_KEPT = 400;

const kept = new Map();     // "f:14398" -> rings [{ level, x: Uint16Array, y: Uint16Array }]
const waiting = new Map();  // "f:14398" -> [resolve...]
const queued = new Map();   // letter -> Set of bins to fetch
let flushing = null;
export const baseMapStats = { requests: 0, bytes: 0, bins: 0, failed: 0 };

export function resolutionFor(zoom) {
  let chosen = RESOLUTIONS[0];
  for (const r of RESOLUTIONS) if (zoom >= r[1]) chosen = r;
  return chosen;
}

// A bin's rings from its bytes: a count, then each ring's level, its point count, its first point and the zigzag
// varint steps to the next (the file's layout: Sources/Marine/BaseMap+File.swift).
export function decodeBin(bytes) {
  let at = 0;
  const varint = () => {
    let value = 0, shift = 0;
    while (at < bytes.length && shift < 35) {
      const b = bytes[at++];
      value += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return value;
      shift += 7;
    }
    throw new Error("cut short");
  };
  const u16 = () => { if (at + 2 > bytes.length) throw new Error("cut short"); const v = bytes[at] | bytes[at + 1] << 8; at += 2; return v; };
  const unzigzag = v => (v % 2 === 0 ? v / 2 : -(v + 1) / 2);
  if (bytes.length === 0) return [];
  const rings = [];
  for (let count = varint(), r = 0; r < count; r++) {
    if (at >= bytes.length) throw new Error("cut short");
    const level = bytes[at++], points = varint();
    if (points < 1 || points > bytes.length) throw new Error("not a ring");
    const x = new Uint16Array(points), y = new Uint16Array(points);
    x[0] = u16(); y[0] = u16();
    for (let i = 1; i < points; i++) { x[i] = x[i - 1] + unzigzag(varint()); y[i] = y[i - 1] + unzigzag(varint()); }
    rings.push({ level, x, y });
  }
  return rings;
}

// The answer to /charts/.basemap/<letter>/<bins>: each bin's number and length (u32, little-endian), then its bytes.
export function splitAnswer(buffer) {
  const view = new DataView(buffer), bins = new Map();
  for (let at = 0; at + 8 <= buffer.byteLength;) {
    const bin = view.getUint32(at, true), length = view.getUint32(at + 4, true);
    at += 8;
    if (at + length > buffer.byteLength) break;
    bins.set(bin, new Uint8Array(buffer, at, length));
    at += length;
  }
  return bins;
}

function keep(key, rings) {
  kept.delete(key);
  kept.set(key, rings);
  if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value);
  for (const resolve of waiting.get(key) || []) resolve(rings);
  waiting.delete(key);
}

async function flush() {
  flushing = null;
  const batches = [...queued.entries()];
  queued.clear();
  for (const [letter, set] of batches) {
    const bins = [...set];
    for (let i = 0; i < bins.length; i += 64) {
      const part = bins.slice(i, i + 64);
      let answer = new Map();
      try {
        baseMapStats.requests++;
        const response = await fetch(`/charts/.basemap/${letter}/${part.join(",")}`);
        if (response.ok) {
          const buffer = await response.arrayBuffer();
          baseMapStats.bytes += buffer.byteLength;
          answer = splitAnswer(buffer);
        }
      } catch (e) { }
      for (const bin of part) {
        let rings = null;
        try { rings = answer.has(bin) ? decodeBin(answer.get(bin)) : null; } catch (e) { rings = null; }
        if (rings === null) baseMapStats.failed++; else baseMapStats.bins++;
        keep(letter + ":" + bin, rings);
      }
    }
  }
}

// A bin's rings: kept, or fetched with the others asked for in the same turn (one request for many).
function binRings(letter, bin) {
  const key = letter + ":" + bin;
  if (kept.has(key)) return Promise.resolve(kept.get(key));
  return new Promise(resolve => {
    if (!waiting.has(key)) {
      waiting.set(key, []);
      if (!queued.has(letter)) queued.set(letter, new Set());
      queued.get(letter).add(bin);
      if (!flushing) flushing = setTimeout(flush, 0);
    }
    waiting.get(key).push(resolve);
  });
}

// Web Mercator pixels at zoom z (256-pixel tiles).
function mercator(lat, lon, scale) {
  const s = Math.sin(Math.max(-85.0511, Math.min(85.0511, lat)) * Math.PI / 180);
  return [(lon + 180) / 360 * scale, (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * scale];
}

function tileLongitude(x, scale) { return x / scale * 360 - 180; }
function tileLatitude(y, scale) { const n = Math.PI - 2 * Math.PI * y / scale; return 180 / Math.PI * Math.atan(Math.sinh(n)); }

// The bins of a resolution over a tile: [bin, west longitude of the bin in the tile's own frame, south latitude].
export function binsOver(coords, size, minutes) {
  const scale = size * 2 ** coords.z, degrees = minutes / 60, across = 21600 / minutes;
  const west = tileLongitude(coords.x * size, scale), east = tileLongitude((coords.x + 1) * size, scale);
  const north = tileLatitude(coords.y * size, scale), south = tileLatitude((coords.y + 1) * size, scale);
  const out = [];
  const rowFirst = Math.max(0, Math.floor((90 - north) / degrees)), rowLast = Math.min(across / 2 - 1, Math.floor((90 - south) / degrees - 1e-9));
  for (let row = rowFirst; row <= rowLast; row++) {
    for (let lon = Math.floor(west / degrees) * degrees; lon < east; lon += degrees) {
      const column = ((Math.round(lon / degrees) % across) + across) % across;
      out.push([row * across + column, lon, 90 - (row + 1) * degrees]);
    }
  }
  return out;
}

export function colours() {
  const theme = document.body.className;
  if (theme.includes("theme-red")) return { sea: "#000", land: "#300" };
  if (theme.includes("theme-night")) return { sea: "#05121c", land: "#2a261e" };
  return { sea: "#cfe3f1", land: "#efe6d0" };
}

// Land and water of a tile drawn from its bins' rings, filled in their order (later over earlier).
export function drawTile(canvas, coords, size, bins, ringsByBin, degrees) {
  const g = canvas.getContext("2d"), scale = size * 2 ** coords.z, { sea, land } = colours();
  const x0 = coords.x * size, y0 = coords.y * size;
  g.fillStyle = sea;
  g.fillRect(0, 0, size, size);
  bins.forEach(([, west, south], index) => {
    for (const ring of ringsByBin[index] || []) {
      g.beginPath();
      for (let i = 0; i < ring.x.length; i++) {
        let [px, py] = mercator(south + ring.y[i] / SIDE * degrees, west + ring.x[i] / SIDE * degrees, scale);
        // A point on the bin's edge half a pixel out: two bins' land meets without a seam of water between.
        if (ring.x[i] === 0) px -= 0.5; else if (ring.x[i] === SIDE) px += 0.5;
        if (ring.y[i] === 0) py += 0.5; else if (ring.y[i] === SIDE) py -= 0.5;
        if (i === 0) g.moveTo(px - x0, py - y0); else g.lineTo(px - x0, py - y0);
      }
      g.closePath();
      g.fillStyle = ring.level % 2 === 1 ? land : sea;
      g.fill();
    }
  });
}

// The layer: the base map under everything else, in a pane of its own below the charts' tiles.
export function baseMapLayer(map) {
  if (!map.getPane("basemap")) map.createPane("basemap").style.zIndex = 150;
  const Layer = L.GridLayer.extend({
    createTile(coords, done) {
      const tile = document.createElement("canvas"), size = this.getTileSize().x;
      tile.width = size; tile.height = size;
      const [letter, , minutes] = resolutionFor(coords.z);
      const bins = binsOver(coords, size, minutes);
      Promise.all(bins.map(([bin]) => binRings(letter, bin))).then(ringsByBin => {
        drawTile(tile, coords, size, bins, ringsByBin, minutes / 60);
        tile.dataset.basemap = letter;
        done(null, tile);
      });
      return tile;
    },
  });
  return new Layer({ pane: "basemap", className: "chart-basemap", maxZoom: 20, keepBuffer: 1 });
}
