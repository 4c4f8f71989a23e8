//! The rules crate's integration tests, as one test binary (issue 37): each
//! module was a test binary of its own (`tests/<module>.rs`). A test keeps
//! its old file's name as its module path: `cargo test -p mancala-rules
//! --test it bosh::` runs what `--test bosh` ran.

mod bohnenspiel;
mod bosh;
mod decided;
mod kalah_oware;
mod kimasai;
mod kujifunza;
mod move_order;
mod trace;
mod vectors;
