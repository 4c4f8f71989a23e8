//! KGP's line grammar: `[id][@ref] name arg…`, each argument an integer, a
//! real, a word, a double-quoted string or a board literal `<n,…>`.
//! [`Command::parse`] reads one line into a typed command or says, in a
//! [`WireError`], what was wrong with it; `Display` writes one back.

use std::fmt;

/// KGP's line limit: a command is at most 16384 characters, trailing white
/// space included.
pub const MAX_LINE: usize = 16384;

/// One argument of a command.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    Int(i64),
    Real(f64),
    /// A bare word: letters, digits, `-` and `:` (`freeplay`, `auth:token`).
    Word(String),
    /// A double-quoted string, its escapes resolved.
    Str(String),
    /// A board literal's numbers, in order (`<3,0,0,3,3,3,3,3,3>`).
    Board(Vec<u32>),
}

impl Arg {
    /// The text of a word or a string: KGP lets a single-word string go
    /// without quotes, so the two are the same value.
    pub fn text(&self) -> Option<&str> {
        match self {
            Arg::Word(w) | Arg::Str(w) => Some(w),
            _ => None,
        }
    }
}

impl fmt::Display for Arg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Arg::Int(n) => write!(f, "{n}"),
            Arg::Real(x) => write!(f, "{x:?}"),
            Arg::Word(w) => f.write_str(w),
            Arg::Str(s) => {
                f.write_str("\"")?;
                for c in s.chars() {
                    match c {
                        '"' | '\\' => write!(f, "\\{c}")?,
                        // why: a line break inside a string would end the line.
                        '\n' | '\r' => f.write_str(" ")?,
                        c => write!(f, "{c}")?,
                    }
                }
                f.write_str("\"")
            }
            Arg::Board(values) => {
                f.write_str("<")?;
                for (i, v) in values.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str(">")
            }
        }
    }
}

/// One KGP command.
#[derive(Clone, Debug, PartialEq)]
pub struct Command {
    /// The command's own id, for later commands to refer to.
    pub id: Option<u64>,
    /// The id of the command this one answers (`@4`).
    pub reference: Option<u64>,
    pub name: String,
    pub args: Vec<Arg>,
}

impl Command {
    pub fn new(name: &str) -> Command {
        Command {
            id: None,
            reference: None,
            name: name.to_owned(),
            args: Vec::new(),
        }
    }

    pub fn id(mut self, id: u64) -> Command {
        self.id = Some(id);
        self
    }

    pub fn answering(mut self, reference: Option<u64>) -> Command {
        self.reference = reference;
        self
    }

    pub fn arg(mut self, arg: Arg) -> Command {
        self.args.push(arg);
        self
    }

    /// `error "<why>"` answering `reference`.
    pub fn error(reference: Option<u64>, why: &str) -> Command {
        Command::new("error")
            .answering(reference)
            .arg(Arg::Str(why.to_owned()))
    }

    /// Parses one line (its line break, if any, is ignored).
    pub fn parse(line: &str) -> Result<Command, WireError> {
        if line.len() > MAX_LINE {
            return Err(WireError::TooLong { bytes: line.len() });
        }
        let line = line.trim_end_matches(['\r', '\n']);
        if line.contains(['\r', '\n']) {
            return Err(WireError::LineBreak);
        }
        let mut rest = line.trim_start();
        if rest.trim_end().is_empty() {
            return Err(WireError::Empty);
        }
        let (id, mut reference) = take_head(&mut rest)?;
        // why: `4 @2 pong` (a space before the reference) is not KGP's
        // grammar, but it is what a hand-written client easily sends, and
        // it can mean nothing else.
        if id.is_some() && reference.is_none() && rest.starts_with('@') {
            reference = take_head(&mut rest)?.1;
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let name = &rest[..end];
        if name.is_empty() {
            return Err(WireError::MissingName);
        }
        if !name.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(WireError::BadName(name.to_owned()));
        }
        let args = parse_args(&rest[end..])?;
        Ok(Command {
            id,
            reference,
            name: name.to_owned(),
            args,
        })
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.id, self.reference) {
            (Some(id), Some(r)) => write!(f, "{id}@{r} ")?,
            (Some(id), None) => write!(f, "{id} ")?,
            (None, Some(r)) => write!(f, "@{r} ")?,
            (None, None) => {}
        }
        f.write_str(&self.name)?;
        for a in &self.args {
            write!(f, " {a}")?;
        }
        Ok(())
    }
}

