//! Shared pieces of the position-string format:
//! `<game> <holes> <side> [<south>/<north>] [<round>]`.
//!
//! Each game parses its own fields with these helpers, so that every game
//! reports the same mistakes in the same words.

use std::fmt::Write as _;

use crate::error::{Field, PositionError};
use crate::{GameId, Side};

/// Reads the space-separated fields of a position string in order.
pub struct FieldReader<'a> {
    fields: std::str::Split<'a, char>,
}

impl<'a> FieldReader<'a> {
    /// Splits `s` on single spaces and checks that the first field is `game`.
    pub fn new(s: &'a str, game: GameId) -> Result<FieldReader<'a>, PositionError> {
        if s.is_empty() {
            return Err(PositionError::new(Field::String, "empty position string"));
        }
        if s.contains("  ") || s.starts_with(' ') || s.ends_with(' ') {
            return Err(PositionError::new(
                Field::String,
                "fields must be separated by single spaces, with none at either end",
            ));
        }
        if let Some(c) = s.chars().find(|c| c.is_whitespace() && *c != ' ') {
            return Err(PositionError::new(
                Field::String,
                format!("unexpected whitespace character {c:?}"),
            ));
        }
        let mut reader = FieldReader {
            fields: s.split(' '),
        };
        let id: GameId = reader.next(Field::Game)?.parse()?;
        if id != game {
            return Err(PositionError::new(
                Field::Game,
                format!("expected game id {game}, found {id}"),
            ));
        }
        Ok(reader)
    }

    /// The next field, or an error naming `field` as missing.
    pub fn next(&mut self, field: Field) -> Result<&'a str, PositionError> {
        self.fields
            .next()
            .ok_or_else(|| PositionError::new(field, "missing"))
    }

    /// Succeeds only if every field has been read.
    pub fn finish(mut self) -> Result<(), PositionError> {
        match self.fields.next() {
            None => Ok(()),
            Some(extra) => Err(PositionError::new(
                Field::Trailing,
                format!("unexpected extra field {extra:?}"),
            )),
        }
    }
}

/// The game id at the start of a position string.
pub fn game_id_of(s: &str) -> Result<GameId, PositionError> {
    if s.is_empty() {
        return Err(PositionError::new(Field::String, "empty position string"));
    }
    s.split(' ').next().unwrap_or_default().parse()
}

/// One hole of a holes field: its seed count, or `None` for a closed hole (`x`).
pub fn parse_holes(
    field: &str,
    count: usize,
    allow_closed: bool,
) -> Result<Vec<Option<u8>>, PositionError> {
    let parts: Vec<&str> = field.split(',').collect();
    if parts.len() != count {
        return Err(PositionError::new(
            Field::Holes,
            format!("expected {count} holes, found {}", parts.len()),
        ));
    }
    parts
        .iter()
        .enumerate()
        .map(|(i, part)| {
            let hole = i + 1;
            if *part == "x" {
                return if allow_closed {
                    Ok(None)
                } else {
                    Err(PositionError::new(
                        Field::Holes,
                        format!("hole {hole} is closed (x), but only Bosh has closed holes"),
                    ))
                };
            }
            parse_count(part).map(Some).ok_or_else(|| {
                PositionError::new(
                    Field::Holes,
                    format!("hole {hole}: {part:?} is not a seed count"),
                )
            })
        })
        .collect()
}

/// Holes that may not be closed: plain seed counts.
pub fn parse_open_holes(field: &str, count: usize) -> Result<Vec<u8>, PositionError> {
    Ok(parse_holes(field, count, false)?
        .into_iter()
        .map(|h| h.unwrap_or(0))
        .collect())
}

/// A decimal count without sign or leading zeros (other than `0` itself), at most 255.
fn parse_count(s: &str) -> Option<u8> {
    let canonical =
        !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !s.starts_with('0'));
    if canonical {
        s.parse().ok()
    } else {
        None
    }
}

/// A hole number `1..=holes` in canonical decimal (no sign, no leading
/// zero), as moves write it; `None` for anything else.
pub fn parse_hole_number(s: &str, holes: u8) -> Option<u8> {
    parse_count(s).filter(|n| (1..=holes).contains(n))
}

