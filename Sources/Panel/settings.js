// The gateway's settings page: the configuration file edited as text (checked and saved by the gateway itself, with
// the same checks as `telltale check-config`) and, on the Telltale image, the boat's Wi-Fi access point.
"use strict";
const $ = (id) => document.getElementById(id);
let original = "";

// The token the instruments page was given when this device was approved (its menu asks for access); the settings
// need a device approved as admin, or one on a network the gateway trusts.
function authorised(headers) {
  let token = null;
  try { token = JSON.parse(localStorage.getItem("telltale.token") || "null"); } catch (e) { }
  return token ? Object.assign({}, headers, { Authorization: "Bearer " + token }) : headers;
}
const NOT_ADMIN = "This device may not see or change the gateway's settings: on the instruments page, open the menu " +
  "and request access with \"approve other devices and change the gateway's settings\" ticked.";

function show(message, ok) {
  $("result").textContent = message;
  $("result").className = ok ? "ok" : "bad";
}

// The panel's theme (day, night, red), as the instruments page saved it.
function theme() {
  try {
    const saved = JSON.parse(localStorage.getItem("telltale.theme") || "null");
    if (saved) document.body.className = "theme-" + saved + " settings-page";
  } catch (e) { }
}

function network(info) {
  const box = $("network");
  if (!info) return;
  box.textContent = "";
  const rows = [];
  if (info.mode === "access-point" || info.mode === "join-then-access-point") {
    rows.push(["The boat's access point", info.ssid], ["Passphrase", info.passphrase], ["Its address", info.address]);
  }
  if (info.joins && info.joins.length) rows.push(["Joins", info.joins.join(", ")]);
  if (info.mode === "join-then-access-point") rows.push(["", "The access point comes up when none of these is in reach."]);
  if (info.mode === "off") rows.push(["Wi-Fi", "off"]);
  const table = document.createElement("table");
  for (const [name, value] of rows) {
    const tr = table.insertRow();
    tr.insertCell().textContent = name;
    const cell = tr.insertCell();
    cell.textContent = value;
    if (name === "Passphrase") cell.className = "secret";
  }
  box.append(table);
  const p = document.createElement("p");
  p.className = "small";
  p.textContent = "To change the Wi-Fi, edit network.toml on the SD card's boot partition (on any computer).";
  box.append(p);
}

async function load() {
  const response = await fetch("/telltale/v1/settings", { cache: "no-store", headers: authorised({}) });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    const denied = response.status === 401 || response.status === 403;
    show(denied ? NOT_ADMIN : body.message || "the settings could not be read (" + response.status + ")", false);
    $("save").disabled = $("check").disabled = true;
    return;
  }
  $("version").textContent = "Telltale " + body.version;
  const configuration = body.configuration || {};
  $("path").textContent = configuration.path || "none: the gateway runs on command-line flags";
  original = configuration.text || "";
  $("text").value = original;
  $("save").disabled = !configuration.path || configuration.writable === false;
  if (configuration.path && configuration.writable === false) show(configuration.path + " is read-only here: it can be checked, not saved.", false);
  network(body.network);
  const notes = $("notes");
  notes.textContent = "";
  for (const note of body.notes || []) {
    const pre = document.createElement("pre");
    pre.className = "bad";
    pre.textContent = note;
    notes.append(pre);
  }
  notes.hidden = !(body.notes || []).length;
}

async function send(what) {
  show(what === "check" ? "checking…" : "saving…", true);
  try {
    const response = await fetch("/telltale/v1/settings/" + what, { method: "PUT", body: $("text").value,
      headers: authorised({ "Content-Type": "text/plain; charset=utf-8" }) });
    const body = await response.json().catch(() => ({ message: "no answer" }));
    show(response.status === 401 || response.status === 403 ? NOT_ADMIN : body.message, response.ok);
    if (response.ok && what === "configuration") {
      original = $("text").value;
      setTimeout(() => load().catch(() => {}), 3000);
    }
  } catch (error) {
    show("the gateway did not answer: " + error, false);
  }
}

$("check").onclick = () => send("check");
$("save").onclick = () => send("configuration");
$("reload").onclick = () => { $("text").value = original; show("", true); };
theme();
load().catch((error) => show("the settings could not be read: " + error, false));
