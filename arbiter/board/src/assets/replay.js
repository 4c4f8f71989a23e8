// The replay page (/replay): a log's games, each stepped through move by
// move; the positions, steps and end are the server's (the rules library's).

import { $, $$, el, params, showError, boardNote, fetchJson } from "/assets/dom.js";
import { drawBoard } from "/assets/board.js";
import { drawMoves, resultText, stepKeys, plyLabels } from "/assets/moves.js";
import { animate, finishAnimation } from "/assets/animate.js";
import { evalPoints, drawEvalGraph } from "/assets/graph.js";

let replay = null;         // { data, ply, points, moves, labels }
let replaySource = null;   // how to fetch one game: (index) => [url, options]

function show(ply) {
  if (!replay) return;
  const r = replay.data;
  const from = replay.ply;
  replay.ply = Math.max(0, Math.min(ply, r.plies.length));
  const viewAt = (p) => (p === 0 ? r.start : r.plies[p - 1].board);
  // One step forward is animated from the rules' steps, as in play; any
  // other jump shows the position at once.
  if (replay.ply === from + 1) {
    const to = replay.ply;
    animate({ before: viewAt(from).position, steps: r.plies[to - 1].steps }, () => render(to));
  } else {
    finishAnimation();
    render(replay.ply);
  }
}

function render(ply) {
  const r = replay.data;
  const view = ply === 0 ? r.start : r.plies[ply - 1].board;
  const last = ply === r.plies.length;
  drawBoard(view, { status: last ? r.summary.result : "ongoing", steps: ply > 0 ? r.plies[ply - 1].steps : null });
  drawMoves(replay.moves, { current: ply - 1, onPick: show });
  drawEvalGraph($("#eval"), replay.points, { plies: r.plies.length, current: ply, onPick: show });
  $("[data-ply]").textContent = `${ply}/${r.plies.length}`;
  $("[data-seat=north]").textContent = `north: ${r.summary.north}`;
  $("[data-seat=south]").textContent = `south: ${r.summary.south}`;
  const status = $("#status");
  const over = last && r.summary.result !== "*";
  status.classList.toggle("ended", over);
  status.textContent = over
    ? resultText(r.summary.result, r.ending, r.summary.termination)
    : `${r.summary.event}, event round ${r.summary.round} (${r.summary.time_control})` +
      (ply > 0 ? ` — after ${replay.labels[ply - 1].text} ${r.plies[ply - 1].move}` : "");
  if (r.error) showError(`the log has an illegal move: ${r.error}`);
}

function listGames(games, open = 0, ply = 0) {
  const body = $("#games tbody");
  body.replaceChildren(...games.map((g) => el("tr", {
    "data-game-index": g.index, tabindex: 0,
    onclick: () => openGame(g.index),
    onkeydown: (e) => { if (e.key === "Enter") openGame(g.index); },
  }, ...[g.index + 1, g.round, g.south, g.north, g.result, g.termination, g.plies]
        .map((v, i) => el("td", { class: i === 5 ? "term" : null, title: i === 5 ? v : null }, String(v))))));
  $("#games-box").hidden = false;
  if (games.length && open !== null) return openGame(open, ply);
  return Promise.resolve();
}

async function openGame(index, ply = 0) {
  const [url, options] = replaySource(index);
  const data = await fetchJson(url, options);
  if (!data) return;
  $$("#games tr").forEach((tr) => tr.classList.toggle("current", tr.dataset.gameIndex === String(index)));
  // Each ply's mover (the side to move before it, from the server's
  // positions: an extra turn is the same side again), for the move list's
  // numbers and the graph's point of view.
  const moves = data.plies.map((p, i) => ({ ...p, side: (i === 0 ? data.start : data.plies[i - 1].board).to_move }));
  replay = { data, ply: 0, points: evalPoints(moves), moves, labels: plyLabels(moves.map((m) => m.side)) };
  showError("");
  show(ply);
}

export async function setup() {
  boardNote("open a log");
  $("#log-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    const text = await file.text();
    replaySource = (i) => [`/api/replay?game=${i}`, { method: "POST", body: text }];
    const games = await fetchJson("/api/replay", { method: "POST", body: text });
    if (games) listGames(games);
  });
  const files = await fetchJson("/api/logs");
  const box = $("#server-logs");
  (files || []).forEach((f) => box.append(el("button", { type: "button", "data-log-index": f.index,
    onclick: async () => {
      replaySource = (i) => [`/api/logs/${f.index}?game=${i}`];
      const games = await fetchJson(`/api/logs/${f.index}`);
      if (games) listGames(games);
    } }, f.name)));
  const step = { first: () => 0, back: () => replay.ply - 1, forward: () => replay.ply + 1,
                 last: () => replay.data.plies.length };
  $$("[data-step]").forEach((b) => b.addEventListener("click", () => replay && show(step[b.dataset.step]())));
  stepKeys((where) => replay && show(step[where]()));
  // `/replay?log=K&game=N` (the live page's links): game N of log K.
  const wanted = params.get("log");
  if (wanted !== null && (files || []).some((f) => String(f.index) === wanted)) {
    replaySource = (i) => [`/api/logs/${wanted}?game=${i}`];
    const games = await fetchJson(`/api/logs/${wanted}`);
    const game = Number(params.get("game") || 0);
    // `&ply=P` (the live page's graph): that ply's position (the end
    // when past it).
    const ply = Number(params.get("ply") || 0);
    const plyOk = Number.isInteger(ply) && ply >= 0;
    if (games && Number.isInteger(game) && game >= 0 && game < games.length) {
      await listGames(games, game, plyOk ? ply : 0);
      if (!plyOk) showError(`no ply ${JSON.stringify(params.get("ply"))}: a ply is a whole number from 0`);
    } else if (games) {
      listGames(games, null);
      showError(`no game ${JSON.stringify(params.get("game"))} in log ${wanted} (it has ${games.length}, numbered from 0)`);
    }
  } else if (wanted !== null) {
    showError(`no log ${JSON.stringify(wanted)} on this server (${(files || []).length} given with --log, numbered from 0); open one with the file picker`);
  } else if (files && files.length === 1 && params.has("game") === false) $("[data-log-index]").click();
}
