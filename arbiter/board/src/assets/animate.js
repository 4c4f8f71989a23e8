// A move shown step by step from the rules library's trace (pick, sow,
// capture, refill, close …): only the counts the steps name move; the final
// position is the server's. A new state ends a running animation.

import { $, $$, params } from "/assets/dom.js";
import { dots } from "/assets/board.js";

const STEP_MS = { fast: 40, normal: 140, slow: 400 };
const MAX_ANIMATION_MS = 8000;   // a long Bosh relay is sped up to fit
let anim = null;

export function finishAnimation() { if (anim) anim.finish(); }

function setSeeds(hole, value) {
  const e = $(`#board [data-hole="${hole}"]`);
  if (!e) return;
  e.dataset.seeds = String(value);
  $(".count", e).textContent = value === "x" ? "×" : String(value);
  $(".dots", e).replaceWith(dots(value));
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

// The animation controls: the speed is the address's `animate`, else the
// last one chosen.
export function setupAnimation() {
  $("[data-anim-step]").addEventListener("click", () => anim && anim.step());
  $("[data-anim-skip]").addEventListener("click", finishAnimation);
  const speed = $("[data-anim-speed]");
  const wanted = params.get("animate") || localStorage.getItem("animate");
  if (wanted && [...speed.options].some((o) => o.value === wanted)) speed.value = wanted;
  speed.addEventListener("change", () => localStorage.setItem("animate", speed.value));
}

// Plays `trace` ({before, steps}) on the board, then `render()`; at once
// when animation is off or the board is not the trace's `before`.
export function animate(trace, render) {
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
  $$("#board .hole").forEach((h) => { h.disabled = true; h.classList.remove("legal"); delete h.dataset.legal; delete h.dataset.last; });
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
