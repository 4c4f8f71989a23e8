#!/usr/bin/env node
// Template in another language, without the kit: a UMI bot in plain Node.js
// that plays a random legal move. It writes no rule of any game: it asks the
// reference engine for the legal moves (its debug command `go perft 1` lists
// them), so it is a pure example of the protocol loop of protocol-spec.md.
//
//   arbiter check --engine cmd=python/templates/node_bot.js arg=target/release/engine
//
// The argument (or $MANCALA_ENGINE, else `engine` on PATH) is the reference
// engine used as the rules oracle.
"use strict";
const { spawn } = require("child_process");
const readline = require("readline");

const ORACLE = process.argv[2] || process.env.MANCALA_ENGINE || "engine";
const oracle = spawn(ORACLE, [], { stdio: ["pipe", "pipe", "inherit"] });
oracle.on("error", (e) => {
  process.stderr.write(`node_bot: cannot start ${ORACLE}: ${e.message}\n`);
  process.exit(1);
});
const oracleLines = [];
let oracleWaiter = null;
readline.createInterface({ input: oracle.stdout }).on("line", (line) => {
  oracleLines.push(line);
  if (oracleWaiter) oracleWaiter();
});

function send(line) {
  process.stdout.write(line + "\n");
}

// Sends lines to the oracle; resolves with what it printed up to and
// including the first line `last` accepts.
function askUntil(lines, last) {
  oracle.stdin.write(lines.join("\n") + "\n");
  return new Promise((resolve) => {
    const check = () => {
      const i = oracleLines.findIndex(last);
      if (i < 0) return;
      oracleWaiter = null;
      resolve(oracleLines.splice(0, i + 1));
    };
    oracleWaiter = check;
    check();
  });
}

// Sends lines to the oracle, then `isready`; resolves with what it printed
// before `readyok`.
function ask(lines) {
  return askUntil(lines.concat(["isready"]), (l) => l === "readyok").then((out) => out.slice(0, -1));
}

// `go perft`: the engine counts beside its command loop (it answers
// `isready` at once meanwhile), so wait for the count's own last line.
function perft(line) {
  return askUntil([line], (l) => l.startsWith("nodes ") || l.startsWith("info string error"));
}

const GO_FLAGS = new Set(["ponder", "infinite"]);
const GO_NUMBERS = new Set(["p1time", "p2time", "p1inc", "p2inc", "movestogo", "movetime", "depth", "nodes"]);

// Checks a `go` line's fields; returns the flags or an error message.
function parseGo(tokens) {
  const go = {};
  for (let i = 1; i < tokens.length; i++) {
    const t = tokens[i];
    if (t in go) return { error: `go: duplicate ${t}` };
    if (GO_FLAGS.has(t)) go[t] = true;
    else if (GO_NUMBERS.has(t)) {
      const v = tokens[++i];
      if (v === undefined || !/^\d{1,19}$/.test(v)) return { error: `go: ${t} needs a number` };
      go[t] = Number(v);
    } else return { error: `go: unexpected ${JSON.stringify(t)}` };
  }
  return { go };
}

let pending = null; // a search waiting for `stop` (infinite/ponder): its move
let searching = false;
let counting = false; // a `go perft` count runs (it may take long)
let queue = Promise.resolve();

async function handle(line) {
  const tokens = line.trim().split(/[ \t]+/).filter((t) => t.length > 0);
  const cmd = tokens[0];
  switch (cmd) {
    case undefined:
      return;
    case "umi":
      send("id name Node Random Bot");
      send("id author mancala kit template");
      send("games bohnenspiel bohnenspiel-hemprich bosh kimasai kujifunza");
      send("umiok");
      return;
    case "isready":
      send("readyok");
      return;
    case "newgame":
    case "position": {
      // The oracle validates the game id, the position and every move.
      const out = await ask([line.trim()]);
      for (const l of out) if (l.startsWith("info string error")) send(l);
      return;
    }
    case "go": {
      if (tokens[1] === "perft") {
        counting = true;
        (await perft(line.trim())).forEach(send);
        counting = false;
        return;
      }
      const { go, error } = parseGo(tokens);
      if (error) return send(`info string error: ${error}`);
      const moves = (await perft("go perft 1"))
        .filter((l) => /^[0-9A-Za-z+-]+: \d+$/.test(l))
        .map((l) => l.split(":")[0]);
      const answer = moves.length ? moves[Math.floor(Math.random() * moves.length)] : "(none)";
      if (!moves.length) send("info string error: no legal move or no valid position");
      if (go.infinite || go.ponder) {
        pending = answer; // answered on stop (or ponderhit)
        searching = true;
      } else send(`bestmove ${answer}`);
      return;
    }
    case "stop":
    case "ponderhit":
      if (searching && (cmd === "stop" || pending !== null)) {
        send(`bestmove ${pending}`);
        pending = null;
        searching = false;
      }
      return;
    case "setoption":
      return send("info string error: this engine has no options");
    case "d":
      // The oracle holds the position: its board, then the `pos` line.
      (await askUntil(["d"], (l) => l.startsWith("pos "))).forEach(send);
      return;
    case "gameover":
      return;
    case "quit":
      oracle.stdin.end("quit\n");
      process.exit(0);
      return;
    default:
      return; // unknown commands are ignored
  }
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  // `readyok` means every earlier command is done (a `position`'s error
  // message comes first), so `isready` keeps its order too, except during a
  // `go perft` count, which it must not wait for; everything keeps its order
  // (a `stop` follows the `go` it ends).
  if (counting && /^\s*isready\s*$/.test(line)) handle(line);
  else queue = queue.then(() => handle(line));
}).on("close", () => {
  queue.then(() => {
    oracle.stdin.end("quit\n");
    process.exit(0);
  });
});
