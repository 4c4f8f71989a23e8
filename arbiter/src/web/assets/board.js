// The board page. It draws what the server sends and sends what the user
// chooses; every rule (legal moves, the result, the clocks) is the server's.
// The automation contract (data-* attributes) is documented in docs/gui.md.
"use strict";

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));
const MODE = (location.pathname.replace(/^\/+|\/+$/g, "") || "play");
const params = new URLSearchParams(location.search);

let config = { games: [], engines: [], default_tc: "60+1" };
let socket = null;
let current = null;        // the last play state from the server
let playMoves = [];        // the moves so far (the server sends each new one)
let clockBase = null;      // { ms: [south, north], at: performance.now(), running }

// ---------------------------------------------------------------- helpers

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) e.append(c);
  return e;
}

function showError(text) {
  const box = $("[data-error]");
  box.textContent = text || "";
  box.hidden = !text;
}

// The board frame before there is a position to draw: a note in it
// (`connecting…` until the server's first answer), and the same in the
// status line.
function boardNote(text) {
  const board = $("#board");
  board.replaceChildren(el("p", { class: "board-note", "data-board-note": true }, text));
  board.dataset.position = "";
  $("#status").textContent = text;
}

function formatClock(ms) {
  if (ms === null || ms === undefined) return "";
  const t = Math.max(0, ms);
  const s = Math.floor(t / 1000);
  const m = Math.floor(s / 60);
  const tenths = t < 10000 ? "." + Math.floor((t % 1000) / 100) : "";
  return `${m}:${String(s % 60).padStart(2, "0")}${tenths}`;
}

const SIDES = ["south", "north"];

// ---------------------------------------------------------------- the board

// Draws a laid-out position (see board.rs). `legal`: moves the user may
// enter now; `onHole(hole)`: what a click does.
function drawBoard(view, { legal = [], status = "ongoing", onHole = null, onStore = null, editable = false, target = null } = {}) {
  const board = target || $("#board");
  board.replaceChildren();
  board.dataset.position = view.position;
  board.dataset.status = status;
  board.dataset.game = view.game;
  board.dataset.toMove = view.to_move;
  board.className = `board game-${view.game}`;
  const legalHoles = new Set(legal.map((l) => l.hole).filter((h) => h !== null));

  const store = (side) => {
    if (!view.stores) return null;
    const n = view.stores[SIDES.indexOf(side)];
    // An editable store is a button (a click sets its count), else a plain box.
    return el(onStore ? "button" : "div", { class: `store ${side}`, "data-store": side, "data-seeds": n,
                       type: onStore ? "button" : null, onclick: onStore ? () => onStore(side) : null,
                       "aria-label": `${side} ${view.stores_label}: ${n}` },
      el("span", { class: "store-label" }, `${side} ${view.stores_label}`),
      el("span", { class: "count" }, String(n)));
  };

  const grid = el("div", { class: "rows" });
  view.rows.forEach((row, r) => {
    if (view.rows.length === 4 && r === 2) grid.append(el("div", { class: "divider" }));
    const line = el("div", { class: "row" });
    for (const h of row) {
      const isLegal = legalHoles.has(h.hole);
      const seeds = h.seeds;
      const dots = el("span", { class: "dots", "aria-hidden": "true" });
      const n = Number(seeds);
      if (Number.isFinite(n)) {
        for (let i = 0; i < Math.min(n, 24); i++) dots.append(el("i"));
      }
      const hole = el("button", {
        type: "button",
        class: "hole" + (seeds === "x" ? " closed" : "") + (isLegal ? " legal" : ""),
        "data-hole": h.hole,
        "data-seeds": seeds,
        "data-legal": isLegal ? "true" : null,
        "aria-label": `hole ${h.hole}: ${seeds === "x" ? "closed" : seeds + " seeds"}`,
        disabled: isLegal || editable ? null : true,
        onclick: () => onHole && onHole(h.hole),
      }, el("span", { class: "num" }, String(h.hole)),
         el("span", { class: "count" }, seeds === "x" ? "×" : seeds), dots);
      line.append(hole);
    }
    grid.append(line);
  });

  const north = store("north"), south = store("south");
  if (north) board.append(north);
  board.append(grid);
  if (south) board.append(south);
  if (view.round) {
    board.dataset.round = view.round;
    board.append(el("div", { class: "round", "data-round": view.round }, `round ${view.round}`));
  } else {
    delete board.dataset.round;
  }
}

