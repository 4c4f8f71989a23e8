//! The Universal Mancala Interface (UMI): typed protocol lines.
//!
//! UMI is a line-based, UCI-style protocol between a GUI or the arbiter and a
//! mancala engine: UTF-8, one line per `\n`, tokens separated by one or more
//! spaces or tabs. `protocol-spec.md` at the repository root is the normative
//! description; this crate is its typed form.
//!
//! - [`Command`]: GUI/arbiter → engine (`umi`, `isready`, `setoption`,
//!   `newgame`, `position`, `go`, `stop`, `ponderhit`, `gameover`, `quit`, `d`).
//! - [`Message`]: engine → GUI/arbiter (`id`, `games`, `option`, `umiok`,
//!   `readyok`, `info`, `bestmove`, perft output, `pos`).
//! - [`Go`], [`Info`], [`Score`], [`OptionDecl`], [`SetOption`]: the parts.
//! - [`ParseError`]: why a line is malformed; [`ParseError::is_ignorable`]
//!   tells empty lines and unknown commands (which receivers ignore) apart.
//! - [`LineReader`], [`write_line`], [`MAX_LINE_BYTES`]: line I/O.
//!
//! Every value round-trips: `parse(&x.to_string()) == Ok(x)`, and displaying a
//! parsed line gives its canonical spelling (single spaces, fields in a fixed
//! order).
//!
//! ```
//! use umi::{Command, Message, Move};
//! let cmd: Command = "position  startpos moves 4\t9".parse().unwrap();
//! assert_eq!(cmd.to_string(), "position startpos moves 4 9");
//! let reply = Message::BestMove { best: Move::new("3").unwrap(), ponder: None };
//! assert_eq!(reply.to_string(), "bestmove 3");
//! assert!("xyzzy".parse::<Command>().unwrap_err().is_ignorable());
//! ```

mod command;
mod error;
mod go;
mod info;
mod io;
mod message;
mod option;
mod text;
mod token;

pub use command::{Command, PositionBase};
pub use error::ParseError;
pub use go::Go;
pub use info::{Bound, Info, Score, ScoreValue};
pub use io::{write_line, LineReader, ReadLine, MAX_LINE_BYTES};
pub use message::Message;
pub use option::{OptionDecl, OptionKind, SetOption};
pub use text::{
    ComboValue, GameName, Move, OptionName, PositionText, Text, MAX_GAME_NAME_LEN, MAX_MOVE_LEN,
    RESERVED_MOVE_WORDS,
};

// Re-exported so that users of the protocol need not name the rules crate for
// the types that appear in commands.
pub use mancala_rules::{GameId, GameResult, Side};
