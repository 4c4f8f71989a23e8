//! The Universal Mancala Interface (UMI): typed protocol lines.
