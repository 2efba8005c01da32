// The panel's faces: the instruments on their tiles, routes, trends and passages, the autopilot tile (tests.js runs
// them).
import { heelSamples } from "../history.js";
import { INSTRUMENTS } from "../instruments.js";
import { renderNotes } from "../notes.js";
import { COMPUTED, put } from "../store.js";
import { smooth, Tile } from "../tiles.js";
import { fromGPX, fromResource, legs, toGPX, toResource } from "../routes.js";
import { column, distance, passage, resolution } from "../trends.js";
import { passageLines } from "../historytiles.js";
import { expectation, judge, render, status } from "../pilot.js";
import { DEG } from "../units.js";
import { at, equal, fresh, near, ok, test } from "./harness.js";

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
  heelSamples.push([at.time - 1, 12], [at.time, 8]);
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
  at.time += 2;
  near(smooth("b", 10, 2, false), 10 * (1 - Math.exp(-1)), 1e-9);
  smooth("c", 350 / DEG, 2, true);
  at.time += 100;
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
  at.time += 11;
  tile.update();
  ok(value.classList.contains("stale"), "greyed past its timeout");
  at.time += 10;
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
