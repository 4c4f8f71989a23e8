//! The fields of an `info` line.

use std::fmt;

use crate::error::ParseError;
use crate::text::{Move, Text, RESERVED_MOVE_WORDS};
use crate::token::{parse_signed, set_unsigned, Cursor};

/// A score from the point of view of the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ScoreValue {
    /// Centi-seeds: 100 is one seed of advantage for the side to move.
    Cp(i32),
    /// A forced game win in this many of the side to move's own moves
    /// (positive), or a forced loss after this many of the opponent's moves
    /// (negative).
    Mate(i32),
}

/// Whether the score is exact or only a bound (UCI `lowerbound`/`upperbound`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Bound {
    Lower,
    Upper,
}

/// `score cp <x> | score mate <n>`, optionally `lowerbound` or `upperbound`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Score {
    pub value: ScoreValue,
    pub bound: Option<Bound>,
}

impl Score {
    pub fn cp(cp: i32) -> Score {
        Score {
            value: ScoreValue::Cp(cp),
            bound: None,
        }
    }

    pub fn mate(moves: i32) -> Score {
        Score {
            value: ScoreValue::Mate(moves),
            bound: None,
        }
    }

    /// Parses the tokens after `score`.
    fn parse(cur: &mut Cursor<'_>) -> Result<Score, ParseError> {
        let value = match cur.value("score")? {
            "cp" => ScoreValue::Cp(parse_signed("score cp", cur.value("score cp")?)?),
            "mate" => ScoreValue::Mate(parse_signed("score mate", cur.value("score mate")?)?),
            other => return Err(ParseError::unexpected("score", other, "cp or mate")),
        };
        let bound = match cur.peek() {
            Some("lowerbound") => Some(Bound::Lower),
            Some("upperbound") => Some(Bound::Upper),
            _ => None,
        };
        if bound.is_some() {
            cur.next_token();
        }
        Ok(Score { value, bound })
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.value {
            ScoreValue::Cp(cp) => write!(f, "score cp {cp}")?,
            ScoreValue::Mate(n) => write!(f, "score mate {n}")?,
        }
        match self.bound {
            Some(Bound::Lower) => f.write_str(" lowerbound"),
            Some(Bound::Upper) => f.write_str(" upperbound"),
            None => Ok(()),
        }
    }
}

/// An `info` line. Every field is optional; `pv` empty means absent.
///
/// Canonical order on display: `info [depth n] [seldepth n] [multipv n]
/// [score …] [nodes n] [nps n] [hashfull n] [time ms] [currmove m]
/// [currmovenumber n] [pv m…] [string text]` — `string` is always last
/// because it runs to the end of the line.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Info {
    /// Search depth in plies.
    pub depth: Option<u32>,
    /// Selective (maximum reached) depth in plies.
    pub seldepth: Option<u32>,
    /// Which line of a multi-PV search this is (1 = best).
    pub multipv: Option<u32>,
    pub score: Option<Score>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Nodes per second.
    pub nps: Option<u64>,
    /// Hash table fill, per mille.
    pub hashfull: Option<u32>,
    /// Milliseconds searched.
    pub time: Option<u64>,
    /// The root move being searched.
    pub currmove: Option<Move>,
    /// Its number in the root move list, from 1.
    pub currmovenumber: Option<u32>,
    /// The principal variation; empty means no `pv` field.
    pub pv: Vec<Move>,
    /// Free text for humans; errors are reported as `error: …`.
    pub string: Option<Text>,
}

impl Info {
    /// `info string <text>`.
    pub fn string(text: Text) -> Info {
        Info {
            string: Some(text),
            ..Info::default()
        }
    }

    /// The conventional report of a malformed command: `info string error: <what>`.
    /// Control characters in `what` are dropped, whitespace runs become one space.
    pub fn error(what: &str) -> Info {
        let clean: String = what
            .chars()
            .filter(|c| !c.is_control() || c.is_ascii_whitespace())
            .collect();
        // why: with control characters gone and "error:" in front, the text is
        // non-empty and clean, and Text reserves no word: this cannot fail.
        let text = Text::new(&format!("error: {clean}")).or_else(|_| Text::new("error:"));
        Info::string(text.expect("non-empty text without control characters is valid"))
    }

    /// Parses the tokens after `info`.
    pub(crate) fn parse(cur: &mut Cursor<'_>) -> Result<Info, ParseError> {
        let mut info = Info::default();
        while let Some(key) = cur.next_token() {
            match key {
                "depth" => set_unsigned(&mut info.depth, "depth", cur)?,
                "seldepth" => set_unsigned(&mut info.seldepth, "seldepth", cur)?,
                "multipv" => set_unsigned(&mut info.multipv, "multipv", cur)?,
                "nodes" => set_unsigned(&mut info.nodes, "nodes", cur)?,
                "nps" => set_unsigned(&mut info.nps, "nps", cur)?,
                "hashfull" => set_unsigned(&mut info.hashfull, "hashfull", cur)?,
                "time" => set_unsigned(&mut info.time, "time", cur)?,
                "currmovenumber" => set_unsigned(&mut info.currmovenumber, "currmovenumber", cur)?,
                "score" => {
                    if info.score.is_some() {
                        return Err(ParseError::Duplicate { field: "score" });
                    }
                    info.score = Some(Score::parse(cur)?);
                }
                "currmove" => {
                    if info.currmove.is_some() {
                        return Err(ParseError::Duplicate { field: "currmove" });
                    }
                    info.currmove = Some(Move::new(cur.value("currmove")?)?);
                }
                "pv" => {
                    if !info.pv.is_empty() {
                        return Err(ParseError::Duplicate { field: "pv" });
                    }
                    // why: moves can never be keywords, so the pv ends at the
                    // first keyword; anything else must be a move.
                    let moves = cur.take_until(|t| RESERVED_MOVE_WORDS.contains(&t));
                    if moves.is_empty() {
                        return Err(ParseError::MissingValue { field: "pv" });
                    }
                    info.pv = moves.iter().map(|m| Move::new(m)).collect::<Result<_, _>>()?;
                }
                "string" => {
                    info.string = Some(Text::from_tokens(cur.rest()).map_err(|_| ParseError::MissingValue { field: "string" })?);
                }
                other => {
                    return Err(ParseError::unexpected(
                        "info",
                        other,
                        "depth, seldepth, multipv, score, nodes, nps, hashfull, time, currmove, currmovenumber, pv or string",
                    ))
                }
            }
        }
        Ok(info)
    }
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        let opt = |f: &mut fmt::Formatter<'_>, key: &str, v: Option<u64>| match v {
            Some(v) => write!(f, " {key} {v}"),
            None => Ok(()),
        };
        opt(f, "depth", self.depth.map(u64::from))?;
        opt(f, "seldepth", self.seldepth.map(u64::from))?;
        opt(f, "multipv", self.multipv.map(u64::from))?;
        if let Some(score) = &self.score {
            write!(f, " {score}")?;
        }
        opt(f, "nodes", self.nodes)?;
        opt(f, "nps", self.nps)?;
        opt(f, "hashfull", self.hashfull.map(u64::from))?;
        opt(f, "time", self.time)?;
        if let Some(m) = &self.currmove {
            write!(f, " currmove {m}")?;
        }
        opt(f, "currmovenumber", self.currmovenumber.map(u64::from))?;
        if !self.pv.is_empty() {
            f.write_str(" pv")?;
            for m in &self.pv {
                write!(f, " {m}")?;
            }
        }
        if let Some(text) = &self.string {
            write!(f, " string {text}")?;
        }
        Ok(())
    }
}
