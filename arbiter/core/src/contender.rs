//! Whoever sits at a board: one engine from outside (spec, process,
//! protocol session, conformance), a remote engine, or the arbiter's own
//! random mover, and the caps a server puts on how many run. Named apart
//! from the reference engine, the crate `engine`.

pub mod cap;
pub mod check;
pub mod config;
pub mod process;
pub mod random_mover;
pub mod remote;
pub mod session;
pub mod stderr_tail;
pub mod transport;
pub mod watchdog;
