// The panel's values: units, the store, the layouts, the sparklines' history, AIS traffic (tests.js runs them).
import { history, meanHeel, heelSamples, seedTraces, take } from "../history.js";
import { layouts, PRESETS } from "../layouts.js";
import { COMPUTED, link, number, position, put, reading, save, timeoutOf, traces } from "../store.js";
import { ranked } from "../traffic.js";
import { distance } from "../trends.js";
import { skyWords } from "../weather.js";
import {
  ahead, barb, beaufort, bearing, clock as clockText, compass, convert, DEG, fixed, rangeBearing, signedAngle, unitLabel, windText,
} from "../units.js";
import { at, equal, fresh, near, ok, test } from "./harness.js";

// ---- units.js --------------------------------------------------------------------------------------------------

test("the sky on the true wind tile from the forecast at the boat", () => {
  equal(skyWords({ cloud: 70, precipitation: 0, windSpeed: 12 }), "windy 70%");
  equal(skyWords({ cloud: 5, precipitation: 0, windSpeed: 3 }), "clear 5%");
  equal(skyWords({ cloud: 95, precipitation: 1.2, windSpeed: 8 }), "rain 95%");
  equal(skyWords({ cloud: 60, precipitation: 0, windSpeed: 8 }), "cloudy 60%");
  equal(skyWords({ cloud: null, precipitation: null, windSpeed: 15 }), "windy");
  equal(skyWords(null), null);
  equal(skyWords({ cloud: 30, windSpeed: 10.7 }), "fair 30%", "force 5 is not windy");
});

test("Beaufort from m/s at the WMO's bounds", () => {
  equal([0.4, 0.5, 1.5, 1.6, 10.7, 10.8, 32.6, 32.7, 50].map(beaufort), [0, 1, 1, 2, 5, 6, 11, 12, 12]);
});
test("speeds, depths and distances converted and labelled", () => {
  near(convert("speed", "kn", 10), 19.438, 0.001, "10 m/s in knots");
  near(convert("speed", "km/h", 10), 36, 1e-9);
  equal(convert("speed", "Bft", 10), 5, "10 m/s is force 5");
  near(convert("depth", "ft", 3.048), 10, 1e-9);
  near(convert("depth", "fathom", 1.8288), 1, 1e-9);
  near(convert("distance", "NM", 1852), 1, 1e-12);
  equal(convert("speed", "furlongs", 1), 3600 / 1852, "an unknown unit is the kind's first");
  equal([unitLabel("depth", "fathom"), unitLabel("speed", "m/s"), unitLabel("distance", "nope")], ["fm", "m/s", "NM"]);
});
test("numbers fixed, never '-0.0', a dash for nothing", () => {
  equal([fixed(1.25, 1), fixed(-0.04, 1), fixed(-0.0, 0), fixed(null, 1), fixed(undefined, 1), fixed(NaN, 2), fixed(Infinity, 0)],
    ["1.3", "0.0", "0", "—", "—", "—", "—"]);
});
test("bearings 000 to 359, signed angles in (−180, 180]", () => {
  equal([bearing(0), bearing(-0.1), bearing(2 * Math.PI), bearing(Math.PI / 2)], ["000", "354", "000", "090"]);
  equal([signedAngle(270 / DEG), signedAngle(-180 / DEG), signedAngle(180 / DEG)].map(Math.round), [-90, 180, 180]);
});
test("a countdown's clock", () => {
  equal([clockText(-65), clockText(65), clockText(0), clockText(-0.4)], ["−1:05", "+1:05", "+0:00", "+0:00"]);
});
test("a forecast's wind in words", () => {
  equal(compass(359.6), "000°");
  equal(compass(null), "—");
  equal(windText({ windDirection: 225, windSpeed: 7.2 }), "225° 14 kn");
  equal(windText({ windDirection: 225, windSpeed: null }), "—");
});
test("a point ahead on the sphere, and range and bearing back", () => {
  const north = ahead([50, -1], 0, 1852);
  near(north[0], 50 + 1 / 60, 1e-4, "one NM north is a minute of latitude");
  near(north[1], -1, 1e-9);
  const east = ahead([0, 0], 90, 1852);
  near(east[1], 1 / 60, 1e-4);
  const back = rangeBearing({ latitude: 50, longitude: -1 }, { latitude: north[0], longitude: north[1] });
  near(back.range, 1852, 3, "range");
  near(back.bearing, 0, 1e-6, "bearing");
});
test("wind barbs: a pennant for 50 kn, a feather for 10, half for 5; a circle for calm", () => {
  const count = (svg, tag) => (svg.match(new RegExp("<" + tag, "g")) || []).length;
  equal(count(barb(25, 0), "line"), 1 + 2 + 1, "25 kn: the staff, two feathers, a half");
  equal(count(barb(65, 90), "path"), 1, "65 kn: a pennant");
  equal(count(barb(65, 90), "line"), 1 + 1 + 1, "and a feather and a half");
  ok(barb(2, 0).startsWith("<circle"), "calm is a circle");
  ok(barb(15, 270).includes("rotate(270)"), "turned into the wind");
});

