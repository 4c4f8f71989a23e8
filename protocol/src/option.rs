//! Option declarations (`option name … type …`, engine → GUI) and option
//! settings (`setoption name … [value …]`, GUI → engine).

use std::fmt;

use crate::error::ParseError;
use crate::text::{ComboValue, OptionName, Text};
use crate::token::{parse_signed, Cursor};

/// The type of an option and its type-specific fields.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum OptionKind {
    /// `type check default <true|false>`.
    Check { default: bool },
    /// `type spin default <n> min <n> max <n>`, with min ≤ default ≤ max.
    Spin { default: i64, min: i64, max: i64 },
    /// `type combo default <v> var <v> [var <v>]…`, default among the vars.
    Combo {
        default: ComboValue,
        vars: Vec<ComboValue>,
    },
    /// `type button`: no value; `setoption name <id>` presses it.
    Button,
    /// `type string default <text>`: the default runs to the end of the line;
    /// `<empty>` stands for the empty string (see [`Text::option_str`]).
    String { default: Text },
}

impl OptionKind {
    fn check(&self) -> Result<(), ParseError> {
        let invalid = |problem: String| {
            Err(ParseError::Invalid {
                what: "option",
                problem,
            })
        };
        match self {
            OptionKind::Spin { default, min, max } if !(min <= default && default <= max) => {
                invalid(format!(
                    "spin needs min <= default <= max, got min {min} default {default} max {max}"
                ))
            }
            OptionKind::Combo { vars, .. } if vars.is_empty() => {
                invalid("combo needs at least one var".into())
            }
            OptionKind::Combo { default, vars } if !vars.contains(default) => invalid(format!(
                "combo default \"{default}\" is not one of its vars"
            )),
            _ => Ok(()),
        }
    }
}

/// One `option` line of the handshake: an option the engine offers.
/// Built only through [`OptionDecl::new`] (or parsing), which enforce the
/// spin range and combo default rules, so every value displays to a line that
/// parses back to it.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct OptionDecl {
    name: OptionName,
    kind: OptionKind,
}

impl OptionDecl {
    pub fn new(name: OptionName, kind: OptionKind) -> Result<OptionDecl, ParseError> {
        kind.check()?;
        Ok(OptionDecl { name, kind })
    }

    pub fn name(&self) -> &OptionName {
        &self.name
    }

    pub fn kind(&self) -> &OptionKind {
        &self.kind
    }

    /// Parses the tokens after `option`.
    pub(crate) fn parse(cur: &mut Cursor<'_>) -> Result<OptionDecl, ParseError> {
        match cur.expect("`name` after option")? {
            "name" => {}
            other => return Err(ParseError::unexpected("option", other, "name")),
        }
        let name = OptionName::from_tokens(cur.take_until(|t| t == "type"))?;
        if cur.next_token().is_none() {
            return Err(ParseError::Missing {
                what: "`type` in option line",
            });
        }
        let kind = match cur.value("type")? {
            "button" => {
                cur.finish("option type button")?;
                OptionKind::Button
            }
            "string" => {
                match cur.expect("`default` of string option")? {
                    "default" => {}
                    other => {
                        return Err(ParseError::unexpected(
                            "option type string",
                            other,
                            "default",
                        ))
                    }
                }
                let default = Text::from_tokens(cur.rest())
                    .map_err(|_| ParseError::MissingValue { field: "default" })?;
                OptionKind::String { default }
            }
            "check" => {
                let f = Fields::parse(cur, "option type check", &["default"])?;
                let default = match f.default {
                    None => {
                        return Err(ParseError::Missing {
                            what: "`default` of check option",
                        })
                    }
                    Some(["true"]) => true,
                    Some(["false"]) => false,
                    Some(other) => {
                        return Err(ParseError::unexpected(
                            "check default",
                            &other.join(" "),
                            "true or false",
                        ))
                    }
                };
                OptionKind::Check { default }
            }
            "spin" => {
                let f = Fields::parse(cur, "option type spin", &["default", "min", "max"])?;
                let default = spin_number("spin default", f.default, "`default` of spin option")?;
                let min = spin_number("spin min", f.min, "`min` of spin option")?;
                let max = spin_number("spin max", f.max, "`max` of spin option")?;
                OptionKind::Spin { default, min, max }
            }
            "combo" => {
                let f = Fields::parse(cur, "option type combo", &["default", "var"])?;
                let default = ComboValue::from_tokens(f.default.ok_or(ParseError::Missing {
                    what: "`default` of combo option",
                })?)?;
                let vars = f
                    .vars
                    .into_iter()
                    .map(ComboValue::from_tokens)
                    .collect::<Result<_, _>>()?;
                OptionKind::Combo { default, vars }
            }
            other => {
                return Err(ParseError::unexpected(
                    "option type",
                    other,
                    "check, spin, combo, button or string",
                ))
            }
        };
        OptionDecl::new(name, kind)
    }
}

