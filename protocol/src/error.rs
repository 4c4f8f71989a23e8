//! Typed parse errors. Every error names what is wrong and where, so that an
//! engine can answer `info string error: <error>` and a GUI can log it.

use std::fmt;

/// The longest piece of offending input quoted back in an error message.
const QUOTE_LIMIT: usize = 40;

/// Why a line (or a value) is not a valid UMI line (value).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ParseError {
    /// The line holds nothing but whitespace. Receivers ignore such lines.
    Empty,
    /// The first token is not a command (message) of this direction.
    /// Receivers ignore such lines (the spec says so); `token` is the first token.
    UnknownCommand { token: String },
    /// A control character (other than space, tab, CR, LF, FF) in the input.
    ControlCharacter { ch: char },
    /// Something required is absent, e.g. `setoption` without `name`.
    /// `what` names the missing part ("option name", "value of depth", …).
    Missing { what: &'static str },
    /// A keyword at the end of the line without the value it needs, e.g. `go depth`.
    MissingValue { field: &'static str },
    /// A token that does not belong where it stands; `context` names the
    /// command or field being parsed and `expected` what could stand there.
    Unexpected {
        context: &'static str,
        token: String,
        expected: &'static str,
    },
    /// A number that is malformed or out of range for `field`.
    BadNumber {
        field: &'static str,
        text: String,
        problem: &'static str,
    },
    /// A field that may occur once occurs twice.
    Duplicate { field: &'static str },
    /// A token that cannot be a move.
    BadMove { text: String, problem: &'static str },
    /// A `games` entry that cannot be a game id.
    BadGameName { text: String },
    /// `newgame` with an id the rules library does not know.
    UnknownGame { text: String },
    /// `gameover` with something other than `1-0`, `0-1` or `1/2-1/2`.
    BadResult { text: String },
    /// A protocol keyword inside a free-text value where it would end the
    /// value early (e.g. the word `value` inside an option name).
    ReservedWord { what: &'static str, word: String },
    /// A value that is well formed token by token but inconsistent as a
    /// whole (e.g. a spin default outside min..max).
    Invalid { what: &'static str, problem: String },
}

impl ParseError {
    /// True for the two kinds of line a receiver silently ignores: empty lines
    /// and unknown commands. Every other error is a malformed known command.
    pub fn is_ignorable(&self) -> bool {
        matches!(self, ParseError::Empty | ParseError::UnknownCommand { .. })
    }

    pub(crate) fn unexpected(context: &'static str, token: &str, expected: &'static str) -> Self {
        ParseError::Unexpected {
            context,
            token: token.to_owned(),
            expected,
        }
    }
}

/// Quotes user input in an error message, shortened so that a 1 MiB line
/// does not produce a 1 MiB error.
struct Quoted<'a>(&'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.char_indices().nth(QUOTE_LIMIT) {
            None => write!(f, "{:?}", self.0),
            Some((cut, _)) => write!(f, "{:?}…", &self.0[..cut]),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => f.write_str("empty line"),
            ParseError::UnknownCommand { token } => write!(f, "unknown command {}", Quoted(token)),
            ParseError::ControlCharacter { ch } => {
                write!(f, "control character U+{:04X} in line", u32::from(*ch))
            }
            ParseError::Missing { what } => write!(f, "missing {what}"),
            ParseError::MissingValue { field } => write!(f, "{field} needs a value"),
            ParseError::Unexpected {
                context,
                token,
                expected,
            } => {
                write!(
                    f,
                    "{context}: unexpected token {}, expected {expected}",
                    Quoted(token)
                )
            }
            ParseError::BadNumber {
                field,
                text,
                problem,
            } => {
                write!(f, "{field}: {} is {problem}", Quoted(text))
            }
            ParseError::Duplicate { field } => write!(f, "{field} given twice"),
            ParseError::BadMove { text, problem } => {
                write!(f, "{} is not a move: {problem}", Quoted(text))
            }
            ParseError::BadGameName { text } => write!(
                f,
                "{} is not a game id: only lower-case letters, digits and '-' (at most 64)",
                Quoted(text)
            ),
            ParseError::UnknownGame { text } => write!(
                f,
                "unknown game id {} (known: {})",
                Quoted(text),
                mancala_rules::GameId::ALL
                    .map(mancala_rules::GameId::as_str)
                    .join(", ")
            ),
            ParseError::BadResult { text } => {
                write!(
                    f,
                    "game result {} is not one of 1-0, 0-1, 1/2-1/2",
                    Quoted(text)
                )
            }
            ParseError::ReservedWord { what, word } => {
                write!(f, "{what} may not contain the word {}", Quoted(word))
            }
            ParseError::Invalid { what, problem } => write!(f, "{what}: {problem}"),
        }
    }
}

impl std::error::Error for ParseError {}