// ---- store.js --------------------------------------------------------------------------------------------------

test("Telltale's own value preferred while current; the freshest input's otherwise", () => {
  fresh();
  put("environment.wind.speedTrue", "instruments.WI", 6);
  at.time += 1;
  put("environment.wind.speedTrue", COMPUTED, 5);
  at.time += 1;
  put("environment.wind.speedTrue", "other.WI", 7);
  equal(reading("environment.wind.speedTrue").value, 5, "computed wins");
  put("environment.wind.speedTrue", COMPUTED, null);
  equal(reading("environment.wind.speedTrue").value, 7, "then the freshest input");
});
test("a value greyed past its timeout, blanked past twice that, greyed without a connection", () => {
  fresh();
  put("navigation.attitude", "imu", { roll: 0.1 });
  equal(reading("navigation.attitude").stale, false);
  at.time += 3.5;
  equal(reading("navigation.attitude").stale, true, "3 s timeout");
  at.time += 3;
  equal(reading("navigation.attitude"), null, "past 6 s");
  put("navigation.position", "gps", { latitude: 50.7, longitude: -1.3 });
  link.connected = false;
  equal(reading("navigation.position").stale, true, "no connection: never current");
  equal(position("navigation.position"), [50.7, -1.3]);
});
test("timeouts by path prefix; numbers only where numbers are", () => {
  fresh();
  equal([timeoutOf("environment.wind.angleApparent"), timeoutOf("navigation.magneticVariation"),
    timeoutOf("environment.depth.belowTransducer"), timeoutOf("notifications.mob")], [5, 3600, 10, Infinity]);
  put("navigation.datetime", "gps", "2026-06-21T10:00:00Z");
  equal(number("navigation.datetime"), null);
  put("environment.depth.belowTransducer", "sounder", 4.2);
  equal(number("environment.depth.belowTransducer").value, 4.2);
});

// ---- layouts.js ------------------------------------------------------------------------------------------------

test("the presets, the chart's strip as edited, the sailor's own after them; ashore the fleet alone", () => {
  fresh();
  equal(layouts(false).map(l => l.name), PRESETS.map(p => p.name));
  save("chart.strip", ["depth"]);
  save("layouts", [{ name: "Mine", tiles: ["aw"] }]);
  const all = layouts(false);
  equal(all.find(l => l.chart).tiles, ["depth"]);
  equal(all[all.length - 1].name, "Mine");
  equal(PRESETS.find(p => p.chart).tiles, ["speed", "depth", "aw", "heading"], "the preset itself untouched");
  equal(layouts(true), [{ name: "Fleet", fleet: true, tiles: [] }]);
});

// ---- history.js ------------------------------------------------------------------------------------------------

test("the heel's mean over the last 30 s only", () => {
  fresh();
  heelSamples.push([at.time - 40, 30], [at.time - 20, 10], [at.time - 10, 20]);
  equal(meanHeel(), 15);
  equal(heelSamples.length, 2, "older samples dropped");
  at.time += 100;
  equal(meanHeel(), null);
});
test("the sparklines seeded from the server's traces when it holds more", () => {
  fresh();
  traces.set("navigation.speedThroughWater", [[at.time, 3]]);
  take({ traceInterval: 1, traces: { "navigation.speedThroughWater": [2, null, 4, 5], "performance.velocityMadeGood": [1] } });
  equal(traces.get("navigation.speedThroughWater"), [[at.time - 3, 2], [at.time - 1, 4], [at.time, 5]]);
  take({ traceInterval: 1, traces: { "navigation.speedThroughWater": [9] } });
  equal(traces.get("navigation.speedThroughWater").length, 3, "not replaced by less");
  equal(history.traces["navigation.speedThroughWater"], [9], "the answer kept");
  seedTraces();
});

// ---- traffic.js ------------------------------------------------------------------------------------------------

test("AIS: those closing within 2 NM first, soonest first; then the nearest; none without a position", () => {
  const own = { latitude: 50, longitude: -1 };
  const at = (nm, bearingDeg) => { const p = ahead([50, -1], bearingDeg, nm * 1852); return { latitude: p[0], longitude: p[1] }; };
  const stations = [
    { mmsi: 1, position: at(1, 0), approach: { distance: 5000, timeTo: 60 } },
    { mmsi: 2, position: at(3, 90), approach: { distance: 300, timeTo: 900 } },
    { mmsi: 3, position: at(4, 180), approach: { distance: 100, timeTo: 300 } },
    { mmsi: 4, position: at(0.5, 270) },
    { mmsi: 5, approach: { distance: 10, timeTo: 10 } },
    { mmsi: 6, position: at(2, 45), approach: { distance: 10, timeTo: -60 } },
  ];
  const rows = ranked(stations, own);
  equal(rows.map(r => r.s.mmsi), [3, 2, 4, 1, 6]);
  near(rows[2].range, 926, 2);
  equal(bearing(rows[2].brg), "270");
  equal(ranked(stations, null), [], "no own position: nothing to range");
});
