//! One engine from outside: spec, process, protocol session, conformance,
//! and the caps a server puts on how many run.

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
