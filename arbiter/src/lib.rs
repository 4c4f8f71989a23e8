//! The arbiter.
