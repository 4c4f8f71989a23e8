//! The parameters of `go`.

use std::fmt;

use mancala_rules::Side;

use crate::error::ParseError;
use crate::token::{set_unsigned, Cursor};

/// The search request of a `go` line. Every field is optional; all times are
/// milliseconds. `p1` is South, `p2` is North.
///
/// Canonical order on display:
/// `go [ponder] [p1time t] [p2time t] [p1inc t] [p2inc t] [movestogo n]
/// [movetime t] [depth n] [nodes n] [infinite]`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Go {
    /// Search the ponder move's position; the clock does not run until `ponderhit`.
    pub ponder: bool,
    /// South's remaining clock time.
    pub p1time: Option<u64>,
    /// North's remaining clock time.
    pub p2time: Option<u64>,
    /// South's increment per move.
    pub p1inc: Option<u64>,
    /// North's increment per move.
    pub p2inc: Option<u64>,
    /// Moves of the side to move until the next time control, this one included.
    pub movestogo: Option<u32>,
    /// Search exactly this long (a fixed time per move).
    pub movetime: Option<u64>,
    /// Search to this depth in plies.
    pub depth: Option<u32>,
    /// Search at most this many nodes.
    pub nodes: Option<u64>,
    /// Search until `stop`; never answer before it.
    pub infinite: bool,
}

impl Go {
    /// Remaining clock time of `side`, if given.
    pub fn time(&self, side: Side) -> Option<u64> {
        match side {
            Side::South => self.p1time,
            Side::North => self.p2time,
        }
    }

    /// Increment of `side`, if given.
    pub fn inc(&self, side: Side) -> Option<u64> {
        match side {
            Side::South => self.p1inc,
            Side::North => self.p2inc,
        }
    }

    /// Parses the tokens after `go` (but not `go perft`, see [`crate::Command`]).
    pub(crate) fn parse(cur: &mut Cursor<'_>) -> Result<Go, ParseError> {
        let mut go = Go::default();
        while let Some(key) = cur.next_token() {
            match key {
                "ponder" => set_flag(&mut go.ponder, "ponder")?,
                "infinite" => set_flag(&mut go.infinite, "infinite")?,
                "p1time" => set_unsigned(&mut go.p1time, "p1time", cur)?,
                "p2time" => set_unsigned(&mut go.p2time, "p2time", cur)?,
                "p1inc" => set_unsigned(&mut go.p1inc, "p1inc", cur)?,
                "p2inc" => set_unsigned(&mut go.p2inc, "p2inc", cur)?,
                "movestogo" => set_unsigned(&mut go.movestogo, "movestogo", cur)?,
                "movetime" => set_unsigned(&mut go.movetime, "movetime", cur)?,
                "depth" => set_unsigned(&mut go.depth, "depth", cur)?,
                "nodes" => set_unsigned(&mut go.nodes, "nodes", cur)?,
                "perft" => {
                    return Err(ParseError::Invalid {
                        what: "go",
                        problem: "perft must directly follow go and stand alone: go perft <depth>".into(),
                    })
                }
                other => {
                    return Err(ParseError::unexpected(
                        "go",
                        other,
                        "ponder, p1time, p2time, p1inc, p2inc, movestogo, movetime, depth, nodes, infinite or perft",
                    ))
                }
            }
        }
        Ok(go)
    }
}

fn set_flag(flag: &mut bool, field: &'static str) -> Result<(), ParseError> {
    if *flag {
        return Err(ParseError::Duplicate { field });
    }
    *flag = true;
    Ok(())
}

impl fmt::Display for Go {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        if self.ponder {
            f.write_str(" ponder")?;
        }
        let numbers = [
            ("p1time", self.p1time),
            ("p2time", self.p2time),
            ("p1inc", self.p1inc),
            ("p2inc", self.p2inc),
            ("movestogo", self.movestogo.map(u64::from)),
            ("movetime", self.movetime),
            ("depth", self.depth.map(u64::from)),
            ("nodes", self.nodes),
        ];
        for (key, value) in numbers {
            if let Some(v) = value {
                write!(f, " {key} {v}")?;
            }
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        Ok(())
    }
}