function drawMoves(moves, highlight = -1, onPick = null) {
  const list = $("#moves");
  list.replaceChildren();
  moves.forEach((m, i) => {
    const extra = [];
    if (m.time_ms !== undefined) extra.push(moveTime(m.time_ms));
    if (m.score !== undefined && m.score !== null) extra.push(typeof m.score === "string" ? m.score : scoreText(m.score));
    if (m.depth) extra.push(`d${m.depth}`);
    // A move that can be stepped to is a button (reached by Tab, Enter picks it).
    const mv = onPick
      ? el("button", { type: "button", class: "mv", "aria-label": `go to ply ${i + 1}: ${m.move}`,
                       onclick: () => onPick(i + 1) }, m.move)
      : el("span", { class: "mv" }, m.move);
    const item = el("li", { "data-ply": i + 1, class: i === highlight ? "current" : null }, mv, " ",
      el("span", { class: "meta" }, extra.join(" ")));
    list.append(item);
  });
  const cur = $(".current", list);
  if (cur) cur.scrollIntoView({ block: "nearest" });
}

// A move's time as logged: milliseconds under a second (a fast game's moves
// would all read 0.0s), else seconds.
function moveTime(ms) {
  return ms < 1000 ? `${ms}ms` : `${(ms / 1000).toFixed(1)}s`;
}

function scoreText(s) {
  if (s.cp !== undefined) return (s.cp >= 0 ? "+" : "") + s.cp;
  if (s.mate !== undefined) return (s.mate >= 0 ? "+M" : "-M") + Math.abs(s.mate);
  return "";
}

function resultText(status, reason) {
  const who = { "1-0": "South wins", "0-1": "North wins", "1/2-1/2": "Draw" }[status] || status;
  return `${status} — ${who}${reason ? ": " + reason : ""}`;
}

// ---------------------------------------------------------------- play

function connect() {
  return new Promise((resolve) => {
    if (socket && socket.readyState === WebSocket.OPEN) return resolve(socket);
    socket = new WebSocket(`ws://${location.host}/ws/play`);
    socket.onopen = () => {
      if (!current) boardNote("starting the game…");
      resolve(socket);
    };
    socket.onmessage = (e) => onServer(JSON.parse(e.data));
    socket.onclose = () => { socket = null; if (!leaving) connectionLost(); };
    socket.onerror = () => showError("cannot reach the server (is `arbiter serve` still running?)");
  });
}

// The page is being left (its sockets are closed on purpose).
let leaving = false;

// The server closed the game's socket (it stopped, or the connection broke):
// the game and its engines are gone with it. The page says so and takes no
// more moves; New game connects again.
function connectionLost() {
  if (!current || current.status !== "ongoing") return;
  finishAnimation();
  showError("lost the connection to the server: this game has ended (is `arbiter serve` still running? New game starts another)");
  $$("#board [data-hole]").forEach((h) => { h.disabled = true; h.classList.remove("legal"); delete h.dataset.legal; });
  $("[data-pass]").hidden = true;
  $("[data-move-input]").disabled = true;
  $("#choices").hidden = true;
  if (clockBase) clockBase.running = null;
  $("#status").textContent = "connection lost";
  current = null;
}

async function send(message) {
  const s = await connect();
  s.send(JSON.stringify(message));
}

function onServer(m) {
  if (m.type === "error") {
    showError(m.message);
    // A game that could not start leaves no board to show.
    if (!current && $("[data-board-note]")) boardNote("no game");
    return;
  }
  if (m.type !== "state") return;
  current = m;
  animate(m.trace, () => renderPlay(m));
}

function renderPlay(m) {
  if (m.ply === 0) playMoves = [];
  // `moves`: those since the last state, usually one (several when an
  // engine answered faster than the server sends states).
  if (m.ply === playMoves.length + m.moves.length) playMoves.push(...m.moves);
  const mover = m.running;
  const humanToMove = m.status === "ongoing" && mover && m.seats[SIDES.indexOf(mover)] === "human";
  const legal = humanToMove ? m.legal : [];
  drawBoard(m.board, { legal, status: m.status, onHole: pickHole });
  drawMoves(playMoves, playMoves.length - 1);
  SIDES.forEach((side, i) => { $(`[data-seat="${side}"]`).textContent = `${side}: ${m.seats[i]}`; });
  clockBase = { ms: m.clocks, at: performance.now(), running: m.status === "ongoing" ? mover : null };
  tickClocks();
  const status = $("#status");
  if (m.status !== "ongoing") {
    status.textContent = resultText(m.status, m.reason);
  } else if (m.thinking) {
    status.textContent = `${m.thinking} (${m.seats[SIDES.indexOf(m.thinking)]}) is thinking…`;
  } else {
    status.textContent = `${mover} to move`;
  }
  $("[data-pass]").hidden = !legal.some((l) => l.move === "pass");
  $("#choices").hidden = true;
  $("[data-move-input]").disabled = !humanToMove;
}

function tickClocks() {
  if (!clockBase) return;
  SIDES.forEach((side, i) => {
    let ms = clockBase.ms[i];
    if (ms !== null && clockBase.running === side) ms -= performance.now() - clockBase.at;
    const c = $(`[data-clock="${side}"]`);
    c.textContent = formatClock(ms);
    c.classList.toggle("running", clockBase.running === side);
  });
}
setInterval(tickClocks, 200);

