//! The engine's UMI options, their declarations and `setoption` handling.

use umi::{OptionDecl, OptionKind, OptionName, SetOption, Text};

use crate::search::{Weakness, MAX_MULTIPV};

pub const MAX_LEVEL: i64 = 20;

/// The option values in force.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub hash_mib: usize,
    pub move_overhead_ms: u64,
    pub level: u32,
    pub random_seed: u64,
    pub ponder: bool,
    /// Root lines reported per iteration (UCI `MultiPV`).
    pub multipv: u32,
    /// A Bohnenspiel endgame database directory ("" = none), as UCI engines
    /// take `SyzygyPath`.
    pub tablebase_path: String,
    /// `Solve`: in Kalah, `go` searches until the exact value is known,
    /// whatever its limits.
    pub solve: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mib: 16,
            move_overhead_ms: 30,
            level: MAX_LEVEL as u32,
            random_seed: 0,
            ponder: false,
            multipv: 1,
            tablebase_path: String::new(),
            solve: false,
        }
    }
}

/// What a successful `setoption` changed that needs action beyond the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Changed {
    Hash,
    /// `TablebasePath`: open (or drop) the database.
    Tablebase,
    Other,
}

fn spin(name: &str, default: i64, min: i64, max: i64) -> Option<OptionDecl> {
    OptionDecl::new(
        OptionName::new(name).ok()?,
        OptionKind::Spin { default, min, max },
    )
    .ok()
}

/// The value of a `check` option: `true` or `false`.
fn check(name: &str, value: Option<&str>) -> Result<bool, String> {
    match value {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        Some(other) => Err(format!(
            "option {name}: expected true or false, found \"{other}\""
        )),
        None => Err(format!("option {name}: expected value true or false")),
    }
}

