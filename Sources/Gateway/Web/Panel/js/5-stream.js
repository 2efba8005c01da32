// ---- Alarms: Signal K notifications, acknowledged from here ------------------------------------------------------

function renderAlarms() {
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
    if (n.state === "alarm" || n.state === "emergency") {
      const b = document.createElement("button");
      b.textContent = "Acknowledge";
      b.onclick = () => command(path.split(".").join("/"), "acknowledge");
      row.appendChild(b);
    }
    return row;
  }));
}

// ---- The connection ----------------------------------------------------------------------------------------------

let connected = false, socket = null, lastMessage = 0, retry = 1, framePending = false;
function setConnected(up, text) {
  connected = up;
  const c = document.getElementById("connection");
  c.textContent = text;
  c.classList.toggle("down", !up);
  render();
}
function connect() {
  // Ashore there is no boat's stream: the fleet's page says how the broker's boats come in.
  if (fleet.on) return;
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/signalk/v1/stream?subscribe=self&sourcePolicy=all";
  try { socket = new WebSocket(url); } catch (e) { setTimeout(connect, 1000); return; }
  socket.onopen = () => { retry = 1; lastMessage = now(); setConnected(true, "live"); fetchHistory(); };
  socket.onmessage = event => {
    lastMessage = now();
    // Shown at the next frame (the 4 Hz redraw covers a tab in the background, where frames stop).
    if (!framePending) { framePending = true; requestAnimationFrame(() => { framePending = false; render(); }); }
    let message;
    try { message = JSON.parse(event.data); } catch (e) { return; }
    for (const update of message.updates || []) {
      const source = update.$source || "?";
      for (const item of update.values || []) put(item.path, source, item.value);
    }
  };
  socket.onclose = () => {
    socket = null;
    // Values kept but greyed: nothing is shown as current without a connection.
    setConnected(false, "disconnected: reconnecting…");
    setTimeout(connect, retry * 1000);
    retry = Math.min(5, retry + 1);
  };
}
// A silent link (Wi-Fi out of range) sends no close: five seconds without a message is a lost connection too.
setInterval(() => { if (socket && connected && now() - lastMessage > 5) { setConnected(false, "no data: reconnecting…"); socket.close(); } }, 1000);
// A sample a second for the sparklines and the heel mean.
setInterval(() => {
  const t = now();
  for (const path of ["navigation.speedThroughWater", "environment.depth.belowTransducer", "environment.depth.belowSurface", "performance.velocityMadeGood"]) {
    const r = number(path);
    if (!r || r.stale) continue;
    const trace = traces.get(path) || [];
    trace.push([t, r.value]);
    while (trace.length && trace[0][0] < t - 180) trace.shift();
    traces.set(path, trace);
  }
  const attitude = reading("navigation.attitude");
  if (attitude && !attitude.stale && typeof attitude.value.roll === "number") heelSamples.push([t, attitude.value.roll * DEG]);
}, 1000);
setInterval(render, 250);
setInterval(() => { if (connected) fetchHistory(); }, 10000);

theme(load("theme", "day"));
show(current);
connect();
