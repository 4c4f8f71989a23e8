// Small helpers every page shares: element building, the error line, the
// server's JSON, clocks. No rule of any game here.

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));
export const params = new URLSearchParams(location.search);
export const SIDES = ["south", "north"];

// A side's name in a sentence ("South to move"); the data keep "south".
export const sideName = (side) => ({ south: "South", north: "North" })[side] || side;

export function el(tag, attrs = {}, ...children) {
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

// The same for SVG elements (the graphs).
export function svg(tag, attrs = {}, ...children) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, String(v));
  }
  for (const c of children) e.append(c);
  return e;
}

// The address of this server's WebSocket `path` (`/ws/play`), in the
// page's own scheme: `wss:` under `https:` (a served `--tls-cert` page), else
// `ws:`. why one place: a browser refuses a `ws:` socket from an `https:`
// page, and every page that opens a socket must get this right.
export function socketUrl(path) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${path}`;
}

export function showError(text) {
  const box = $("[data-error]");
  if (!box) return;
  box.textContent = text || "";
  box.hidden = !text;
}

// The board frame before there is a position to draw: a note in it
// (`connecting…` until the server's first answer), and the same in the
// status line.
export function boardNote(text) {
  const board = $("#board");
  board.replaceChildren(el("p", { class: "board-note", "data-board-note": true }, text));
  board.dataset.position = "";
  $("#status").textContent = text;
}

export async function fetchJson(url, options) {
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

export function formatClock(ms) {
  if (ms === null || ms === undefined) return "";
  const t = Math.max(0, ms);
  const s = Math.floor(t / 1000);
  const m = Math.floor(s / 60);
  const tenths = t < 10000 ? "." + Math.floor((t % 1000) / 100) : "";
  return `${m}:${String(s % 60).padStart(2, "0")}${tenths}`;
}

// A move's time as logged: milliseconds under a second (a fast game's moves
// would all read 0.0s), else seconds.
export function moveTime(ms) {
  return ms < 1000 ? `${ms}ms` : `${(ms / 1000).toFixed(1)}s`;
}
