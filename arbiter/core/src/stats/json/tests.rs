//! The JSON report against an event computed by hand.

use super::*;
use crate::records::log::Termination;
use crate::testing::rules_log;
use mancala_rules::GameResult::{self, *};

fn game(
    south: &str,
    north: &str,
    result: Option<GameResult>,
    termination: Termination,
    slot: usize,
) -> GameLog {
    let mut g = rules_log();
    g.south = south.into();
    g.north = north.into();
    g.result = result;
    g.termination = termination;
    g.tags.insert("Schedule".into(), "s".into());
    g.tags.insert("Slot".into(), format!("{slot}/6"));
    g.tags.insert("Pair".into(), (slot / 2).to_string());
    g
}

fn rules() -> Termination {
    Termination::Rules {
        detail: "board empty".into(),
    }
}

/// Pair 0: A beats B (rules), then draws (ply limit). Pair 1: A loses on
/// time, then wins (rules). Then one interrupted game. Given in a shuffled
/// order: the report must not depend on it.
fn event() -> Vec<GameLog> {
    vec![
        game("B", "A", Some(NorthWins), rules(), 3),
        game("A", "B", Some(SouthWins), rules(), 0),
        game(
            "A",
            "B",
            Some(NorthWins),
            Termination::TimeForfeit {
                side: Side::South,
                detail: "flag".into(),
            },
            2,
        ),
        game(
            "B",
            "A",
            Some(Draw),
            Termination::Adjudication {
                detail: "ply limit".into(),
            },
            1,
        ),
        game(
            "A",
            "B",
            None,
            Termination::Interrupted {
                detail: "stopped".into(),
            },
            4,
        ),
    ]
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-3
}

#[test]
fn hand_computed_two_engine_event() {
    let names = ["A".to_owned(), "B".to_owned()];
    let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
    assert_hand_computed(&report(&names, &event(), Some(&sprt)));
}

/// What `arbiter match --standings-json` does: the games counted one by
/// one as they finish, the report rebuilt from the counts after each.
#[test]
fn games_counted_one_by_one_give_the_hand_computed_report() {
    let names = ["A".to_owned(), "B".to_owned()];
    let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
    let games = event();
    let mut running = Running::new(&names);
    for (n, g) in games.iter().enumerate() {
        running.add(g);
        assert_eq!(
            running.report(Some(&sprt)),
            report(&names, &games[..=n], Some(&sprt)),
            "after {} games",
            n + 1
        );
    }
    assert_hand_computed(&running.report(Some(&sprt)));
}

