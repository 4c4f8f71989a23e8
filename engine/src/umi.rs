//! The UMI protocol loop (placeholder until the protocol crate lands).

/// Runs the protocol on stdin/stdout until `quit` or end of input.
pub fn run_stdio() {}
