// The AIS stations (vessels other than this one), read from the gateway every 3 s while an AIS tile or the chart is
// shown; and how the AIS tile orders them.
import { rangeBearing } from "./units.js";

export let traffic = [];
export async function fetchTraffic() {
  try {
    const response = await fetch("/signalk/v1/api/vessels", { cache: "no-store" });
    if (!response.ok) return;
    const vessels = await response.json();
    const value = (node, ...path) => { for (const k of path) node = node && node[k]; return node && node.value; };
    traffic = Object.entries(vessels).filter(([urn]) => urn.startsWith("urn:mrn:imo:mmsi:")).map(([urn, v]) => ({
      mmsi: v.mmsi || urn.slice(17), name: v.name, position: value(v, "navigation", "position"),
      approach: value(v, "navigation", "closestApproach"), cog: value(v, "navigation", "courseOverGroundTrue"),
      sog: value(v, "navigation", "speedOverGround"),
    }));
  } catch (e) { }
}

// The stations with their range and bearing from `own` ({latitude, longitude}): those closing within 2 NM first
// (soonest first), then the nearest.
export function ranked(stations, own) {
  const rows = stations.map(s => {
    const p = s.position, a = s.approach;
    let range = null, brg = null;
    if (own && p) ({ range, bearing: brg } = rangeBearing(own, p));
    const danger = !!(a && a.timeTo > 0 && a.distance < 2 * 1852);
    return { s, a, range, brg, danger };
  }).filter(r => r.range !== null);
  rows.sort((x, y) => (y.danger - x.danger) || (x.danger ? x.a.timeTo - y.a.timeTo : x.range - y.range));
  return rows;
}
