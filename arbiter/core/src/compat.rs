//! Command lines from cutechess-cli and fastchess: their single-dash options
//! (`-engine`, `-each`, `-games 2 -rounds 50 -repeat`, `-concurrency 4`,
//! `-openings file=… format=epd order=random`, `-sprt …`, …) are rewritten
//! into this arbiter's options before clap sees them, or refused with a
//! message that names the equivalent here. Also: hints for double-dash
//! spellings from those tools that clap would otherwise "correct" into an
//! unrelated option (`--games` in `tournament` is not `--game`).
//!
//! The translation is pure (argv in, argv and notes out), so every spelling
//! has a parsing test (in the binary, which parses the translation with
//! its real command line); [`fastchess_config`] reads fastchess's `-config file=`.
//! The table of spellings is in docs/tournaments.md.

pub mod engine_keys;
pub mod fastchess_config;

use std::ffi::OsString;
use std::fmt;

/// The arbiter's subcommands (a first argument that is one of them is kept).
const SUBCOMMANDS: [&str; 7] = [
    "match",
    "check",
    "verify",
    "tournament",
    "merge",
    "show",
    "help",
];

/// Where the single-dash options go when the command line names no
/// subcommand: cutechess-cli and fastchess run tournaments.
const DEFAULT_SUBCOMMAND: &str = "tournament";

/// A command line from another tool that cannot be honoured; the message names
/// the option and what to use here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompatError(pub String);

impl fmt::Display for CompatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CompatError {}

/// The rewritten command line and what the user should know about it
/// (options accepted but without effect here).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Translation {
    pub args: Vec<OsString>,
    pub notes: Vec<String>,
}

/// Rewrites `argv` (program name first). Arguments that are not valid UTF-8
/// pass through untouched.
pub fn translate(argv: Vec<OsString>) -> Result<Translation, CompatError> {
    let mut iter = argv.into_iter();
    let mut out = Translation::default();
    out.args.extend(iter.next());
    let mut rest: Vec<OsString> = iter.collect();
    let sub = match rest.first().and_then(|a| a.to_str()) {
        Some(s) if SUBCOMMANDS.contains(&s) => {
            let s = s.to_owned();
            out.args.push(rest.remove(0));
            s
        }
        Some(s) if is_single_dash(s) && !matches!(s, "-help" | "-version") => {
            out.args.push(DEFAULT_SUBCOMMAND.into());
            DEFAULT_SUBCOMMAND.to_owned()
        }
        _ => String::new(),
    };
    let mut state = State::new(&sub);
    let mut i = 0;
    while i < rest.len() {
        let Some(token) = rest[i].to_str().map(str::to_owned) else {
            out.args.push(rest[i].clone());
            i += 1;
            continue;
        };
        i += 1;
        if let Some(hint) = double_dash_hint(&sub, &token) {
            return Err(CompatError(hint));
        }
        if !is_single_dash(&token) {
            out.args.push(token.into());
            continue;
        }
        // The option's values: every following token up to the next option.
        let start = i;
        while i < rest.len() && rest[i].to_str().is_some_and(|t| !is_option(t)) {
            i += 1;
        }
        let values: Vec<String> = rest[start..i]
            .iter()
            .filter_map(|v| v.to_str().map(str::to_owned))
            .collect();
        state.option(&token[1..], &values, &mut out)?;
    }
    state.finish(&mut out)?;
    Ok(out)
}

/// `-engine`, `-games`: one dash, then a letter, and no `=` (a value such as
/// `score=-5` or `arg=-v` is never an option).
fn is_single_dash(token: &str) -> bool {
    let b = token.as_bytes();
    b.len() > 2 && b[0] == b'-' && b[1].is_ascii_alphabetic() && !token.contains('=')
}

/// Where the values of a single-dash option end.
fn is_option(token: &str) -> bool {
    is_single_dash(token) || (token.starts_with("--") && token.len() > 2)
}

/// A message for a double-dash spelling that clap would answer with a
/// misleading suggestion, or `None`.
fn double_dash_hint(sub: &str, token: &str) -> Option<String> {
    let flag = token.split_once('=').map_or(token, |(f, _)| f);
    let hint = match (sub, flag) {
        ("tournament", "--games") => {
            "tournament has no --games: --rounds N plays N colour-swapped game pairs per \
             pairing (and game id); cutechess's `-games G -rounds R` is translated when \
             spelled with one dash"
        }
        ("match", "--rounds") => "match has no --rounds: --games N plays N games (in colour-swapped pairs)",
        ("tournament" | "match", "--srand") => "use --seed N (the seed of random openings)",
        ("tournament" | "match", "--repeat") => {
            "no --repeat is needed: games always come in pairs, the same opening with colours swapped"
        }
        ("tournament" | "match", "--tc") => "give the time control per engine: --each tc=40/60+0.6",
        _ => return None,
    };
    Some(format!("{flag}: {hint}"))
}

