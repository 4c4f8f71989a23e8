// The live page of an event (docs/live.md). It draws what /ws/live sends:
// a snapshot, then each update; boards are drawn by board.js's drawBoard
// from the server's board views (no rule here). Read-only.

import { $, $$, el, SIDES, formatClock, socketUrl } from "/assets/dom.js";
import { drawBoard } from "/assets/board.js";
import { scoreText } from "/assets/moves.js";
import { evalPoints, drawEvalGraph, drawLineChart } from "/assets/graph.js";

const FINISHED_SHOWN = 200;   // rows kept in the finished list (newest first)

// A number the statistics cannot give yet (too few games) is null: "–".
const NONE = "–";
function pct(x) { return x === null || x === undefined ? NONE : (100 * x).toFixed(1) + "%"; }
function num(x, digits = 1) { return x === null || x === undefined ? NONE : x.toFixed(digits); }
function signed(x) { return x === null || x === undefined ? NONE : (x >= 0 ? "+" : "") + x.toFixed(1); }

function duration(secs) {
  if (secs === null || secs === undefined) return "";
  const s = Math.round(secs);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
  return h ? `${h}h${String(m).padStart(2, "0")}m` : `${m}m${String(s % 60).padStart(2, "0")}s`;
}

// The arena's live page (source "arena") shows its pools' games, ladder
// and events alike: no standings of its own (the ratings are the
// ladder's), and a game is named by its id, not by an event's round.
let arena = false;

function renderEvent(e) {
  if (!e) return;
  arena = e.source === "arena";
  document.body.dataset.source = e.source;
  $("[data-event-name]").textContent = e.event;
  const total = e.total === null ? "" : `, ${e.total} games`;
  $("[data-event-info]").replaceChildren(arena
    ? el("span", {}, `The games on the arena's pools (${e.games.join(", ")}); the ratings are on the `,
        el("a", { href: "/arena", "data-ladder-link": "" }, "ladder"), ".")
    : `${e.source}: ${e.engines.join(", ")} — ${e.games.join(", ")}${total}`);
  $("[data-standings-columns]").hidden = arena;
  // why: the arena never ends, so it has no total to show progress toward.
  $("[data-progress-bar]").closest("p").hidden = arena;
  $("[data-round-heading]").textContent = arena ? "Game" : "Event round";
  $("[data-round-heading]").classList.toggle("name", arena);
  // A watched log holds finished games only.
  $("[data-playing-section]").hidden = e.source === "watch";
  if (e.source === "watch" && logNames === null) fetchLogNames();
}

function renderProgress(p) {
  if (!p) return;
  const bar = $("[data-progress-bar]");
  bar.max = p.total || Math.max(1, p.done);
  bar.value = p.done;
  const eta = p.eta_secs === null || p.eta_secs === undefined || ended ? "" : `, about ${duration(p.eta_secs)} left`;
  $("[data-progress]").textContent = `${p.done}${p.total === null ? "" : "/" + p.total} games${eta}`;
  $("[data-progress]").dataset.done = p.done;
}