impl Options {
    /// The `option` lines of the handshake, in the order the spec lists them.
    pub fn declarations() -> Vec<OptionDecl> {
        let d = Options::default();
        [
            spin("Hash", d.hash_mib as i64, 1, 4096),
            spin("Move Overhead", d.move_overhead_ms as i64, 0, 5000),
            spin("Level", MAX_LEVEL, 1, MAX_LEVEL),
            spin("RandomSeed", 0, 0, 2_147_483_647),
            OptionName::new("Ponder")
                .ok()
                .and_then(|n| OptionDecl::new(n, OptionKind::Check { default: false }).ok()),
            spin("MultiPV", 1, 1, i64::from(MAX_MULTIPV)),
            OptionName::new("TablebasePath").ok().and_then(|n| {
                let default = Text::new("<empty>").ok()?;
                OptionDecl::new(n, OptionKind::String { default }).ok()
            }),
            OptionName::new("Solve")
                .ok()
                .and_then(|n| OptionDecl::new(n, OptionKind::Check { default: false }).ok()),
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    /// Applies a `setoption`; the error names what was wrong.
    pub fn set(&mut self, cmd: &SetOption) -> Result<Changed, String> {
        let value = cmd.value.as_ref().map(|v| v.option_str().to_string());
        let name = &cmd.name;
        let int = |min: i64, max: i64| -> Result<i64, String> {
            let v = value
                .as_deref()
                .ok_or_else(|| format!("option {} needs a value", name.as_str()))?;
            let n: i64 = v
                .parse()
                .map_err(|_| format!("option {}: {v:?} is not an integer", name.as_str()))?;
            if (min..=max).contains(&n) {
                Ok(n)
            } else {
                Err(format!(
                    "option {}: {n} is outside {min}..{max}",
                    name.as_str()
                ))
            }
        };
        if name.matches("TablebasePath") {
            self.tablebase_path = value.unwrap_or_default();
            return Ok(Changed::Tablebase);
        }
        if name.matches("Hash") {
            self.hash_mib = int(1, 4096)? as usize;
            Ok(Changed::Hash)
        } else if name.matches("Move Overhead") {
            self.move_overhead_ms = int(0, 5000)? as u64;
            Ok(Changed::Other)
        } else if name.matches("Level") {
            self.level = int(1, MAX_LEVEL)? as u32;
            Ok(Changed::Other)
        } else if name.matches("RandomSeed") {
            self.random_seed = int(0, 2_147_483_647)? as u64;
            Ok(Changed::Other)
        } else if name.matches("MultiPV") {
            self.multipv = int(1, i64::from(MAX_MULTIPV))? as u32;
            Ok(Changed::Other)
        } else if name.matches("Ponder") {
            self.ponder = check("Ponder", value.as_deref())?;
            Ok(Changed::Other)
        } else if name.matches("Solve") {
            self.solve = check("Solve", value.as_deref())?;
            Ok(Changed::Other)
        } else {
            Err(format!("unknown option {:?}", name.as_str()))
        }
    }

    /// The weakening for the current level (`None` at full strength): level
    /// `L` searches at most `1 + (L-1)/2` plies and adds up to `(20-L)·20`
    /// centi-seeds of seeded noise to each root move's score.
    pub fn weakness(&self) -> Option<Weakness> {
        let level = self.level.clamp(1, MAX_LEVEL as u32);
        (level < MAX_LEVEL as u32).then(|| Weakness {
            max_depth: 1 + (level - 1) / 2,
            noise: (MAX_LEVEL as i32 - level as i32) * 20,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(o: &mut Options, line: &str) -> Result<Changed, String> {
        match line.parse::<umi::Command>() {
            Ok(umi::Command::SetOption(s)) => o.set(&s),
            other => panic!("not a setoption: {other:?}"),
        }
    }

    #[test]
    fn declarations_match_the_spec() {
        let lines: Vec<String> = Options::declarations()
            .iter()
            .map(|d| umi::Message::Option(d.clone()).to_string())
            .collect();
        assert_eq!(
            lines,
            [
                "option name Hash type spin default 16 min 1 max 4096",
                "option name Move Overhead type spin default 30 min 0 max 5000",
                "option name Level type spin default 20 min 1 max 20",
                "option name RandomSeed type spin default 0 min 0 max 2147483647",
                "option name Ponder type check default false",
                "option name MultiPV type spin default 1 min 1 max 32",
                "option name TablebasePath type string default <empty>",
                "option name Solve type check default false",
            ]
        );
    }

    #[test]
    fn setoption_values_and_errors() {
        let mut o = Options::default();
        assert_eq!(
            set(&mut o, "setoption name hash value 64"),
            Ok(Changed::Hash)
        );
        assert_eq!(o.hash_mib, 64);
        assert_eq!(
            set(&mut o, "setoption name Move Overhead value 5"),
            Ok(Changed::Other)
        );
        assert_eq!(o.move_overhead_ms, 5);
        assert!(set(&mut o, "setoption name Level value 0")
            .unwrap_err()
            .contains("outside"));
        assert!(set(&mut o, "setoption name Level value x")
            .unwrap_err()
            .contains("not an integer"));
        assert!(set(&mut o, "setoption name Level")
            .unwrap_err()
            .contains("needs a value"));
        assert!(set(&mut o, "setoption name Colour value red")
            .unwrap_err()
            .contains("unknown option"));
        assert!(set(&mut o, "setoption name Ponder value maybe").is_err());
        assert_eq!(
            set(&mut o, "setoption name solve value true"),
            Ok(Changed::Other)
        );
        assert!(o.solve);
        assert!(set(&mut o, "setoption name Solve value yes")
            .unwrap_err()
            .contains("option Solve: expected true or false"));
        assert!(o.solve);
        assert_eq!(
            set(&mut o, "setoption name multipv value 3"),
            Ok(Changed::Other)
        );
        assert_eq!(o.multipv, 3);
        assert!(set(&mut o, "setoption name MultiPV value 33")
            .unwrap_err()
            .contains("outside 1..32"));
        assert!(set(&mut o, "setoption name MultiPV value 0").is_err());
        assert_eq!(o.level, 20);
    }

    #[test]
    fn levels_weaken_monotonically() {
        let mut o = Options::default();
        assert!(o.weakness().is_none());
        let mut last = None;
        for level in 1..20 {
            o.level = level;
            let w = o.weakness().unwrap();
            if let Some((d, n)) = last {
                assert!(w.max_depth >= d && w.noise < n);
            }
            last = Some((w.max_depth, w.noise));
        }
    }
}