function pickHole(hole) {
  if (!current) return;
  const candidates = current.legal.filter((l) => l.hole === hole);
  if (candidates.length === 1) return playMove(candidates[0].move);
  showChoices(hole, candidates, playMove);
}

// Several moves start in `hole` (Kujifunza: direction and kichwa choices):
// a row of buttons, one a move, explained on hover; the first takes the
// focus, so the keyboard goes on from the hole to the choice.
function showChoices(hole, candidates, play) {
  const box = $("#choices");
  box.replaceChildren(el("span", {}, `From hole ${hole}:`), ...candidates.map((c) =>
    el("button", { type: "button", "data-choice": c.move, title: choiceTitle(c.move),
                   onclick: () => { box.hidden = true; play(c.move); } }, c.move)),
    el("button", { type: "button", class: "cancel", onclick: () => { box.hidden = true; } }, "cancel"));
  box.hidden = false;
  $("[data-choice]", box).focus();
}

// Kujifunza notation: the first sign is the sowing direction, each further
// sign the kichwa chosen at a capture (- left, + right); see docs/rules.
function choiceTitle(mv) {
  const signs = mv.replace(/^\d+/, "").split("");
  if (!signs.length) return mv;
  const dir = signs[0] === "+" ? "sow towards higher numbers" : "sow towards lower numbers";
  const kichwa = signs.slice(1).map((s, i) => `capture ${i + 1}: ${s === "-" ? "left" : "right"} kichwa`);
  return [dir, ...kichwa].join("; ");
}

function playMove(mv) {
  finishAnimation();
  $("#choices").hidden = true;
  showError("");
  send({ type: "move", move: mv });
}

// A side's player and, for an engine, the Level in that side's field.
function seatOf(side) {
  const player = $(`#${side}`).value || "human";
  const level = Number($(`#${side}_level`).value) || null;
  return player === "human" ? { player } : { player, level };
}

function startGame() {
  showError("");
  if (!current) boardNote(socket ? "starting the game…" : "connecting…");
  const game = $("#game").value;
  const position = $("#position").value.trim();
  send({
    type: "start",
    game,
    position: position || null,
    south: seatOf("south"),
    north: seatOf("north"),
    tc: $("#tc").value.trim() || config.default_tc,
  });
}

function fillPlayers() {
  for (const side of SIDES) {
    const sel = $(`#${side}`);
    sel.replaceChildren(el("option", { value: "human" }, "human"),
      ...config.engines.map((e) => el("option", { value: e.name }, e.name)));
  }
  $("#game").replaceChildren(...config.games.map((g) => el("option", { value: g }, g)));
  $("#north").value = config.engines.length ? config.engines[0].name : "human";
  $("#tc").value = config.default_tc;
}

function setupPlay() {
  $("#play-form").addEventListener("submit", (e) => { e.preventDefault(); startGame(); });
  $("#move-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const input = $("[data-move-input]");
    const mv = input.value.trim();
    if (mv) { playMove(mv); input.value = ""; }
  });
  $("[data-pass]").addEventListener("click", () => playMove("pass"));
  $("#game").addEventListener("change", () => { if (!current) previewStart(); });
  // Deep link: /play?game=…&south=…&north=…&level=…&tc=…[&position=…]
  const unknown = [];
  // `level` sets both sides' Level, `south_level` / `north_level` one each.
  if (params.has("level")) for (const side of SIDES) $(`#${side}_level`).value = params.get("level");
  for (const key of ["game", "south", "north", "tc", "south_level", "north_level", "position"]) {
    if (params.has(key)) {
      const input = $(`#${key}`);
      if (input.tagName === "SELECT" && ![...input.options].some((o) => o.value === params.get(key))) {
        const known = [...input.options].map((o) => o.value).join(", ");
        unknown.push(`unknown ${key} ${JSON.stringify(params.get(key))} in the address (this server has: ${known})`);
        continue;
      }
      // why: `tc=60+1` typed into the address unencoded arrives as "60 1"
      // (a `+` in a query is a space); a time control has no spaces.
      input.value = key === "tc" ? params.get(key).trim().replace(/ +/g, "+") : params.get(key);
    }
  }
  if (params.has("position")) {
    const id = params.get("position").split(/\s+/)[0];
    if ([...$("#game").options].some((o) => o.value === id)) $("#game").value = id;
  }
  // why: a game with another engine or game than the link names is not the
  // game asked for; the page says what is wrong and starts nothing.
  if (unknown.length) {
    boardNote("no game");
    showError(unknown.join("; "));
  } else if (params.has("game") || params.has("position")) startGame();
  else previewStart();
}

// The start position of the chosen game, before a game starts (the
// server knows it, as it knows every rule).
async function previewStart() {
  const view = await fetchJson(`/api/start?game=${encodeURIComponent($("#game").value)}`);
  if (view && !current) {
    drawBoard(view);
    $("#status").textContent = "New game to start";
  }
}