function renderStandings(r) {
  if (!r) return;
  const table = $("[data-standings]");
  table.dataset.games = r.games;
  $("tbody", table).replaceChildren(...r.standings.map((e) => el("tr", { "data-engine": e.name },
    ...[e.rank, e.name, e.games, num(e.points), pct(e.score), e.wins, e.draws, e.losses,
        signed(e.elo), num(e.elo_margin), pct(e.los_next)]
      .map((v, i) => el("td", { class: i === 1 ? "name" : null }, String(v))))));
  const names = r.standings.map((e) => e.name);
  const cross = $("[data-crosstable]");
  $("thead", cross).replaceChildren(el("tr", {}, el("th", { class: "name" }, ""),
    ...names.map((n, i) => el("th", { title: n }, String(i + 1)))));
  $("tbody", cross).replaceChildren(...r.standings.map((e, i) => el("tr", {},
    el("th", { class: "name" }, `${i + 1} ${e.name}`),
    ...names.map((n) => {
      const c = e.crosstable[n];
      return el("td", {}, n === e.name ? "—" : c ? `${num(c.points)}/${c.games}` : "");
    }))));
  recordChart(r);
  const m = r.match;
  const matchBox = $("[data-match]"), sprtBox = $("[data-sprt]");
  matchBox.hidden = !m;
  sprtBox.hidden = !(m && m.sprt);
  if (m) {
    // One event, one Elo: the match's difference (as the arbiter's report
    // prints it), its estimate from game pairs labelled as such.
    const elo = m.elo ? `Elo difference ${signed(m.elo.elo)} [${signed(m.elo.lower)}, ${signed(m.elo.upper)}]` : "Elo difference —";
    const pairs = m.pair_elo ? ` (pair Elo ${signed(m.pair_elo.elo)} ± ${num(m.pair_elo.margin)})` : "";
    matchBox.textContent = `${m.first} vs ${m.second}: +${m.wins} =${m.draws} -${m.losses}, ${elo}${pairs}` +
      (m.los === null ? "" : `, LOS ${pct(m.los)}`) + `, pentanomial [${m.pentanomial.join(", ")}]`;
  }
  if (m && m.sprt) {
    const s = m.sprt;
    sprtBox.dataset.state = s.state;
    sprtBox.textContent = `SPRT elo0=${s.elo0} elo1=${s.elo1}: LLR ${num(s.llr, 2)} (${num(s.lower_bound, 2)}, ${num(s.upper_bound, 2)}) — ` +
      (s.state === "continue" ? "continuing" : `${s.state} accepted`);
  }
}

// ------------------------------------------------------------ games in progress

function gameCard(id) { return $(`[data-live-game="${id}"]`); }

// Each game in progress: its plies' scores and movers, for its graph.
const cardPlies = new Map();

function thinkText(line) {
  if (!line) return "";
  const parts = [];
  if (line.depth) parts.push(`d${line.depth}`);
  if (line.score) parts.push(scoreText(line.score));
  if (line.pv && line.pv.length) parts.push("pv " + line.pv.join(" "));
  return parts.join("  ");
}

function seat(side) {
  return el("div", { class: `seat ${side}` },
    el("span", { class: "name", "data-seat": side }),
    el("span", { class: "clock", "data-clock": side }));
}

function addGame(g) {
  const old = gameCard(g.id);
  if (old) old.remove();
  const card = el("article", { class: `live-game game-${g.game}`, "data-live-game": g.id, "data-ply": 0 },
    el("div", { class: "meta", "data-game-label": "" }, arena ? `${g.game}, game ${g.id}` : `${g.game}, event round ${g.round}`),
    seat("north"),
    el("p", { class: "think", "data-think": "north" }),
    el("div", { class: "board", "data-board": g.id }),
    el("p", { class: "think", "data-think": "south" }),
    seat("south"),
    el("div", { class: "meta", "data-last-move": "" }),
    el("div", { class: "eval", "data-eval-graph": "", hidden: true }));
  $("[data-seat=north]", card).textContent = g.north;
  $("[data-seat=south]", card).textContent = g.south;
  $("[data-playing]").append(card);
  drawBoard(g.board, { target: $("[data-board]", card) });
  showClocks(card, g.clocks_ms, g.board.to_move);
  countPlaying();
}

// The clocks as the server last gave them; the mover's counts down between
// plies (display only: the next ply brings the server's figure).
const clockBases = new Map();   // game id -> { ms: [south, north], at, running }

function showClocks(card, clocks, toMove) {
  clockBases.set(card.dataset.liveGame, { ms: clocks, at: performance.now(), running: toMove });
  SIDES.forEach((side, i) => {
    const c = $(`[data-clock=${side}]`, card);
    c.textContent = formatClock(clocks[i]);
    c.classList.toggle("running", side === toMove);
  });
}

