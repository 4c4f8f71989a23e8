// The events page (/arena/events): every scheduled event, newest first,
// each linked to its page. Reads /api/arena/events; redraws every 5 s.

import { $, el, fetchJson, showError } from "/assets/dom.js";
import { when } from "/assets/arena-common.js";

function draw(events) {
  const body = $("#events tbody");
  body.replaceChildren(...events.map((e) => el("tr", { "data-event": String(e.id), "data-state": e.state },
    el("td", {}, el("a", { href: `/arena/event?id=${e.id}` }, `#${e.id}`)),
    el("td", { class: "name" }, e.pool),
    el("td", { class: "name" }, e.format),
    el("td", { class: "wide" }, String(e.played_rounds ?? e.rounds)),
    el("td", { class: "name wide" }, when(e.at)),
    el("td", { class: "name", title: e.note ?? "" }, e.state),
    el("td", { class: "wide" }, e.players.length ? String(e.players.length) : "–"),
    el("td", { "data-games": "" }, String(e.games)),
  )));
  if (!events.length) {
    body.append(el("tr", {}, el("td", { colspan: "8", class: "name" },
      "No event yet: `arbiter arena event add` schedules one.")));
  }
}

async function refresh() {
  const events = await fetchJson("/api/arena/events");
  if (!events) return;
  draw(events);
  document.body.dataset.ready = "true";
  showError(null);
}

refresh();
setInterval(refresh, 5000);
