// The settings page's Calibration section: what the gateway learnt from the boat's sailing (GET
// /telltale/v1/calibration), learning again (POST), applying it (PUT) or taking the applied one off (DELETE).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const NAMES = { awa_offset: ["Wind angle offset", "°", 1], upwash_upwind: ["Upwash upwind", "°", 1],
    upwash_downwind: ["Upwash downwind", "°", 1], upwash_reach: ["Upwash reaching", "°", 1],
    speed_factor: ["Log factor", "", 3], speed_side: ["Log by tack (port +)", "", 3],
    aws_factor: ["Wind speed factor", "", 3] };
  const COUNTED = { upwash_downwind: " gybes", upwash_reach: " manoeuvres", speed_factor: " manoeuvres",
    speed_side: " manoeuvres",
    aws_factor: " bear-aways" };
  const fixed = (v, d) => (typeof v === "number" && isFinite(v) ? v.toFixed(d) : "–");
  const cell = (row, text, cls) => { const td = row.insertCell(); td.textContent = text; if (cls) td.className = cls; };

  function say(message, ok) {
    $("calibration-result").textContent = message;
    $("calibration-result").className = ok ? "ok" : "bad";
  }

  function headers() {
    let token = null;
    try { token = JSON.parse(localStorage.getItem("telltale.token") || "null"); } catch (e) { }
    return token ? { Authorization: "Bearer " + token } : {};
  }

  // The compass card learnt from the track (every 45°), the leeway, and whether the wind sees the card.
  function card(report) {
    const d = report.deviation;
    if (!d) return "";
    if (d.status === "not enough data") return `Compass card: not enough data (${d.pieces} steady pieces).`;
    const every = (d.table || []).filter((row) => row[0] % 45 === 0)
      .map((row) => `${String(row[0]).padStart(3, "0")}° ${row[1] >= 0 ? "+" : ""}${fixed(row[1], 1)}`);
    const lw = report.leeway || {};
    const checks = Object.entries(report.card_check || {}).map(([label, c]) =>
      `${label} ${fixed(c.slope, 2)} ± ${fixed(c.error, 2)}, ${c.says}`);
    return `Compass card: up to ${fixed(d.largest, 1)}° ± ${fixed(d.uncertainty, 1)} from ${d.pieces} steady pieces ` +
      `(${d.status}${d.applied ? ", applied" : ""})` + (every.length ? `: ${every.join(", ")}` : "") +
      `. Leeway ${fixed(lw.value, 1)}${lw.form === "heel" ? " × heel / STW²" : "° close-hauled"} (${lw.status || "–"}).` +
      (checks.length ? ` The card against the wind (−1: the heading's error, 0: unseen): ${checks.join("; ")}.` : "");
  }

  function draw(body) {
    const report = body.report || {};
    const values = $("calibration-values").tBodies[0];
    values.textContent = "";
    for (const [key, [name, unit, decimals]] of Object.entries(NAMES)) {
      const learnt = report[key] || {};
      const row = values.insertRow();
      row.dataset.key = key;
      cell(row, name);
      cell(row, fixed((body.applied || {})[key], decimals) + unit);
      cell(row, learnt.value === undefined ? "–" : fixed(learnt.value, decimals) + unit);
      cell(row, fixed(learnt.uncertainty, decimals));
      cell(row, learnt.count === undefined ? "" : learnt.count + (COUNTED[key] || " tacks"));
      cell(row, learnt.status || "", learnt.applied ? "ok" : "small");
    }
    const bands = (report.upwash_by_tws || []).map((b) => `${fixed(b.tws, 0)} kn ${fixed(b.upwind.value, 1)}° ` +
      `(${b.upwind.status})`);
    const reaches = (report.upwash_by_tws || []).filter((b) => b.reach && b.reach.count > 0)
      .map((b) => `${fixed(b.tws, 0)} kn ${fixed(b.reach.value, 1)}° (${b.reach.status})`);
    $("calibration-bands").textContent = (bands.length ? `Upwash upwind by wind speed: ${bands.join(", ")}` +
      (report.upwash_by_tws_applied ? "; applied by wind speed." : "; one value for every wind speed until two are sure.") : "") +
      (reaches.length ? ` Reaching: ${reaches.join(", ")}` +
        (report.upwash_reach_by_tws_applied ? "; applied by wind speed." : "; one value until two are sure.") : "");
    $("calibration-log-steps").textContent = (report.log_steps || []).map((s) =>
      `The log read ${fixed(Math.abs(s.ratio - 1) * 100, 0)} % ${s.ratio > 1 ? "more" : "less"}` +
      (s.wind_told && s.wind_ratio !== 1 ? ` and the wind speed ${fixed(Math.abs(s.wind_ratio - 1) * 100, 0)} % ` +
        `${s.wind_ratio > 1 ? "more" : "less"}` : "") +
      ` ${s.provisional ? "on the newest day," : "from"} ${(s.time || "").slice(0, 10)} (log factor ${fixed(s.factor_before, 3)} → ${fixed(s.factor_after, 3)}` +
      `${s.wind_told ? "" : "; whether the wind speed stepped with it, neither the roundings nor the tacks can tell: " +
        `it is taken to have, ${fixed(Math.abs(s.wind_ratio - 1) * 100, 0)} % ${s.wind_ratio > 1 ? "more" : "less"}` +
        (Math.abs(s.wind_ratio - s.ratio) > 1e-9 ? " than the stretch after it, as the steps after it were told" : "") +
        ", so that the true wind angle is not turned by a guess"}); the readings ` +
      `before are scaled to today's${s.provisional ? `; seen from ${s.count_after} manoeuvres, the log's factor since is provisional` : ""}.`).join(" ");
    $("calibration-card").textContent = card(report);
    const t = report.tacks || {}, g = report.gybes || {};
    $("calibration-bias").textContent = report.tacks ? `Tack bias ${fixed(t.bias_uncalibrated, 1)}° without, ` +
      `${fixed(t.bias_calibrated, 1)}° with the learnt calibration (${t.count} tacks); gybes ${fixed(g.bias_uncalibrated, 1)}° and ` +
      `${fixed(g.bias_calibrated, 1)}° (${g.count}).` : "";
    const n = report.newest_days;
    $("calibration-bias").textContent += n ? ` Checked on the newest ${n.days === 1 ? "day" : n.days + " days"} ` +
      `(from ${(n.from || "").slice(0, 10)}, ${n.tacks} tacks), learnt without ${n.days === 1 ? "it" : "them"}: median jump ` +
      `${fixed(n.median_jump_uncalibrated, 1)}° without, ${fixed(n.median_jump_calibrated, 1)}° with the calibration, ` +
      `tack bias ${fixed(n.bias_uncalibrated, 1)}° and ${fixed(n.bias_calibrated, 1)}°: ` +
      `${n.says}${n.says === "worse" ? " (not applied by itself)" : ""}.` : "";
    const list = $("calibration-manoeuvres").tBodies[0];
    list.textContent = "";
    for (const m of report.manoeuvres || []) {
      const row = list.insertRow();
      cell(row, (m.time || "").replace("T", " ").slice(0, 16));
      cell(row, `${m.kind} from ${m.from}`);
      cell(row, `${fixed(m.twd_before, 0)}° → ${fixed(m.twd_after, 0)}°`);
      cell(row, `${fixed(m.twd_before_calibrated, 0)}° → ${fixed(m.twd_after_calibrated, 0)}°`);
    }
    const auto = body.auto_applied;
    $("calibration-auto").textContent = body.auto ? `Learns by itself every ${fixed(body.auto_hours, 1)} h` +
      (auto ? `; applied by itself at ${(auto.at || "").slice(0, 16).replace("T", " ")}: ${(auto.changes || []).join(", ")}.` : "; nothing applied by itself yet.") +
      (body.auto_held ? ` Learnt by itself at ${(body.auto_held.at || "").slice(0, 16).replace("T", " ")} and not applied: ${body.auto_held.why}.` : "") : "";
    $("calibration-limited").textContent = (body.unreadable ? `The calibration file cannot be read (${body.unreadable}): the wind and the log ` +
      "run uncalibrated until one is applied or it is cleared. " : "") +
      (body.limited_seconds >= 1 ? `Applied only in part for ${fixed(body.limited_seconds, 0)} s since it was set: ` +
      "all of it would have turned the true wind or the heading more than 12° (the log changed since it was learnt, or a drift in a light air)." : "");
    $("calibration-apply").disabled = !body.learnt_ready;
    $("calibration-undo").disabled = !body.undo_ready;
    $("calibration-learn").disabled = body.state === "learning";
    if (body.state === "learning") say("learning from the history…", true);
    else if (body.state === "failed") say(body.message || "the learner failed", false);
    else if (body.state === "learnt") say(`learnt at ${(body.at || "").slice(0, 19).replace("T", " ")} from ${report.samples} s of sailing` +
      ((report.faults || []).length ? ": " + report.faults.join("; ") : ""), !(report.faults || []).length);
  }

  async function load() {
    const response = await fetch("/telltale/v1/calibration", { cache: "no-store" });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) { say(body.message || "no calibration on board (" + response.status + ")", false); return body; }
    draw(body);
    if (body.state === "learning") setTimeout(load, 1000);
    return body;
  }

  async function ask(method) {
    const response = await fetch("/telltale/v1/calibration", { method, headers: headers() });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) { say(body.message || "refused (" + response.status + ")", false); return; }
    draw(body);
    if (method === "POST") setTimeout(load, 1000);
    else say(method === "PUT" ? "applied: every computed number uses it now" : "taken off: the instruments as they read", true);
  }

  $("calibration-learn").onclick = () => ask("POST");
  $("calibration-apply").onclick = () => ask("PUT");
  $("calibration-undo").onclick = () => ask("DELETE");
  load().catch((error) => say("the calibration could not be read: " + error, false));
})();
