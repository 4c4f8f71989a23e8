//! The log's filter (`RUST_LOG`). The arbiter's rooms live in library
//! crates (`arbiter_core::play`, `arbiter_net::remote`, …), so an event's
//! target is that path; a filter written for the rooms as the arbiter
//! names them (`arbiter::remote=debug`, `arbiter=debug`, as docs/arbiter.md
//! used to) is read as the same rooms in their crates, so that it still acts.

/// The crate each room of `arbiter::<room>` is in, with its path there.
const ROOMS: &[(&str, &str)] = &[
    ("arbiter::engine", "arbiter_core::contender"),
    ("arbiter::play", "arbiter_core::play"),
    ("arbiter::event", "arbiter_core::event"),
    ("arbiter::records", "arbiter_core::records"),
    ("arbiter::stats", "arbiter_core::stats"),
    ("arbiter::shutdown", "arbiter_core::shutdown"),
    ("arbiter::values", "arbiter_core::values"),
    ("arbiter::front", "arbiter_net::front"),
    ("arbiter::remote", "arbiter_net::remote"),
    ("arbiter::web", "arbiter_board"),
    ("arbiter::arena", "arbiter_arena"),
];

/// The arbiter's library crates (what `arbiter=LEVEL` covers besides the
/// binary's own `arbiter::cli`).
const CRATES: &[&str] = &[
    "arbiter_core",
    "arbiter_net",
    "arbiter_board",
    "arbiter_arena",
];

/// `spec` (a `RUST_LOG` value) with each directive on a room of the
/// arbiter's written for the crate it is in; others as they are.
pub fn filter(spec: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    for directive in spec.split(',') {
        // why: a directive is `target[span{fields}]=level`; only the target moves.
        let cut = directive.find(['[', '=']).unwrap_or(directive.len());
        let (target, rest) = directive.split_at(cut);
        let target = target.trim();
        if target == "arbiter" {
            out.push(directive.to_owned());
            out.extend(CRATES.iter().map(|c| format!("{c}{rest}")));
            continue;
        }
        let moved = ROOMS.iter().find_map(|(old, new)| {
            let tail = target.strip_prefix(old)?;
            (tail.is_empty() || tail.starts_with("::")).then(|| format!("{new}{tail}{rest}"))
        });
        out.push(moved.unwrap_or_else(|| directive.to_owned()));
    }
    out.join(",")
}

#[cfg(test)]
mod tests {
    use super::filter;

    #[test]
    fn a_room_of_the_arbiter_is_read_in_its_crate() {
        assert_eq!(filter("arbiter::remote=debug"), "arbiter_net::remote=debug");
        assert_eq!(
            filter("warn,arbiter::play::runner=trace"),
            "warn,arbiter_core::play::runner=trace"
        );
        assert_eq!(
            filter("arbiter::web::live=info"),
            "arbiter_board::live=info"
        );
        assert_eq!(filter("arbiter::arena"), "arbiter_arena");
        assert_eq!(
            filter("arbiter::remote[connection{bot=alice}]=debug"),
            "arbiter_net::remote[connection{bot=alice}]=debug"
        );
    }

    #[test]
    fn the_whole_arbiter_is_every_crate_of_it() {
        assert_eq!(
            filter("arbiter=debug"),
            "arbiter=debug,arbiter_core=debug,arbiter_net=debug,arbiter_board=debug,arbiter_arena=debug"
        );
    }

    #[test]
    fn other_directives_are_left_as_they_are() {
        for spec in [
            "info",
            "warn,hyper=off",
            "arbiter::cli=debug",
            "arbiter_core::play=debug",
            "arbiter::remoteish=debug",
            "",
        ] {
            assert_eq!(filter(spec), spec);
        }
    }
}
