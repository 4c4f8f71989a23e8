//! Validated string values: free text, option names, position strings, moves
//! and game ids. Each can only hold its canonical spelling (tokens joined by
//! single spaces, no control characters, no keyword that would end it early
//! when it is embedded in a line), so every line built from them parses back
//! to the same value.

use std::fmt;
use std::str::FromStr;

use mancala_rules::GameId;

use crate::error::ParseError;
use crate::token::tokenize;

macro_rules! text_type {
    ($(#[$doc:meta])* $name:ident, what = $what:literal, reserved = [$($kw:literal),*]) => {
        $(#[$doc])*
        #[derive(Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        pub struct $name(String);

        impl $name {
            /// Tokens this value may not contain (they end it inside a line).
            pub const RESERVED: &'static [&'static str] = &[$($kw),*];

            /// Validates and normalises `text`: runs of whitespace become one
            /// space, leading/trailing whitespace is dropped. Fails on empty
            /// text, control characters and reserved words.
            pub fn new(text: &str) -> Result<Self, ParseError> {
                Self::from_tokens(&tokenize(text)?)
            }

            pub(crate) fn from_tokens(tokens: &[&str]) -> Result<Self, ParseError> {
                if tokens.is_empty() {
                    return Err(ParseError::Missing { what: $what });
                }
                if let Some(word) = tokens.iter().find(|t| Self::RESERVED.contains(t)) {
                    return Err(ParseError::ReservedWord { what: $what, word: (*word).to_owned() });
                }
                Ok($name(tokens.join(" ")))
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl FromStr for $name {
            type Err = ParseError;
            fn from_str(s: &str) -> Result<Self, ParseError> {
                Self::new(s)
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.0 == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.0 == *other
            }
        }
    };
}

text_type!(
    /// Free text that runs to the end of a line: `id name`, `id author`,
    /// `info string`, the `gameover` reason, a `setoption` value, a string
    /// option's default. Non-empty; any word allowed.
    ///
    /// UCI convention, kept here: the string option value `<empty>` stands for
    /// the empty string. This type keeps it literally; see [`Text::option_str`].
    Text, what = "text", reserved = []
);

impl Text {
    /// The value as a string option's content: `<empty>` means "".
    pub fn option_str(&self) -> &str {
        if self.0 == "<empty>" {
            ""
        } else {
            &self.0
        }
    }
}

text_type!(
    /// An option name: non-empty, and without the words `type` (which ends the
    /// name in `option name … type …`) and `value` (which ends it in
    /// `setoption name … value …`). May contain spaces: `Move Overhead`.
    /// Engines compare names case-insensitively (UCI tradition); this type
    /// keeps the spelling.
    OptionName, what = "option name", reserved = ["type", "value"]
);

impl OptionName {
    /// Case-insensitive comparison, as engines match `setoption` names.
    pub fn matches(&self, other: &str) -> bool {
        self.0.eq_ignore_ascii_case(other)
    }
}

text_type!(
    /// One value of a combo option (`var` or its `default`): non-empty, without
    /// the words that start another field of an option line.
    ComboValue, what = "combo value", reserved = ["default", "min", "max", "var"]
);

text_type!(
    /// A position string as carried by `position pos …` and printed by `d`:
    /// kept as text here (engines and the arbiter validate it with the rules
    /// library). It may not contain the word `moves`, which ends it.
    PositionText, what = "position string", reserved = ["moves"]
);

/// Words a move can never be: the keywords that may follow a move on an
/// `info … pv …` line or a `bestmove` line.
pub const RESERVED_MOVE_WORDS: &[&str] = &[
    "depth",
    "seldepth",
    "time",
    "nodes",
    "nps",
    "hashfull",
    "multipv",
    "score",
    "currmove",
    "currmovenumber",
    "pv",
    "string",
    "ponder",
];

/// The longest move token accepted, in bytes.
pub const MAX_MOVE_LEN: usize = 32;

/// A move in notation, as one token: `4`, `23`, `14+-+`, `pass`.
///
/// The protocol checks only the shape — 1 to 32 ASCII letters, digits, `+`
/// or `-`, not a reserved word — and leaves legality to the rules library.
#[derive(Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Move(String);

impl Move {
    pub fn new(text: &str) -> Result<Move, ParseError> {
        let bad = |problem| ParseError::BadMove {
            text: text.to_owned(),
            problem,
        };
        if text.is_empty() {
            return Err(bad("empty"));
        }
        if text.len() > MAX_MOVE_LEN {
            return Err(bad("longer than 32 characters"));
        }
        if !text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'-')
        {
            return Err(bad(
                "only ASCII letters, digits, '+' and '-' may appear in a move",
            ));
        }
        if RESERVED_MOVE_WORDS.contains(&text) {
            return Err(bad("a protocol keyword"));
        }
        Ok(Move(text.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for Move {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Move, ParseError> {
        Move::new(s)
    }
}

impl AsRef<str> for Move {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl PartialEq<str> for Move {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for Move {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

/// The longest game id accepted in a `games` line, in bytes.
pub const MAX_GAME_NAME_LEN: usize = 64;

/// A game id as listed in a `games` line: 1 to 64 lower-case ASCII letters,
/// digits and `-`. It need not be a game this library knows (a newer engine
/// may list more games; receivers ignore ids they do not know): see
/// [`GameName::id`].
#[derive(Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct GameName(String);

impl GameName {
    pub fn new(text: &str) -> Result<GameName, ParseError> {
        let ok = !text.is_empty()
            && text.len() <= MAX_GAME_NAME_LEN
            && text
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if ok {
            Ok(GameName(text.to_owned()))
        } else {
            Err(ParseError::BadGameName {
                text: text.to_owned(),
            })
        }
    }

    /// The game, if the rules library knows it.
    pub fn id(&self) -> Option<GameId> {
        self.0.parse().ok()
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<GameId> for GameName {
    fn from(id: GameId) -> GameName {
        GameName(id.as_str().to_owned())
    }
}

impl fmt::Display for GameName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for GameName {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<GameName, ParseError> {
        GameName::new(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_normalised() {
        assert_eq!(Text::new("  a \t b  ").unwrap().as_str(), "a b");
        assert!(matches!(
            Text::new(" \t "),
            Err(ParseError::Missing { what: "text" })
        ));
        assert!(Text::new("a\nb").is_ok(), "LF is whitespace");
        assert!(Text::new("a\u{7f}b").is_err());
        assert_eq!(Text::new("<empty>").unwrap().option_str(), "");
    }

    #[test]
    fn reserved_words() {
        assert!(OptionName::new("Move Overhead").is_ok());
        assert!(OptionName::new("my value").is_err());
        assert!(
            OptionName::new("Type").is_ok(),
            "keywords are case-sensitive"
        );
        assert!(PositionText::new("bosh moves").is_err());
        assert!(ComboValue::new("max").is_err());
    }

    #[test]
    fn moves() {
        for ok in ["1", "23", "14+-+", "pass", "a1"] {
            assert_eq!(Move::new(ok).unwrap().as_str(), ok);
        }
        for bad in [
            "",
            " 1",
            "1 2",
            "(none)",
            "ponder",
            "pv",
            "1:",
            "é",
            &"1".repeat(33),
        ] {
            assert!(Move::new(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn game_names() {
        assert_eq!(GameName::new("bosh").unwrap().id(), Some(GameId::Bosh));
        assert_eq!(GameName::new("awari").unwrap().id(), None);
        assert!(GameName::new("Bosh").is_err());
        assert!(GameName::new("").is_err());
        for id in GameId::ALL {
            assert_eq!(GameName::from(id).id(), Some(id));
        }
    }
}
