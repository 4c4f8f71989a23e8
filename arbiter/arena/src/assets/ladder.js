// The ladder page (/arena): one pool's ratings, who is connected, the
// latest games (each replayable). Reads /api/arena/*; redraws every 5 s.

import { $, el, fetchJson, params, showError } from "/assets/dom.js";
import { ending, fmt, replayLink } from "/assets/arena-common.js";

let pools = [];
let current = params.get("pool");

function drawPools() {
  const bar = $("#pools");
  bar.replaceChildren(...pools.map((p) => {
    const b = el("button", { type: "button", "data-pool": p.name, "aria-pressed": String(p.name === current) },
      `${p.name}`);
    b.addEventListener("click", () => {
      current = p.name;
      history.replaceState(null, "", `/arena?pool=${encodeURIComponent(p.name)}`);
      refresh();
    });
    return b;
  }));
}

function drawLadder(rows) {
  const body = $("#ladder tbody");
  let rank = 0;
  body.replaceChildren(...rows.map((r) => {
    const rated = r.rating !== null;
    if (rated) rank += 1;
    const name = el("td", { class: "name" },
      el("a", { href: `/arena/bot?name=${encodeURIComponent(r.name)}`, "data-bot": r.name }, r.name));
    // The version this line is (its engine's id name), when the bot has named one.
    if (r.version) name.append(" ", el("span", { class: "version", "data-version": r.version_n, title: `version ${r.version_n} of ${r.name}` }, r.version));
    if (r.anchor) name.append(" ", el("span", { class: "anchor", "data-anchor": "", title: "anchor: its rating is held at this value, the others are fitted around it" }, "anchor"));
    if (r.provisional && rated) name.append(" ", el("span", { class: "prov", title: "provisional: few games yet" }, "prov."));
    if (r.paused_secs) name.append(" ", el("span", { class: "paused", title: "paused after repeated crashes" }, `paused ${r.paused_secs}s`));
    const now = r.connected ? el("span", { class: "on", title: "connected" }, "●") : el("span", { class: "off", title: "not connected" }, "○");
    return el("tr", { "data-row": r.name },
      el("td", {}, rated ? String(rank) : ""),
      name,
      el("td", { "data-rating": "" }, fmt(r.rating)),
      el("td", { "data-interval": "" }, r.anchor && rated ? el("span", { class: "fixed", title: "an anchor's rating is given, not measured" }, "fixed") : fmt(r.interval)),
      el("td", { "data-games": "" }, String(r.games)),
      el("td", { class: "wide", "data-wdl": "" }, `${r.wins}–${r.draws}–${r.losses}`),
      el("td", { "data-score": "" }, r.games ? `${(100 * r.score).toFixed(1)}%` : "–"),
      el("td", { "data-now": "" }, now),
      // why "now": a bot connected now is seen now (not when it connected).
      el("td", { class: "wide", "data-last-seen": r.last_seen ?? "", title: r.last_seen ?? "" },
        r.connected ? "now" : (r.last_seen ?? "–")),
    );
  }));
  if (!rows.length) body.append(el("tr", {}, el("td", { colspan: "9", class: "name" }, "No bot has played in this pool yet.")));
}

function drawGames(games) {
  const body = $("#games tbody");
  body.replaceChildren(...games.slice(0, 30).map((g) => el("tr", {},
    el("td", {}, replayLink(g)),
    el("td", { class: "name" }, g.south),
    el("td", { class: "name" }, g.north),
    el("td", {}, g.result),
    el("td", { class: "name wide" }, ending(g.termination)),
  )));
}

// why no catch: fetchJson shows a failed request in the error line itself
// and answers null; the page keeps what it last drew.
async function refresh() {
  const listed = await fetchJson("/api/arena/pools");
  if (!listed) return;
  pools = listed;
  if (!pools.some((p) => p.name === current)) current = pools.length ? pools[0].name : null;
  drawPools();
  if (current === null) return;
  const pool = pools.find((p) => p.name === current);
  $("#title").textContent = `Ladder — ${pool.name}`;
  $("#meta").textContent = `${pool.game}, ${pool.each} · ${pool.finished} games finished, ${pool.playing} in progress`
    + (pool.aborted ? `, ${pool.aborted} aborted` : "");
  const q = encodeURIComponent(current);
  const [rows, games] = await Promise.all([
    fetchJson(`/api/arena/ladder?pool=${q}`),
    fetchJson(`/api/arena/games?pool=${q}`),
  ]);
  if (!rows || !games) return;
  drawLadder(rows);
  drawGames(games);
  document.body.dataset.ready = "true";
  showError(null);
}

refresh();
setInterval(refresh, 5000);
