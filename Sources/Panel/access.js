// Access: reading is open; changing things needs this device approved aboard (Signal K's device access).
//
// The device asks with a Signal K access request (POST /signalk/v1/access/requests), keeps the request's address and
// asks it until someone answers: `telltale access approve` on the Pi, or the panel of a device approved as admin
// (below). The token it is given is kept in this browser and sent with every change. A device the gateway trusts by
// its network (put_networks) needs none.
import { forget, load, save } from "./store.js";
import { toast } from "./ui.js";

let standing = { changes: false, admin: false, by: "none" };
const knownRequests = new Set();
export function token() { return load("token", null); }
export function authorised(headers) {
  const t = token();
  return t ? Object.assign({}, headers, { Authorization: "Bearer " + t }) : headers;
}
export function refused() {
  toast("Read only: ask for access in the menu");
  refreshAccess();
}

// A change sent to the gateway (a PUT below vessels/self) with this device's token; the gateway's words shown when it
// refuses.
export async function command(path, value) {
  try {
    const response = await fetch("/signalk/v1/api/vessels/self/" + path, {
      method: "PUT", headers: authorised({ "Content-Type": "application/json" }), body: JSON.stringify({ value }) });
    // The gateway says what it did, or why it could not ("no position: ...", "the race timer is not counting down").
    let message = "";
    try { message = (await response.json()).message || ""; } catch (e) { }
    if (response.status === 401 || response.status === 403) { refused(); return; }
    if (!response.ok) toast(message || "Refused (" + response.status + ")");
  } catch (e) { toast("No connection"); }
}

// A tack of the default autopilot (the laylines' "Tack now"), to `side`; the gateway says it aloud and sends it 5 s on.
export async function pilotTack(side) {
  try {
    const response = await fetch("/signalk/v2/api/vessels/self/autopilots/_default/tack/" + side,
      { method: "POST", headers: authorised({}) });
    let message = "";
    try { message = (await response.json()).message || ""; } catch (e) { }
    if (response.status === 401 || response.status === 403) { refused(); return; }
    toast(response.ok ? "Tacking to " + side + " in 5 s" : message || "Refused (" + response.status + ")");
  } catch (e) { toast("No connection"); }
}

// A Signal K clientId is a UUID the device makes once (crypto.randomUUID is only there over https or on localhost).
export function clientId() {
  let id = load("clientId", null);
  if (!id) {
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
    const h = Array.from(b, x => x.toString(16).padStart(2, "0")).join("");
    id = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    save("clientId", id);
  }
  return id;
}

export async function refreshAccess() {
  try {
    // A request waiting: has it been answered?
    const asked = load("accessRequest", null);
    if (asked) {
      const r = await fetch(asked.href, { cache: "no-store" });
      if (r.status === 404) forget("accessRequest");
      const body = r.ok ? await r.json() : {};
      if (body.state === "COMPLETED") {
        forget("accessRequest");
        const answer = body.accessRequest || {};
        if (answer.permission === "APPROVED" && answer.token) { save("token", answer.token); toast("Access approved"); }
        else toast("Access denied");
      }
    }
    const r = await fetch("/telltale/v1/access/self", { headers: authorised({}), cache: "no-store" });
    if (!r.ok) return;
    standing = await r.json();
    if (standing.tokenRefused) { forget("token"); toast("This device's access was revoked"); }
    renderAccess();
    if (standing.admin) await listRequests();
  } catch (e) { }
}

function renderAccess() {
  const asked = load("accessRequest", null);
  const state = document.getElementById("access-state");
  const device = standing.device;
  if (standing.by === "network") state.textContent = "This device may change things: the gateway trusts its network.";
  else if (device) state.textContent = `Approved as “${device.description}” (${device.permissions === "admin" ? "may change things and approve others" : device.permissions === "readwrite" ? "may change things" : "read only"}).`;
  else if (asked) state.textContent = `Waiting for approval of “${asked.name}”: on the Pi, telltale access approve ${asked.id.slice(0, 8)}; or from the panel of an approved device.`;
  else state.textContent = "Read only: this device can see everything but change nothing (race timer, route, alarms) until it is approved.";
  document.getElementById("access-ask").hidden = standing.changes || !!asked;
  const name = document.getElementById("access-name");
  if (!name.value) name.value = load("deviceName", "") || (/Mobi|Android|iPhone/.test(navigator.userAgent) ? "Phone" : "Tablet");
  if (!standing.admin) document.getElementById("access-list").replaceChildren();
}

async function requestAccess() {
  const name = document.getElementById("access-name").value.trim() || "Telltale panel";
  save("deviceName", name);
  const permissions = document.getElementById("access-admin").checked ? "admin" : "readwrite";
  try {
    const r = await fetch("/signalk/v1/access/requests", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ clientId: clientId(), description: name, permissions }) });
    const body = await r.json();
    if (!r.ok || !body.href) { toast(body.message || "Refused (" + r.status + ")"); return; }
    save("accessRequest", { id: body.requestId, href: body.href, name });
    toast("Access requested");
  } catch (e) { toast("No connection"); }
  refreshAccess();
}

// An admin device answers the others from here; its menu button shows a dot while one waits.
async function listRequests() {
  const r = await fetch("/telltale/v1/access", { headers: authorised({}), cache: "no-store" });
  if (!r.ok) return;
  const all = await r.json();
  const waiting = (all.requests || []).filter(q => q.state === "pending");
  document.getElementById("menu-badge").hidden = waiting.length === 0;
  for (const q of waiting) if (!knownRequests.has(q.requestId)) { knownRequests.add(q.requestId); toast("Access asked: " + q.description); }
  const row = (text, buttons) => {
    const div = document.createElement("div");
    div.textContent = text;
    for (const [label, act] of buttons) { const b = document.createElement("button"); b.textContent = label; b.onclick = act; div.appendChild(b); }
    return div;
  };
  const answer = (method, path, value) => async () => {
    const a = await fetch("/telltale/v1/access/" + path, { method, headers: authorised({ "Content-Type": "application/json" }),
      body: value ? JSON.stringify({ value }) : undefined });
    const body = await a.json().catch(() => ({}));
    toast(body.message || (a.ok ? "Done" : "Refused (" + a.status + ")"));
    refreshAccess();
  };
  const rows = waiting.map(q => row(`${q.description} (${q.permissions}, from ${q.address}) asks for access`,
    [["Approve", answer("PUT", "requests/" + q.requestId, "approve")], ["Deny", answer("PUT", "requests/" + q.requestId, "deny")]]));
  for (const d of all.devices || []) {
    rows.push(row(`${d.description}: ${d.permissions}`, [["Revoke", answer("DELETE", "devices/" + encodeURIComponent(d.clientId))]]));
  }
  const heading = document.createElement("h3");
  heading.textContent = "Devices";
  document.getElementById("access-list").replaceChildren(...(rows.length ? [heading].concat(rows) : []));
}

// The menu's access section wired, and asked often while a request waits, else now and then (a revoked token is
// forgotten; an admin sees new requests).
export function startAccess() {
  document.getElementById("access-request").onclick = requestAccess;
  let ticks = 0;
  setInterval(() => {
    ticks++;
    if (load("accessRequest", null) || document.getElementById("menu").open || ticks % 10 === 0) refreshAccess();
  }, 3000);
  refreshAccess();
}