/// What the single-dash options have said so far.
struct State {
    sub: String,
    /// cutechess `-games` (games per encounter per round).
    games: Option<u64>,
    rounds: Option<u64>,
    repeat: bool,
    concurrency: Option<u64>,
    /// `-tournament`, when given.
    format: Option<String>,
    /// Options from a fastchess `-config` file, emitted at the end unless the
    /// command line gave the same option.
    from_config: Vec<(String, Vec<String>)>,
}

fn number(option: &str, values: &[String]) -> Result<u64, CompatError> {
    match values {
        [v] => v
            .parse()
            .map_err(|_| CompatError(format!("-{option} {v}: not a whole number"))),
        _ => Err(CompatError(format!(
            "-{option}: expected one number, got {}",
            if values.is_empty() {
                "none".to_owned()
            } else {
                values.join(" ")
            }
        ))),
    }
}

fn one_value<'a>(option: &str, values: &'a [String]) -> Result<&'a str, CompatError> {
    match values {
        [v] => Ok(v),
        _ => Err(CompatError(format!("-{option}: expected one value"))),
    }
}

/// `key=value` pairs of an option such as `-openings` or `-sprt`.
fn pairs<'a>(option: &str, values: &'a [String]) -> Result<Vec<(&'a str, &'a str)>, CompatError> {
    values
        .iter()
        .map(|v| {
            v.split_once('=')
                .ok_or_else(|| CompatError(format!("-{option}: expected key=value, got {v:?}")))
        })
        .collect()
}

impl State {
    fn new(sub: &str) -> State {
        State {
            sub: sub.to_owned(),
            games: None,
            rounds: None,
            repeat: false,
            concurrency: None,
            format: None,
            from_config: Vec::new(),
        }
    }

    fn push(out: &mut Translation, flag: &str, values: &[&str]) {
        out.args.push(flag.into());
        out.args.extend(values.iter().map(OsString::from));
    }

