// What the arena's pages share beyond the board's helpers (/assets/dom.js):
// numbers in tables, links into the replay, how a game ended.

import { el } from "/assets/dom.js";

// A number for a table cell ("–" for none).
export const fmt = (x, digits = 0) => (x === null || x === undefined ? "–" : x.toFixed(digits));

// A link that replays finished game `g` (a row of /api/arena/games).
export const replayLink = (g) =>
  el("a", { href: `/replay?log=${g.log}&game=${g.index}`, "data-replay": "" }, `#${g.id}`);

// A termination's kind (`rules`, `time_forfeit`, …) in words.
export const ending = (kind) => (kind === "rules" ? "on the board" : (kind || "–").replaceAll("_", " "));

// A stored UTC time (`2024-05-01T12:00:00.123Z`) to the second.
export const when = (at) => (at ? at.replace("T", " ").replace(/(\.\d+)?Z$/, " UTC") : "–");
