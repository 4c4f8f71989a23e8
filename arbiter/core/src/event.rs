//! Tournaments: schedule, formats paired round by round, resume, extending
//! rounds, shards, merge.

pub mod extend;
pub mod formats;
pub mod merge;
pub mod place;
pub mod resume;
pub mod running;
pub mod schedule;
pub mod slots;
pub mod tournament;
pub mod watch;
