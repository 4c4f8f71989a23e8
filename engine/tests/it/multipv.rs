//! The `MultiPV` option of the `engine` binary, driven over pipes: the k best
//! root lines per depth, as UCI GUIs expect them.

use crate::common;

use std::collections::{BTreeMap, HashSet};
use std::time::Duration;

use common::{best_of, Engine};
use mancala_rules::game_from_position;
use umi::{Info, Message, ScoreValue};

/// The `info` lines (with a depth) and the `bestmove` line of a search.
fn search(e: &mut Engine, go: &str) -> (Vec<Info>, String) {
    e.send(go);
    let lines = e.until(Duration::from_secs(120), |l| l.starts_with("bestmove"));
    let infos = lines
        .iter()
        .filter_map(|l| match l.parse::<Message>() {
            Ok(Message::Info(info)) if info.depth.is_some() => Some(info),
            _ => None,
        })
        .collect();
    (infos, lines.last().cloned().unwrap_or_default())
}

fn engine_with(options: &[&str], position: &str) -> Engine {
    let mut e = Engine::start();
    e.handshake();
    for o in options {
        e.send(o);
    }
    e.send(&format!("position pos {position}"));
    e
}

/// A total order on scores: wins (sooner first) above centi-seeds above
/// losses (later first).
fn rank(info: &Info) -> (i32, i64) {
    match info.score.expect("every line has a score").value {
        ScoreValue::Mate(n) if n > 0 => (2, -i64::from(n)),
        ScoreValue::Mate(n) => (0, -i64::from(n)),
        ScoreValue::Cp(cp) => (1, i64::from(cp)),
    }
}

/// The lines of each depth, in the order they came.
fn by_depth(infos: &[Info]) -> BTreeMap<u32, Vec<&Info>> {
    let mut depths: BTreeMap<u32, Vec<&Info>> = BTreeMap::new();
    for info in infos {
        depths
            .entry(info.depth.unwrap_or(0))
            .or_default()
            .push(info);
    }
    depths
}

/// Checks the MultiPV lines of a search: per depth exactly `lines` lines
/// numbered 1.., distinct legal first moves, best first; multipv 1 of the
/// last depth is the bestmove.
fn check_lines(position: &str, multipv: u32, go: &str, lines: usize) {
    let mut e = engine_with(
        &[&format!("setoption name MultiPV value {multipv}")],
        position,
    );
    let (infos, bestmove) = search(&mut e, go);
    let legal: HashSet<String> = game_from_position(position)
        .unwrap()
        .legal_moves()
        .into_iter()
        .collect();
    let depths = by_depth(&infos);
    assert!(!depths.is_empty(), "no info lines");
    for (depth, group) in &depths {
        let numbers: Vec<u32> = group.iter().filter_map(|i| i.multipv).collect();
        assert_eq!(
            numbers,
            (1..=lines as u32).collect::<Vec<_>>(),
            "depth {depth}: {group:?}"
        );
        let firsts: HashSet<String> = group.iter().map(|i| i.pv[0].to_string()).collect();
        assert_eq!(firsts.len(), lines, "depth {depth}: repeated first move");
        assert!(firsts.is_subset(&legal), "depth {depth}: {firsts:?}");
        for pair in group.windows(2) {
            assert!(
                rank(pair[0]) >= rank(pair[1]),
                "depth {depth}: not best first: {group:?}"
            );
        }
    }
    let last = depths.values().last().unwrap();
    assert_eq!(last[0].pv[0].to_string(), best_of(&bestmove), "{bestmove}");
    assert!(e.quit().success());
}

#[test]
fn multipv_3_reports_the_three_best_first_moves_per_depth() {
    check_lines(
        "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0",
        3,
        "go depth 6",
        3,
    );
    // A middle game with captures, and a Kujifunza position with choices.
    check_lines(
        "bohnenspiel 6,5,5,4,1,3,1,3,5,5,5,5 S 12/12",
        3,
        "go depth 7",
        3,
    );
    check_lines(
        "kujifunza 0,0,0,0,0,0,0,0,0,0,2,0,1,1,0,0,7,7,7,7,6,6,6,6,0,0,4,3,0,1,0,0 S",
        3,
        "go depth 5",
        3,
    );
}

