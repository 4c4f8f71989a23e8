//! Games under clocks: time controls, one game, openings, Partie, the
//! runner that plays many at once, and matches.

pub mod adjudicate;
pub mod admission_checks;
pub mod game;
pub mod job;
pub mod lag;
pub mod matches;
pub mod observe;
pub mod openings;
pub mod partie;
pub mod preflight;
pub mod runner;
pub mod tc;
