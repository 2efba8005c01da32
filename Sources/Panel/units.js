// Units and formats: what the panel shows a value as. Pure: no page, no clock, no network (Panel/tests checks it).

export const DEG = 180 / Math.PI;
export const NM = 1852;
export const HOUR = 3600;
export const KNOTS = 3600 / 1852;
export const BEAUFORT = [0.5, 1.6, 3.4, 5.5, 8.0, 10.8, 13.9, 17.2, 20.8, 24.5, 28.5, 32.7]; // m/s, WMO upper bounds
export function beaufort(ms) { let force = 0; while (force < 12 && ms >= BEAUFORT[force]) force++; return force; }
export const UNITS = {
  speed: { kn: { f: 3600 / 1852, label: "kn" }, "m/s": { f: 1, label: "m/s" }, "km/h": { f: 3.6, label: "km/h" },
    Bft: { f: null, label: "Bft" } },
  depth: { m: { f: 1, label: "m" }, ft: { f: 1 / 0.3048, label: "ft" }, fathom: { f: 1 / 1.8288, label: "fm" } },
  distance: { NM: { f: 1 / 1852, label: "NM" }, km: { f: 1 / 1000, label: "km" } },
};
export function convert(kind, unit, si) {
  const u = UNITS[kind][unit] || Object.values(UNITS[kind])[0];
  return u.f === null ? beaufort(si) : si * u.f;
}
export function unitLabel(kind, unit) { return (UNITS[kind][unit] || Object.values(UNITS[kind])[0]).label; }
export function fixed(x, decimals) {
  if (x === null || x === undefined || !isFinite(x)) return "—";
  const text = x.toFixed(decimals);
  return text === "-" + (0).toFixed(decimals) ? (0).toFixed(decimals) : text;
}
export function bearing(rad) { let d = Math.round(rad * DEG) % 360; if (d < 0) d += 360; return String(d).padStart(3, "0"); }
export function signedAngle(rad) { let d = rad * DEG; while (d > 180) d -= 360; while (d <= -180) d += 360; return d; }
export function clock(seconds) {
  // The sign of what is shown: a fraction of a second either side of zero is "+0:00", never "−0:00".
  const rounded = Math.round(seconds);
  const sign = rounded < 0 ? "−" : "+";
  const s = Math.abs(rounded);
  return sign + Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}
// Hours and minutes of a UNIX time on the phone's own clock.
export function hhmm(unix) {
  const d = new Date(unix * 1000);
  return String(d.getHours()).padStart(2, "0") + ":" + String(d.getMinutes()).padStart(2, "0");
}
export function compass(degrees) {
  return degrees === null || degrees === undefined ? "—" : String(Math.round(degrees) % 360).padStart(3, "0") + "°";
}
// A forecast sample's wind: where it comes from and how hard, "225° 14 kn".
export function windText(s) {
  if (!s || s.windSpeed === null || s.windSpeed === undefined) return "—";
  return compass(s.windDirection) + " " + fixed(s.windSpeed * KNOTS, 0) + " kn";
}

// A point `metres` from [lat, lon] towards `degrees` (a sphere: the chart's vectors and lines, not navigation).
export function ahead(from, degrees, metres) {
  const R = 6371008.8, d = metres / R, b = degrees / DEG, lat = from[0] / DEG, lon = from[1] / DEG;
  const lat2 = Math.asin(Math.sin(lat) * Math.cos(d) + Math.cos(lat) * Math.sin(d) * Math.cos(b));
  const lon2 = lon + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(lat), Math.cos(d) - Math.sin(lat) * Math.sin(lat2));
  return [lat2 * DEG, lon2 * DEG];
}
// Range (metres) and bearing (radians) from one {latitude, longitude} to another on a local plane: close traffic.
export function rangeBearing(from, to) {
  const lat = from.latitude * Math.PI / 180, dLat = (to.latitude - from.latitude) * Math.PI / 180;
  const dLon = (to.longitude - from.longitude) * Math.PI / 180 * Math.cos(lat + dLat / 2);
  return { range: 6371008.8 * Math.hypot(dLat, dLon), bearing: Math.atan2(dLon, dLat) };
}

// A wind barb, pointing into the wind, in an SVG of 40 × 40 with its foot at the centre: a pennant for 50 kn, a
// feather for 10, half a feather for 5.
export function barb(knots, degrees) {
  let rest = Math.round(knots / 5) * 5, y = -18, marks = "";
  if (rest < 5) return `<circle cx="0" cy="0" r="3" fill="none"/>`;
  while (rest >= 50) { marks += `<path d="M0 ${y} L9 ${y + 2} L0 ${y + 5} Z"/>`; y += 6; rest -= 50; }
  while (rest >= 10) { marks += `<line x1="0" y1="${y}" x2="9" y2="${y - 4}"/>`; y += 4; rest -= 10; }
  if (rest >= 5) { if (y === -18) y += 4; marks += `<line x1="0" y1="${y}" x2="5" y2="${y - 2}"/>`; }
  return `<g transform="rotate(${degrees.toFixed(0)})"><line x1="0" y1="0" x2="0" y2="-18"/>${marks}</g>`;
}