#[test]
fn multipv_above_the_legal_moves_reports_every_move() {
    // Bosh opens with 5 legal moves; Kimasai's second move has 2.
    check_lines("bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 1", 32, "go depth 5", 5);
    check_lines(
        "kimasai 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,0,1,\
         1,1,1,1,1,1,1,1,1,1,1,0,0,1,1,1,1,1,1,1,1,1,1,0 N",
        10,
        "go depth 6",
        2,
    );
}

#[test]
fn multipv_1_output_is_the_plain_one_line_output() {
    let position = "bohnenspiel 6,5,5,4,1,3,1,3,5,5,5,5 S 12/12";
    // What a search prints, without the fields that depend on the clock.
    let run = |options: &[&str]| {
        let mut e = engine_with(options, position);
        let (infos, bestmove) = search(&mut e, "go depth 7");
        let infos: Vec<Info> = infos
            .into_iter()
            .map(|i| Info {
                nps: None,
                time: None,
                ..i
            })
            .collect();
        (infos, bestmove)
    };
    let default = run(&[]);
    assert_eq!(default.0.len(), 7, "one line per depth: {:?}", default.0);
    assert!(default.0.iter().all(|i| i.multipv.is_none()));
    assert_eq!(run(&["setoption name MultiPV value 1"]), default);
    // With several lines, line 1 is the same search result at every depth.
    let three = run(&["setoption name MultiPV value 3"]);
    let firsts: Vec<&Info> = three.0.iter().filter(|i| i.multipv == Some(1)).collect();
    assert_eq!(firsts.len(), default.0.len());
    for (one, first) in default.0.iter().zip(firsts) {
        assert_eq!(
            (one.depth, one.score, &one.pv[0]),
            (first.depth, first.score, &first.pv[0])
        );
    }
    assert_eq!(best_of(&three.1), best_of(&default.1));
}

#[test]
fn multipv_out_of_range_is_refused_by_name() {
    let mut e = Engine::start();
    e.handshake();
    for (value, why) in [
        ("0", "outside 1..32"),
        ("33", "outside 1..32"),
        ("many", "not an integer"),
    ] {
        e.send(&format!("setoption name MultiPV value {value}"));
        let line = e.next_line(common::PROMPT).unwrap();
        assert!(
            line.starts_with("info string error: option MultiPV") && line.contains(why),
            "{value}: {line}"
        );
    }
    assert!(e.is_alive());
}

/// Every reported line (the best and the MultiPV alternatives) runs as deep
/// as its iteration, legal move by move, even with a 1 MiB table whose
/// entries are replaced many times over (a line read back from the table
/// broke off after one move once it filled).
#[test]
fn every_line_is_as_long_as_its_depth_with_a_small_table() {
    let cases = [
        ("bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0", 11),
        (
            "kujifunza 2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2 S",
            2,
        ),
    ];
    for (position, depth) in cases {
        let mut e = engine_with(
            &[
                "setoption name Hash value 1",
                "setoption name MultiPV value 2",
            ],
            position,
        );
        let (infos, best) = search(&mut e, &format!("go depth {depth}"));
        assert!(best.starts_with("bestmove "), "{best}");
        assert!(
            infos.len() >= 2 * depth,
            "{position}: {} lines",
            infos.len()
        );
        for info in &infos {
            let d = info.depth.expect("a depth") as usize;
            let mut game = game_from_position(position).expect("a position");
            for mv in &info.pv {
                game.play(mv.as_str())
                    .unwrap_or_else(|e| panic!("{position}: pv {:?}: {e}", info.pv));
            }
            assert!(
                info.pv.len() == d || game.outcome().is_some(),
                "{position}: depth {d} but a pv of {} moves that does not end the game: {:?}",
                info.pv.len(),
                info.pv
            );
        }
    }
}
