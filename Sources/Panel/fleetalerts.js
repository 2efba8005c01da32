// The boat watch's alerts on the Fleet layout (`telltale fleet`, ashore): the anchor dragging, a boat gone silent, a
// boat's own alarm, each with its time and an Acknowledge button (no more repeats; its all clear still comes). Behind
// the shore's accounts, a Log out button too, and "Notify this phone" (fleetpush.js) where the phone and shore can.
import { esc } from "./fleet.js";
import { pushButton } from "./fleetpush.js";

export function openAlerts(element) {
  const box = document.createElement("div");
  box.className = "fleet-alerts";
  box.setAttribute("role", "alert");
  element.prepend(box);
  let push = null;
  pushButton().then(button => { push = button; draw(); });
  const draw = async () => {
    let data;
    try {
      const r = await fetch("/telltale/v1/fleet/alerts", { cache: "no-store" });
      if (r.status === 401) { location.replace("/login.html"); return; }
      if (!r.ok) return;
      data = await r.json();
    } catch (e) { return; }
    const rows = (data.alerts || []).map(a =>
      `<p class="fleet-alert${a.acknowledged ? " seen" : ""}" data-boat="${esc(a.boat)}" data-kind="${esc(a.kind)}">` +
      `<b>${esc(a.message)}</b> <span class="small">${esc((a.time || "").slice(11, 16))} UTC</span>` +
      (a.acknowledged ? " <span class=\"small\">seen</span>" : ` <button class="fleet-ack">Acknowledge</button>`) + "</p>");
    const out = data.role ? `<button class="fleet-logout">Log out</button>` : "";
    box.innerHTML = rows.join("") + out;
    if (push) box.append(push);
    box.hidden = !rows.length && !out && !push;
    for (const button of box.querySelectorAll(".fleet-ack")) {
      button.onclick = async () => {
        const p = button.parentElement;
        const query = new URLSearchParams({ boat: p.dataset.boat, kind: p.dataset.kind });
        await fetch(`/telltale/v1/fleet/alerts/acknowledge?${query}`, { method: "POST" });
        draw();
      };
    }
    const logout = box.querySelector(".fleet-logout");
    if (logout) logout.onclick = async () => {
      await fetch("/telltale/v1/logout", { method: "POST" });
      location.replace("/login.html");
    };
  };
  draw();
  setInterval(draw, 3000);
}
