// A bot's page (/arena/bot?name=…): whether it is connected, its
// admission, its versions, and per pool its standing, a chart of its rating
// history (an SVG plot), its results by opponent (with the likelihood of
// superiority) and its losses by kind; then its games, each replayable.

import { $, el, fetchJson, params, showError, svg } from "/assets/dom.js";
import { ending, fmt, replayLink, when } from "/assets/arena-common.js";

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

const pct = (x, digits = 1) => (x === null || x === undefined ? "–" : `${(100 * x).toFixed(digits)}%`);
const dot = (on) => (on ? el("span", { class: "on", title: "connected" }, "●") : el("span", { class: "off", title: "not connected" }, "○"));

// A player's key (`name` or `name/N`) as its bot and version.
function player(key) {
  const m = /^(.*)\/(\d+)$/.exec(key);
  return m ? { bot: m[1], n: Number(m[2]) } : { bot: key, n: 1 };
}

// The newest version's admission: passed, or the checks that failed and why.
function drawAdmission(b) {
  const a = b.admission;
  const box = $("#admission");
  if (!a) {
    box.dataset.admission = "unchecked";
    box.replaceChildren(el("p", { class: "meta" },
      "Not checked: a house bot, a version from before admission, or an arena run with --admission off."));
    return;
  }
  const newest = b.versions[b.versions.length - 1];
  const version = newest ? ` (version ${newest.n}${newest.id_name ? `, ${newest.id_name}` : ""})` : "";
  box.dataset.admission = a.passed ? "passed" : "failed";
  if (a.passed) {
    box.replaceChildren(el("p", {}, el("span", { class: "pass" }, "✓ passed"),
      ` the conformance checks${version} at ${when(a.at)}.`));
    return;
  }
  box.replaceChildren(
    el("p", {}, el("span", { class: "fail" }, "✗ failed"), ` the conformance checks${version} at ${when(a.at)}: `,
      ...a.failed.flatMap((c, i) => [i ? ", " : "", el("code", { "data-failed-check": c }, c)]),
      ". It is not paired until it passes."),
    el("p", { class: "detail", "data-admission-detail": "" }, a.detail));
}

// A check's name, breakable after its colon (`positions:` `bohnenspiel`):
// why: on a phone the versions table's narrow admission column would
// otherwise be pushed off the screen by one long word.
const breakable = (check) => check.split(":").flatMap((part, i) => (i ? [":", el("wbr"), part] : [part]));

function admissionCell(a) {
  if (!a) return el("span", { class: "off", title: "not checked" }, "–");
  return a.passed
    ? el("span", { class: "pass", title: `passed at ${when(a.at)}` }, "passed")
    : el("span", { class: "fail", title: a.detail }, "failed: ",
      ...a.failed.flatMap((c, i) => [i ? ", " : "", ...breakable(c)]));
}

function drawVersions(versions) {
  $("#versions tbody").replaceChildren(...versions.slice().reverse().map((v) => el("tr", { "data-version": v.n },
    el("td", {}, String(v.n)),
    el("td", { class: "name", "data-id-name": "" }, v.id_name ?? el("span", { class: "off" }, "(before versions)")),
    el("td", { class: "wide" }, when(v.first_seen)),
    el("td", { "data-games": "" }, String(v.games)),
    el("td", { "data-rating": "" }, fmt(v.rating)),
    el("td", { class: "name wide" }, v.pool ?? "–"),
    el("td", {}, dot(v.connected)),
    el("td", { class: "name", "data-version-admission": "" }, admissionCell(v.admission)))));
}

// An opponent's key as a link to its page, with its version when not the first.
function opponent(key, self) {
  const p = player(key);
  const cell = [el("a", { href: `/arena/bot?name=${encodeURIComponent(p.bot)}` }, p.bot)];
  if (p.n > 1 || p.bot === self) cell.push(" ", el("span", { class: "ver" }, `v${p.n}`));
  if (p.bot === self) cell.push(el("span", { class: "off wide" }, " (itself)"));
  return cell;
}

