// What the server keeps that this page has not seen: the wind and heel history, the sparklines' last minutes, the heel
// alarm's limit (/telltale/v1/history); and the heel's 30-second mean, from the samples this page takes.
import { now, traces } from "./store.js";

export const heelSamples = []; // [t, degrees], the last 30 s
export function meanHeel() {
  const cut = now() - 30;
  while (heelSamples.length && heelSamples[0][0] < cut) heelSamples.shift();
  if (heelSamples.length === 0) return null;
  return heelSamples.reduce((s, x) => s + x[1], 0) / heelSamples.length;
}
export let history = { windInterval: 10, speedTrue: [], directionTrue: [], roll: [], heelAlarm: {}, traces: {} };
export async function fetchHistory() {
  try {
    const response = await fetch("/telltale/v1/history", { cache: "no-store" });
    if (response.ok) { take(await response.json()); }
  } catch (e) { }
}
// The server's history, as it answered.
export function take(answer) { history = answer; seedTraces(); }

// The sparklines (boat speed, depth, VMG) from the server's last 3 minutes when it holds more of them than this page
// has seen: a phone that has just joined draws them at once, not from empty.
export function seedTraces() {
  const t = now(), step = history.traceInterval || 1;
  for (const [path, values] of Object.entries(history.traces || {})) {
    const server = [];
    values.forEach((v, i) => { if (v !== null) server.push([t - (values.length - 1 - i) * step, v]); });
    if (server.length > (traces.get(path) || []).length) traces.set(path, server.filter(x => x[0] >= t - 180));
  }
}