async function fetchJson(url, options) {
  try {
    const r = await fetch(url, options);
    const text = await r.text();
    if (!r.ok) { showError(text); return null; }
    return JSON.parse(text);
  } catch (e) {
    showError(`request failed: ${e}`);
    return null;
  }
}

// ---------------------------------------------------------------- animation

// A move is shown step by step from the rules library's trace (pick, sow,
// capture, refill, close …): the page only moves counts as the steps say;
// the final position is the server's. A new state ends a running animation.
const STEP_MS = { fast: 40, normal: 140, slow: 400 };
const MAX_ANIMATION_MS = 8000;   // a long Bosh relay is sped up to fit
let anim = null;

function finishAnimation() { if (anim) anim.finish(); }

function setSeeds(hole, value) {
  const e = $(`#board [data-hole="${hole}"]`);
  if (!e) return;
  e.dataset.seeds = String(value);
  $(".count", e).textContent = value === "x" ? "×" : String(value);
  const dots = $(".dots", e);
  dots.replaceChildren();
  const n = Number(value);
  if (Number.isFinite(n)) for (let i = 0; i < Math.min(n, 24); i++) dots.append(el("i"));
  e.classList.toggle("closed", value === "x");
  $$("#board .hole.active").forEach((h) => h.classList.remove("active"));
  e.classList.add("active");
}

function addStore(side, delta) {
  const e = $(`#board [data-store="${side}"]`);
  if (!e) return;
  const n = Number(e.dataset.seeds) + delta;
  e.dataset.seeds = String(n);
  $(".count", e).textContent = String(n);
}

function seedsOf(hole) {
  const e = $(`#board [data-hole="${hole}"]`);
  return e ? Number(e.dataset.seeds) || 0 : 0;
}

function applyStep(s, state) {
  const note = $("[data-anim-note]");
  switch (s.step) {
    case "lap": note.textContent = `lap ${s.number}${s.kind === "relay" ? " (relay)" : s.kind === "captured" ? ` (from kichwa ${s.kichwa})` : ""}`; break;
    case "pick": setSeeds(s.hole, 0); state.hand += s.count; break;
    case "sow": setSeeds(s.hole, seedsOf(s.hole) + 1); state.hand -= 1; break;
    case "store": addStore(s.side, 1); state.hand -= 1; break;
    case "capture":
      setSeeds(s.from, 0);
      if (s.to === "store" || s.to === "reserve") addStore(s.side, s.count);
      if (s.to === "hand") state.hand += s.count;
      note.textContent = `capture ${s.count} from ${s.from}`;
      break;
    case "pass": note.textContent = "pass"; break;
    case "round_end": note.textContent = `round ends (${s.reason === "cycle" ? "cycle" : "no move"})`; break;
    case "new_round":
      note.textContent = `round ${s.round}`;
      $$("#board [data-round]").forEach((e) => { e.dataset.round = s.round; e.textContent = `round ${s.round}`; });
      break;
    case "refill": setSeeds(s.hole, s.count); addStore(s.reserve, -s.count); break;
    case "close": setSeeds(s.hole, "x"); break;
    default: break;
  }
  $("#board").dataset.hand = String(state.hand);
}

// The animation controls (play and replay): the speed is the address's
// `animate`, else the last one chosen.
function setupAnimation() {
  $("[data-anim-step]").addEventListener("click", () => anim && anim.step());
  $("[data-anim-skip]").addEventListener("click", finishAnimation);
  const speed = $("[data-anim-speed]");
  const wanted = params.get("animate") || localStorage.getItem("animate");
  if (wanted && [...speed.options].some((o) => o.value === wanted)) speed.value = wanted;
  speed.addEventListener("change", () => localStorage.setItem("animate", speed.value));
}

function animate(trace, render) {
  finishAnimation();
  const board = $("#board");
  const speed = $("[data-anim-speed]").value;
  if (speed === "off" || !trace || board.dataset.position !== trace.before || !trace.steps.length) {
    return render();
  }
  const controls = $("#anim-controls");
  const state = { hand: 0 };
  let i = 0, timer = null;
  board.dataset.animating = "true";
  $$("#board .hole").forEach((h) => { h.disabled = true; h.classList.remove("legal"); delete h.dataset.legal; });
  controls.hidden = false;
  $("[data-anim-step]").hidden = speed !== "manual";
  const finish = () => {
    if (timer) clearInterval(timer);
    anim = null;
    controls.hidden = true;
    delete board.dataset.animating;
    delete board.dataset.hand;
    render();
  };
  const step = () => { if (i < trace.steps.length) applyStep(trace.steps[i++], state); if (i >= trace.steps.length && speed !== "manual") finish(); };
  anim = { finish, step };
  if (speed !== "manual") {
    const ms = Math.max(1, Math.min(STEP_MS[speed] || 140, MAX_ANIMATION_MS / trace.steps.length));
    timer = setInterval(step, ms);
  }
}

