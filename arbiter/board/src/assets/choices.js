// The chooser for a hole that starts several moves (Kujifunza: the sowing
// direction and each kichwa choice): one button a move, each saying in
// words where it sows and which kichwa it enters, and showing it on the
// board while hovered or focused (the server's preview, from the move's
// trace). The first takes the focus, so the keyboard goes on from the hole.

import { $, $$, el } from "/assets/dom.js";
import { showPreview } from "/assets/board.js";

function describe(c) {
  const p = c.preview;
  if (!p) return c.move;
  const parts = [];
  if (p.sows.length) parts.push(`sow towards ${p.sows[0]}`);
  if (p.kichwas.length) parts.push(`kichwa ${p.kichwas.join(", then ")}`);
  return parts.join(", ") || c.move;
}

function close(box) {
  box.hidden = true;
  showPreview(null);
  $$("#board [data-picked]").forEach((h) => { delete h.dataset.picked; });
}

export function showChoices(hole, candidates, play) {
  const box = $("#choices");
  $$("#board [data-picked]").forEach((h) => { delete h.dataset.picked; });
  const picked = $(`#board [data-hole="${hole}"]`);
  if (picked) picked.dataset.picked = "true";
  box.replaceChildren(el("span", {}, `From hole ${hole}:`), ...candidates.map((c) => {
    const show = () => showPreview(c.preview || null);
    return el("button", { type: "button", "data-choice": c.move, title: c.move,
                          onmouseenter: show, onfocus: show, onmouseleave: () => showPreview(null),
                          onclick: () => { close(box); play(c.move); } },
      el("span", { class: "choice-words" }, describe(c)), " ", el("code", {}, c.move));
  }), el("button", { type: "button", class: "cancel", onclick: () => close(box) }, "cancel"));
  box.hidden = false;
  $("[data-choice]", box).focus();
}
