// The move list, scores and results as the pages write them. Moves are
// numbered as in the PGN logs, by who made each move (the server says: a
// Kalah extra turn is the same side twice): a South move starts a new
// number (`1. 3`, then `2. 1` after an extra turn), a North move shares
// the number of the South move before it (`2… 9` beside `2. 1`), and a
// North move after a North move or at the start takes the current one.

import { $, el, moveTime } from "/assets/dom.js";

// The number and label of each ply, from `sides`, each ply's mover
// ("south" / "north") in order.
export function plyLabels(sides) {
  let number = 1;
  return sides.map((side, i) => {
    if (side === "south" && i > 0) number += 1;
    return { side, number, text: side === "south" ? `${number}.` : `${number}…` };
  });
}

// A score as the log writes it (`+35`, `-M2`), or an info line's
// ({cp}/{mate}), read into {cp} or {mate}; null if none.
export function parseScore(s) {
  if (s === null || s === undefined) return null;
  if (typeof s === "object") return s.cp !== undefined ? { cp: s.cp } : s.mate !== undefined ? { mate: s.mate } : null;
  const m = /^([+-]?)(M?)(\d+)$/.exec(String(s).trim());
  if (!m) return null;
  const v = Number(m[3]) * (m[1] === "-" ? -1 : 1);
  return m[2] ? { mate: v } : { cp: v };
}

// A score in the unit players read: seeds (`+1.35` is one and a bit seeds
// ahead, from the side to move), or a forced win `#3` / loss `#-3` in moves.
export function scoreText(s) {
  const v = parseScore(s);
  if (!v) return "";
  if (v.mate !== undefined) return v.mate >= 0 ? `#${v.mate}` : `#-${Math.abs(v.mate)}`;
  return (v.cp >= 0 ? "+" : "-") + (Math.abs(v.cp) / 100).toFixed(2);
}

// The list `#moves`: one item per ply (`data-ply`, `data-side`), in two
// columns, South's and North's, each with its number. Each move carries
// `side`, its mover as the server reports it; `current` (a ply from 0) is
// highlighted; `onPick(ply)`: a click or Enter steps there.
export function drawMoves(moves, { current = -1, onPick = null } = {}) {
  const list = $("#moves");
  list.replaceChildren();
  const labels = plyLabels(moves.map((m) => m.side));
  moves.forEach((m, i) => {
    const label = labels[i];
    const extra = [];
    if (m.score !== undefined && m.score !== null) extra.push(scoreText(m.score));
    if (m.depth) extra.push(`d${m.depth}`);
    if (m.time_ms !== undefined) extra.push(moveTime(m.time_ms));
    // A move that can be stepped to is a button (reached by Tab, Enter picks it).
    const mv = onPick
      ? el("button", { type: "button", class: "mv", "aria-label": `go to move ${label.text} ${m.move} (${label.side})`,
                       onclick: () => onPick(i + 1) }, m.move)
      : el("span", { class: "mv" }, m.move);
    list.append(el("li", { "data-ply": i + 1, "data-side": label.side, class: i === current ? "current" : null },
      el("span", { class: "num", "aria-hidden": "true" }, label.text), mv,
      el("span", { class: "meta" }, extra.join(" "))));
  });
  const cur = $(".current", list);
  if (cur) cur.scrollIntoView({ block: "nearest" });
}

// The end banner: the result, then the server's words with the final
// totals (`0-1 — North wins 56–16: …`), else the reason as logged.
export function resultText(status, ending, reason) {
  if (ending) return `${status} — ${ending}`;
  const who = { "1-0": "South wins", "0-1": "North wins", "1/2-1/2": "Draw" }[status] || status;
  return `${status} — ${who}${reason ? ": " + reason : ""}`;
}

// ←/→ step a ply, Home/End go to the start and the end (as on lichess),
// except while typing in a field.
export function stepKeys(go) {
  document.addEventListener("keydown", (e) => {
    if (["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName) || e.altKey || e.ctrlKey || e.metaKey) return;
    const where = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" }[e.key];
    if (!where) return;
    e.preventDefault();
    go(where);
  });
}