function tickClocks() {
  const now = performance.now();
  for (const [id, base] of clockBases) {
    const card = gameCard(id);
    if (!card) { clockBases.delete(id); continue; }
    const i = SIDES.indexOf(base.running);
    if (base.ms[i] === null || base.ms[i] === undefined) continue;
    $(`[data-clock=${base.running}]`, card).textContent = formatClock(base.ms[i] - (now - base.at));
  }
}

function updateGame(p) {
  const card = gameCard(p.id);
  if (!card) return;
  card.dataset.ply = p.ply;
  drawBoard(p.board, { target: $("[data-board]", card), steps: p.steps });
  // The engines' scores so far, from South's side (the card's graph).
  const plies = cardPlies.get(p.id) || [];
  plies[p.ply - 1] = { score: p.engine.score, side: p.side };
  cardPlies.set(p.id, plies);
  drawEvalGraph($("[data-eval-graph]", card), evalPoints(Array.from(plies, (x) => x || {})), { plies: p.ply, current: p.ply });
  showClocks(card, p.clocks_ms, p.board.to_move);
  const think = $(`[data-think=${p.side}]`, card);
  think.textContent = thinkText(p.engine);
  delete think.dataset.thinking;
  $("[data-last-move]", card).textContent = `ply ${p.ply}: ${p.side} played ${p.move} (${(p.time_ms / 1000).toFixed(2)}s)`;
}

// A search in progress: the engine's latest line, marked as thinking (the
// line after its move replaces it).
function showThinking(t) {
  const card = gameCard(t.id);
  if (!card || Number(card.dataset.ply) !== t.ply - 1) return;
  const line = $(`[data-think=${t.side}]`, card);
  line.textContent = `thinking… ${thinkText(t.engine)}`;
  line.dataset.thinking = "true";
}

function countPlaying() {
  $("[data-playing-count]").textContent = `(${$$("[data-live-game]").length})`;
}

// ------------------------------------------------------------ finished games

// A watch follows several logs, each numbering its own games: the watched
// logs' file names (from /api/logs, by index) say whose game N is.
let logNames = null;

function gameLabel(log, index) {
  const name = logNames && log !== null ? logNames[log] : undefined;
  return name ? `${name} #${index + 1}` : String(index + 1);
}

function fetchLogNames() {
  fetch("/api/logs")
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(r.statusText))))
    .then((files) => {
      logNames = files.map((f) => f.name.split("/").pop());
      for (const a of $$("[data-finished] [data-replay]")) {
        a.textContent = gameLabel(Number(a.dataset.log), Number(a.dataset.index));
      }
    })
    .catch(() => {}); // why: without names the plain numbers still link correctly
}

// An arena game's name: its pool and id on the ladder, its event and
// round in an event (the records' event names: "mancala arena POOL" and
// "mancala arena POOL event N").
function arenaGame(f) {
  const s = f.summary;
  const where = s.event.replace(/^mancala arena /, "");
  if (/ event \d+$/.test(where)) return `${where}, round ${s.round}`;
  return f.id === null ? where : `${where} #${f.id}`;
}

