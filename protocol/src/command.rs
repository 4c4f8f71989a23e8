//! Commands: the lines a GUI or the arbiter sends to an engine.

use std::fmt;
use std::str::FromStr;

use mancala_rules::{GameId, GameResult};

use crate::error::ParseError;
use crate::go::Go;
use crate::option::SetOption;
use crate::text::{Move, PositionText, Text};
use crate::token::{parse_unsigned, tokenize, Cursor};

/// Where a `position` command starts.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum PositionBase {
    /// `startpos`: the start position of the game named by the last `newgame`.
    StartPos,
    /// `pos <position string>`: an explicit position (its first field names the game).
    Pos(PositionText),
}

/// One line from a GUI or the arbiter to an engine.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Command {
    /// `umi`: start the handshake.
    Umi,
    /// `isready`: answer `readyok` (even while searching).
    IsReady,
    /// `setoption name <id> [value <x>]`.
    SetOption(SetOption),
    /// `newgame <game-id>`: a new game of this game follows.
    NewGame(GameId),
    /// `position startpos [moves …]` or `position pos <position string> [moves …]`.
    Position {
        base: PositionBase,
        moves: Vec<Move>,
    },
    /// `go …`: search the current position.
    Go(Go),
    /// `go perft <depth>` (debug): print the divide counts and the total.
    Perft { depth: u32 },
    /// `stop`: end the search now and answer `bestmove`.
    Stop,
    /// `ponderhit`: the opponent played the ponder move; the clock now runs.
    PonderHit,
    /// `gameover <result> [<reason>]`: informational, the game has ended.
    GameOver {
        result: GameResult,
        reason: Option<Text>,
    },
    /// `quit`: exit as soon as possible.
    Quit,
    /// `d` (debug): print the current position for a human, then `pos <string>`.
    Board,
}

impl Command {
    /// Parses one line (without or with its trailing newline).
    pub fn parse(line: &str) -> Result<Command, ParseError> {
        let mut cur = Cursor::new(tokenize(line)?);
        let Some(first) = cur.next_token() else {
            return Err(ParseError::Empty);
        };
        let command = match first {
            "umi" => Command::Umi,
            "isready" => Command::IsReady,
            "stop" => Command::Stop,
            "ponderhit" => Command::PonderHit,
            "quit" => Command::Quit,
            "d" => Command::Board,
            "setoption" => Command::SetOption(SetOption::parse(&mut cur)?),
            "newgame" => {
                let text = cur.expect("game id after newgame")?;
                Command::NewGame(text.parse().map_err(|_| ParseError::UnknownGame {
                    text: text.to_owned(),
                })?)
            }
            "position" => parse_position(&mut cur)?,
            "go" => {
                if cur.peek() == Some("perft") {
                    cur.next_token();
                    let depth = parse_unsigned("perft", cur.value("perft")?)?;
                    cur.finish("go perft")?;
                    Command::Perft { depth }
                } else {
                    Command::Go(Go::parse(&mut cur)?)
                }
            }
            "gameover" => {
                let text = cur.expect("result after gameover")?;
                let result = GameResult::from_pgn(text).ok_or_else(|| ParseError::BadResult {
                    text: text.to_owned(),
                })?;
                let rest = cur.rest();
                let reason = if rest.is_empty() {
                    None
                } else {
                    Some(Text::from_tokens(rest)?)
                };
                Command::GameOver { result, reason }
            }
            other => {
                return Err(ParseError::UnknownCommand {
                    token: other.to_owned(),
                })
            }
        };
        cur.finish(first_context(&command))?;
        Ok(command)
    }
}

/// The name of a command for "unexpected token" errors.
fn first_context(command: &Command) -> &'static str {
    match command {
        Command::Umi => "umi",
        Command::IsReady => "isready",
        Command::SetOption(_) => "setoption",
        Command::NewGame(_) => "newgame",
        Command::Position { .. } => "position",
        Command::Go(_) => "go",
        Command::Perft { .. } => "go perft",
        Command::Stop => "stop",
        Command::PonderHit => "ponderhit",
        Command::GameOver { .. } => "gameover",
        Command::Quit => "quit",
        Command::Board => "d",
    }
}

fn parse_position(cur: &mut Cursor<'_>) -> Result<Command, ParseError> {
    let base = match cur.expect("startpos or pos after position")? {
        "startpos" => PositionBase::StartPos,
        "pos" => PositionBase::Pos(PositionText::from_tokens(cur.take_until(|t| t == "moves"))?),
        other => return Err(ParseError::unexpected("position", other, "startpos or pos")),
    };
    let moves = match cur.next_token() {
        None => Vec::new(),
        Some("moves") => cur
            .rest()
            .iter()
            .map(|m| Move::new(m))
            .collect::<Result<_, _>>()?,
        Some(other) => {
            return Err(ParseError::unexpected(
                "position startpos",
                other,
                "moves or end of line",
            ))
        }
    };
    Ok(Command::Position { base, moves })
}

impl FromStr for Command {
    type Err = ParseError;
    fn from_str(line: &str) -> Result<Command, ParseError> {
        Command::parse(line)
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Umi => f.write_str("umi"),
            Command::IsReady => f.write_str("isready"),
            Command::SetOption(s) => s.fmt(f),
            Command::NewGame(id) => write!(f, "newgame {id}"),
            Command::Position { base, moves } => {
                match base {
                    PositionBase::StartPos => f.write_str("position startpos")?,
                    PositionBase::Pos(p) => write!(f, "position pos {p}")?,
                }
                if !moves.is_empty() {
                    f.write_str(" moves")?;
                    for m in moves {
                        write!(f, " {m}")?;
                    }
                }
                Ok(())
            }
            Command::Go(go) => go.fmt(f),
            Command::Perft { depth } => write!(f, "go perft {depth}"),
            Command::Stop => f.write_str("stop"),
            Command::PonderHit => f.write_str("ponderhit"),
            Command::GameOver { result, reason } => {
                write!(f, "gameover {result}")?;
                if let Some(r) = reason {
                    write!(f, " {r}")?;
                }
                Ok(())
            }
            Command::Quit => f.write_str("quit"),
            Command::Board => f.write_str("d"),
        }
    }
}