// ---------------------------------------------------------------- replay

let replay = null;   // { data, ply }
let replaySource = null;   // how to fetch one game: (index) => url/options

function replayShow(ply) {
  if (!replay) return;
  const r = replay.data;
  const from = replay.ply;
  replay.ply = Math.max(0, Math.min(ply, r.plies.length));
  const viewAt = (p) => (p === 0 ? r.start : r.plies[p - 1].board);
  // One step forward is animated from the rules' steps, as in play; any
  // other jump shows the position at once.
  if (replay.ply === from + 1) {
    const steps = r.plies[replay.ply - 1].steps;
    const to = replay.ply;
    animate({ before: viewAt(from).position, steps }, () => replayRender(to));
  } else {
    finishAnimation();
    replayRender(replay.ply);
  }
}

function replayRender(ply) {
  const r = replay.data;
  const view = ply === 0 ? r.start : r.plies[ply - 1].board;
  const last = ply === r.plies.length;
  drawBoard(view, { status: last ? r.summary.result : "ongoing" });
  drawMoves(r.plies, ply - 1, replayShow);
  $("[data-ply]").textContent = `${ply}/${r.plies.length}`;
  $("[data-seat=north]").textContent = `north: ${r.summary.north}`;
  $("[data-seat=south]").textContent = `south: ${r.summary.south}`;
  $("#status").textContent = last
    ? resultText(r.summary.result, r.summary.termination)
    : `${r.summary.event}, round ${r.summary.round} (${r.summary.time_control})`;
  if (r.error) showError(`the log has an illegal move: ${r.error}`);
}

function listGames(games, open = 0) {
  const body = $("#games tbody");
  body.replaceChildren(...games.map((g) => el("tr", {
    "data-game-index": g.index, tabindex: 0,
    onclick: () => openGame(g.index),
    onkeydown: (e) => { if (e.key === "Enter") openGame(g.index); },
  }, ...[g.index + 1, g.round, g.south, g.north, g.result, g.termination, g.plies]
        .map((v) => el("td", {}, String(v))))));
  $("#games").hidden = false;
  if (games.length && open !== null) openGame(open);
}

async function openGame(index) {
  const [url, options] = replaySource(index);
  const data = await fetchJson(url, options);
  if (!data) return;
  $$("#games tr").forEach((tr) => tr.classList.toggle("current", tr.dataset.gameIndex === String(index)));
  replay = { data, ply: 0 };
  showError("");
  replayShow(0);
}

async function setupReplay() {
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
  $$("[data-step]").forEach((b) => b.addEventListener("click", () => replay && replayShow(step[b.dataset.step]())));
  document.addEventListener("keydown", (e) => {
    if (!replay || e.target.tagName === "INPUT") return;
    if (e.key === "ArrowLeft") replayShow(replay.ply - 1);
    if (e.key === "ArrowRight") replayShow(replay.ply + 1);
  });
  // `/replay?log=K&game=N` (the live page's links): game N of log K.
  const wanted = params.get("log");
  if (wanted !== null && (files || []).some((f) => String(f.index) === wanted)) {
    replaySource = (i) => [`/api/logs/${wanted}?game=${i}`];
    const games = await fetchJson(`/api/logs/${wanted}`);
    const game = Number(params.get("game") || 0);
    if (games && Number.isInteger(game) && game >= 0 && game < games.length) listGames(games, game);
    else if (games) {
      listGames(games, null);
      showError(`no game ${JSON.stringify(params.get("game"))} in log ${wanted} (it has ${games.length}, numbered from 0)`);
    }
  } else if (wanted !== null) {
    showError(`no log ${JSON.stringify(wanted)} on this server (${(files || []).length} given with --log, numbered from 0); open one with the file picker`);
  } else if (files && files.length === 1 && params.has("game") === false) $("[data-log-index]").click();
}

// ---------------------------------------------------------------- analyse

// `searching`: a search was asked for and not stopped; `waiting`: its
// `searching` answer has not come yet, so an `info` is an earlier search's.
const an = { searching: false, waiting: false, start: "", moves: [], cursor: 0, answer: null, options: [], chosen: {}, pressed: new Set(), lines: {}, shown: 0 };
let anSocket = null;

function anConnect() {
  return new Promise((resolve) => {
    if (anSocket && anSocket.readyState === WebSocket.OPEN) return resolve(anSocket);
    anSocket = new WebSocket(`ws://${location.host}/ws/analyse`);
    anSocket.onopen = () => resolve(anSocket);
    anSocket.onmessage = (e) => onAnalyst(JSON.parse(e.data));
    anSocket.onclose = () => {
      anSocket = null;
      if (!leaving && an.searching) showError("lost the connection to the server: the analysis has stopped (is `arbiter serve` still running?)");
      an.searching = false;
    };
  });
}