function addFinished(f) {
  const s = f.summary;
  const href = f.log === null ? null : `/replay?log=${f.log}&game=${s.index}`;
  const first = href
    ? el("a", { href, "data-replay": "", "data-log": f.log, "data-index": s.index }, gameLabel(f.log, s.index))
    : String(s.index + 1);
  if (f.id !== null) cardPlies.delete(f.id);
  const key = finishedKey(f);
  const points = evalPoints(f.scores || []);
  if (points.length) graphs.set(key, { f, points });
  const graphButton = points.length
    ? el("button", { type: "button", "data-show-graph": "", "aria-label": `evaluation graph of game ${gameLabel(f.log, s.index)}`,
                     onclick: () => { graphChosen = true; showFinishedGraph(key); } }, "graph")
    : "";
  // why the row too: on a phone the button is off to the right.
  const pick = (e) => { if (points.length && !e.target.closest("a, button")) { graphChosen = true; showFinishedGraph(key); } };
  const row = el("tr", { "data-finished-game": s.index, "data-finished-key": key, onclick: pick },
    el("td", {}, first), el("td", { "data-round": "", class: arena ? "name" : null }, arena ? arenaGame(f) : s.round), el("td", { class: "name" }, s.south),
    el("td", { class: "name" }, s.north), el("td", {}, s.result),
    el("td", { class: "name" }, s.termination), el("td", {}, String(s.plies)), el("td", {}, graphButton));
  const body = $("[data-finished] tbody");
  body.prepend(row);
  while (body.children.length > FINISHED_SHOWN) {
    graphs.delete(body.lastElementChild.dataset.finishedKey);
    body.lastElementChild.remove();
  }
  // The newest finished game's graph is shown until a row's is chosen.
  if (points.length && !graphChosen) showFinishedGraph(key);
}

// ------------------------------------------------------------ a finished game's graph

// The graphs of the finished games listed (those the server sent scores
// for: every game finished while the page is open, the newest of the
// snapshot), by log and index.
const graphs = new Map();
let graphChosen = false;   // a row's graph was asked for: keep it shown
let graphShown = null;

function finishedKey(f) { return `${f.log}:${f.summary.index}`; }

// Draws a finished game's graph above the list; a click on a point opens
// the replay at that ply (with a results log; without one, the bar moves
// there and the caption names the ply and its score).
function showFinishedGraph(key, current = null) {
  const g = graphs.get(key);
  const box = $("[data-finished-graph]");
  if (!g) { box.hidden = true; graphShown = null; return; }
  graphShown = key;
  const s = g.f.summary;
  const label = gameLabel(g.f.log, s.index);
  const onPick = (ply) => {
    if (g.f.log !== null) location.assign(`/replay?log=${g.f.log}&game=${s.index}&ply=${ply}`);
    else showFinishedGraph(key, ply);
  };
  drawEvalGraph($("[data-eval-graph]", box), g.points, { plies: s.plies, current: current ?? s.plies, onPick });
  const point = current === null ? null : $(`[data-eval-ply="${current}"]`, box);
  const at = current === null ? "" : ` — ply ${current}` + (point ? `: ${point.dataset.score}` : "");
  $("[data-finished-graph-title]", box).textContent =
    `Game ${label}: ${s.south} (South) vs ${s.north} (North), ${s.result} — evaluation graph` + at;
  box.hidden = false;
  box.dataset.finishedGraph = key;
  for (const tr of $$("[data-finished] tbody tr")) tr.classList.toggle("current", tr.dataset.finishedKey === key);
}

// A server that shows games in progress some plies behind (the arena's
// --spectator-delay) says so above them.
function showDelay(plies) {
  const note = $("[data-delay]");
  note.hidden = plies === 0;
  note.dataset.delay = plies;
  note.textContent = plies === 0 ? "" :
    `Shown ${plies} ${plies === 1 ? "ply" : "plies"} behind, without the engines' searches; finished games in full.`;
}

function showProblems(problems) {
  const box = $("[data-problems]");
  box.replaceChildren(...(problems || []).map((p) => el("li", {}, p)));
  box.hidden = !box.children.length;
}

// The event is over: one banner says so (the progress line loses its
// time estimate; the socket's close after it adds nothing).
let ended = false;

function showEnded(message) {
  ended = true;
  // why `p`: the body carries `data-ended` too once the event is over.
  const box = $("p[data-ended]");
  box.textContent = message;
  box.hidden = false;
  document.body.dataset.ended = "true";
  $("[data-connection]").hidden = true;
  const progress = $("[data-progress]");
  progress.textContent = progress.textContent.replace(/, about .* left$/, "");
}

// ------------------------------------------------------------ charts

// The standings after each finished game (as the page saw them): each
// engine's score, and the SPRT's LLR between its bounds.
const history = { games: -1, scores: new Map(), llr: [], bounds: null };

