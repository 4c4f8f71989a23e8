//! Rust source as the layering check reads it: identifiers, `::`, string
//! literals (for `#[path = "…"]`) and single punctuation, each with its line;
//! comments, char and number literals and lifetimes left out. Enough of
//! Rust's lexical grammar that no comment, string or char literal (`'"'`,
//! `r#"…"#`) is ever taken for code, and no code for a comment.

/// One token of a source file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token {
    /// An identifier or keyword (`r#match` is `match`).
    Ident(String),
    /// `::`.
    PathSep,
    /// A string literal's text (escapes kept as written).
    Str(String),
    /// A char, byte or number literal, or a lifetime: never part of a path.
    Other,
    /// Any other single character.
    Punct(char),
}

/// The tokens of `text`, each with its line (from 1).
pub fn tokens(text: &str) -> Vec<(Token, usize)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let is_start = |c: char| c.is_alphabetic() || c == '_';
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    while i < chars.len() {
        let c = chars[i];
        let start_line = line;
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            // why a depth: Rust's block comments nest.
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if chars[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if c == '"' {
            let (s, next) = quoted(&chars, i + 1, &mut line);
            out.push((Token::Str(s), start_line));
            i = next;
        } else if c == '\'' {
            if at(i + 1) == '\\' {
                // An escaped char literal: '\n', '\'', '\u{1F600}'.
                i += 3;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(i + 2) == '\'' {
                // A char literal: 'a', '"'.
                i += 3;
            } else {
                // A lifetime or a label: 'a, 'static.
                i += 1;
                while i < chars.len() && is_ident(chars[i]) {
                    i += 1;
                }
            }
            out.push((Token::Other, start_line));
        } else if c.is_ascii_digit() {
            while i < chars.len()
                && (is_ident(chars[i]) || (chars[i] == '.' && at(i + 1).is_ascii_digit()))
            {
                i += 1;
            }
            out.push((Token::Other, start_line));
        } else if is_start(c) {
            let begin = i;
            while i < chars.len() && is_ident(chars[i]) {
                i += 1;
            }
            let word: String = chars[begin..i].iter().collect();
            let raw_prefix = matches!(word.as_str(), "r" | "br" | "cr");
            if raw_prefix && (at(i) == '"' || (at(i) == '#' && raw_string_ahead(&chars, i))) {
                let mut hashes = 0;
                while at(i) == '#' {
                    hashes += 1;
                    i += 1;
                }
                i += 1; // the opening quote
                let begin = i;
                loop {
                    if i >= chars.len() {
                        break;
                    }
                    if chars[i] == '"' && (1..=hashes).all(|k| at(i + k) == '#') {
                        break;
                    }
                    if chars[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
                let s: String = chars[begin..i.min(chars.len())].iter().collect();
                out.push((Token::Str(s), start_line));
                i += 1 + hashes;
            } else if word == "r" && at(i) == '#' && is_start(at(i + 1)) {
                // A raw identifier: r#match.
                i += 1;
                let begin = i;
                while i < chars.len() && is_ident(chars[i]) {
                    i += 1;
                }
                out.push((Token::Ident(chars[begin..i].iter().collect()), start_line));
            } else if matches!(word.as_str(), "b" | "c") && at(i) == '"' {
                let (s, next) = quoted(&chars, i + 1, &mut line);
                out.push((Token::Str(s), start_line));
                i = next;
            } else if word == "b" && at(i) == '\'' {
                // A byte literal: b'a', b'\''.
                i += 1;
                if at(i) == '\\' {
                    i += 2;
                    while i < chars.len() && chars[i] != '\'' {
                        i += 1;
                    }
                    i += 1;
                } else {
                    i += 2;
                }
                out.push((Token::Other, start_line));
            } else {
                out.push((Token::Ident(word), start_line));
            }
        } else if c == ':' && at(i + 1) == ':' {
            out.push((Token::PathSep, start_line));
            i += 2;
        } else {
            out.push((Token::Punct(c), start_line));
            i += 1;
        }
    }
    out
}

/// Whether `#…#"` starts at `i` (a raw string after its `r`).
fn raw_string_ahead(chars: &[char], mut i: usize) -> bool {
    while chars.get(i) == Some(&'#') {
        i += 1;
    }
    chars.get(i) == Some(&'"')
}

/// The text of a string literal whose opening quote is just before `i`, and
/// the index after its closing quote.
fn quoted(chars: &[char], mut i: usize, line: &mut usize) -> (String, usize) {
    let begin = i;
    while i < chars.len() {
        match chars[i] {
            '\\' => {
                if chars.get(i + 1) == Some(&'\n') {
                    *line += 1;
                }
                i += 2;
            }
            '"' => break,
            c => {
                if c == '\n' {
                    *line += 1;
                }
                i += 1;
            }
        }
    }
    let text = chars[begin..i.min(chars.len())].iter().collect();
    (text, i + 1)
}