async function anSend(m) { (await anConnect()).send(JSON.stringify(m)); }

function onAnalyst(m) {
  if (m.type === "error") {
    // A refused go may have set nothing: the next one sends every value again.
    an.searching = false; an.waiting = false; an.sent = {};
    return showError(m.message);
  }
  if (m.type === "searching") { an.waiting = false; return; }
  if (m.type === "engine") {
    an.options = m.options;
    an.chosen = {};
    an.sent = {};
    an.pressed = new Set();
    $("#multipv-label").hidden = !m.options.some((o) => o.name.toLowerCase() === "multipv");
    return;
  }
  if (m.type === "bestmove") { an.searching = false; $("[data-bestmove]").textContent = m.move; return; }
  if (m.type === "info") {
    if (an.waiting) return;
    an.lines[m.multipv] = m;
    const body = $("#infos tbody");
    body.replaceChildren(...Object.keys(an.lines).sort((a, b) => a - b).map((k) => {
      const i = an.lines[k];
      return el("tr", { "data-multipv": k },
        ...[k, i.depth ?? "", i.score ?? "", i.nodes ?? "", i.nps ?? "", i.pv.join(" ")]
          .map((v) => el("td", {}, String(v))));
    }));
    if (Number(m.multipv) === 1) markPv(m.pv_holes || []);
  }
}

// How many moves of the best line are numbered on the board.
const PV_MARKS = 4;

// The best line drawn on the board: its first moves numbered 1, 2, … on the
// holes they start from (the server names each hole, as far as the rules
// find the line legal; `pass` has none). The first move's hole is also
// outlined (`data-pv`).
function markPv(holes) {
  $$('#board [data-pv]').forEach((h) => { delete h.dataset.pv; h.classList.remove("pv"); });
  $$("#board .pv-marks").forEach((m) => m.remove());
  holes.slice(0, PV_MARKS).forEach((n, i) => {
    const hole = n !== null && $(`#board [data-hole="${n}"]`);
    if (!hole) return;
    if (i === 0) { hole.dataset.pv = "true"; hole.classList.add("pv"); }
    let marks = $(".pv-marks", hole);
    if (!marks) { marks = el("span", { class: "pv-marks", "aria-hidden": "true" }); hole.append(marks); }
    marks.append(el("span", { class: "pv-mark", "data-pv-index": i + 1, title: `best line, move ${i + 1}` }, String(i + 1)));
  });
}

async function anShow() {
  const moves = an.moves.slice(0, an.cursor).join(" ");
  // why: answers may come back out of order (a deep link sets the position,
  // then its moves); only the newest request's answer is drawn.
  const request = ++an.shown;
  const a = await fetchJson(`/api/position?position=${encodeURIComponent(an.start)}&moves=${encodeURIComponent(moves)}`);
  if (!a || request !== an.shown) return;
  an.answer = a;
  const editing = $("[data-edit-board]").checked;
  if (!editing) draft = null;
  // As UCI GUIs do: a running analysis follows the board to a new position
  // (a move, a step, or an edit the rules accept).
  if (an.searching && a.board.position !== an.analysed) {
    if (a.status === "ongoing") analyse();
    else anSend({ type: "stop" });
  }
  if (editing) {
    if (!draft || !draft.error) draft = { board: a.board, error: null };
    drawMoves(an.moves.map((mv) => ({ move: mv })), an.cursor - 1);
    $("[data-ply]").textContent = `${an.cursor}/${an.moves.length}`;
    return drawDraft();
  }
  $("#edit-tools").hidden = true;
  // A move made or stepped forward is animated from the rules' steps (the
  // server's `trace` of the line's last move), as in play; `animate` shows
  // any other change at once (the board is not the trace's `before`).
  animate(editing ? null : a.trace, () => {
    drawBoard(a.board, {
      legal: editing ? [] : a.legal,
      editable: editing,
      status: a.status,
      onHole: editing ? editHole : anPick,
    });
    drawMoves(an.moves.map((mv) => ({ move: mv })), an.cursor - 1, (ply) => { an.cursor = ply; anShow(); });
    $("[data-ply]").textContent = `${an.cursor}/${an.moves.length}`;
    $("#status").textContent = a.status === "ongoing" ? `${a.board.to_move} to move` : resultText(a.status, a.reason);
    $("[data-pass]").hidden = !a.legal.some((l) => l.move === "pass");
    $("[data-move-input]").disabled = a.status !== "ongoing";
  });
}

// A move by click, Pass or typed: the line grows only by a move the rules
// accept (a typed illegal one is refused with their reason).
async function anPlay(mv) {
  finishAnimation();
  const moves = an.moves.slice(0, an.cursor).concat([mv]);
  const checked = await fetchJson(`/api/position?position=${encodeURIComponent(an.start)}&moves=${encodeURIComponent(moves.join(" "))}`);
  if (!checked) return;
  showError("");
  an.moves = moves;
  an.cursor = an.moves.length;
  anShow();
}

