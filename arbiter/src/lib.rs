//! The arbiter.

pub mod process;