    fn option(
        &mut self,
        option: &str,
        values: &[String],
        out: &mut Translation,
    ) -> Result<(), CompatError> {
        let refuse = |what: &str| Err(CompatError(format!("-{option}: {what}")));
        let strs: Vec<&str> = values.iter().map(String::as_str).collect();
        match option {
            "engine" | "each" => {
                let tokens = engine_keys::translate(option, values)?;
                out.args.push(format!("--{option}").into());
                out.args.extend(tokens.into_iter().map(OsString::from));
            }
            "games" => self.games = Some(number(option, values)?),
            "rounds" => self.rounds = Some(number(option, values)?),
            "repeat" => {
                // cutechess: `-repeat [N]`, each opening N times (2); fastchess:
                // the same as `-games 2`. Games here always come in pairs.
                if let Some(n) = values.first() {
                    if n != "2" {
                        return refuse(&format!(
                            "{n}: each opening is played exactly twice here, colours swapped"
                        ));
                    }
                }
                self.repeat = true;
            }
            "concurrency" => self.concurrency = Some(number(option, values)?),
            "srand" => Self::push(out, "--seed", &[&number(option, values)?.to_string()]),
            "randomseed" => {
                // why: fastchess draws a seed; the arbiter's schedule must be
                // reproducible, so the seed drawn is printed.
                let seed = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(1, |d| d.as_nanos() as u64);
                out.notes.push(format!(
                    "-randomseed: openings seed {seed} (give --seed {seed} to repeat)"
                ));
                Self::push(out, "--seed", &[&seed.to_string()]);
            }
            "event" => Self::push(out, "--event", &[&values.join(" ")]),
            "help" | "version" => Self::push(out, &format!("--{option}"), &[]),
            "maxmoves" => {
                let moves = number(option, values)?;
                Self::push(out, "--max-plies", &[&(moves * 2).to_string()]);
            }
            "pgnout" => self.pgnout(values, out)?,
            "openings" => self.openings(values, out)?,
            "sprt" => {
                for (k, v) in pairs(option, values)? {
                    if k == "model" && v != "logistic" {
                        return refuse(&format!(
                            "model={v}: the test here is the GSPRT on logistic Elo (model=logistic)"
                        ));
                    }
                }
                let kept: Vec<&str> = strs
                    .iter()
                    .copied()
                    .filter(|t| !t.starts_with("model="))
                    .collect();
                Self::push(out, "--sprt", &kept);
            }
            "resign" | "draw" => Self::push(out, &format!("--{option}"), &strs),
            "tournament" => match one_value(option, values)? {
                f @ ("gauntlet" | "round-robin" | "knockout" | "pyramid" | "swiss") => {
                    self.format = Some(f.to_owned());
                    Self::push(out, "--format", &[f]);
                }
                f => {
                    return refuse(&format!(
                        "{f}: the formats here are round-robin, gauntlet, knockout, pyramid \
                         and swiss (--format)"
                    ))
                }
            },
            "variant" => match one_value(option, values)? {
                "standard" => return refuse("standard is chess; name a game id with --game"),
                g => Self::push(out, "--game", &[g]),
            },
            "debug" => {
                const FILE: &str = "arbiter-traffic.log";
                out.notes.push(format!(
                    "-debug: the protocol traffic goes to {FILE} (--debug FILE names another)"
                ));
                Self::push(out, "--debug", &[FILE]);
            }
            "log" => {
                let file = pairs(option, values)?
                    .into_iter()
                    .find_map(|(k, v)| (k == "file").then_some(v))
                    .ok_or_else(|| CompatError("-log: expected file=NAME".into()))?;
                Self::push(out, "--debug", &[file]);
            }
            "config" => {
                let config = fastchess_config::load(values)?;
                for tokens in config.engines {
                    out.args.push("--engine".into());
                    out.args.extend(tokens.into_iter().map(OsString::from));
                }
                // Command-line options given as well win, as in fastchess.
                self.rounds = self.rounds.or(config.rounds);
                self.games = self.games.or(config.games);
                self.concurrency = self.concurrency.or(config.concurrency);
                self.from_config.extend(config.options);
                if !config.ignored.is_empty() {
                    out.notes.push(format!(
                        "-config: not used here: {}",
                        config.ignored.join(", ")
                    ));
                }
            }
            "recover" => out.notes.push(
                "-recover: always on here: a crashed engine is restarted and the event goes on"
                    .into(),
            ),
            "ratinginterval" | "scoreinterval" | "autosaveinterval" => out.notes.push(format!(
                "-{option}: ignored: standings are printed once per round's worth of games \
                 (--standings-json FILE keeps them after every game)"
            )),
            "wait" => out
                .notes
                .push("-wait: ignored: the arbiter needs no pause between games".into()),
            "output" | "site" => out.notes.push(format!("-{option}: ignored")),
            "epdout" => return refuse("use --pgnout FILE or --jsonout FILE"),
            "noswap" | "reverse" => {
                return refuse("games always come in pairs with colours swapped")
            }
            "tb" | "tbpieces" | "tbignore50" | "tbadjudicate" => {
                return refuse("endgame tablebases are chess; see --adjudicate decided")
            }
            "pgnin" | "book" | "bookdepth" => {
                return refuse("use --openings file=PATH (position strings or move lines)")
            }
            "bookmode" | "seeds" | "gameduration" | "quick" | "use-affinity" => {
                return refuse("not supported here")
            }
            _ => {
                return Err(CompatError(format!(
                    "unknown option -{option} (cutechess-cli and fastchess spellings are \
                     listed in docs/tournaments.md; see also `arbiter {} --help`)",
                    if self.sub.is_empty() {
                        DEFAULT_SUBCOMMAND
                    } else {
                        &self.sub
                    }
                )))
            }
        }
        Ok(())
    }

    /// cutechess `-pgnout FILE [min] [fi]`, fastchess `-pgnout file=FILE …`.
    fn pgnout(&self, values: &[String], out: &mut Translation) -> Result<(), CompatError> {
        let mut file = None;
        for v in values {
            match v.split_once('=') {
                Some(("file", f)) => file = Some(f.to_owned()),
                Some((k, _)) => out.notes.push(format!("-pgnout {k}=: ignored")),
                None if file.is_none() => file = Some(v.clone()),
                None if v == "min" => out.notes.push(
                    "-pgnout min: the PGN always keeps its move comments (score/depth time)".into(),
                ),
                None if v == "fi" => {}
                None => return Err(CompatError(format!("-pgnout: unexpected {v:?}"))),
            }
        }
        let file = file.ok_or_else(|| CompatError("-pgnout: expected a file name".into()))?;
        Self::push(out, "--pgnout", &[&file]);
        Ok(())
    }