/// The report of [`event`] with the SPRT elo0 0, elo1 10, α = β = 0.05.
fn assert_hand_computed(r: &Report) {
    assert_eq!((r.format, r.games, r.interrupted), (1, 4, 1));
    let a = &r.standings[0];
    let b = &r.standings[1];
    assert_eq!((a.rank, a.name.as_str(), b.name.as_str()), (1, "A", "B"));
    // A: W2 D1 L1 = 2.5 of 4.
    assert_eq!((a.games, a.wins, a.draws, a.losses), (4, 2, 1, 1));
    assert_eq!((a.points, a.score), (2.5, Some(0.625)));
    assert_eq!((b.points, b.score), (1.5, Some(0.375)));
    // Sonneborn-Berger: 2.5 points scored × B's 1.5 = 3.75, and vice versa.
    assert!(close(a.sonneborn_berger, 3.75) && close(b.sonneborn_berger, 3.75));
    // Field Elo with one virtual draw: A scores 3 of 5 = 0.6; the two
    // ratings are ±400·log10(0.6/0.4)/2 = ±35.22.
    assert!(close(a.elo, 35.218), "{}", a.elo);
    assert!(close(b.elo, -35.218), "{}", b.elo);
    assert!(a.elo_margin.is_some_and(|m| m > 0.0));
    assert!(a.los_next.is_some_and(|l| l > 0.5 && l < 1.0));
    assert_eq!(b.los_next, None);
    let counts = |pairs: &[(&str, u32)]| -> BTreeMap<String, u32> {
        pairs.iter().map(|&(k, n)| (k.to_owned(), n)).collect()
    };
    assert_eq!(a.verdicts.won, counts(&[("rules", 2)]));
    assert_eq!(a.verdicts.drawn, counts(&[("adjudication", 1)]));
    assert_eq!(a.verdicts.lost, counts(&[("time_forfeit", 1)]));
    assert_eq!(b.verdicts.won, counts(&[("time_forfeit", 1)]));
    assert_eq!(b.verdicts.lost, counts(&[("rules", 2)]));
    assert_eq!(
        a.crosstable["B"],
        Cell {
            points: 2.5,
            games: 4
        }
    );
    assert_eq!(
        b.crosstable["A"],
        Cell {
            points: 1.5,
            games: 4
        }
    );
    assert_eq!(
        r.terminations,
        counts(&[("rules", 2), ("adjudication", 1), ("time_forfeit", 1)])
    );

    let m = r.head_to_head.as_ref().unwrap();
    assert_eq!((m.wins, m.draws, m.losses), (2, 1, 1));
    assert_eq!((m.score, m.draw_ratio), (Some(0.625), Some(0.25)));
    // Pairs from A's side: 1 + ½ = 1½ and 0 + 1 = 1.
    assert_eq!(m.pentanomial, [0, 0, 1, 1, 0]);
    // LOS = Φ((2 − 1)/√3) = Φ(0.577) = 0.718.
    assert!(m.los.is_some_and(|l| close(l, 0.7181)), "{:?}", m.los);
    // Mean 0.625, standard error √(0.171875/4) = 0.2073: the upper end of
    // the interval passes a score of 1, so the trinomial Elo has no
    // finite interval and is null rather than a made-up number.
    assert_eq!(m.elo, None);
    let s = m.sprt.unwrap();
    assert_eq!((s.elo0, s.elo1, s.state), (0.0, 10.0, "continue"));
    assert!(close(s.upper_bound, (0.95f64 / 0.05).ln()));

    // The text is JSON with the documented field names.
    let v: serde_json::Value = serde_json::from_str(&to_text(r)).unwrap();
    assert_eq!(v["standings"][0]["name"], "A");
    assert_eq!(v["standings"][0]["verdicts"]["lost"]["time_forfeit"], 1);
    assert_eq!(v["match"]["pentanomial"][3], 1);
    assert!(v["match"]["elo"].is_null());
}

#[test]
fn shuffled_games_give_the_same_report() {
    let names = ["A".to_owned(), "B".to_owned()];
    let mut games = event();
    let first = report(&names, &games, None);
    games.reverse();
    assert_eq!(report(&names, &games, None), first);
    assert!(first.head_to_head.unwrap().sprt.is_none());
}

#[test]
fn three_engines_have_no_match_section() {
    let names = ["A".to_owned(), "B".to_owned(), "C".to_owned()];
    let r = report(&names, &event(), None);
    assert!(r.head_to_head.is_none());
    let c = r.standings.iter().find(|e| e.name == "C").unwrap();
    assert_eq!((c.games, c.score), (0, None));
    assert!(c.crosstable.is_empty());
}

#[test]
fn written_atomically() {
    let dir = std::env::temp_dir().join(format!("arbiter-json-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("standings.json");
    let names = ["A".to_owned(), "B".to_owned()];
    write_atomically(&path, &report(&names, &event()[..2], None)).unwrap();
    write_atomically(&path, &report(&names, &event(), None)).unwrap();
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(v["games"], 4);
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(left.len(), 1, "no temporary file is left behind");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_even_score_is_elo_zero_without_a_sign() {
    let even = crate::stats::Wdl::new(1, 0, 1).elo().expect("games");
    assert!(even.elo.is_sign_negative(), "the formula gives -0 here");
    let json = serde_json::to_string(&Elo::of(crate::stats::EloEstimate {
        upper: 10.0,
        lower: -10.0,
        ..even
    }))
    .expect("serialises");
    assert!(json.starts_with(r#"{"elo":0.0,"#), "{json}");
}
