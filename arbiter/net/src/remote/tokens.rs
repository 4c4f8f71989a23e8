//! The secrets remote engines prove who they are with: one token per remote
//! engine, from `--remote-tokens FILE` (JSON `{"alice": "<token>", …}`) or
//! generated at start. Tokens are compared in constant time (`subtle`), so
//! the time a refusal takes says nothing about how much of a guess was right.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use subtle::ConstantTimeEq;

/// Shortest token accepted from a file: a guessable token is no lock.
pub const MIN_TOKEN_LEN: usize = 16;

/// The token of an `Authorization` header's value in the `Bearer` scheme
/// (RFC 6750), whatever the scheme's case (RFC 7235: the scheme is
/// case-insensitive; `bearer`, `BEARER` are `Bearer`); `None` for another
/// scheme or no token. Every place a bearer token is read goes through here.
pub fn bearer(value: &str) -> Option<&str> {
    let value = value.trim_start();
    let (scheme, token) = value.split_once([' ', '\t'])?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// Why a tokens file is refused.
#[derive(Debug, thiserror::Error)]
pub enum TokensError {
    #[error("expected a JSON object of id: token ({0})")]
    NotAnObject(#[source] serde_json::Error),
    /// The token of this id is too short or has spaces.
    #[error(
        "the token of {0:?} must be at least {min} characters, without spaces",
        min = MIN_TOKEN_LEN
    )]
    Weak(String),
    /// These remote engines have no token.
    #[error("no token for remote engine(s) {}", .0.join(", "))]
    Missing(Vec<String>),
    #[error("--remote-tokens {}: {source}", .path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The file's text is refused (`source` says why).
    #[error("--remote-tokens {}: {source}", .path.display())]
    File {
        path: PathBuf,
        source: Box<TokensError>,
    },
}

/// Remote ids (`remote=alice`) and their tokens.
#[derive(Clone, Default)]
pub struct Tokens {
    by_id: BTreeMap<String, String>,
}

impl std::fmt::Debug for Tokens {
    // why by hand: a token must never reach a log through `{:?}`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tokens")
            .field("ids", &self.by_id.keys().collect::<Vec<_>>())
            .finish()
    }
}

impl Tokens {
    /// Reads a tokens file; every id in `needed` must have a token.
    pub fn load(path: &Path, needed: &[String]) -> Result<Tokens, TokensError> {
        let text = std::fs::read_to_string(path).map_err(|source| TokensError::Read {
            path: path.to_owned(),
            source,
        })?;
        Tokens::parse(&text, needed).map_err(|e| TokensError::File {
            path: path.to_owned(),
            source: Box::new(e),
        })
    }

    /// Parses tokens-file text (see [`Tokens::load`]).
    pub fn parse(text: &str, needed: &[String]) -> Result<Tokens, TokensError> {
        let by_id: BTreeMap<String, String> =
            serde_json::from_str(text).map_err(TokensError::NotAnObject)?;
        for (id, token) in &by_id {
            if token.len() < MIN_TOKEN_LEN || token.contains(char::is_whitespace) {
                return Err(TokensError::Weak(id.clone()));
            }
        }
        let missing: Vec<String> = needed
            .iter()
            .filter(|id| !by_id.contains_key(*id))
            .cloned()
            .collect();
        if !missing.is_empty() {
            return Err(TokensError::Missing(missing));
        }
        Ok(Tokens { by_id })
    }

    /// A fresh random token (192 bits from the thread's CSPRNG, hex) for
    /// each id.
    pub fn generate(ids: &[String]) -> Tokens {
        use rand::Rng;
        let mut rng = rand::rng();
        let by_id = ids
            .iter()
            .map(|id| {
                let bytes: [u8; 24] = rng.random();
                let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
                (id.clone(), hex)
            })
            .collect();
        Tokens { by_id }
    }

    /// A token for `id` given in code (tests, the caller's own scheme).
    pub fn insert(&mut self, id: impl Into<String>, token: impl Into<String>) {
        self.by_id.insert(id.into(), token.into());
    }

    /// The id whose token `presented` is. Every token is compared, each in
    /// constant time, so the answer's timing depends on neither which id
    /// matched nor how much of the token did.
    pub fn identify(&self, presented: &str) -> Option<&str> {
        let mut found = None;
        for (id, token) in &self.by_id {
            if bool::from(token.as_bytes().ct_eq(presented.as_bytes())) {
                found = Some(id.as_str());
            }
        }
        found
    }

    /// Every id and its token (to print generated ones once).
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.by_id.iter().map(|(i, t)| (i.as_str(), t.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifies_by_token_and_checks_the_file() {
        let needed = vec!["alice".to_owned()];
        let t = Tokens::parse(
            r#"{"alice": "0123456789abcdef0123", "bob": "fedcba9876543210xx"}"#,
            &needed,
        )
        .unwrap();
        assert_eq!(t.identify("0123456789abcdef0123"), Some("alice"));
        assert_eq!(t.identify("fedcba9876543210xx"), Some("bob"));
        assert_eq!(t.identify("0123456789abcdef012"), None);
        assert_eq!(t.identify(""), None);
        assert!(!format!("{t:?}").contains("0123"), "tokens never in Debug");
        let e = Tokens::parse(r#"{"bob": "fedcba9876543210xx"}"#, &needed)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("no token for remote engine(s) alice"), "{e}");
        let e = Tokens::parse(r#"{"alice": "short"}"#, &needed)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("at least 16 characters"), "{e}");
        assert!(Tokens::parse("[1]", &needed).is_err());
    }

    #[test]
    fn the_bearer_scheme_is_read_in_any_case() {
        for value in [
            "Bearer 0123456789abcdef",
            "bearer 0123456789abcdef",
            "BEARER  0123456789abcdef ",
            "bEaReR\t0123456789abcdef",
        ] {
            assert_eq!(bearer(value), Some("0123456789abcdef"), "{value:?}");
        }
        for value in [
            "Basic 0123456789abcdef",
            "Bearer",
            "Bearer   ",
            "Bearer0123",
            "",
        ] {
            assert_eq!(bearer(value), None, "{value:?}");
        }
    }

    #[test]
    fn generated_tokens_differ() {
        let ids = vec!["a".to_owned(), "b".to_owned()];
        let t = Tokens::generate(&ids);
        let all: Vec<_> = t.iter().map(|(_, tok)| tok.to_owned()).collect();
        assert_eq!(all.len(), 2);
        assert_ne!(all[0], all[1]);
        assert!(all.iter().all(|tok| tok.len() == 48));
        assert_eq!(t.identify(&all[1]), Some("b"));
    }
}
