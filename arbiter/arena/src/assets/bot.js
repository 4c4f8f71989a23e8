// A bot's page (/arena/bot?name=…): its standing in each pool, a chart of
// its rating history (an SVG plot), its results by opponent and its games.

import { $, el, fetchJson, params, showError, svg } from "/assets/dom.js";
import { fmt, replayLink } from "/assets/arena-common.js";

// The rating (with its 95% band) against the games played.
function chart(history) {
  const W = 640, H = 240, L = 48, R = 12, T = 12, B = 30;
  const box = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "data-chart": "",
    "aria-label": "rating history" });
  if (history.length === 0) return box;
  const xs = history.map((p) => p.games);
  const lo = history.map((p) => p.rating - (p.interval ?? 0));
  const hi = history.map((p) => p.rating + (p.interval ?? 0));
  // why 0 only near the data: it is the field average of a pool without
  // anchors; around an anchor at 1500 it would squash the line to the top.
  const zero = Math.min(...lo) < 400 && Math.max(...hi) > -400 ? [0] : [];
  // The rating axis on round numbers: a step of 1, 2, 2.5 or 5 × 10^k.
  const ticks = 4;
  const raw = Math.max(50, Math.max(...zero, ...hi) - Math.min(...zero, ...lo)) / ticks;
  const unit = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * unit).find((s) => s >= raw);
  const y0 = Math.floor(Math.min(...zero, ...lo) / step) * step;
  const y1 = Math.max(y0 + step * ticks, Math.ceil(Math.max(...zero, ...hi) / step) * step);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs, Math.min(...xs) + 1)];
  const X = (x) => L + ((x - x0) / (x1 - x0)) * (W - L - R);
  const Y = (y) => T + ((y1 - y) / (y1 - y0)) * (H - T - B);
  const band = history.map((p, i) => `${X(p.games)},${Y(hi[i])}`)
    .concat(history.slice().reverse().map((p, i) => `${X(p.games)},${Y(lo[history.length - 1 - i])}`));
  box.append(svg("polygon", { class: "band", points: band.join(" ") }));
  if (zero.length) box.append(svg("line", { class: "zero", x1: L, x2: W - R, y1: Y(0), y2: Y(0) }));
  box.append(svg("line", { class: "axis", x1: L, x2: L, y1: T, y2: H - B }));
  box.append(svg("line", { class: "axis", x1: L, x2: W - R, y1: H - B, y2: H - B }));
  box.append(svg("polyline", { class: "line", points: history.map((p) => `${X(p.games)},${Y(p.rating)}`).join(" ") }));
  // why: one rating so far draws no line (nor band); show it as a point
  // with its interval.
  if (history.length === 1) {
    const [p] = history;
    box.append(svg("line", { class: "whisker", x1: X(p.games), x2: X(p.games), y1: Y(hi[0]), y2: Y(lo[0]) }));
    box.append(svg("circle", { class: "point", cx: X(p.games), cy: Y(p.rating), r: 4, "data-point": "" }));
  }
  for (let y = y0; y <= y1 + step / 2; y += step) {
    box.append(svg("text", { x: L - 6, y: Y(y) + 4, "text-anchor": "end" }, y.toFixed(0)));
  }
  // The games axis on whole round numbers too (each label where its count is).
  const xraw = Math.max(1, (x1 - x0) / ticks);
  const xunit = 10 ** Math.floor(Math.log10(xraw));
  const xstep = Math.max(1, [1, 2, 5, 10].map((m) => m * xunit).find((s) => s >= xraw));
  for (let x = Math.ceil(x0 / xstep) * xstep; x <= x1; x += xstep) {
    box.append(svg("text", { x: X(x), y: H - B + 16, "text-anchor": "middle" }, String(x)));
  }
  box.append(svg("text", { x: W - R, y: H - 4, "text-anchor": "end" }, "games"));
  return box;
}

function poolSection(p) {
  const l = p.ladder;
  const rating = l && l.anchor ? `${fmt(l.rating)} (anchor: held at this value)` : l && `${fmt(l.rating)} ± ${fmt(l.interval)}`;
  const head = l && l.rating !== null
    ? `rank ${p.rank}: ${rating} after ${l.games} games (${l.wins}–${l.draws}–${l.losses}, ${(100 * l.score).toFixed(1)}%)${l.provisional ? ", provisional" : ""}`
    : l && l.anchor ? "no game yet (an anchor: its rating is held once it plays)" : "no game yet";
  const versus = el("table", { class: "grid", "data-versus": p.pool },
    el("thead", {}, el("tr", {}, el("th", { class: "name" }, "Opponent"), el("th", {}, "Games"),
      el("th", {}, "W–D–L"), el("th", {}, "Score"))),
    el("tbody", {}, ...p.versus.map((v) => el("tr", {},
      el("td", { class: "name" }, el("a", { href: `/arena/bot?name=${encodeURIComponent(v.opponent)}` }, v.opponent)),
      el("td", {}, String(v.games)),
      el("td", {}, `${v.wins}–${v.draws}–${v.losses}`),
      el("td", {}, `${((100 * (v.wins + v.draws / 2)) / v.games).toFixed(1)}%`)))));
  return el("section", { "data-pool": p.pool },
    el("h2", {}, el("a", { href: `/arena?pool=${encodeURIComponent(p.pool)}` }, p.pool), ` (${p.game})`),
    el("p", { class: "meta" }, head),
    chart(p.history),
    el("div", { class: "scroll" }, versus));
}

// why no catch: fetchJson shows a failed request in the error line itself
// and answers null; the page keeps what it last drew.
async function refresh() {
  const name = params.get("name") ?? "";
  const b = await fetchJson(`/api/arena/bot?name=${encodeURIComponent(name)}`);
  if (!b) return;
  document.title = `Mancala arena — ${b.name}`;
  $("#title").textContent = b.name;
  const status = [b.connected ? `connected (${b.slots} slot${b.slots === 1 ? "" : "s"})` : "not connected"];
  if (b.paused_secs) status.push(`paused for ${b.paused_secs} s after repeated crashes`);
  if (b.revoked) status.push("token revoked");
  $("#status").textContent = status.join(" · ");
  $("#pools").replaceChildren(...b.pools.map(poolSection));
  $("#games tbody").replaceChildren(...b.games.slice(0, 50).map((g) => el("tr", {},
    el("td", {}, replayLink(g)),
    el("td", { class: "name" }, g.pool),
    el("td", { class: "name" }, g.south),
    el("td", { class: "name" }, g.north),
    el("td", {}, g.result),
    el("td", { class: "name wide" }, g.termination))));
  document.body.dataset.ready = "true";
  showError(null);
}

refresh();
setInterval(refresh, 10000);
