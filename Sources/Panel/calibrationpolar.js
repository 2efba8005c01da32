// The settings page's polar: the boat's learnt polar (the cells she has sailed steadily) drawn against the configured
// one (GET /telltale/v1/calibration/polar), the crew choosing which the targets and performance come from (PUT), and
// the learnt polar to download for OpenCPN (CSV) or Expedition.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  // The plot's own namespace (an <svg> in the page's HTML is SVG's): the dots and lines are made in it.
  const SVG = $("polar-plot").namespaceURI;
  const DEFAULT = [6, 10, 14, 20];

  // The wind speeds drawn: those the boat has learnt cells at (the most filled, four at most), then the usual ones.
  function shown(body) {
    const filled = (body.tws || []).map((tws, i) => [tws, ((body.learnt || [])[i] || []).filter((v) => v > 0).length])
      .filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]).slice(0, 4).map(([tws]) => tws);
    for (const tws of DEFAULT) if (filled.length < 4 && !filled.includes(tws)) filled.push(tws);
    return filled.sort((a, b) => a - b);
  }
  const COLOURS = ["#1f77b4", "#2ca02c", "#d62728", "#9467bd"];

  function headers() {
    let token = null;
    try { token = JSON.parse(localStorage.getItem("telltale.token") || "null"); } catch (e) { }
    return token ? { Authorization: "Bearer " + token, "Content-Type": "application/json" } : { "Content-Type": "application/json" };
  }

  function element(name, attributes, parent) {
    const e = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, v);
    parent.appendChild(e);
    return e;
  }

  // TWA from the top, clockwise (starboard): x = r sin a, y = -r cos a; the fastest speed at radius 100.
  function draw(body) {
    const plot = $("polar-plot");
    plot.textContent = "";
    const all = [...(body.configured || []).flat(), ...(body.learnt || []).flat()].filter((v) => typeof v === "number");
    const top = Math.max(1, ...all);
    const point = (twa, speed) => {
      const a = twa * Math.PI / 180, r = speed / top * 100;
      return [r * Math.sin(a), -r * Math.cos(a)];
    };
    for (let knots = 2; knots <= top; knots += 2) {
      const r = knots / top * 100;
      element("path", { d: `M 0 ${-r} A ${r} ${r} 0 0 1 0 ${r}`, class: "polar-ring" }, plot);
    }
    let learntCells = 0;
    const speeds = shown(body);
    speeds.forEach((tws, n) => {
      const column = (body.tws || []).indexOf(tws);
      if (column < 0) return;
      const colour = COLOURS[n];
      const configured = (body.configured || [])[column] || [];
      const points = (body.twa || []).map((twa, i) => configured[i] > 0 ? point(twa, configured[i]) : null).filter(Boolean);
      if (points.length) element("polyline", { points: points.map((p) => p.join(",")).join(" "), fill: "none", stroke: colour, "stroke-width": 0.8, class: "polar-configured", "data-tws": tws }, plot);
      const learnt = (body.learnt || [])[column] || [];
      (body.twa || []).forEach((twa, i) => {
        if (!(learnt[i] > 0)) return;
        const [x, y] = point(twa, learnt[i]);
        element("circle", { cx: x, cy: y, r: 2, fill: colour, class: "polar-learnt", "data-tws": tws, "data-twa": twa, "data-speed": learnt[i] }, plot);
        learntCells += 1;
      });
    });
    $("polar-legend").textContent = `Lines: the configured polar; dots: the learnt one (${learntCells} cells at ` +
      `${speeds.join(", ")} kn of true wind). Targets and performance come from the ${body.use === "learnt" ? "learnt" : "configured"} polar.`;
    $("polar-learnt").disabled = !body.learnt_ready || body.use === "learnt";
    $("polar-configured").disabled = body.use !== "learnt";
    for (const id of ["polar-csv", "polar-pol"]) $(id).hidden = !body.learnt_ready;
  }

  async function load() {
    const response = await fetch("/telltale/v1/calibration/polar", { cache: "no-store" });
    if (!response.ok) { $("polar-legend").textContent = "no polar on board (" + response.status + ")"; return; }
    draw(await response.json());
  }

  async function use(which) {
    const response = await fetch("/telltale/v1/calibration/polar", { method: "PUT", headers: headers(), body: JSON.stringify({ use: which }) });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) { $("polar-legend").textContent = body.message || "refused (" + response.status + ")"; return; }
    draw(body);
  }

  $("polar-learnt").onclick = () => use("learnt");
  $("polar-configured").onclick = () => use("configured");
  load().catch((error) => { $("polar-legend").textContent = "the polar could not be read: " + error; });
})();