function anPick(hole) {
  const candidates = an.answer.legal.filter((l) => l.hole === hole);
  if (candidates.length === 1) return anPlay(candidates[0].move);
  showChoices(hole, candidates, anPlay);
}

// Board editing: the server sets one field of the draft position string (a
// hole, a store or reserve, the side to move, the Bosh round) and says what
// the rules find wrong with the draft, if anything. A draft may be invalid
// for a while (one hole changed breaks the seed total); only a draft the
// rules accept becomes the position analysed.
let draft = null;   // { board, error } while editing

function drawDraft() {
  const v = draft.board;
  drawBoard(v, { editable: true, status: "ongoing", onHole: editHole, onStore: v.stores ? editStore : null });
  const board = $("#board");
  board.dataset.draft = draft.error ? "invalid" : "valid";
  $("#edit-tools").hidden = false;
  $('[data-action="edit-round"]').hidden = v.round === undefined || v.round === null;
  $("#status").textContent = draft.error
    ? "editing: not a valid position yet"
    : `editing: ${v.to_move} to move`;
  $("[data-pass]").hidden = true;
  $("[data-move-input]").disabled = true;
}

async function editField(target, value) {
  if (value === null) return;
  const r = await fetchJson(`/api/edit?position=${encodeURIComponent(draft.board.position)}`
    + `&target=${encodeURIComponent(target)}&value=${encodeURIComponent(value)}`);
  if (!r) return;
  draft = { board: r.board, error: r.error || null };
  $("[data-position-input]").value = r.draft;
  if (draft.error) {
    showError(`not a valid position yet: ${draft.error}`);
    drawDraft();
  } else {
    await setPosition(r.draft);
  }
}

function editHole(hole) {
  const now = draft.board.rows.flat().find((h) => h.hole === hole);
  const closed = draft.board.game === "bosh" ? " (x: closed)" : "";
  editField(`hole:${hole}`, prompt(`Seeds in hole ${hole}${closed}`, now ? now.seeds : ""));
}

function editStore(side) {
  const now = draft.board.stores[SIDES.indexOf(side)];
  editField(`store:${side}`, prompt(`Seeds in the ${side} ${draft.board.stores_label}`, now));
}

async function setPosition(position) {
  const v = await fetchJson(`/api/position?position=${encodeURIComponent(position)}`);
  if (!v) {
    // A bad deep link: the field keeps the string to fix, the board says why it is empty.
    if (!an.answer) { boardNote("no position"); $("[data-position-input]").value = position || ""; }
    return;
  }
  showError("");
  an.start = v.start; an.moves = []; an.cursor = 0;
  $("[data-position-input]").value = v.start;
  anShow();
}

function optionsDialog() {
  const box = $("#options-fields");
  const pressed = new Set(an.pressed);
  // MultiPV is the Lines field's: the dialog shows and sets that one value.
  const isLines = (name) => name.toLowerCase() === "multipv" && !$("#multipv-label").hidden;
  box.replaceChildren(...an.options.map((o) => {
    const value = isLines(o.name) ? $("[data-multipv-input]").value : an.chosen[o.name] ?? o.default ?? "";
    let input;
    // A button (UCI: an action, e.g. Clear Hash) is pressed with the next search.
    if (o.kind === "button") {
      const button = el("button", { type: "button", "data-option-button": o.name, "aria-pressed": String(pressed.has(o.name)) }, o.name);
      button.addEventListener("click", () => {
        if (pressed.has(o.name)) pressed.delete(o.name); else pressed.add(o.name);
        button.setAttribute("aria-pressed", String(pressed.has(o.name)));
      });
      return el("p", { class: "option" }, button, " (pressed before the next search)");
    }
    if (o.kind === "check") input = el("input", { type: "checkbox", checked: value === "true" });
    else if (o.kind === "spin") input = el("input", { type: "number", min: o.min, max: o.max, value });
    else if (o.kind === "combo") {
      input = el("select", {}, ...o.vars.map((v) => el("option", { value: v }, v)));
      input.value = value;
    } else input = el("input", { value });
    input.dataset.option = o.name;
    return el("label", { class: "option" }, `${o.name} `, input);
  }));
  const dialog = $("#options-dialog");
  dialog.onclose = () => {
    if (dialog.returnValue !== "ok") return;
    an.pressed = pressed;
    $$("[data-option]", box).forEach((i) => {
      if (isLines(i.dataset.option)) $("[data-multipv-input]").value = i.value;
      else an.chosen[i.dataset.option] = i.type === "checkbox" ? String(i.checked) : i.value;
    });
  };
  dialog.showModal();
}

