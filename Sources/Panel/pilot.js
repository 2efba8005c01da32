// The autopilot: its tile (state, mode, target, the keys a wet thumb can hit) and the commands it sends to the default
// pilot through Signal K's Autopilot API. A command is only "taken" when the pilot's own state comes back saying so
// (steering.autopilot.*, which the gateway reads from the pilot's PGNs): until then it shows as sent, and after a few
// seconds without it as not taken. Engage is a long press; standby is one tap (taking the helm must be quick).
import { authorised, refused } from "./access.js";
import { now, reading } from "./store.js";
import { toast } from "./ui.js";

const API = "/signalk/v2/api/vessels/self/autopilots/_default/";
const DEG = 180 / Math.PI;
// Seconds a command waits for the pilot to say it was taken.
export const CONFIRM_SECONDS = 5;
// How long a press on Engage must last.
export const HOLD_SECONDS = 0.8;

// The default pilot as the stream says it is: state, mode and target (radians: a heading, or in wind mode the apparent
// wind angle, positive starboard).
export function pilotNow() {
  const v = p => { const r = reading("steering.autopilot." + p); return r && !r.stale ? r.value : null; };
  const mode = v("mode");
  const magnetic = v("target.headingMagnetic");
  const target = mode === "wind" ? v("target.windAngleApparent") : magnetic !== null ? magnetic : v("target.headingTrue");
  return { state: v("state"), mode, target: typeof target === "number" ? target : null, magnetic: magnetic !== null };
}

// What the pilot must say for a command to count as taken, from what it said when the command was sent. Pure.
export function expectation(action, body, before) {
  const turn = (a, b) => Math.abs(((a - b + 3 * Math.PI) % (2 * Math.PI)) - Math.PI);
  switch (action) {
    case "engage": return p => p.state === "auto";
    case "disengage": return p => p.state === "standby";
    case "mode": return p => p.mode === body.value;
    case "target/adjust": {
      const change = body.value / DEG;
      if (before.target === null) return p => p.target !== null;
      const wanted = before.target + change;
      return p => p.target !== null && turn(p.target, wanted) < 0.6 / DEG;
    }
    case "tack/port": case "tack/starboard": case "gybe/port": case "gybe/starboard":
      return p => p.target !== null && before.target !== null && turn(p.target, before.target) > 20 / DEG;
    default: return p => p.state !== null;
  }
}

export const status = { action: null, sentAt: 0, check: null, outcome: "", decidedAt: -Infinity };
// Seconds the pilot's answer stays on the tile.
const SHOWN_SECONDS = 4;

// Sends one command to the default pilot; the tile follows whether the pilot takes it.
export async function pilotCommand(method, action, body) {
  const before = pilotNow();
  status.action = action; status.sentAt = now(); status.check = expectation(action, body || {}, before); status.outcome = "sent";
  // A tack or gybe is said aloud and sent 5 s later: the pilot has that much longer to answer.
  status.waits = /^(tack|gybe)/.test(action) ? CONFIRM_SECONDS + 7 : CONFIRM_SECONDS;
  try {
    const response = await fetch(API + action, {
      method, headers: authorised({ "Content-Type": "application/json" }), body: body ? JSON.stringify(body) : undefined });
    let message = "";
    try { message = (await response.json()).message || ""; } catch (e) { }
    if (response.status === 401 || response.status === 403) { status.outcome = ""; status.action = null; refused(); return; }
    if (!response.ok) {
      status.outcome = "refused"; status.action = null; status.decidedAt = now();
      toast(message || "Refused (" + response.status + ")");
    }
  } catch (e) { status.outcome = ""; status.action = null; toast("No connection"); }
}

// The tile's words for the command under way: sent, taken, or not taken.
export function judge(p, t) {
  if (!status.action) return t - status.decidedAt < SHOWN_SECONDS ? status.outcome : "";
  if (status.check(p)) { status.action = null; status.outcome = "taken"; status.decidedAt = t; return "taken"; }
  if (t - status.sentAt > (status.waits || CONFIRM_SECONDS)) { status.action = null; status.outcome = "not taken"; status.decidedAt = t; return "not taken"; }
  return "sent";
}

