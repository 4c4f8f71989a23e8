//! Adjudication verdicts on constructed games.

use super::*;
use mancala_rules::{game_from_position, new_game, GameId};

fn toks(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_owned).collect()
}

fn rules(resign: &str, draw: &str, decided: bool) -> Rules {
    Rules::parse(&toks(resign), &toks(draw), decided).unwrap()
}

/// Plays `moves` from the Bohnenspiel start with the given scores (one per
/// move, `None` for a move without a score) and returns the first verdict
/// with the ply it came at.
fn run(rules: Rules, scores: &[Option<Score>]) -> Option<(usize, Verdict)> {
    let mut game = new_game(GameId::Bohnenspiel);
    let mut adj = Adjudicator::new(rules);
    for (i, score) in scores.iter().enumerate() {
        let mover = game.side_to_move();
        let mv = game.legal_moves()[0].clone();
        game.play(&mv).unwrap();
        if let Some(v) = adj.after_move(mover, *score, game.as_ref(), i + 1) {
            return Some((i + 1, v));
        }
    }
    None
}

const CP: fn(i32) -> Option<Score> = |cp| Some(Score::Cp(cp));

#[test]
fn parsing() {
    let r = rules(
        "movecount=3 score=600 twosided=true",
        "movenumber=40 movecount=8 score=10",
        true,
    );
    assert_eq!(
        r.resign,
        Some(ResignRule {
            movecount: 3,
            score: 600,
            twosided: true
        })
    );
    assert_eq!(
        r.draw,
        Some(DrawRule {
            movenumber: 40,
            movecount: 8,
            score: 10
        })
    );
    assert!(r.decided && !r.is_off());
    assert!(rules("", "", false).is_off());
    let err = |resign: &str, draw: &str| {
        Rules::parse(&toks(resign), &toks(draw), false)
            .unwrap_err()
            .0
    };
    assert_eq!(err("score=5", ""), "--resign: movecount= is required");
    assert!(err("movecount=0 score=5", "").contains("must be at least 1"));
    assert!(err("movecount=3 score=x", "").contains("not a whole number"));
    assert!(err("movecount=3 score=5 twosided=yes", "").contains("true or false"));
    assert!(err("movecount=3 score=5 depth=2", "").contains("unknown key \"depth\""));
    assert!(err("", "movecount=3").contains("movenumber= is required"));
    assert!(err("", "movenumber").contains("expected key=value"));
}

#[test]
fn resign_after_movecount_bad_scores_of_one_engine() {
    // South reports -700 on each of its moves, North +0: South's third
    // losing move (ply 5) ends it.
    let scores: Vec<_> = (0..20)
        .map(|i| if i % 2 == 0 { CP(-700) } else { CP(0) })
        .collect();
    let (ply, v) = run(rules("movecount=3 score=600", "", false), &scores).unwrap();
    assert_eq!(ply, 5);
    assert_eq!(v.result, GameResult::NorthWins);
    assert_eq!(v.termination.kind(), "resign_adjudication");
    assert!(v
        .termination
        .detail()
        .starts_with("South scored -600 or worse on 3 moves"));
    // Two-sided: North must agree (+600 or better) on its last 3 moves too.
    assert_eq!(
        run(
            rules("movecount=3 score=600 twosided=true", "", false),
            &scores
        ),
        None
    );
    let agreed: Vec<_> = (0..20)
        .map(|i| if i % 2 == 0 { CP(-700) } else { CP(650) })
        .collect();
    let (ply, v) = run(
        rules("movecount=3 score=600 twosided=true", "", false),
        &agreed,
    )
    .unwrap();
    // North's third +650 is ply 6.
    assert_eq!((ply, v.result), (6, GameResult::NorthWins));
}

#[test]
fn a_mate_against_counts_and_a_gap_resets_the_count() {
    let mated = [CP(0), Some(Score::Mate(-3)), CP(0), Some(Score::Mate(-2))];
    let (ply, v) = run(rules("movecount=2 score=900", "", false), &mated).unwrap();
    assert_eq!((ply, v.result), (4, GameResult::SouthWins));
    // South: -900, (no score), -900, -900 on its moves: the gap restarts it.
    let gap = [
        CP(-900),
        CP(0),
        None,
        CP(0),
        CP(-900),
        CP(0),
        CP(-900),
        CP(0),
    ];
    let (ply, _) = run(rules("movecount=2 score=900", "", false), &gap).unwrap();
    assert_eq!(ply, 7);
    let short = [CP(-900), CP(0), None, CP(0), CP(-900), CP(0)];
    assert_eq!(run(rules("movecount=2 score=900", "", false), &short), None);
}

#[test]
fn draw_needs_both_scores_level_and_enough_moves() {
    // Level from the start; movecount 2 → 4 plies, movenumber 3 → ply 6.
    let level = vec![CP(5); 30];
    let (ply, v) = run(
        rules("", "movenumber=3 movecount=2 score=10", false),
        &level,
    )
    .unwrap();
    assert_eq!((ply, v.result), (6, GameResult::Draw));
    assert_eq!(v.termination.kind(), "draw_adjudication");
    // movenumber 0: 4 level plies are enough.
    let (ply, _) = run(
        rules("", "movenumber=0 movecount=2 score=10", false),
        &level,
    )
    .unwrap();
    assert_eq!(ply, 4);
    // One engine outside the band (or a mate score) breaks the run.
    let mut broken = vec![CP(5); 30];
    broken[2] = CP(-11);
    broken[6] = Some(Score::Mate(9));
    let (ply, _) = run(
        rules("", "movenumber=0 movecount=2 score=10", false),
        &broken,
    )
    .unwrap();
    assert_eq!(ply, 11);
}

#[test]
fn decided_ends_a_bohnenspiel_game_at_37_beans() {
    // South 35 beans: playing 1 drops the bean on pit 2, which then holds 2
    // and is taken: 37, more than half of 72, while the game goes on.
    let start = "bohnenspiel 1,1,0,0,0,0,1,0,0,0,0,0 S 35/34";
    let mut game = game_from_position(start).unwrap();
    assert_eq!(game.decided(), None);
    let mut adj = Adjudicator::new(rules("", "", true));
    assert_eq!(game.decided(), None);
    game.play("1").unwrap();
    assert!(game.outcome().is_none(), "{}", game.position_string());
    let v = adj
        .after_move(mancala_rules::Side::South, None, game.as_ref(), 1)
        .expect("decided");
    assert_eq!(v.result, GameResult::SouthWins);
    assert_eq!(v.termination.kind(), "decided_adjudication");
    assert!(v.termination.detail().contains(&game.position_string()));
    // Without the rule, nothing.
    let mut off = Adjudicator::new(rules("", "", false));
    assert_eq!(
        off.after_move(mancala_rules::Side::South, None, game.as_ref(), 1),
        None
    );
}

#[test]
fn decided_is_checked_before_scores() {
    // A game decided at once: even scores that would resign the winner do
    // not override the rules' verdict.
    let game = game_from_position("bohnenspiel 6,6,6,6,6,0,0,0,0,0,2,3 N 37/0").unwrap();
    let mut adj = Adjudicator::new(rules("movecount=1 score=1", "", true));
    let v = adj
        .after_move(
            mancala_rules::Side::South,
            Some(Score::Cp(-5000)),
            game.as_ref(),
            9,
        )
        .unwrap();
    assert_eq!(v.result, GameResult::SouthWins);
    assert_eq!(v.termination.kind(), "decided_adjudication");
}
