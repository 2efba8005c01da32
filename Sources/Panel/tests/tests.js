// Unit tests of the panel's pure modules, run in the browser the checks use (Tests/Panel/panel-unit-check.sh opens
// /tests/ on a gateway serving the working tree's Panel/). Each test is a name and a body that throws on a failure;
// the page lists each, and `window.results` holds what the check reads.
import { history, meanHeel, heelSamples, seedTraces, take } from "../history.js";
import { INSTRUMENTS } from "../instruments.js";
import { layouts, PRESETS } from "../layouts.js";
import { renderNotes } from "../notes.js";
import { clock, COMPUTED, link, number, position, put, reading, save, store, timeoutOf, traces } from "../store.js";
import { smooth, Tile } from "../tiles.js";
import { fromGPX, fromResource, legs, toGPX, toResource } from "../routes.js";
import { ranked } from "../traffic.js";
import { column, distance, passage, resolution } from "../trends.js";
import { passageLines } from "../historytiles.js";
import { expectation, judge, render, status } from "../pilot.js";
import { skyWords } from "../weather.js";
import {
  ahead, barb, beaufort, bearing, clock as clockText, compass, convert, DEG, fixed, rangeBearing, signedAngle, unitLabel,
  windText,
} from "../units.js";

const tests = [];
function test(name, body) { tests.push({ name, body }); }
function equal(actual, expected, what = "") {
  const a = JSON.stringify(actual), e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what} ${a} is not ${e}`.trim());
}
function near(actual, expected, tolerance, what = "") {
  if (!(Math.abs(actual - expected) <= tolerance)) throw new Error(`${what} ${actual} is not ${expected} ± ${tolerance}`.trim());
}
function ok(condition, what) { if (!condition) throw new Error(what); }

// A clock the tests turn: the store's `now` reads it.
let time = 1000;
clock.now = () => time;
function fresh() {
  store.clear(); traces.clear(); heelSamples.length = 0; localStorage.clear();
  link.connected = true; link.fleet = false; time = 1000;
}

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
  time += 1;
  put("environment.wind.speedTrue", COMPUTED, 5);
  time += 1;
  put("environment.wind.speedTrue", "other.WI", 7);
  equal(reading("environment.wind.speedTrue").value, 5, "computed wins");
  put("environment.wind.speedTrue", COMPUTED, null);
  equal(reading("environment.wind.speedTrue").value, 7, "then the freshest input");
});
test("a value greyed past its timeout, blanked past twice that, greyed without a connection", () => {
  fresh();
  put("navigation.attitude", "imu", { roll: 0.1 });
  equal(reading("navigation.attitude").stale, false);
  time += 3.5;
  equal(reading("navigation.attitude").stale, true, "3 s timeout");
  time += 3;
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
  heelSamples.push([time - 40, 30], [time - 20, 10], [time - 10, 20]);
  equal(meanHeel(), 15);
  equal(heelSamples.length, 2, "older samples dropped");
  time += 100;
  equal(meanHeel(), null);
});
test("the sparklines seeded from the server's traces when it holds more", () => {
  fresh();
  traces.set("navigation.speedThroughWater", [[time, 3]]);
  take({ traceInterval: 1, traces: { "navigation.speedThroughWater": [2, null, 4, 5], "performance.velocityMadeGood": [1] } });
  equal(traces.get("navigation.speedThroughWater"), [[time - 3, 2], [time - 1, 4], [time, 5]]);
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

// ---- instruments.js and tiles.js -------------------------------------------------------------------------------

// A tile's face as the instruments drive it, recorded.
function face(settings = {}) {
  const shown = {};
  return {
    shown, settings: { reference: "true", ...settings }, decimals: 0,
    speed(q, r) { shown[q] = r && r.value; }, angle(q, r) { shown[q] = r && r.value; },
    text(q, text, r, unit) { shown[q] = r ? text + unit : null; }, rotate(q, d) { shown["rotate:" + q] = d; },
    spark() { }, side(q, v) { shown["side:" + q] = v; }, limits() { }, length(q, r) { shown[q] = r && r.value; },
    setValue(q, text) { shown[q] = text; }, bar() { }, progress() { }, traffic() { }, windHistory() { }, heelHistory() { },
  };
}
test("true wind: direction true or magnetic as set, force, the arrow turned to the angle", () => {
  fresh();
  put("environment.wind.speedTrue", COMPUTED, 8);
  put("environment.wind.angleTrueWater", COMPUTED, -40 / DEG);
  put("environment.wind.directionTrue", COMPUTED, 45 / DEG);
  put("environment.wind.directionMagnetic", COMPUTED, 48 / DEG);
  const t = face();
  INSTRUMENTS.tw.update(t);
  equal([t.shown.twd, t.shown.bft, Math.round(t.shown["rotate:twa"])], ["045°T", "5Bft", -40]);
  const m = face({ reference: "magnetic" });
  INSTRUMENTS.tw.update(m);
  equal(m.shown.twd, "048°M");
});
test("heel: to starboard positive, its mean, both in degrees", () => {
  fresh();
  heelSamples.push([time - 1, 12], [time, 8]);
  put("navigation.attitude", COMPUTED, { roll: 12 / DEG, pitch: -2 / DEG });
  const t = face();
  INSTRUMENTS.heel.update(t);
  equal([t.shown.heel, t.shown.mean, Math.round(t.shown["side:heel"]), t.shown["side:mean"]], ["12°", "10°", 12, 10]);
  const p = face();
  p.decimals = 1;
  INSTRUMENTS.pitch.update(p);
  equal(p.shown.pitch, "-2.0°", "pitch: bow down negative");
});
test("the next waypoint: XTE with the side to steer (Signal K: positive is right of the line, steer left)", () => {
  fresh();
  put("navigation.courseGreatCircle.crossTrackError", COMPUTED, 0.2 * 1852);
  const t = face();
  INSTRUMENTS.waypoint.update(t);
  equal(t.shown.xte, "0.20 ◀ steer LNM");
  put("navigation.courseGreatCircle.crossTrackError", COMPUTED, -0.2 * 1852);
  INSTRUMENTS.waypoint.update(t);
  equal(t.shown.xte, "0.20 steer R ▶NM");
});
test("smoothing: none at 0 s, an exponential mean otherwise, angles across north", () => {
  fresh();
  equal(smooth("a", 5, 0, false), 5);
  equal(smooth("b", 0, 2, false), 0);
  time += 2;
  near(smooth("b", 10, 2, false), 10 * (1 - Math.exp(-1)), 1e-9);
  smooth("c", 350 / DEG, 2, true);
  time += 100;
  const across = smooth("c", 10 / DEG, 2, true) * DEG;
  ok(Math.abs(across - 10) < 0.01, `the mean of 350° and 10° long after is 10°, not ${across}`);
});
test("a tile on the page: its number in the unit chosen, greyed when stale, a dash when gone", () => {
  fresh();
  localStorage.setItem("telltale.settings.speed", JSON.stringify({ unit: "km/h", decimals: 1 }));
  put("navigation.speedThroughWater", COMPUTED, 2);
  const tile = new Tile("speed");
  tile.update();
  const value = tile.element.querySelector('[data-q="stw"]');
  equal([value.textContent, tile.element.querySelector('[data-u="stw"]').textContent], ["7.2", "km/h"]);
  time += 11;
  tile.update();
  ok(value.classList.contains("stale"), "greyed past its timeout");
  time += 10;
  tile.update();
  equal(value.textContent, "—");
});

test("the boot's notes shown under the header, one a line, and gone when the gateway stops saying them", () => {
  const box = document.createElement("div");
  box.id = "notes";
  document.body.appendChild(box);
  renderNotes(["The SD card's boot partition (TELLTALE) was not there at boot.\n"]);
  equal([box.hidden, box.children.length, box.textContent], [false, 1, "ⓘ The SD card's boot partition (TELLTALE) was not there at boot."]);
  renderNotes([]);
  equal([box.hidden, box.children.length], [true, 0]);
  box.remove();
});

// ---- routes.js ---------------------------------------------------------------------------------------------------

test("a leg's distance, bearing and time: one degree of latitude north, 60.04 NM, 000°", () => {
  const [leg] = legs([{ lat: 50, lon: -1 }, { lat: 51, lon: -1 }], 3.0866);
  near(leg.distance, 111195, 1, "distance");
  near(leg.bearing, 0, 1e-9, "bearing");
  near(leg.seconds, leg.distance / 3.0866, 1e-6, "seconds");
  const [east] = legs([{ lat: 0, lon: 0 }, { lat: 0, lon: 1 }], 0);
  near(east.bearing, 90, 1e-9, "east");
  equal(east.seconds, null, "no speed, no time");
});
test("GPX out and back: names, positions to 1e-7, characters escaped; a file with no route is refused", () => {
  const points = [{ lat: 50.1234567, lon: -1.2345678, name: "Start & <go>" }, { lat: 50.2, lon: -1.1, name: "B" }];
  const text = toGPX("Sunday \"race\"", points);
  const back = fromGPX(text);
  equal(back.name, 'Sunday "race"');
  equal(back.points, points);
  equal(fromGPX("<gpx><wpt lat='1' lon='2'><name>A</name></wpt><wpt lat='3' lon='4'/></gpx>").points.map(p => p.name), ["A", "WP2"]);
  equal(fromGPX("<gpx><rte><rtept lat='95' lon='0'/><rtept lat='1' lon='1'/></rte></gpx>"), null, "latitude 95");
  equal(fromGPX("not xml <"), null, "not XML");
  equal(fromGPX("<gpx><rte><rtept lat='1' lon='1'/></rte></gpx>"), null, "one point");
});
test("a route resource out and back: a LineString, its names in coordinatesMeta, the distance summed", () => {
  const points = [{ lat: 50, lon: -1, name: "A" }, { lat: 51, lon: -1, name: "B" }];
  const resource = toResource("R", points);
  equal(resource.feature.geometry, { type: "LineString", coordinates: [[-1, 50], [-1, 51]] });
  near(resource.distance, 111195, 1);
  equal(fromResource(resource), { name: "R", points });
});

// ---- trends.js -------------------------------------------------------------------------------------------------

test("a history answer's column, in order, nulls kept; the rows a window asks for", () => {
  const answer = { data: [["2026-06-21T10:00:00.000Z", 1, null], ["2026-06-21T10:01:00.000Z", null, 2]] };
  equal(column(answer, 0), [[1782036000, 1], [1782036060, null]]);
  equal(column(answer, 1), [[1782036000, null], [1782036060, 2]]);
  equal(column(null, 0), []);
  equal(resolution(1440, 180), 480);
  equal(resolution(10, 2800), 1, "never under a second");
});
test("a passage: the distance of the positions joined (a gap past 5 NM not sailed), time, speed, heel, wind", () => {
  // Due north a minute of latitude (1 NM) a row, 60 s apart, at 6 kn; then a jump of 10 NM (a gap), then 1 NM more.
  const row = (minute, lat, sog, rollMax, rollMin, twsLow, twsHigh) =>
    [new Date(Date.UTC(2026, 5, 21, 10, minute)).toISOString(), [-1.3, lat], sog, sog, rollMax, rollMin, twsLow, twsHigh];
  const kn = 1852 / 3600;
  const answer = { data: [
    row(0, 50, 6 * kn, 0.1, 0.05, 5, 7), row(1, 50 + 1 / 60, 6 * kn, 0.2, 0.1, 6, 8),
    row(2, 50 + 11 / 60, 0, -0.05, -0.3, 4, 9), row(3, 50 + 12 / 60, 6 * kn, 0, 0, 5, 6),
    [new Date(Date.UTC(2026, 5, 21, 10, 4)).toISOString(), null, null, null, null, null, null, null],
  ] };
  const p = passage(answer);
  near(p.metres / 1852, 2, 0.01, "two miles sailed, the 10 NM jump not");
  equal(p.seconds, 240, "from the first position to the last, and its row");
  equal(p.moving, 180, "three rows over half a knot");
  near(p.average, p.metres / 180, 1e-9, "the distance over the time moving");
  near(p.top / kn, 6, 1e-9);
  near(p.heel, -0.3 * 180 / Math.PI, 1e-9, "the greatest heel either side: 17° to port");
  equal(p.wind, [4, 9]);
  const lines = passageLines(p);
  equal(lines.distance, "2.0 NM");
  equal(lines.time, "0h04 (0h03 moving)");
  equal(lines.heel, "17° P");
  equal(passage({ data: [["2026-06-21T10:00:00.000Z", null, 1, 1, 0, 0, 1, 1]] }), null, "no position: no passage");
  near(distance([0, 0], [0, 1]), 111195, 1, "a degree of latitude");
});

// ---- pilot.js --------------------------------------------------------------------------------------------------

test("an autopilot command counts as taken only when the pilot's own state says so", () => {
  fresh();
  const before = { state: "auto", mode: "compass", target: 1.0, magnetic: true };
  const plus10 = expectation("target/adjust", { value: 10 }, before);
  ok(!plus10(before), "the target as it was is not taken");
  ok(plus10({ ...before, target: 1.0 + 10 / DEG }), "10° more is");
  ok(!plus10({ ...before, target: 1.0 + 12 / DEG }), "12° more is not");
  ok(expectation("target/adjust", { value: -10 }, { ...before, target: 5 / DEG })({ ...before, target: 355 / DEG }),
    "across north");
  ok(expectation("engage", {}, before)({ state: "auto" }) && !expectation("disengage", {}, before)({ state: "auto" }),
    "engage and standby by the state");
  ok(expectation("mode", { value: "wind" }, before)({ ...before, mode: "wind" }), "a mode by the mode");
  ok(expectation("tack/port", {}, before)({ ...before, target: 1.0 - 90 / DEG }), "a tack moves the target far");
  ok(!expectation("tack/port", {}, before)({ ...before, target: 1.0 - 5 / DEG }), "5° is no tack");
});

test("sent, then taken, or not taken after 5 s; the answer shown 4 s", () => {
  fresh();
  Object.assign(status, { action: "target/adjust", sentAt: 1000, check: p => p.target === 2, outcome: "sent" });
  equal(judge({ target: 1 }, 1001), "sent");
  equal(judge({ target: 2 }, 1002), "taken");
  equal(judge({ target: 1 }, 1005), "taken", "still shown");
  equal(judge({ target: 1 }, 1006.5), "", "then gone");
  Object.assign(status, { action: "engage", sentAt: 1010, check: p => p.state === "auto" });
  equal(judge({ state: "standby" }, 1014), "sent");
  equal(judge({ state: "standby" }, 1015.5), "not taken");
});

test("the autopilot tile from the stream: state and mode, a heading with its north, a wind angle with its side", () => {
  fresh();
  put("steering.autopilot.state", "raymarine-204", "auto");
  put("steering.autopilot.mode", "raymarine-204", "wind");
  put("steering.autopilot.target.windAngleApparent", "raymarine-204", -40 / DEG);
  const t = new Tile("pilot");
  render(t);
  equal(t.q("pilot-state").textContent, "AUTO · WIND");
  equal(t.q("pilot-target").textContent, "40");
  equal(t.element.querySelector('[data-u="pilot-target"]').textContent, "° AWA P");
  ok(t.element.classList.contains("pilot-engaged"), "engaged");
  put("steering.autopilot.mode", "raymarine-204", "compass");
  put("steering.autopilot.target.headingMagnetic", "raymarine-204", 7 / DEG);
  render(t);
  equal(t.q("pilot-target").textContent, "007");
  equal(t.element.querySelector('[data-u="pilot-target"]').textContent, "°M");
  put("steering.autopilot.state", "raymarine-204", "off-line");
  render(t);
  equal(t.q("pilot-state").textContent, "OFF-LINE");
  ok(t.element.classList.contains("pilot-offline"), "off-line shown");
});

test("the laylines' Tack now: only with the pilot steering, lit at the layline, the way the wind says", () => {
  fresh();
  const t = new Tile("layline");
  put("navigation.racing.layline.distance", COMPUTED, 400);
  put("navigation.racing.layline.time", COMPUTED, 95);
  put("environment.wind.angleTrueWater", COMPUTED, -0.7);
  t.update();
  const button = t.element.querySelector("[data-tack-now]");
  ok(button.hidden, "hidden without a pilot steering");
  put("steering.autopilot.state", "raymarine-204", "auto");
  t.update();
  ok(!button.hidden && !button.classList.contains("due"), "shown, not yet due");
  equal(button.dataset.side, "port");
  put("navigation.racing.layline.time", COMPUTED, 8);
  t.update();
  ok(button.classList.contains("due"), "lit within 10 s of the layline");
});

// ---- Run -------------------------------------------------------------------------------------------------------

const list = document.getElementById("results");
const results = { passed: 0, failed: 0, tests: [] };
for (const { name, body } of tests) {
  let error = null;
  try { body(); } catch (e) { error = e && e.message ? e.message : String(e); }
  results.tests.push({ name, ok: !error, error });
  if (error) results.failed++; else results.passed++;
  const item = document.createElement("li");
  item.className = error ? "fail" : "ok";
  item.textContent = (error ? "FAIL " : "ok ") + name + (error ? ": " + error : "");
  list.appendChild(item);
}
document.getElementById("summary").textContent = `${results.passed} passed, ${results.failed} failed`;
window.results = results;
