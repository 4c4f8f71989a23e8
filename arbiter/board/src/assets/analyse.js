// The analysis page (/analyse): a line of moves from a position, an engine
// under `go infinite` on the position shown, board editing. Positions,
// legality and results are the server's (the rules library's).

import { $, $$, el, params, SIDES, sideName, showError, boardNote, fetchJson, socketUrl } from "/assets/dom.js";
import { drawBoard, markPv } from "/assets/board.js";
import { drawMoves, resultText, stepKeys, scoreText, parseScore } from "/assets/moves.js";
import { animate, finishAnimation } from "/assets/animate.js";
import { drawEvalGraph } from "/assets/graph.js";
import { showChoices } from "/assets/choices.js";

// How many moves of the best line are numbered on the board.
const PV_MARKS = 4;
// Options an analysis never uses: not offered in the dialog.
const NOT_FOR_ANALYSIS = ["ponder"];

let config = null;
// `searching`: a search was asked for and not stopped; `waiting`: its
// `searching` answer has not come yet, so an `info` is an earlier search's.
// `evals`: ply → the best line's latest score at that ply, from South's side.
// `movers`: who made each of `moves`, as the server's answers say.
const an = { searching: false, waiting: false, start: "", moves: [], movers: [], cursor: 0, answer: null, options: [],
             chosen: {}, pressed: new Set(), lines: {}, shown: 0, evals: new Map(), analysedPly: 0 };
let anSocket = null;
let leaving = false;

