// An event's page (/arena/event?id=N): where it stands, its players, its
// standings (as `arbiter merge --json` gives them for its games) and its
// games, each replayable. Reads /api/arena/event; redraws every 5 s while
// it is not over.

import { $, el, fetchJson, params, showError } from "/assets/dom.js";
import { ending, fmt, replayLink, when } from "/assets/arena-common.js";

const id = params.get("id");

const bot = (player) => {
  const m = /^(.*)\/(\d+)$/.exec(player);
  return m ? m[1] : player;
};
const botLink = (player) => el("a", { href: `/arena/bot?name=${encodeURIComponent(bot(player))}` }, player);

function drawHead(e) {
  $("#title").textContent = `Event #${e.id} — ${e.format}, pool ${e.pool}`;
  document.title = `Mancala arena — event #${e.id}`;
  const rounds = e.played_rounds ?? e.rounds;
  const parts = [`${rounds} round${rounds === 1 ? "" : "s"}`, `starts ${when(e.at)}`, e.state];
  if (e.started) parts.push(`started ${when(e.started)}`);
  if (e.ended) parts.push(`ended ${when(e.ended)}`);
  parts.push(`${e.finished} games finished` + (e.playing.length ? `, ${e.playing.length} in progress` : ""));
  const meta = $("#meta");
  // why spans: a narrow screen breaks the line between the parts, not in a time.
  meta.replaceChildren(...parts.flatMap((p, i) => [...(i ? [" · "] : []), el("span", { class: "part" }, p)]));
  meta.dataset.state = e.state;
  const note = $("#note");
  note.hidden = !e.note;
  note.dataset.state = e.state;
  note.textContent = e.note ?? "";
  const players = $("#players");
  if (e.players.length) {
    players.replaceChildren("Players (seeded by rating): ",
      ...e.players.flatMap((p, i) => (i ? [", ", botLink(p)] : [botLink(p)])));
  } else {
    players.textContent = e.state === "scheduled"
      ? "The bots connected to the pool at the start play." : "";
  }
}

// What an empty table says, by the event's state.
const none = (state) => ({
  scheduled: "Not started yet.",
  cancelled: "None: the event was cancelled.",
}[state] ?? "No game finished yet.");

function drawStandings(s, state) {
  const body = $("#standings tbody");
  body.replaceChildren(...s.standings.map((r) => el("tr", { "data-row": r.name },
    el("td", {}, String(r.rank)),
    el("td", { class: "name" }, botLink(r.name)),
    el("td", { "data-games": "" }, String(r.games)),
    el("td", { "data-points": "" }, fmt(r.points, 1)),
    el("td", { class: "wide", "data-wdl": "" }, `${r.wins}–${r.draws}–${r.losses}`),
    el("td", { "data-score": "" }, r.score === null ? "–" : `${(100 * r.score).toFixed(1)}%`),
    el("td", { class: "wide" }, fmt(r.sonneborn_berger, 2)),
  )));
  if (!s.standings.length) body.append(el("tr", {}, el("td", { colspan: "7", class: "name" }, none(state))));
}

function drawGames(e) {
  const body = $("#games tbody");
  const rows = e.games; // newest first, as the JSON lists them
  body.replaceChildren(...rows.map((g) => el("tr", { "data-game": String(g.id) },
    el("td", {}, replayLink(g)),
    el("td", {}, g.round),
    el("td", { class: "name" }, g.south),
    el("td", { class: "name" }, g.north),
    el("td", {}, g.result),
    el("td", { class: "name wide" }, ending(g.termination)),
  )));
  if (!rows.length) body.append(el("tr", {}, el("td", { colspan: "6", class: "name" }, none(e.state))));
}

let timer = null;

async function refresh() {
  if (id === null) {
    showError("No event given: open /arena/events and pick one.");
    return;
  }
  const e = await fetchJson(`/api/arena/event?id=${encodeURIComponent(id)}`);
  if (!e) return;
  drawHead(e);
  drawStandings(e.standings, e.state);
  drawGames(e);
  document.body.dataset.ready = "true";
  showError(null);
  if ((e.state === "finished" || e.state === "cancelled") && timer !== null) {
    clearInterval(timer);
    timer = null;
  }
}

refresh();
timer = setInterval(refresh, 5000);
