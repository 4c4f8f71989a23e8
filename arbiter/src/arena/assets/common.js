// What the arena's pages share: building elements, fetching JSON, numbers.

export const $ = (sel) => document.querySelector(sel);

export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined) e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

export async function fetchJson(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: ${r.status} ${await r.text()}`);
  return r.json();
}

// A number for a table cell ("–" for none).
export const fmt = (x, digits = 0) => (x === null || x === undefined ? "–" : x.toFixed(digits));

// A link that replays finished game `g` (a row of /api/arena/games).
export const replayLink = (g) =>
  el("a", { href: `/replay?log=${g.log}&game=${g.index}`, "data-replay": "" }, `#${g.id}`);
