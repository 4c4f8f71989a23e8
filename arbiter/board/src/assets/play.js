// The play page (/play): draws what the server sends and sends what the
// user chooses; every rule (legal moves, the result, the clocks) is the
// server's.

import { $, $$, el, params, SIDES, sideName, showError, boardNote, fetchJson, formatClock, socketUrl } from "/assets/dom.js";
import { drawBoard } from "/assets/board.js";
import { drawMoves, resultText } from "/assets/moves.js";
import { animate, finishAnimation } from "/assets/animate.js";
import { showChoices } from "/assets/choices.js";

let config = null;
let socket = null;
let current = null;        // the last play state from the server
let playMoves = [];        // the moves so far, each with its mover (the server sends each new one)
let clockBase = null;      // { ms: [south, north], at: performance.now(), running }
let leaving = false;       // the page is being left (its socket is closed on purpose)
let stopping = null;       // the server's "server stopping" message, once it has sent one

function connect() {
  return new Promise((resolve) => {
    if (socket && socket.readyState === WebSocket.OPEN) return resolve(socket);
    socket = new WebSocket(socketUrl("/ws/play"));
    socket.onopen = () => {
      if (!current) boardNote("starting the game…");
      resolve(socket);
    };
    socket.onmessage = (e) => onServer(JSON.parse(e.data));
    socket.onclose = () => { socket = null; if (!leaving) connectionLost(); };
    socket.onerror = () => showError("cannot reach the server (is `arbiter serve` still running?)");
  });
}

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
  if (m.type === "stopping") {
    // The server drains: this game may finish; the status line keeps saying so.
    stopping = m.message;
    const status = $("#status");
    status.textContent = current ? `${status.textContent} — ${stopping}` : stopping;
    return;
  }
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
  // Each with its mover from `movers` (an extra turn is the same side again).
  if (m.ply === playMoves.length + m.moves.length) playMoves.push(...m.moves.map((mv, i) => ({ ...mv, side: m.movers[i] })));
  const mover = m.running;
  const humanToMove = m.status === "ongoing" && mover && m.seats[SIDES.indexOf(mover)] === "human";
  const legal = humanToMove ? m.legal : [];
  drawBoard(m.board, { legal, status: m.status, onHole: pickHole, steps: m.trace ? m.trace.steps : null });
  drawMoves(playMoves, { current: playMoves.length - 1 });
  SIDES.forEach((side, i) => { $(`[data-seat="${side}"]`).textContent = `${sideName(side)}: ${m.seats[i]}`; });
  clockBase = { ms: m.clocks, at: performance.now(), running: m.status === "ongoing" ? mover : null };
  tickClocks();
  const status = $("#status");
  status.classList.toggle("ended", m.status !== "ongoing");
  if (m.status !== "ongoing") {
    status.textContent = resultText(m.status, m.ending, m.reason);
  } else if (m.thinking) {
    status.textContent = `${sideName(m.thinking)} (${m.seats[SIDES.indexOf(m.thinking)]}) is thinking…`;
  } else {
    status.textContent = `${sideName(mover)} to move`;
  }
  if (stopping) status.textContent += ` — ${stopping}`;
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

function pickHole(hole) {
  if (!current) return;
  const candidates = current.legal.filter((l) => l.hole === hole);
  if (candidates.length === 1) return playMove(candidates[0].move);
  showChoices(hole, candidates, playMove);
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
  const position = $("#position").value.trim();
  send({
    type: "start",
    game: $("#game").value,
    position: position || null,
    south: seatOf("south"),
    north: seatOf("north"),
    tc: $("#tc").value.trim() || config.default_tc,
  });
}

function fillPlayers() {
  for (const side of SIDES) {
    $(`#${side}`).replaceChildren(el("option", { value: "human" }, "human"),
      ...config.engines.map((e) => el("option", { value: e.name }, e.name)));
  }
  $("#game").replaceChildren(...config.games.map((g) => el("option", { value: g }, g)));
  $("#north").value = config.engines.length ? config.engines[0].name : "human";
  $("#tc").value = config.default_tc;
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

export function setup(pageConfig) {
  config = pageConfig;
  fillPlayers();
  setInterval(tickClocks, 200);
  $("#play-form").addEventListener("submit", (e) => { e.preventDefault(); startGame(); });
  $("#move-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const input = $("[data-move-input]");
    const mv = input.value.trim();
    if (mv) { playMove(mv); input.value = ""; }
  });
  $("[data-pass]").addEventListener("click", () => playMove("pass"));
  $("#game").addEventListener("change", () => { if (!current) previewStart(); });
  // Leaving the page ends its game and engines at once (a page kept in the
  // back/forward cache would otherwise keep its WebSocket open).
  window.addEventListener("pagehide", () => { leaving = true; if (socket) socket.close(); });
  window.addEventListener("pageshow", () => { leaving = false; });
  // Deep link: /play?game=…&south=…&north=…&level=…&tc=…[&position=…]
  const unknown = [];
  // `level` sets both sides' Level, `south_level` / `north_level` one each.
  // why checked here: the number field takes `abc` as empty, and the game
  // would start at the engine's default Level instead of the one asked for.
  for (const key of ["level", "south_level", "north_level"]) {
    if (params.has(key) && !/^\d+$/.test(params.get(key).trim())) {
      unknown.push(`${key} ${JSON.stringify(params.get(key))} in the address is not a Level (a whole number)`);
    }
  }
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
