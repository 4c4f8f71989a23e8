//! The arbiter.

pub mod process;
pub mod session;
