//! Messages: the lines an engine sends to a GUI or the arbiter.

use std::fmt;
use std::str::FromStr;

use crate::error::ParseError;
use crate::info::Info;
use crate::option::OptionDecl;
use crate::text::{GameName, Move, PositionText, Text};
use crate::token::{parse_unsigned, tokenize, Cursor};

/// One line from an engine to a GUI or the arbiter.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Message {
    /// `id name <text>`.
    IdName(Text),
    /// `id author <text>`.
    IdAuthor(Text),
    /// `games <id> …`: the games the engine plays (ids the receiver does not
    /// know are to be ignored).
    Games(Vec<GameName>),
    /// `option name <id> type …`.
    Option(OptionDecl),
    /// `umiok`: end of the handshake.
    UmiOk,
    /// `readyok`: answer to `isready`.
    ReadyOk,
    /// `info …`.
    Info(Info),
    /// `bestmove <move> [ponder <move>]`: the answer to `go`.
    BestMove { best: Move, ponder: Option<Move> },
    /// `bestmove (none)`: the answer to `go` in a position without a legal move
    /// (the arbiter never asks for one; a GUI might).
    BestMoveNone,
    /// `<move>: <count>`: one line of `go perft` output.
    PerftMove { mv: Move, count: u64 },
    /// `nodes <total>`: the last line of `go perft` output.
    PerftTotal(u64),
    /// `pos <position string>`: the last line of `d` output.
    Pos(PositionText),
}

impl Message {
    /// `info string error: <what>`, the answer to a malformed command.
    pub fn error(what: &str) -> Message {
        Message::Info(Info::error(what))
    }

    /// Parses one line (without or with its trailing newline).
    pub fn parse(line: &str) -> Result<Message, ParseError> {
        let mut cur = Cursor::new(tokenize(line)?);
        let Some(first) = cur.next_token() else {
            return Err(ParseError::Empty);
        };
        let (message, context) = match first {
            "umiok" => (Message::UmiOk, "umiok"),
            "readyok" => (Message::ReadyOk, "readyok"),
            "id" => {
                let message = match cur.expect("name or author after id")? {
                    "name" => Message::IdName(text_value(&mut cur, "id name")?),
                    "author" => Message::IdAuthor(text_value(&mut cur, "id author")?),
                    other => return Err(ParseError::unexpected("id", other, "name or author")),
                };
                (message, "id")
            }
            "games" => {
                let names = cur
                    .rest()
                    .iter()
                    .map(|g| GameName::new(g))
                    .collect::<Result<_, _>>()?;
                (Message::Games(names), "games")
            }
            "option" => (Message::Option(OptionDecl::parse(&mut cur)?), "option"),
            "info" => (Message::Info(Info::parse(&mut cur)?), "info"),
            "bestmove" => (parse_bestmove(&mut cur)?, "bestmove"),
            "nodes" => (
                Message::PerftTotal(parse_unsigned("nodes", cur.value("nodes")?)?),
                "nodes",
            ),
            "pos" => (Message::Pos(PositionText::from_tokens(cur.rest())?), "pos"),
            other => match other.strip_suffix(':') {
                // why: a perft line starts with the move; a token ending in ':'
                // is never a command, so anything else is unknown.
                Some(mv) if !mv.is_empty() => {
                    let mv = Move::new(mv)?;
                    let count = parse_unsigned("perft count", cur.value("perft count")?)?;
                    (Message::PerftMove { mv, count }, "perft line")
                }
                _ => {
                    return Err(ParseError::UnknownCommand {
                        token: other.to_owned(),
                    })
                }
            },
        };
        cur.finish(context)?;
        Ok(message)
    }
}

fn text_value(cur: &mut Cursor<'_>, field: &'static str) -> Result<Text, ParseError> {
    Text::from_tokens(cur.rest()).map_err(|_| ParseError::MissingValue { field })
}

fn parse_bestmove(cur: &mut Cursor<'_>) -> Result<Message, ParseError> {
    let best = cur.expect("move after bestmove")?;
    if best == "(none)" {
        return Ok(Message::BestMoveNone);
    }
    let best = Move::new(best)?;
    let ponder = match cur.next_token() {
        None => None,
        Some("ponder") => Some(Move::new(cur.value("ponder")?)?),
        Some(other) => {
            return Err(ParseError::unexpected(
                "bestmove",
                other,
                "ponder or end of line",
            ))
        }
    };
    Ok(Message::BestMove { best, ponder })
}

impl FromStr for Message {
    type Err = ParseError;
    fn from_str(line: &str) -> Result<Message, ParseError> {
        Message::parse(line)
    }
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Message::IdName(t) => write!(f, "id name {t}"),
            Message::IdAuthor(t) => write!(f, "id author {t}"),
            Message::Games(games) => {
                f.write_str("games")?;
                for g in games {
                    write!(f, " {g}")?;
                }
                Ok(())
            }
            Message::Option(o) => o.fmt(f),
            Message::UmiOk => f.write_str("umiok"),
            Message::ReadyOk => f.write_str("readyok"),
            Message::Info(i) => i.fmt(f),
            Message::BestMove { best, ponder: None } => write!(f, "bestmove {best}"),
            Message::BestMove {
                best,
                ponder: Some(p),
            } => write!(f, "bestmove {best} ponder {p}"),
            Message::BestMoveNone => f.write_str("bestmove (none)"),
            Message::PerftMove { mv, count } => write!(f, "{mv}: {count}"),
            Message::PerftTotal(n) => write!(f, "nodes {n}"),
            Message::Pos(p) => write!(f, "pos {p}"),
        }
    }
}