function anConnect() {
  return new Promise((resolve) => {
    if (anSocket && anSocket.readyState === WebSocket.OPEN) return resolve(anSocket);
    anSocket = new WebSocket(socketUrl("/ws/analyse"));
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

// 1234567 → "1,234,567"; nps as thousands a second.
const count = (n) => (n === null || n === undefined || n === "" ? "" : Number(n).toLocaleString("en"));
const rate = (n) => (n === null || n === undefined || n === "" ? "" : `${Math.round(Number(n) / 1000).toLocaleString("en")} k/s`);

function onAnalyst(m) {
  if (m.type === "stopping") {
    // The server drains: the analysis has stopped, the socket closes next.
    an.searching = false; an.waiting = false;
    $("#status").textContent = m.message;
    return showError(m.message);
  }
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
    $("#infos tbody").replaceChildren(...Object.keys(an.lines).sort((a, b) => a - b).map((k) => {
      const i = an.lines[k];
      const cells = [[k, "num"], [i.depth ?? "", "num"], [scoreText(i.score), "num score"],
                     [count(i.nodes), "num"], [rate(i.nps), "num"], [i.pv.join(" "), "pv"]];
      return el("tr", { "data-multipv": k }, ...cells.map(([v, c]) => el("td", { class: c }, String(v))));
    }));
    if (Number(m.multipv) === 1) {
      markPv(m.pv_holes || [], PV_MARKS);
      recordEval(m.score);
    }
  }
}

// The best line's score for the graph, turned to South's side (the engine
// scores for the side to move of the position analysed).
function recordEval(score) {
  const v = parseScore(score);
  if (!v || !an.answer || an.answer.board.position !== an.analysed) return;
  const south = an.answer.board.to_move === "south";
  const turned = v.mate !== undefined ? { mate: south ? v.mate : -v.mate } : { cp: south ? v.cp : -v.cp };
  an.evals.set(an.analysedPly, turned);
  drawGraph();
}

function drawGraph() {
  const points = [...an.evals.entries()].filter(([ply]) => ply <= an.moves.length)
    .sort((a, b) => a[0] - b[0]).map(([ply, score]) => ({ ply, score }));
  drawEvalGraph($("#eval"), points, { plies: an.moves.length, current: an.cursor, onPick: goTo });
}

function goTo(ply) {
  an.cursor = Math.max(0, Math.min(ply, an.moves.length));
  anShow();
}

async function anShow() {
  const moves = an.moves.slice(0, an.cursor).join(" ");
  // why: answers may come back out of order (a deep link sets the position,
  // then its moves); only the newest request's answer is drawn.
  const request = ++an.shown;
  const a = await fetchJson(`/api/position?position=${encodeURIComponent(an.start)}&moves=${encodeURIComponent(moves)}`);
  if (!a || request !== an.shown) return;
  an.answer = a;
  // The answer names the movers of the line up to the cursor; those of the
  // moves beyond it came with the answer that covered them.
  an.movers = a.movers.concat(an.movers.slice(a.movers.length));
  const editing = $("[data-edit-board]").checked;
  if (!editing) draft = null;
  // As UCI GUIs do: a running analysis follows the board to a new position
  // (a move, a step, or an edit the rules accept).
  if (an.searching && a.board.position !== an.analysed) {
    if (a.status === "ongoing") analyse();
    else anSend({ type: "stop" });
  }
  const list = () => drawMoves(an.moves.map((mv, i) => ({ move: mv, side: an.movers[i] })), { current: an.cursor - 1, onPick: editing ? null : goTo });
  if (editing) {
    if (!draft || !draft.error) draft = { board: a.board, error: null };
    list();
    $("[data-ply]").textContent = `${an.cursor}/${an.moves.length}`;
    return drawDraft();
  }
  $("#edit-tools").hidden = true;
  // A move made or stepped forward is animated from the rules' steps (the
  // server's `trace` of the line's last move), as in play; `animate` shows
  // any other change at once (the board is not the trace's `before`).
  animate(a.trace, () => {
    drawBoard(a.board, { legal: a.legal, status: a.status, onHole: anPick, steps: a.trace ? a.trace.steps : null });
    list();
    drawGraph();
    $("[data-ply]").textContent = `${an.cursor}/${an.moves.length}`;
    const status = $("#status");
    status.classList.toggle("ended", a.status !== "ongoing");
    status.textContent = a.status === "ongoing" ? `${sideName(a.board.to_move)} to move` : resultText(a.status, a.ending, a.reason);
    $("[data-pass]").hidden = !a.legal.some((l) => l.move === "pass");
    $("[data-move-input]").disabled = a.status !== "ongoing";
    drawTablebase(a.tablebase, a.board.to_move);
  });
}

// The endgame database's value (`arbiter serve --tb`): exact, marked as
// such, never mixed with the engine's scores.
function drawTablebase(tb, toMove) {
  const p = $("[data-tablebase]");
  p.hidden = !tb;
  if (!tb) return;
  p.dataset.value = tb.value;
  p.dataset.exact = tb.exact;
  p.dataset.moves = tb.moves.join(" ");
  const value = tb.value > 0 ? `+${tb.value}` : String(tb.value);
  const kind = tb.exact ? "Exact (endgame database)" : `Cycle ruling (endgame database, bounds ${tb.bounds[0]} to ${tb.bounds[1]})`;
  const best = tb.moves.length ? `; best ${tb.moves.length > 1 ? "moves" : "move"} ${tb.moves.join(", ")}` : "";
  const beans = Math.abs(tb.value) === 1 ? "bean" : "beans";
  p.textContent = `${kind}: ${value} ${beans} for ${sideName(toMove)} from here${best}; best play ends ${tb.scores[0]}–${tb.scores[1]} (${tb.result}).`;
}

// A move by click, Pass or typed: the line grows only by a move the rules
// accept (a typed illegal one is refused with their reason).
async function anPlay(mv) {
  finishAnimation();
  const moves = an.moves.slice(0, an.cursor).concat([mv]);
  const checked = await fetchJson(`/api/position?position=${encodeURIComponent(an.start)}&moves=${encodeURIComponent(moves.join(" "))}`);
  if (!checked) return;
  showError("");
  // A new line from here: the scores of the old one beyond it go.
  for (const ply of [...an.evals.keys()]) if (ply > an.cursor) an.evals.delete(ply);
  an.moves = moves;
  an.movers = checked.movers;
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
  $("#board").dataset.draft = draft.error ? "invalid" : "valid";
  $("#edit-tools").hidden = false;
  $('[data-action="edit-round"]').hidden = v.round === undefined || v.round === null;
  $("#status").classList.remove("ended");
  $("#status").textContent = draft.error ? "editing: not a valid position yet" : `editing: ${sideName(v.to_move)} to move`;
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
  const closed = draft.board.closable ? " (x: closed)" : "";
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
  an.start = v.start; an.moves = []; an.movers = []; an.cursor = 0; an.evals = new Map();
  $("[data-position-input]").value = v.start;
  anShow();
}

// The engine's options as a form: one row each, its name as the label.
function optionsDialog() {
  const box = $("#options-fields");
  const pressed = new Set(an.pressed);
  // MultiPV is the Lines field's: the dialog shows and sets that one value.
  const isLines = (name) => name.toLowerCase() === "multipv" && !$("#multipv-label").hidden;
  const offered = an.options.filter((o) => !NOT_FOR_ANALYSIS.includes(o.name.toLowerCase()));
  box.replaceChildren(...offered.map((o) => {
    const value = isLines(o.name) ? $("[data-multipv-input]").value : an.chosen[o.name] ?? o.default ?? "";
    const range = o.kind === "spin" && o.min !== undefined ? `${o.min}–${o.max}` : "";
    // A button (UCI: an action, e.g. Clear Hash) is pressed with the next search.
    if (o.kind === "button") {
      const button = el("button", { type: "button", "data-option-button": o.name, "aria-pressed": String(pressed.has(o.name)) }, o.name);
      button.addEventListener("click", () => {
        if (pressed.has(o.name)) pressed.delete(o.name); else pressed.add(o.name);
        button.setAttribute("aria-pressed", String(pressed.has(o.name)));
      });
      return el("div", { class: "option" }, el("span", { class: "option-name" }, o.name),
        el("span", { class: "option-field" }, button), el("span", { class: "option-hint" }, "pressed before the next search"));
    }
    let input;
    if (o.kind === "check") input = el("input", { type: "checkbox", checked: value === "true" });
    else if (o.kind === "spin") input = el("input", { type: "number", min: o.min, max: o.max, value });
    else if (o.kind === "combo") {
      input = el("select", {}, ...o.vars.map((v) => el("option", { value: v }, v)));
      input.value = value;
    } else input = el("input", { value });
    input.dataset.option = o.name;
    return el("label", { class: "option" }, el("span", { class: "option-name" }, o.name),
      el("span", { class: "option-field" }, input), el("span", { class: "option-hint" }, range));
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
  an.analysedPly = an.cursor;
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

export async function setup(pageConfig) {
  config = pageConfig;
  window.addEventListener("pagehide", () => { leaving = true; if (anSocket) anSocket.close(); });
  window.addEventListener("pageshow", () => { leaving = false; });
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
    takeback: () => {
      an.moves = an.moves.slice(0, Math.max(0, an.cursor - 1));
      an.movers = an.movers.slice(0, an.moves.length);
      an.cursor = an.moves.length;
      anShow();
    },
    "export-position": () => { const b = $("[data-export]"); b.value = an.answer.board.position; b.hidden = false; },
    "export-log": exportLog,
  };
  for (const [name, f] of Object.entries(act)) $(`[data-action="${name}"]`).addEventListener("click", f);
  const step = { first: () => 0, back: () => an.cursor - 1, forward: () => an.cursor + 1, last: () => an.moves.length };
  $$("[data-step]").forEach((b) => b.addEventListener("click", () => goTo(step[b.dataset.step]())));
  stepKeys((where) => { if (!$("[data-edit-board]").checked) goTo(step[where]()); });
  const start = params.get("position") || (await fetchJson(`/api/start?game=${encodeURIComponent(params.get("game") || "bohnenspiel")}`) || {}).position;
  // An unknown `game=`: its error stays and the board says there is none.
  if (!start) return boardNote("no position");
  await setPosition(start);
  if (params.has("moves")) { an.moves = params.get("moves").split(/\s+/).filter(Boolean); an.cursor = an.moves.length; anShow(); }
}
