// The alarms: Signal K notifications above the page, acknowledged from here.
import { command } from "./access.js";
import { link, store } from "./store.js";

export function renderAlarms() {
  const box = document.getElementById("alarms");
  const active = [];
  for (const [path, sources] of store) {
    if (!path.startsWith("notifications.")) continue;
    for (const entry of sources.values()) {
      const n = entry.value;
      if (n && typeof n === "object" && n.state && n.state !== "normal") active.push({ path, n });
    }
  }
  box.hidden = active.length === 0;
  const key = active.map(a => a.path + a.n.state).join();
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren(...active.map(({ path, n }) => {
    const row = document.createElement("div");
    row.textContent = (n.state === "alarm" || n.state === "emergency" ? "⚠ " : "") + (n.message || path);
    // Ashore: shown, never acknowledged on her (the shore's alerts are on the Fleet layout).
    if ((n.state === "alarm" || n.state === "emergency") && !link.boat) {
      const b = document.createElement("button");
      b.textContent = "Acknowledge";
      b.onclick = () => command(path.split(".").join("/"), "acknowledge");
      row.appendChild(b);
    }
    return row;
  }));
}