// LOS in a cell, coloured when it says something (beyond 95% either way).
function losCell(los) {
  const cls = los === null ? "off" : los >= 0.95 ? "better" : los <= 0.05 ? "worse" : "";
  return el("td", { "data-los": los === null ? "" : los.toFixed(4), class: cls,
    title: los === null ? "no decisive game yet" : "likelihood of superiority, from the wins and losses" }, pct(los));
}

function crosstable(p, self) {
  const rows = p.versus.map((v) => el("tr", { "data-opponent": v.opponent },
    el("td", { class: "name" }, ...opponent(v.opponent, self)),
    el("td", {}, String(v.games)),
    el("td", { "data-wdl": "" }, `${v.wins}–${v.draws}–${v.losses}`),
    el("td", { "data-score": "" }, pct(v.score)),
    losCell(v.los)));
  if (!rows.length) rows.push(el("tr", {}, el("td", { colspan: "5", class: "name" }, "No game yet.")));
  return el("table", { class: "grid", "data-versus": p.pool },
    el("thead", {}, el("tr", {}, el("th", { class: "name" }, "Opponent"), el("th", {}, "Games"),
      el("th", {}, "W–D–L"), el("th", {}, "Score"), el("th", { title: "likelihood of superiority" }, "LOS"))),
    el("tbody", {}, ...rows));
}

function lossesTable(p) {
  const games = p.versus.reduce((n, v) => n + v.games, 0);
  const lost = p.losses_by_kind.reduce((n, k) => n + k.losses, 0);
  const faults = p.losses_by_kind.filter((k) => k.fault).reduce((n, k) => n + k.losses, 0);
  const rows = p.losses_by_kind.map((k) => el("tr", { "data-loss-kind": k.kind },
    el("td", { class: "name" }, ending(k.kind),
      ...(k.fault ? [" ", el("span", { class: "fault", title: "lost by a fault of its own" }, "fault")] : [])),
    el("td", { "data-losses": "" }, String(k.losses)),
    el("td", {}, games ? pct(k.losses / games) : "–")));
  if (!rows.length) rows.push(el("tr", {}, el("td", { colspan: "3", class: "name" }, "No loss in this pool.")));
  return [
    el("p", { class: "meta" }, `${lost} of ${games} games lost` + (lost ? `, ${faults || "none"} by a fault of its own` : "")),
    el("table", { class: "grid", "data-losses": p.pool },
      el("thead", {}, el("tr", {}, el("th", { class: "name" }, "Ending"), el("th", {}, "Losses"), el("th", {}, "of games"))),
      el("tbody", {}, ...rows)),
  ];
}

function poolSection(p, self) {
  const l = p.ladder;
  const rating = l && l.anchor ? `${fmt(l.rating)} (anchor: held at this value)` : l && `${fmt(l.rating)} ± ${fmt(l.interval)}`;
  const version = l ? `version ${l.version_n}${l.version ? ` (${l.version})` : ""}` : "";
  const head = l && l.rating !== null
    ? `rank ${p.rank}, ${version}: ${rating} after ${l.games} games (${l.wins}–${l.draws}–${l.losses}, ${pct(l.score)})${l.provisional ? ", provisional" : ""}`
    : l && l.anchor ? `${version}: no game here yet (an anchor: its rating is held once it plays)`
      : l ? `${version}: no game here yet` : "not on the ladder now";
  // why a version named: the chart is of the newest version that played here.
  const charted = p.history_version !== null && (!l || p.history_version !== l.version_n)
    ? ` (version ${p.history_version})` : "";
  const rated = p.history.length
    ? chart(p.history)
    : el("p", { class: "meta empty-chart" }, "No rating yet: the first comes with its first finished game here.");
  return el("section", { "data-pool": p.pool, class: "pool" },
    el("h2", {}, "Pool ", el("a", { href: `/arena?pool=${encodeURIComponent(p.pool)}` }, p.pool), ` (${p.game})`),
    el("p", { class: "meta" }, head),
    el("div", { class: "split" },
      el("div", {}, el("h3", {}, `Rating${charted}`), rated),
      el("div", {},
        el("h3", {}, "Losses by kind"), ...lossesTable(p),
        el("h3", {}, "Results by opponent"),
        el("div", { class: "scroll" }, crosstable(p, self)))));
}