/// What is wrong with a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WireError {
    Empty,
    TooLong {
        bytes: usize,
    },
    LineBreak,
    /// The `id@ref` part does not read.
    BadId(String),
    MissingName,
    BadName(String),
    /// A string without its closing quote.
    UnterminatedString,
    BadBoard(String),
    /// An argument of none of the five kinds.
    BadArgument(String),
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireError::Empty => f.write_str("empty line"),
            WireError::TooLong { bytes } => {
                write!(f, "line of {bytes} bytes, over KGP's limit of {MAX_LINE}")
            }
            WireError::LineBreak => f.write_str("a line break inside the line"),
            WireError::BadId(h) => write!(f, "{h:?} is not an id or @reference"),
            WireError::MissingName => f.write_str("no command name"),
            WireError::BadName(n) => {
                write!(f, "{n:?} is not a command name (letters and digits)")
            }
            WireError::UnterminatedString => f.write_str("a string without its closing quote"),
            WireError::BadBoard(b) => write!(f, "{b:?} is not a board <n,south,north,pits…>"),
            WireError::BadArgument(a) => write!(
                f,
                "{a:?} is no argument (integer, real, word, \"string\" or <board>)"
            ),
        }
    }
}

impl std::error::Error for WireError {}

/// The `id@ref` part at the start of `rest`, if any; `rest` moves past it.
fn take_head(rest: &mut &str) -> Result<(Option<u64>, Option<u64>), WireError> {
    match rest.chars().next() {
        Some(c) if c.is_ascii_digit() || c == '@' => {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let head = &rest[..end];
            *rest = rest[end..].trim_start();
            parse_head(head)
        }
        _ => Ok((None, None)),
    }
}

/// `12`, `12@4`, `@4`.
fn parse_head(head: &str) -> Result<(Option<u64>, Option<u64>), WireError> {
    let bad = || WireError::BadId(head.to_owned());
    let number = |s: &str| -> Result<Option<u64>, WireError> {
        if s.is_empty() {
            return Ok(None);
        }
        if !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        s.parse().map(Some).map_err(|_| bad())
    };
    match head.split_once('@') {
        None => Ok((number(head)?, None)),
        Some((id, r)) if !r.is_empty() => Ok((number(id)?, Some(number(r)?.ok_or_else(bad)?))),
        Some(_) => Err(bad()),
    }
}

fn parse_args(mut rest: &str) -> Result<Vec<Arg>, WireError> {
    let mut args = Vec::new();
    loop {
        rest = rest.trim_start();
        let Some(first) = rest.chars().next() else {
            return Ok(args);
        };
        if first == '"' {
            let (s, after) = parse_string(&rest[1..])?;
            args.push(Arg::Str(s));
            rest = after;
            continue;
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let token = &rest[..end];
        rest = &rest[end..];
        args.push(parse_token(token)?);
    }
}

/// A string's content after its opening quote; the rest of the line after
/// the closing one.
fn parse_string(s: &str) -> Result<(String, &str), WireError> {
    let mut out = String::new();
    let mut chars = s.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Ok((out, &s[i + 1..])),
            '\\' => match chars.next() {
                Some((_, escaped)) => out.push(escaped),
                None => return Err(WireError::UnterminatedString),
            },
            c => out.push(c),
        }
    }
    Err(WireError::UnterminatedString)
}

