// The entry of the board pages (/play, /analyse, /replay share one HTML
// page): shows the parts of the page that belong to the mode in the
// address, then starts that page's own module (play.js, analyse.js,
// replay.js). The live page has its own HTML and module (live.js).

import { $$, fetchJson } from "/assets/dom.js";
import { setupAnimation } from "/assets/animate.js";

const MODES = ["play", "replay", "analyse"];
const wanted = location.pathname.replace(/^\/+|\/+$/g, "") || "play";
const MODE = MODES.includes(wanted) ? wanted : "play";

async function main() {
  const config = (await fetchJson("/api/config")) || { games: [], engines: [], default_tc: "60+1" };
  document.body.dataset.page = MODE;
  for (const m of MODES) {
    $$(`[data-mode~="${m}"]`).forEach((e) => { e.hidden = !e.dataset.mode.split(" ").includes(MODE); });
    $$(`[data-nav="${m}"]`).forEach((e) => e.classList.toggle("active", m === MODE));
  }
  setupAnimation();
  const page = await import(`/assets/${MODE}.js`);
  await page.setup(config);
  document.body.dataset.ready = "true";
  // Milliseconds from navigation to ready (read by bench/serve.sh).
  document.body.dataset.readyMs = String(Math.round(performance.now()));
}

main();