const key = (action, label, value) =>
  `<button class="pilot-key" data-pilot="${action}"${value !== undefined ? ` data-value="${value}"` : ""}>${label}</button>`;

// The tile's markup, put in its body the first time it is drawn (this module is loaded then, not with the page).
const HTML = () => `<div class="numbers pilot"><div class="pilot-head"><b class="v pilot-state" data-q="pilot-state">—</b>` +
    `<span class="pilot-outcome" data-q="pilot-outcome"></span></div>` +
    `<div class="big"><span class="v" data-q="pilot-target">—</span><span class="unit" data-u="pilot-target"></span></div>` +
    `<div class="pilot-row">${key("disengage", "Standby")}` +
    `<button class="pilot-key pilot-engage" data-pilot="engage">Hold to engage</button></div>` +
    `<div class="pilot-row">${key("adjust", "−10", -10)}${key("adjust", "−1", -1)}${key("adjust", "+1", 1)}${key("adjust", "+10", 10)}</div>` +
    `<div class="pilot-row">${key("tack/port", "⟲ Tack")}${key("tack/starboard", "Tack ⟳")}${key("dodge", "Dodge")}</div>` +
    `<div class="pilot-row">${key("mode", "Compass", "compass")}${key("mode", "Wind", "wind")}${key("mode", "Route", "route")}</div></div>`;

export function render(t) {
  if (!t.q("pilot-state")) t.element.querySelector(".body").innerHTML = HTML();
  {
    const p = pilotNow();
    t.setValue("pilot-state", p.state === null ? null : (p.state + (p.mode && p.state === "auto" ? " · " + p.mode : "")).toUpperCase(),
      false, "");
    t.element.classList.toggle("pilot-engaged", p.state === "auto");
    t.element.classList.toggle("pilot-offline", p.state === "off-line");
    if (p.target === null) t.setValue("pilot-target", null, false, "");
    else if (p.mode === "wind") {
      const d = p.target * DEG;
      t.setValue("pilot-target", (Math.abs(d)).toFixed(0), false, Math.abs(d) < 0.5 ? "° AWA" : d > 0 ? "° AWA S" : "° AWA P");
    } else t.setValue("pilot-target", String(Math.round(((p.target * DEG) % 360 + 360) % 360)).padStart(3, "0"), false, p.magnetic ? "°M" : "°T");
    const outcome = judge(p, now());
    const o = t.q("pilot-outcome");
    if (o) { o.textContent = outcome; o.className = "pilot-outcome " + outcome.replace(" ", "-"); }
  }
}

// The keys: a tap sends, except Engage, which needs a press of HOLD_SECONDS (a stray touch must not take the helm).
let holding = null;
export function startPilot(root) {
  root.addEventListener("pointerdown", e => {
    const b = e.target.closest("button.pilot-engage");
    if (!b) return;
    b.classList.add("holding");
    holding = setTimeout(() => { holding = null; b.classList.remove("holding"); pilotCommand("POST", "engage"); }, HOLD_SECONDS * 1000);
  });
  const cancel = () => {
    if (holding) { clearTimeout(holding); holding = null; toast("Hold Engage to engage"); }
    for (const b of root.querySelectorAll("button.pilot-engage.holding")) b.classList.remove("holding");
  };
  root.addEventListener("pointerup", cancel);
  root.addEventListener("pointercancel", cancel);
  root.addEventListener("click", e => {
    const b = e.target.closest("button[data-pilot]");
    if (!b || b.dataset.pilot === "engage") return;
    const action = b.dataset.pilot;
    if (action === "adjust") pilotCommand("PUT", "target/adjust", { value: Number(b.dataset.value), units: "deg" });
    else if (action === "mode") pilotCommand("PUT", "mode", { value: b.dataset.value });
    else if (action === "dodge") pilotCommand("POST", "dodge");
    else pilotCommand("POST", action);
  });
}