fn parse_token(token: &str) -> Result<Arg, WireError> {
    if let Some(inner) = token.strip_prefix('<') {
        let bad = || WireError::BadBoard(token.to_owned());
        let inner = inner.strip_suffix('>').ok_or_else(bad)?;
        let values = inner
            .split(',')
            .map(|v| {
                if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(bad());
                }
                v.parse::<u32>().map_err(|_| bad())
            })
            .collect::<Result<Vec<u32>, _>>()?;
        return Ok(Arg::Board(values));
    }
    let unsigned = token.strip_prefix(['+', '-']).unwrap_or(token);
    if !unsigned.is_empty() && unsigned.bytes().all(|b| b.is_ascii_digit()) {
        return token
            .parse::<i64>()
            .map(Arg::Int)
            .map_err(|_| WireError::BadArgument(token.to_owned()));
    }
    if let Some((whole, frac)) = unsigned.split_once('.') {
        let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if !frac.is_empty() && digits(whole) && digits(frac) {
            return token
                .parse::<f64>()
                .map(Arg::Real)
                .map_err(|_| WireError::BadArgument(token.to_owned()));
        }
    }
    if token
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == ':')
    {
        return Ok(Arg::Word(token.to_owned()));
    }
    Err(WireError::BadArgument(token.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_ids_references_and_every_kind_of_argument() {
        let c = Command::parse("12@4 move 3\r\n").unwrap();
        assert_eq!(
            (c.id, c.reference, c.name.as_str()),
            (Some(12), Some(4), "move")
        );
        assert_eq!(c.args, vec![Arg::Int(3)]);
        let c = Command::parse("5 @8 yield").unwrap();
        assert_eq!(
            (c.id, c.reference, c.name.as_str()),
            (Some(5), Some(8), "yield")
        );
        let c = Command::parse("@8 yield").unwrap();
        assert_eq!((c.id, c.reference), (None, Some(8)));
        let c = Command::parse("kgp 1 0 0").unwrap();
        assert_eq!((c.id, c.reference), (None, None));
        assert_eq!(c.args, vec![Arg::Int(1), Arg::Int(0), Arg::Int(0)]);
        let c =
            Command::parse(r#"3 set auth:token "a \"b\" \\c" -2 +0.5 -.25 <3,0,0,3,3,3,3,3,3>"#)
                .unwrap();
        assert_eq!(
            c.args,
            vec![
                Arg::Word("auth:token".into()),
                Arg::Str(r#"a "b" \c"#.into()),
                Arg::Int(-2),
                Arg::Real(0.5),
                Arg::Real(-0.25),
                Arg::Board(vec![3, 0, 0, 3, 3, 3, 3, 3, 3]),
            ]
        );
        assert_eq!(c.args[1].text(), Some(r#"a "b" \c"#));
        assert_eq!(c.args[0].text(), Some("auth:token"));
    }

    #[test]
    fn writes_what_it_reads() {
        let c = Command::new("state")
            .id(4)
            .arg(Arg::Board(vec![6, 0, 1, 4, 4]));
        assert_eq!(c.to_string(), "4 state <6,0,1,4,4>");
        let e = Command::error(Some(7), r#"no "such" \ thing"#);
        assert_eq!(e.to_string(), r#"@7 error "no \"such\" \\ thing""#);
        assert_eq!(Command::parse(&e.to_string()).unwrap(), e);
        let s = Command::new("stop").id(6).answering(Some(4));
        assert_eq!(s.to_string(), "6@4 stop");
    }

    #[test]
    fn names_what_is_wrong_with_a_bad_line() {
        let err = |l: &str| Command::parse(l).unwrap_err().to_string();
        assert_eq!(err("   "), "empty line");
        assert!(
            err("4x move 1").contains("not an id"),
            "{}",
            err("4x move 1")
        );
        assert!(err("4@ move 1").contains("not an id"));
        assert!(err("@ move 1").contains("not an id"));
        assert_eq!(err("12"), "no command name");
        assert!(err("mo_ve 1").contains("not a command name"));
        assert!(err(r#"set info:name "open"#).contains("closing quote"));
        assert!(err("state <3,0,x>").contains("not a board"));
        assert!(err("state <3,0,0").contains("not a board"));
        assert!(err("move 1;").contains("is no argument"));
        assert!(err("move 99999999999999999999").contains("is no argument"));
        assert!(err(&"x".repeat(MAX_LINE + 1)).contains("over KGP's limit"));
        assert!(err("move 1\rmove 2").contains("line break"));
    }
}
