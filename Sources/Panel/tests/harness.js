// The panel's unit tests' harness (tests.js runs it): a test is a name and a body that throws on a failure; the
// store's clock is `at.time`, turned by the tests; `run()` lists each on the page and in `window.results`.
import { heelSamples } from "../history.js";
import { clock, link, store, traces } from "../store.js";

const tests = [];
export function test(name, body) { tests.push({ name, body }); }
export function equal(actual, expected, what = "") {
  const a = JSON.stringify(actual), e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what} ${a} is not ${e}`.trim());
}
export function near(actual, expected, tolerance, what = "") {
  if (!(Math.abs(actual - expected) <= tolerance)) throw new Error(`${what} ${actual} is not ${expected} ± ${tolerance}`.trim());
}
export function ok(condition, what) { if (!condition) throw new Error(what); }

// A clock the tests turn: the store's `now` reads it.
export const at = { time: 1000 };
clock.now = () => at.time;
export function fresh() {
  store.clear(); traces.clear(); heelSamples.length = 0; localStorage.clear();
  link.connected = true; link.fleet = false; at.time = 1000;
}

// ---- Run -------------------------------------------------------------------------------------------------------
export function run() {
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
}
