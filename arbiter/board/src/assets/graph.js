// Pictures of numbers, drawn as SVG: the evaluation graph of a game (the
// engines' scores per ply, lichess-style) and the live page's line charts.

import { el, svg } from "/assets/dom.js";
import { parseScore } from "/assets/moves.js";

const W = 600, H = 120;

// A score from South's point of view mapped to -1..1 (South ahead is up):
// a winning-chance curve, so that a few seeds show and a big lead flattens;
// a forced win or loss is the edge.
function height(v) {
  if (v.mate !== undefined) return v.mate >= 0 ? 1 : -1;
  return 2 / (1 + Math.exp(-0.004 * v.cp)) - 1;
}

// The log's spelling of a score (`+120`, `-M3`).
function spelled(v) {
  if (v.mate !== undefined) return (v.mate >= 0 ? "+M" : "-M") + Math.abs(v.mate);
  return (v.cp >= 0 ? "+" : "") + v.cp;
}

// The points of an evaluation graph from a game's plies: `plies[i]` has the
// mover's engine score (`score`, from the mover's side, as logged) and
// `side`, the mover. Each score is turned to South's point of view; a ply
// without a score (a human's move) has no point.
export function evalPoints(plies) {
  const points = [];
  plies.forEach((p, i) => {
    const v = parseScore(p.score);
    if (!v) return;
    const south = p.side === "south";
    const turned = v.mate !== undefined ? { mate: south ? v.mate : -v.mate } : { cp: south ? v.cp : -v.cp };
    points.push({ ply: i + 1, score: turned });
  });
  return points;
}

// Draws the graph into `box`: one point per scored ply
// (`data-eval-ply="N"`, `data-score` from South's point of view, as the
// log writes scores), the line through them, the current ply (`current`)
// as a bar; a click anywhere picks the nearest ply (`onPick(ply)`).
export function drawEvalGraph(box, points, { plies, current = 0, onPick = null } = {}) {
  box.replaceChildren();
  box.hidden = points.length === 0;
  if (!points.length) return;
  const n = Math.max(plies || 0, ...points.map((p) => p.ply), 1);
  const x = (ply) => 4 + (ply / n) * (W - 8);   // a point at either end stays whole
  const y = (v) => H / 2 - height(v) * (H / 2 - 4);
  const line = points.map((p) => `${x(p.ply).toFixed(1)},${y(p.score).toFixed(1)}`);
  const area = `${x(points[0].ply).toFixed(1)},${H / 2} ${line.join(" ")} ${x(points[points.length - 1].ply).toFixed(1)},${H / 2}`;
  const pick = (e) => {
    if (!onPick) return;
    const r = e.currentTarget.getBoundingClientRect();
    onPick(Math.max(0, Math.min(n, Math.round(((e.clientX - r.left) / r.width) * n))));
  };
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "eval-svg", role: "img",
                             "aria-label": "evaluation graph: South ahead is up", onclick: pick },
    svg("rect", { x: 0, y: 0, width: W, height: H / 2, class: "eval-south" }),
    svg("rect", { x: 0, y: H / 2, width: W, height: H / 2, class: "eval-north" }),
    svg("polygon", { points: area, class: "eval-area" }),
    svg("polyline", { points: line.join(" "), class: "eval-line" }),
    svg("line", { x1: 0, x2: W, y1: H / 2, y2: H / 2, class: "eval-mid" }),
    svg("line", { x1: x(current), x2: x(current), y1: 0, y2: H, class: "eval-current", "data-eval-current": current }),
    ...points.map((p) => svg("circle", {
      cx: x(p.ply).toFixed(1), cy: y(p.score).toFixed(1), r: 3, class: "eval-point",
      "data-eval-ply": p.ply, "data-score": spelled(p.score),
      onclick: (e) => { e.stopPropagation(); if (onPick) onPick(p.ply); },
    }, svg("title", {}, `ply ${p.ply}: ${spelled(p.score)} (South's view)`))));
  box.append(chart, el("p", { class: "eval-note" }, "scores from South's side: up is South ahead; click to go to a ply"));
}

// A line chart into `box`: `series` [{name, points: [{x, y}]}], `y` from
// `yMin` to `yMax`; `bands`: dashed horizontal lines with a label (the
// SPRT bounds). Each point carries `data-x` and `data-y`, each line
// `data-series`.
export function drawLineChart(box, series, { yMin, yMax, bands = [], xLabel = "", yLabel = "" } = {}) {
  box.replaceChildren();
  const all = series.flatMap((s) => s.points);
  box.hidden = all.length === 0;
  if (!all.length) return;
  const xMax = Math.max(1, ...all.map((p) => p.x));
  const lo = Math.min(yMin, ...all.map((p) => p.y), ...bands.map((b) => b.y));
  const hi = Math.max(yMax, ...all.map((p) => p.y), ...bands.map((b) => b.y));
  const span = hi - lo || 1;
  const pad = 24;
  const x = (v) => pad + (v / xMax) * (W - 2 * pad);
  const y = (v) => H - 12 - ((v - lo) / span) * (H - 24);
  const colours = ["#2b6cb0", "#c05621", "#2f855a", "#6b46c1", "#b7791f", "#c53030"];
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart-svg", role: "img", "aria-label": yLabel },
    svg("line", { x1: pad, x2: W - pad, y1: y(lo), y2: y(lo), class: "chart-axis" }),
    ...bands.map((b) => svg("g", {},
      svg("line", { x1: pad, x2: W - pad, y1: y(b.y), y2: y(b.y), class: "chart-band" }),
      svg("text", { x: W - pad, y: y(b.y) - 2, class: "chart-label", "text-anchor": "end" }, b.label))),
    svg("text", { x: pad, y: 10, class: "chart-label" }, `${yLabel} (${hi.toFixed(1)} top, ${lo.toFixed(1)} bottom)`),
    svg("text", { x: W - pad, y: H - 1, class: "chart-label", "text-anchor": "end" }, `${xLabel}: ${xMax}`),
    ...series.map((s, i) => svg("g", { "data-series": s.name, style: `color: ${colours[i % colours.length]}` },
      svg("polyline", { points: s.points.map((p) => `${x(p.x).toFixed(1)},${y(p.y).toFixed(1)}`).join(" "), class: "chart-line" }),
      ...s.points.map((p) => svg("circle", { cx: x(p.x).toFixed(1), cy: y(p.y).toFixed(1), r: 2.5, class: "chart-point",
                                               "data-x": p.x, "data-y": p.y },
        svg("title", {}, `${s.name}: ${p.y.toFixed(2)} after ${p.x}`))))));
  const legend = el("p", { class: "chart-legend" }, ...series.map((s, i) =>
    el("span", { style: `color: ${colours[i % colours.length]}` }, `● ${s.name} `)));
  box.append(chart, legend);
}