function recordChart(r) {
  if (r.games === history.games) return;
  history.games = r.games;
  for (const e of r.standings) {
    if (e.score === null || e.score === undefined) continue;
    const points = history.scores.get(e.name) || [];
    points.push({ x: r.games, y: 100 * e.score });
    history.scores.set(e.name, points);
  }
  const s = r.match && r.match.sprt;
  if (s && s.llr !== null && s.llr !== undefined) {
    history.llr.push({ x: r.games, y: s.llr });
    history.bounds = [s.lower_bound, s.upper_bound];
  }
  drawLineChart($("[data-score-chart]"), [...history.scores].map(([name, points]) => ({ name, points })),
    { yMin: 0, yMax: 100, bands: [{ y: 50, label: "50%" }], xLabel: "games", yLabel: "score %" });
  if (history.bounds) {
    drawLineChart($("[data-llr-chart]"), [{ name: "LLR", points: history.llr }],
      { yMin: history.bounds[0], yMax: history.bounds[1],
        bands: [{ y: history.bounds[0], label: `H0 accepted below ${history.bounds[0].toFixed(2)}` },
                { y: history.bounds[1], label: `H1 accepted above ${history.bounds[1].toFixed(2)}` }],
        xLabel: "games", yLabel: "SPRT log-likelihood ratio" });
  }
}

// ------------------------------------------------------------ the socket

let finishedCount = 0;

function onLive(m) {
  switch (m.type) {
    case "snapshot":
      renderEvent(m.event);
      renderStandings(m.standings);
      renderProgress(m.progress);
      showDelay(m.delay_plies || 0);
      $("[data-playing]").replaceChildren();
      for (const g of m.playing) {
        addGame(g.start);
        if (g.last) updateGame(g.last);
        if (g.thinking) showThinking(g.thinking);
      }
      $("[data-finished] tbody").replaceChildren();
      graphs.clear();
      { const chosen = graphChosen ? graphShown : null;
        graphChosen = false;
        for (const f of m.finished) addFinished(f);
        if (chosen && graphs.has(chosen)) { graphChosen = true; showFinishedGraph(chosen); }
        else if (!graphs.size) showFinishedGraph(null); }
      finishedCount = m.finished_count;
      if (m.ended) showEnded(m.ended);
      showProblems(m.problems);
      break;
    case "event": renderEvent(m); break;
    case "standings": renderStandings(m); break;
    case "progress": renderProgress(m); break;
    case "game_started": addGame(m); break;
    case "ply": updateGame(m); break;
    case "thinking": showThinking(m); break;
    case "game_finished":
      if (m.id !== null) { const c = gameCard(m.id); if (c) c.remove(); countPlaying(); }
      addFinished(m);
      finishedCount += 1;
      break;
    case "ended":
      $("[data-playing]").replaceChildren();
      countPlaying();
      showEnded(m.message);
      break;
    case "problems": showProblems(m.problems); break;
    default: break;
  }
  $("[data-finished-count]").textContent = `(${finishedCount})`;
}

function connectLive() {
  const socket = new WebSocket(socketUrl("/ws/live"));
  const banner = $("[data-connection]");
  socket.onopen = () => { document.body.dataset.connected = "true"; banner.hidden = true; };
  socket.onmessage = (e) => onLive(JSON.parse(e.data));
  socket.onclose = (e) => {
    document.body.dataset.connected = "false";
    clockBases.clear();   // nothing is known to be running any more
    if (ended && !e.reason) return;   // the end banner says it already
    banner.hidden = false;
    banner.textContent = e.reason
      ? `Disconnected: ${e.reason}`
      : "The arbiter has closed the live page (the event is over or was stopped); this is the last state it sent.";
  };
  window.addEventListener("pagehide", () => socket.close());
}

connectLive();
setInterval(tickClocks, 200);
document.body.dataset.ready = "true";
