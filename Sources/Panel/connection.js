// The connection: the gateway's Signal K stream into the store, reconnecting; the samples the sparklines draw.
import { fetchHistory, heelSamples } from "./history.js";
import { changed, link, now, number, put, reading, traces } from "./store.js";
import { DEG } from "./units.js";

let socket = null, lastMessage = 0, retry = 1, framePending = false;
export function setConnected(up, text) {
  link.connected = up;
  const c = document.getElementById("connection");
  c.textContent = text;
  c.classList.toggle("down", !up);
  changed();
}
// The stream closed for good (ashore, the fleet's page reads the fleet instead).
export function disconnect() {
  if (socket) { socket.onclose = null; socket.close(); socket = null; }
}
export function connect() {
  // Ashore there is no boat's stream: the fleet's page says how the broker's boats come in.
  if (link.fleet) return;
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/signalk/v1/stream?subscribe=self&sourcePolicy=all";
  try { socket = new WebSocket(url); } catch (e) { setTimeout(connect, 1000); return; }
  socket.onopen = () => { retry = 1; lastMessage = now(); setConnected(true, "live"); fetchHistory(); };
  socket.onmessage = event => {
    lastMessage = now();
    // Shown at the next frame (the 4 Hz redraw covers a tab in the background, where frames stop).
    if (!framePending) { framePending = true; requestAnimationFrame(() => { framePending = false; changed(); }); }
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
// The connection's clocks: a silent link (Wi-Fi out of range) sends no close, so five seconds without a message is a
// lost connection too; a sample a second for the sparklines and the heel mean; the server's history every 10 s.
export function startConnection() {
  setInterval(() => {
    if (socket && link.connected && now() - lastMessage > 5) { setConnected(false, "no data: reconnecting…"); socket.close(); }
  }, 1000);
  setInterval(sample, 1000);
  setInterval(() => { if (link.connected) fetchHistory(); }, 10000);
  connect();
}
function sample() {
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
}