fn spin_number(
    field: &'static str,
    tokens: Option<&[&str]>,
    what: &'static str,
) -> Result<i64, ParseError> {
    match tokens {
        None => Err(ParseError::Missing { what }),
        Some([one]) => parse_signed(field, one),
        Some(many) => Err(ParseError::BadNumber {
            field,
            text: many.join(" "),
            problem: "not a single number",
        }),
    }
}

/// The `default`/`min`/`max`/`var` fields of an option line, each value
/// running to the next of these keywords.
struct Fields<'t, 'a> {
    default: Option<&'t [&'a str]>,
    min: Option<&'t [&'a str]>,
    max: Option<&'t [&'a str]>,
    vars: Vec<&'t [&'a str]>,
}

const FIELD_WORDS: [&str; 4] = ["default", "min", "max", "var"];

impl<'t, 'a> Fields<'t, 'a> {
    fn parse(
        cur: &'t mut Cursor<'a>,
        context: &'static str,
        allowed: &[&str],
    ) -> Result<Self, ParseError> {
        let mut fields = Fields {
            default: None,
            min: None,
            max: None,
            vars: Vec::new(),
        };
        let rest = cur.rest();
        let mut i = 0;
        while i < rest.len() {
            let key = rest[i];
            if !allowed.contains(&key) {
                let expected = match allowed.len() {
                    1 => "default",
                    2 => "default or var",
                    _ => "default, min or max",
                };
                return Err(ParseError::unexpected(context, key, expected));
            }
            let start = i + 1;
            let mut end = start;
            while end < rest.len() && !FIELD_WORDS.contains(&rest[end]) {
                end += 1;
            }
            let value = &rest[start..end];
            let field = match key {
                "default" => "default",
                "min" => "min",
                "max" => "max",
                _ => "var",
            };
            if value.is_empty() {
                return Err(ParseError::MissingValue { field });
            }
            let slot = match key {
                "default" => &mut fields.default,
                "min" => &mut fields.min,
                "max" => &mut fields.max,
                _ => {
                    fields.vars.push(value);
                    i = end;
                    continue;
                }
            };
            if slot.is_some() {
                return Err(ParseError::Duplicate { field });
            }
            *slot = Some(value);
            i = end;
        }
        Ok(fields)
    }
}

impl fmt::Display for OptionDecl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            OptionKind::Check { default } => write!(f, "check default {default}"),
            OptionKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            OptionKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                for v in vars {
                    write!(f, " var {v}")?;
                }
                Ok(())
            }
            OptionKind::Button => f.write_str("button"),
            OptionKind::String { default } => write!(f, "string default {default}"),
        }
    }
}

/// `setoption name <id> [value <x>]`: the name runs to the word `value`, the
/// value to the end of the line. No value: a button press.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct SetOption {
    pub name: OptionName,
    pub value: Option<Text>,
}

impl SetOption {
    /// Parses the tokens after `setoption`.
    pub(crate) fn parse(cur: &mut Cursor<'_>) -> Result<SetOption, ParseError> {
        match cur.expect("`name` after setoption")? {
            "name" => {}
            other => return Err(ParseError::unexpected("setoption", other, "name")),
        }
        let name = OptionName::from_tokens(cur.take_until(|t| t == "value"))?;
        let value = match cur.next_token() {
            None => None,
            Some(_) => Some(
                Text::from_tokens(cur.rest())
                    .map_err(|_| ParseError::MissingValue { field: "value" })?,
            ),
        };
        Ok(SetOption { name, value })
    }
}

impl fmt::Display for SetOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "setoption name {}", self.name)?;
        if let Some(v) = &self.value {
            write!(f, " value {v}")?;
        }
        Ok(())
    }
}