pub fn parse_side(field: &str) -> Result<Side, PositionError> {
    Side::from_letter(field)
        .ok_or_else(|| PositionError::new(Field::Side, format!("expected S or N, found {field:?}")))
}

/// `<south>/<north>` counts (stores or reserves).
pub fn parse_pair(field: &str) -> Result<[u8; 2], PositionError> {
    let bad = || {
        PositionError::new(
            Field::Stores,
            format!("expected <south>/<north> seed counts, found {field:?}"),
        )
    };
    let (s, n) = field.split_once('/').ok_or_else(bad)?;
    Ok([
        parse_count(s).ok_or_else(bad)?,
        parse_count(n).ok_or_else(bad)?,
    ])
}

/// A round number, 1 or more.
pub fn parse_round(field: &str) -> Result<u32, PositionError> {
    let canonical =
        !field.is_empty() && field.bytes().all(|b| b.is_ascii_digit()) && !field.starts_with('0');
    field
        .parse::<u32>()
        .ok()
        .filter(|_| canonical)
        .ok_or_else(|| {
            PositionError::new(
                Field::Round,
                format!("expected a round number from 1, found {field:?}"),
            )
        })
}

/// Checks a seed total, naming the field the total is computed over.
pub fn check_total(found: u32, expected: u32, what: &str) -> Result<(), PositionError> {
    if found == expected {
        Ok(())
    } else {
        Err(PositionError::new(
            Field::Holes,
            format!("seeds not conserved: {what} hold {found}, expected {expected}"),
        ))
    }
}

/// Formats hole contents as the holes field (`None` = closed = `x`).
pub fn format_holes<I>(holes: I) -> String
where
    I: IntoIterator<Item = Option<u8>>,
{
    let mut out = String::new();
    for (i, h) in holes.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        match h {
            // why: `write!`, not `to_string`: no allocation per hole (the
            // arbiter's board server writes a position string every move).
            Some(n) => {
                let _ = write!(out, "{n}");
            }
            None => out.push('x'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_canonical() {
        assert_eq!(parse_count("0"), Some(0));
        assert_eq!(parse_count("12"), Some(12));
        assert_eq!(parse_count("012"), None);
        assert_eq!(parse_count("+1"), None);
        assert_eq!(parse_count(""), None);
        assert_eq!(parse_count("256"), None);
    }

    #[test]
    fn hole_numbers_are_canonical_and_in_range() {
        assert_eq!(parse_hole_number("10", 10), Some(10));
        assert_eq!(parse_hole_number("11", 10), None);
        assert_eq!(parse_hole_number("0", 10), None);
        assert_eq!(parse_hole_number("03", 10), None);
        assert_eq!(parse_hole_number("99999999999", 48), None);
    }

    #[test]
    fn reader_rejects_bad_spacing_and_names_fields() {
        let e = FieldReader::new("bosh  4", GameId::Bosh).err().unwrap();
        assert_eq!(e.field, Field::String);
        let e = FieldReader::new("kimasai 1", GameId::Bosh).err().unwrap();
        assert_eq!(e.field, Field::Game);
        let e = FieldReader::new("chess 1", GameId::Bosh).err().unwrap();
        assert_eq!(e.field, Field::Game);
        let mut r = FieldReader::new("bosh a", GameId::Bosh).unwrap();
        assert_eq!(r.next(Field::Holes).unwrap(), "a");
        assert_eq!(r.next(Field::Side).unwrap_err().field, Field::Side);
    }

    #[test]
    fn holes_field() {
        assert_eq!(
            parse_holes("1,x,3", 3, true).unwrap(),
            vec![Some(1), None, Some(3)]
        );
        assert_eq!(
            parse_holes("1,x,3", 3, false).unwrap_err().field,
            Field::Holes
        );
        assert!(parse_holes("1,2", 3, true)
            .unwrap_err()
            .message
            .contains("expected 3 holes"));
        assert_eq!(format_holes([Some(1), None, Some(3)]), "1,x,3");
    }
}
