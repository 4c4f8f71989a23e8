//! The reference engine.
