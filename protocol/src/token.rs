//! Splitting lines into tokens and reading numbers: the lexical layer shared
//! by every command and message.
//!
//! Tokens are separated by one or more ASCII whitespace characters (space,
//! tab, and — so that a stray `\r` from a CRLF line does no harm — CR, LF and
//! FF). Any other control character makes the line malformed. Display always
//! writes a single space between tokens, so parsing then displaying a line
//! yields its canonical spelling.

use crate::error::ParseError;

/// Splits `line` into tokens, rejecting control characters.
pub(crate) fn tokenize(line: &str) -> Result<Vec<&str>, ParseError> {
    if let Some(ch) = line
        .chars()
        .find(|c| c.is_control() && !c.is_ascii_whitespace())
    {
        return Err(ParseError::ControlCharacter { ch });
    }
    Ok(line
        .split(|c: char| c.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .collect())
}

/// A cursor over the tokens of one line.
pub(crate) struct Cursor<'a> {
    tokens: Vec<&'a str>,
    pos: usize,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(tokens: Vec<&'a str>) -> Self {
        Cursor { tokens, pos: 0 }
    }

    pub(crate) fn peek(&self) -> Option<&'a str> {
        self.tokens.get(self.pos).copied()
    }

    pub(crate) fn next_token(&mut self) -> Option<&'a str> {
        let t = self.peek()?;
        self.pos += 1;
        Some(t)
    }

    /// The next token, or `Missing { what }` at the end of the line.
    pub(crate) fn expect(&mut self, what: &'static str) -> Result<&'a str, ParseError> {
        self.next_token().ok_or(ParseError::Missing { what })
    }

    /// The value token after keyword `field`, or `MissingValue { field }`.
    pub(crate) fn value(&mut self, field: &'static str) -> Result<&'a str, ParseError> {
        self.next_token().ok_or(ParseError::MissingValue { field })
    }

    /// Takes tokens up to (not including) the first one for which `stop` holds.
    pub(crate) fn take_until(&mut self, stop: impl Fn(&str) -> bool) -> &[&'a str] {
        let start = self.pos;
        while let Some(t) = self.peek() {
            if stop(t) {
                break;
            }
            self.pos += 1;
        }
        &self.tokens[start..self.pos]
    }

    /// Takes every remaining token.
    pub(crate) fn rest(&mut self) -> &[&'a str] {
        let start = self.pos;
        self.pos = self.tokens.len();
        &self.tokens[start..]
    }

    /// Fails with `Unexpected` if any token is left.
    pub(crate) fn finish(&self, context: &'static str) -> Result<(), ParseError> {
        match self.peek() {
            None => Ok(()),
            Some(t) => Err(ParseError::unexpected(context, t, "end of line")),
        }
    }
}

/// An unsigned decimal integer: ASCII digits only (no sign, no spaces).
/// Reads the value of an unsigned `field` into `slot`; a field given twice
/// is an error.
pub(crate) fn set_unsigned<T: TryFrom<u128>>(
    slot: &mut Option<T>,
    field: &'static str,
    cur: &mut Cursor<'_>,
) -> Result<(), ParseError> {
    if slot.is_some() {
        return Err(ParseError::Duplicate { field });
    }
    *slot = Some(parse_unsigned(field, cur.value(field)?)?);
    Ok(())
}

pub(crate) fn parse_unsigned<T: TryFrom<u128>>(
    field: &'static str,
    text: &str,
) -> Result<T, ParseError> {
    let bad = |problem| ParseError::BadNumber {
        field,
        text: text.to_owned(),
        problem,
    };
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad("not a non-negative decimal integer"));
    }
    // why: digits only, so the only failure of the u128 parse is overflow;
    // leading zeros cannot overflow it however many there are.
    let digits = text.trim_start_matches('0');
    let value: u128 = if digits.is_empty() {
        0
    } else {
        digits.parse().map_err(|_| bad("too large"))?
    };
    T::try_from(value).map_err(|_| bad("too large"))
}

/// A signed decimal integer: an optional `-` then ASCII digits.
pub(crate) fn parse_signed<T: TryFrom<i128>>(
    field: &'static str,
    text: &str,
) -> Result<T, ParseError> {
    let bad = |problem| ParseError::BadNumber {
        field,
        text: text.to_owned(),
        problem,
    };
    let (negative, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad("not a decimal integer"));
    }
    let digits = digits.trim_start_matches('0');
    let magnitude: i128 = if digits.is_empty() {
        0
    } else {
        digits.parse().map_err(|_| bad("out of range"))?
    };
    let value = if negative { -magnitude } else { magnitude };
    T::try_from(value).map_err(|_| bad("out of range"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_split_on_any_ascii_whitespace() {
        assert_eq!(tokenize(" a\t\tb  c\r").unwrap(), vec!["a", "b", "c"]);
        assert_eq!(tokenize("").unwrap(), Vec::<&str>::new());
        assert_eq!(tokenize("\u{3000}x").unwrap(), vec!["\u{3000}x"]);
        assert!(matches!(
            tokenize("a\u{0}b"),
            Err(ParseError::ControlCharacter { ch: '\u{0}' })
        ));
        assert!(matches!(
            tokenize("a\u{85}b"),
            Err(ParseError::ControlCharacter { .. })
        ));
    }

    #[test]
    fn numbers() {
        assert_eq!(parse_unsigned::<u32>("depth", "007"), Ok(7));
        assert_eq!(
            parse_unsigned::<u64>("nodes", "18446744073709551615"),
            Ok(u64::MAX)
        );
        assert!(parse_unsigned::<u64>("nodes", "18446744073709551616").is_err());
        assert!(parse_unsigned::<u64>("nodes", &"9".repeat(100)).is_err());
        assert_eq!(parse_unsigned::<u64>("nodes", &"0".repeat(100)), Ok(0));
        assert!(parse_unsigned::<u32>("depth", "+5").is_err());
        assert!(parse_unsigned::<u32>("depth", "-5").is_err());
        assert!(parse_unsigned::<u32>("depth", "٣").is_err());
        assert_eq!(parse_signed::<i32>("cp", "-0"), Ok(0));
        assert_eq!(parse_signed::<i32>("cp", "-2147483648"), Ok(i32::MIN));
        assert!(parse_signed::<i32>("cp", "2147483648").is_err());
        assert!(parse_signed::<i32>("cp", "-").is_err());
        assert!(parse_signed::<i32>("cp", "--1").is_err());
    }
}
