//! The cutechess-style match report: score, Elo, LOS, draw ratio,
//! pentanomial counts and the SPRT, in text.

use std::fmt::Write as _;

use super::counts::{Penta, Wdl};
use super::elo::EloEstimate;
use super::sprt::{Sprt, SprtState};

/// A number for reports: fixed decimals, `inf`/`-inf` when infinite.
pub(super) fn number(x: f64, decimals: usize) -> String {
    if x.is_nan() {
        "inf".to_owned()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.to_owned()
    } else {
        let text = format!("{x:.decimals$}");
        // why: a score of exactly 50 % gives an Elo of −0 (and a tiny
        // negative value rounds to "-0.0"); a sign on zero says nothing.
        match text.strip_prefix('-') {
            Some(digits) if digits.bytes().all(|b| b == b'0' || b == b'.') => digits.to_owned(),
            _ => text,
        }
    }
}

/// `147.2 +/- 66.0`, or words where the logistic model has no finite answer
/// (a score of 0 % or 100 %, too few games for an interval, or results
/// without any spread, such as one game pair or only draws, whose "± 0"
/// would claim a certainty they do not carry).
pub fn elo_text(e: EloEstimate) -> String {
    if e.elo.is_finite() && e.margin() == 0.0 {
        format!("{} (no interval: every result alike)", number(e.elo, 1))
    } else if e.elo.is_finite() && e.margin().is_finite() {
        format!("{} +/- {}", number(e.elo, 1), number(e.margin(), 1))
    } else if e.elo.is_finite() {
        format!("{} (interval unbounded: too few games)", number(e.elo, 1))
    } else if e.elo > 0.0 {
        "+inf (every point won; no interval)".to_owned()
    } else {
        "-inf (every point lost; no interval)".to_owned()
    }
}

/// A cutechess-style match report for `first` against `second`, from the
/// first engine's point of view:
///
/// ```text
/// Score of Alpha vs Beta: 60 - 20 - 20  [0.700] 100
/// Elo difference: 147.2 +/- 66.0, LOS: 100.0 %, DrawRatio: 20.0 %
/// Ptnml(0-2): [2, 5, 10, 8, 5], pair Elo: 52.5 +/- 73.0
/// SPRT: llr 1.73 (58.9%), lbound -2.94, ubound 2.94
/// ```
///
/// Lines for the pentanomial counts and the SPRT only when given; the SPRT
/// uses the pentanomial counts when they are given and non-empty.
pub fn match_report(
    first: &str,
    second: &str,
    wdl: &Wdl,
    penta: Option<&Penta>,
    sprt: Option<&Sprt>,
) -> String {
    let mut out = format!(
        "Score of {first} vs {second}: {} - {} - {}  [{}] {}\n",
        wdl.wins,
        wdl.losses,
        wdl.draws,
        wdl.score()
            .map_or_else(|| "-".to_owned(), |s| format!("{s:.3}")),
        wdl.games()
    );
    if let Some(e) = wdl.elo() {
        let _ = writeln!(
            out,
            "Elo difference: {}, LOS: {} %, DrawRatio: {} %",
            elo_text(e),
            wdl.los()
                .map_or_else(|| "-".to_owned(), |l| number(l * 100.0, 1)),
            wdl.draw_ratio()
                .map_or_else(|| "-".to_owned(), |d| number(d * 100.0, 1)),
        );
    }
    let penta = penta.filter(|p| p.pairs() > 0);
    if let Some(p) = penta {
        let counts: Vec<String> = p.counts.iter().map(u32::to_string).collect();
        let _ = write!(out, "Ptnml(0-2): [{}]", counts.join(", "));
        if let Some(e) = p.elo() {
            let _ = write!(out, ", pair Elo: {}", elo_text(e));
        }
        out.push('\n');
    }
    if let Some(sprt) = sprt {
        let llr = penta.map_or_else(|| sprt.llr_wdl(wdl), |p| sprt.llr_penta(p));
        let verdict = match sprt.state(llr) {
            SprtState::Continue => "",
            SprtState::AcceptH0 => " - H0 was accepted",
            SprtState::AcceptH1 => " - H1 was accepted",
        };
        let _ = writeln!(
            out,
            "SPRT: llr {} ({}%), lbound {}, ubound {}{verdict}",
            number(llr, 2),
            number(llr / sprt.upper_bound() * 100.0, 1),
            number(sprt.lower_bound(), 2),
            number(sprt.upper_bound(), 2),
        );
    }
    out
}
