//! Match statistics: score, Elo with a 95% interval, likelihood of
//! superiority, pentanomial statistics of game pairs, SPRT, and tournament
//! standings with a crosstable.
//!
//! Conventions follow cutechess-cli and fastchess:
//! - Elo is logistic: `elo(s) = -400·log10(1/s − 1)` for a score `s` in (0, 1).
//! - The interval is a normal approximation on the score: `s ± 1.96·σ/√N`,
//!   with `σ²` the variance of one game's score (trinomial) or of one pair's
//!   mean score (pentanomial), each end mapped through `elo`.
//! - LOS `= Φ((W − L)/√(W + L))`.
//! - SPRT is the GSPRT with the normal approximation used by fishtest's
//!   `LLR_logistic` and early fastchess (see [`Sprt::llr_wdl`]).
//!
//! All functions are pure; nothing here knows about engines or processes.
//! [`rating`] fits Elo over a whole field; [`report`] formats standings.

pub mod formats;
pub mod json;
pub mod rating;
pub mod report;

mod counts;
mod elo;
mod match_report;
mod sprt;
mod standings;
#[cfg(test)]
mod tests;

pub use counts::{Penta, Wdl};
pub use elo::{elo_from_score, normal_cdf, score_from_elo, EloEstimate, Z95};
pub use match_report::{elo_text, match_report};
pub use sprt::{Sprt, SprtError, SprtState};
pub use standings::{PairScore, ScoredGame, Standing, Standings};
