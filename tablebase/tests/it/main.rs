//! The tablebase crate's integration tests, as one test binary (issue 37):
//! each module was a test binary of its own (`tests/<module>.rs`). A test
//! keeps its old file's name as its module path: `cargo test -p
//! mancala-tablebase --test it kalah::` runs what `--test kalah` ran.

mod exhaustive;
mod kalah;
mod layers;