    /// `-openings file=F format=epd order=random|sequential plies=N start=N`.
    fn openings(&self, values: &[String], out: &mut Translation) -> Result<(), CompatError> {
        let mut file = None;
        let mut plies = None;
        for (k, v) in pairs("openings", values)? {
            match k {
                "file" => file = Some(v),
                "format" => match v {
                    "epd" | "umi" | "txt" => {}
                    _ => {
                        return Err(CompatError(format!(
                            "-openings format={v}: an openings file here holds one position \
                             string or move line per line (format=epd)"
                        )))
                    }
                },
                "order" => match v {
                    "sequential" | "random" => {
                        Self::push(out, "--openings-order", &[v]);
                    }
                    _ => {
                        return Err(CompatError(format!(
                            "-openings order={v}: expected sequential or random"
                        )))
                    }
                },
                "plies" => plies = Some(v),
                "start" => Self::push(out, "--openings-start", &[v]),
                "policy" => {
                    if v != "default" && v != "round" {
                        return Err(CompatError(format!(
                            "-openings policy={v}: each opening is used for one game pair"
                        )));
                    }
                }
                _ => {
                    return Err(CompatError(format!(
                        "-openings: unknown key {k:?} (known: file, format, order, plies, start)"
                    )))
                }
            }
        }
        match (file, plies) {
            (Some(f), None) => Self::push(out, "--openings", &[&format!("file={f}")]),
            (Some(f), Some(p)) => {
                // why a note, not a refusal: cutechess applies plies= to PGN
                // move lines only, so with format=epd it has no effect there
                // either, and pasted command lines commonly carry it.
                out.notes.push(format!(
                    "-openings plies={p}: no effect with an EPD-style file (as in cutechess): \
                     its positions and move lines are played whole"
                ));
                Self::push(out, "--openings", &[&format!("file={f}")]);
            }
            (None, Some(p)) => Self::push(out, "--openings", &[&format!("plies={p}")]),
            (None, None) => {
                return Err(CompatError("-openings: expected file=PATH".into()));
            }
        }
        Ok(())
    }

    /// Emits the game count from `-games`, `-rounds` and `-repeat`.
    fn finish(&self, out: &mut Translation) -> Result<(), CompatError> {
        for (flag, values) in &self.from_config {
            if !out.args.iter().any(|a| a == flag.as_str()) {
                out.args.push(flag.into());
                out.args.extend(values.iter().map(OsString::from));
            }
        }
        if let Some(n) = self.concurrency {
            Self::push(out, "--concurrency", &[&n.to_string()]);
        }
        if self.games.is_none() && self.rounds.is_none() {
            if self.repeat && self.sub == "match" {
                out.notes
                    .push("-repeat: games always come in colour-swapped pairs".into());
            }
            return Ok(());
        }
        // fastchess: `-repeat` is `-games 2`; cutechess: games default to 1.
        let games = match (self.games, self.repeat) {
            (Some(g), _) => g,
            (None, true) => 2,
            (None, false) => 1,
        };
        let rounds = self.rounds.unwrap_or(1);
        match self.format.as_deref() {
            Some("knockout") if self.sub != "match" => return self.knockout(out, games),
            Some("swiss") if self.sub != "match" => return self.swiss(out, games),
            _ => {}
        }
        let mut total = games * rounds;
        if self.games.is_none() && self.repeat {
            out.notes.push(format!(
                "-rounds {rounds} -repeat: {total} games per pairing, as in fastchess \
                 (cutechess plays {rounds}; say -games 1 for that)"
            ));
        }
        if total == 0 {
            return Err(CompatError("-games/-rounds: no games to play".into()));
        }
        if total % 2 == 1 {
            // why play rather than refuse: cutechess plays such a line (its
            // -games defaults to 1); pairs are the unit here, so one more game.
            out.notes.push(format!(
                "-games {games} -rounds {rounds}: {total} game(s) per pairing, played as {} \
                 colour-swapped pair(s) ({} games): games here come in pairs on one opening",
                total.div_ceil(2),
                total + 1
            ));
            total += 1;
        }
        match self.sub.as_str() {
            "match" => Self::push(out, "--games", &[&total.to_string()]),
            _ => Self::push(out, "--rounds", &[&(total / 2).to_string()]),
        }
        Ok(())
    }
}

impl State {
    /// cutechess's knockout: `-games` per encounter, played as pairs;
    /// `-rounds` does not repeat a knockout (nor does it in cutechess).
    fn knockout(&self, out: &mut Translation, games: u64) -> Result<(), CompatError> {
        if games == 0 {
            return Err(CompatError("-games 0: no games to play".into()));
        }
        if let Some(r) = self.rounds.filter(|&r| r != 1) {
            out.notes.push(format!(
                "-rounds {r}: ignored: a knockout is played once (as in cutechess)"
            ));
        }
        if games % 2 == 1 {
            out.notes.push(format!(
                "-games {games}: each encounter plays {} colour-swapped pair(s) ({} games)",
                games.div_ceil(2),
                games + 1
            ));
        }
        Self::push(out, "--rounds", &[&games.div_ceil(2).to_string()]);
        Ok(())
    }

    /// A Swiss: `-rounds` rounds, each pairing one colour-swapped pair.
    fn swiss(&self, out: &mut Translation, games: u64) -> Result<(), CompatError> {
        if games > 2 {
            out.notes.push(format!(
                "-games {games}: a Swiss pairing plays one colour-swapped pair a round"
            ));
        }
        if let Some(r) = self.rounds {
            Self::push(out, "--rounds", &[&r.to_string()]);
        }
        Ok(())
    }
}
