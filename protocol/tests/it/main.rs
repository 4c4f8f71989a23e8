//! The protocol crate's integration tests, as one test binary (issue 37):
//! each module was a test binary of its own (`tests/<module>.rs`). A test
//! keeps its old file's name as its module path: `cargo test -p umi --test
//! it roundtrip::` runs what `--test roundtrip` ran.

mod malformed;
mod roundtrip;
mod spec_sessions;