// A game from the bot's side: its version, the opponent, the result for it.
function gameRow(g, b) {
  const south = g.south === b.name, north = g.north === b.name;
  // why the newer side of a game between its own versions: as the crosstable.
  const side = south && (!north || g.south_version >= g.north_version) ? "south" : "north";
  const [mine, theirs] = side === "south" ? [g.south_version, [g.north, g.north_version]] : [g.north_version, [g.south, g.south_version]];
  const idName = b.versions.find((v) => v.n === mine)?.id_name;
  const won = { south: "1-0", north: "0-1" }[side];
  const outcome = g.result === "1/2-1/2" ? "draw" : g.result === won ? "win" : g.result === "*" ? "none" : "loss";
  const word = { win: "won", loss: "lost", draw: "drew", none: "–" }[outcome];
  return el("tr", { "data-game": g.id },
    el("td", {}, replayLink(g)),
    el("td", { class: "name wide" }, g.pool),
    el("td", { class: "name", "data-game-version": mine, title: idName ?? "" },
      `v${mine}`, idName ? el("span", { class: "wide idname" }, ` ${idName}`) : ""),
    el("td", { class: "name" }, ...opponent(theirs[1] > 1 ? `${theirs[0]}/${theirs[1]}` : theirs[0], b.name)),
    el("td", { class: "wide" }, side === "south" ? "S" : "N"),
    el("td", { class: `name ${outcome}`, "data-result": g.result }, word, el("span", { class: "pgn wide" }, ` ${g.result}`)),
    el("td", { class: "name", "data-ending": g.termination }, ending(g.termination)),
    el("td", { class: "wide" }, when(g.ended)));
}

// why no catch: fetchJson shows a failed request in the error line itself
// and answers null; the page keeps what it last drew.
async function refresh() {
  const name = params.get("name") ?? "";
  const b = await fetchJson(`/api/arena/bot?name=${encodeURIComponent(name)}`);
  if (!b) return;
  document.title = `Mancala arena — ${b.name}`;
  $("#title").textContent = b.name;
  const status = [el("span", {}, dot(b.connected), b.connected ? ` connected (${b.slots} slot${b.slots === 1 ? "" : "s"})` : " not connected")];
  if (b.paused_secs) status.push(el("span", { class: "paused" }, `paused for ${b.paused_secs} s after repeated crashes`));
  if (b.revoked) status.push(el("span", { class: "fail" }, "token revoked"));
  // KGP's random moves: played for a KGP bot that sent no move before its search ended.
  if (b.kgp_random_moves) status.push(el("span", { "data-kgp-random": b.kgp_random_moves }, `${b.kgp_random_moves} KGP random move${b.kgp_random_moves === 1 ? "" : "s"} (no move before stop)`));
  $("#status").replaceChildren(...status.flatMap((s, i) => (i ? [" · ", s] : [s])));
  drawAdmission(b);
  drawVersions(b.versions);
  $("#pools").replaceChildren(...b.pools.map((p) => poolSection(p, b.name)));
  const shown = b.games.slice(0, 50);
  $("#games-meta").textContent = b.games.length
    ? `The newest ${shown.length} finished games (each links to its replay).`
    : "No finished game yet.";
  $("#games tbody").replaceChildren(...shown.map((g) => gameRow(g, b)));
  document.body.dataset.ready = "true";
  showError(null);
}

refresh();
setInterval(refresh, 10000);
