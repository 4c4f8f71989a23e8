// The board: draws a laid-out position (the server's board view, see
// web/board.rs) and marks on it. It knows no rule: which moves are legal,
// what a move did (its steps) and the result always come from the server.
// The automation contract (data-* attributes) is documented in docs/gui.md.

import { $, $$, el, SIDES } from "/assets/dom.js";

// The holes a move changed, from its steps (the rules library's trace):
// `origin` (the hole it started from), `captured` (emptied by a capture),
// `sown` (a seed dropped in). A Bosh round's sweep and refill after the
// move are not the move's own and are left out.
export function lastMarks(steps) {
  const marks = new Map();
  let origin = null;
  for (const s of steps || []) {
    if (s.step === "round_end") break;
    if (s.step === "pick" && origin === null) origin = s.hole;
    if (s.step === "sow" && !marks.has(s.hole)) marks.set(s.hole, "sown");
    if (s.step === "capture") marks.set(s.from, "captured");
  }
  if (origin !== null) marks.set(origin, "origin");
  return marks;
}

// Draws `view`. `legal`: moves the user may enter now; `onHole(hole)` and
// `onStore(side)`: what a click does; `steps`: the last move's steps, whose
// holes are marked (`data-last`); `target`: the board element (default
// `#board`).
export function drawBoard(view, { legal = [], status = "ongoing", onHole = null, onStore = null, editable = false, target = null, steps = null } = {}) {
  const board = target || $("#board");
  board.replaceChildren();
  board.dataset.position = view.position;
  board.dataset.status = status;
  board.dataset.game = view.game;
  board.dataset.toMove = view.to_move;
  board.className = `board game-${view.game}`;
  // The hole size follows the width (a phone shows the whole board): the
  // widest row, plus the two stores beside it.
  const cols = Math.max(...view.rows.map((r) => r.length)) + (view.stores ? 2 : 0);
  board.style.setProperty("--cols", String(cols));
  const legalHoles = new Set(legal.map((l) => l.hole).filter((h) => h !== null));
  const marks = lastMarks(steps);

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
      const last = marks.get(h.hole) || null;
      const hole = el("button", {
        type: "button",
        class: "hole" + (seeds === "x" ? " closed" : "") + (isLegal ? " legal" : ""),
        "data-hole": h.hole,
        "data-seeds": seeds,
        "data-legal": isLegal ? "true" : null,
        "data-last": last,
        "aria-label": `hole ${h.hole}: ${seeds === "x" ? "closed" : seeds + " seeds"}${last ? `, last move: ${last}` : ""}`,
        disabled: isLegal || editable ? null : true,
        onclick: () => onHole && onHole(h.hole),
      }, el("span", { class: "num" }, String(h.hole)),
         el("span", { class: "count" }, seeds === "x" ? "×" : seeds), dots(seeds));
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

// A hole's seeds as dots (at most 24; the count says the rest).
export function dots(seeds) {
  const box = el("span", { class: "dots", "aria-hidden": "true" });
  const n = Number(seeds);
  if (Number.isFinite(n)) for (let i = 0; i < Math.min(n, 24); i++) box.append(el("i"));
  return box;
}

// The best line's first moves, numbered 1, 2, … on the holes they start
// from (`holes`: the server's, `null` for `pass`); the first is outlined
// (`data-pv`).
export function markPv(holes, count, board = $("#board")) {
  $$("[data-pv]", board).forEach((h) => { delete h.dataset.pv; h.classList.remove("pv"); });
  $$(".pv-marks", board).forEach((m) => m.remove());
  holes.slice(0, count).forEach((n, i) => {
    const hole = n !== null && $(`[data-hole="${n}"]`, board);
    if (!hole) return;
    if (i === 0) { hole.dataset.pv = "true"; hole.classList.add("pv"); }
    let marks = $(".pv-marks", hole);
    if (!marks) { marks = el("span", { class: "pv-marks", "aria-hidden": "true" }); hole.append(marks); }
    marks.append(el("span", { class: "pv-mark", "data-pv-index": i + 1, title: `best line, move ${i + 1}` }, String(i + 1)));
  });
}

// What a choice of move does, shown on the board while it is hovered or
// focused (the server's preview, from the move's trace): the first holes
// it sows (`data-preview="sow"`, numbered 1, 2, … in order in
// `data-preview-step`: the direction) and
// each kichwa it enters (`data-preview="kichwa"`). `null` clears it.
export function showPreview(preview, board = $("#board")) {
  $$("[data-preview]", board).forEach((h) => { delete h.dataset.preview; delete h.dataset.previewStep; });
  $$(".preview-mark", board).forEach((m) => m.remove());
  if (!preview) return;
  const mark = (n, kind, text) => {
    const hole = $(`[data-hole="${n}"]`, board);
    if (!hole) return;
    hole.dataset.preview = kind;
    if (kind === "sow") hole.dataset.previewStep = text;
    hole.append(el("span", { class: `preview-mark ${kind}`, "aria-hidden": "true" }, text));
  };
  preview.sows.forEach((n, i) => mark(n, "sow", String(i + 1)));
  preview.kichwas.forEach((n) => mark(n, "kichwa", "K"));
}
