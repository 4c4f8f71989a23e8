//! Endgame databases for Bohnenspiel (`bohnenspiel` and
//! `bohnenspiel-hemprich`) and Kalah (`kalah`, [`kalah`]).
//!
//! The value of a board is the mover's net future gain under best play from
//! the position with no history: the beans he captures from here on plus
//! what the end allocates to him, minus the same for the opponent. The stores
//! do not change it, so there is one entry per board seen from the player to
//! move; layer `n` holds the C(n + 11, 11) boards of `n` beans, indexed by the
//! combinatorial number system ([`index`]). Layers are solved bottom up
//! ([`solve`]), written one file per layer ([`file`]) and probed ([`probe`]).
//!
//! Its own crate because the engine, the arbiter and the Python kit all read
//! the database and the arbiter must not depend on the engine.

pub mod build;
pub mod check;
pub mod file;
pub mod index;
pub mod kalah;
pub mod position;
pub mod probe;
pub mod solve;

pub use probe::{Probe, Tablebase};