function analyse() {
  if (draft && draft.error) return showError(`the board is not a valid position yet: ${draft.error}`);
  showError("");
  const wanted = { ...an.chosen };
  if (!$("#multipv-label").hidden) wanted.MultiPV = $("[data-multipv-input]").value;
  // As UCI GUIs do, a value goes to the engine once, not before every search
  // (a restart on each move would otherwise resend, e.g., Hash).
  an.sent = an.sent || {};
  const options = Object.entries(wanted).filter(([name, value]) => an.sent[name] !== value);
  for (const [name, value] of options) an.sent[name] = value;
  for (const name of an.pressed) options.push([name, ""]);
  an.pressed = new Set();
  an.lines = {};
  an.searching = true;
  an.waiting = true;
  an.analysed = an.answer && an.answer.board.position;
  $("#infos tbody").replaceChildren();
  $("[data-bestmove]").textContent = "";
  anSend({ type: "go", engine: $("#analyse-engine").value || null, position: an.start,
           moves: an.moves.slice(0, an.cursor).join(" "), options });
}

async function exportLog() {
  const moves = an.moves.slice(0, an.cursor).join(" ");
  const r = await fetch(`/api/export?position=${encodeURIComponent(an.start)}&moves=${encodeURIComponent(moves)}`);
  const box = $("[data-export]");
  box.value = await r.text();
  box.hidden = false;
}

async function setupAnalyse() {
  const sel = $("#analyse-engine");
  sel.replaceChildren(...config.engines.map((e) => el("option", { value: e.name }, e.name)));
  const chooseEngine = () => sel.value && anSend({ type: "engine", engine: sel.value });
  sel.addEventListener("change", chooseEngine);
  chooseEngine();
  $("#analyse-form").addEventListener("submit", (e) => { e.preventDefault(); setPosition($("[data-position-input]").value); });
  $("#move-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const input = $("[data-move-input]");
    const mv = input.value.trim();
    if (mv) { anPlay(mv); input.value = ""; }
  });
  $("[data-pass]").addEventListener("click", () => anPlay("pass"));
  $("[data-edit-board]").addEventListener("change", () => { draft = null; showError(""); anShow(); });
  $('[data-action="edit-side"]').addEventListener("click", () =>
    editField("side", draft.board.to_move === "south" ? "N" : "S"));
  $('[data-action="edit-round"]').addEventListener("click", () =>
    editField("round", prompt("Round", draft.board.round)));
  const act = {
    options: optionsDialog, analyse, stop: () => anSend({ type: "stop" }),
    takeback: () => { an.moves = an.moves.slice(0, Math.max(0, an.cursor - 1)); an.cursor = an.moves.length; anShow(); },
    "export-position": () => { const b = $("[data-export]"); b.value = an.answer.board.position; b.hidden = false; },
    "export-log": exportLog,
  };
  for (const [name, f] of Object.entries(act)) $(`[data-action="${name}"]`).addEventListener("click", f);
  const step = { first: () => 0, back: () => an.cursor - 1, forward: () => an.cursor + 1, last: () => an.moves.length };
  $$("[data-step]").forEach((b) => b.addEventListener("click", () => {
    an.cursor = Math.max(0, Math.min(step[b.dataset.step](), an.moves.length));
    anShow();
  }));
  const start = params.get("position") || (await fetchJson(`/api/start?game=${encodeURIComponent(params.get("game") || "bohnenspiel")}`) || {}).position;
  // An unknown `game=`: its error stays and the board says there is none.
  if (!start) return boardNote("no position");
  await setPosition(start);
  if (params.has("moves")) { an.moves = params.get("moves").split(/\s+/).filter(Boolean); an.cursor = an.moves.length; anShow(); }
}

// ---------------------------------------------------------------- start

async function main() {
  const c = await fetchJson("/api/config");
  if (c) config = c;
  fillPlayers();
  setupAnimation();
  for (const m of ["play", "replay", "analyse"]) {
    $$(`[data-mode~="${m}"]`).forEach((e) => { e.hidden = !e.dataset.mode.split(" ").includes(MODE); });
    $$(`[data-nav="${m}"]`).forEach((e) => e.classList.toggle("active", m === MODE));
  }
  if (MODE === "replay") await setupReplay();
  else if (MODE === "analyse") await setupAnalyse();
  else setupPlay();
  document.body.dataset.ready = "true";
  // Milliseconds from navigation to ready (read by bench/serve.sh).
  document.body.dataset.readyMs = String(Math.round(performance.now()));
}

// Leaving the page ends its games and their engines at once (a page kept in
// the back/forward cache would otherwise keep its WebSocket open).
window.addEventListener("pagehide", () => {
  leaving = true;
  if (socket) socket.close();
  if (anSocket) anSocket.close();
});

// A page brought back from the back/forward cache is live again.
window.addEventListener("pageshow", () => { leaving = false; });

// The live page (live.js) uses the drawing above and drives itself.
if (document.body.dataset.page !== "live") main();
