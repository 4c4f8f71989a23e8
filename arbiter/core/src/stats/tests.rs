use super::match_report::number;
use super::*;
use mancala_rules::{GameResult, Side};

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn elo_and_score_are_inverse() {
    assert_eq!(elo_from_score(0.5), 0.0);
    assert!(close(score_from_elo(elo_from_score(0.3)), 0.3, 1e-12));
    assert_eq!(elo_from_score(1.0), f64::INFINITY);
    assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    assert!(close(normal_cdf(0.0), 0.5, 1e-7));
    assert!(close(normal_cdf(Z95), 0.975, 1e-7));
    assert!(close(normal_cdf(-1.0), 0.158_655_253_9, 1e-7));
}

#[test]
fn trinomial_statistics() {
    // W=60 D=20 L=20, N=100: s = (60 + 10)/100 = 0.7;
    // elo = -400·log10(1/0.7 − 1) = -400·log10(0.428571) = 147.1907.
    // Per-game variance = (60·0.3² + 20·0.2² + 20·0.7²)/100 = 0.16,
    // σ/√N = 0.04, s ± 1.96·0.04 = [0.62160, 0.77840] → [86.225, 218.252].
    // LOS = Φ(40/√80) = Φ(4.4721) = 0.9999961.
    // (values checked with python3 statistics.NormalDist)
    let wdl = Wdl::new(60, 20, 20);
    assert_eq!(wdl.score(), Some(0.7));
    assert_eq!(wdl.draw_ratio(), Some(0.2));
    let e = wdl.elo().unwrap();
    assert!(close(e.elo, 147.190_714, 1e-5));
    assert!(close(e.lower, 86.225_015, 1e-5));
    assert!(close(e.upper, 218.251_778, 1e-5));
    assert!(close(e.margin(), (218.251_778 - 86.225_015) / 2.0, 1e-5));
    assert!(close(wdl.los().unwrap(), 0.999_996_128, 1e-7));
    // W=10 L=5: Φ(5/√15) = 0.901647.
    assert!(close(Wdl::new(10, 3, 5).los().unwrap(), 0.901_647_2, 1e-6));
    assert_eq!(Wdl::new(0, 4, 0).los(), None);
    assert_eq!(Wdl::default().elo(), None);
}

#[test]
fn wdl_from_results() {
    let mut w = Wdl::default();
    w.add_result(GameResult::SouthWins, Side::South);
    w.add_result(GameResult::SouthWins, Side::North);
    w.add_result(GameResult::Draw, Side::North);
    assert_eq!(w, Wdl::new(1, 1, 1));
    assert_eq!(w.points(), 1.5);
}

#[test]
fn pentanomial_statistics() {
    // Pairs by points 0, ½, 1, 1½, 2: [2, 5, 10, 8, 5], 30 pairs.
    // Mean per game = (5·0.25 + 10·0.5 + 8·0.75 + 5·1)/30 = 17.25/30 = 0.575.
    // Variance per pair = Σ c·(x − 0.575)²/30 = 0.0797917;
    // σ/√30 = 0.0515726; interval [0.474920, 0.675080] → [-18.1389, 127.8243];
    // elo(0.575) = 52.5116.
    let mut p = Penta::default();
    for (k, &c) in [2u32, 5, 10, 8, 5].iter().enumerate() {
        for _ in 0..c {
            p.add_pair(k as u32);
        }
    }
    assert_eq!(p.pairs(), 30);
    assert!(close(p.score().unwrap(), 0.575, 1e-12));
    let e = p.elo().unwrap();
    assert!(close(e.elo, 52.511_566, 1e-5));
    assert!(close(e.lower, -18.138_864, 1e-5));
    assert!(close(e.upper, 127.824_314, 1e-5));
    let mut q = Penta::default();
    q.add_games(2, 1);
    q.add_games(0, 1);
    assert_eq!(q.counts, [0, 1, 0, 1, 0]);
}

#[test]
fn sprt_bounds_and_llr() {
    // alpha = beta = 0.05: bounds ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = 2.944439.
    let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
    assert!(close(sprt.lower_bound(), -2.944_438_979, 1e-9));
    assert!(close(sprt.upper_bound(), 2.944_438_979, 1e-9));
    // W=60 D=20 L=20: s0 = 0.5, s1 = 1/(1 + 10^(-10/400)) = 0.5143871,
    // mean a = 0.7, b = W + D/4 = 0.65, var = b − a² = 0.16, var/N = 0.0016;
    // LLR = 0.0143871·(1.4 − 1.0143871)/0.0016/2 = 1.733713.
    let llr = sprt.llr_wdl(&Wdl::new(60, 20, 20));
    assert!(close(llr, 1.733_713_312, 1e-6));
    assert_eq!(sprt.state(llr), SprtState::Continue);
    // Penta [2,5,10,8,5] with the same hypotheses: var/N = 0.0797917/30,
    // LLR = 0.0143871·(1.15 − 1.0143871)/(0.0797917/30)/2 = 0.366784.
    let p = Penta {
        counts: [2, 5, 10, 8, 5],
    };
    assert!(close(sprt.llr_penta(&p), 0.366_783_896, 1e-6));
    // Asymmetric: elo0=-5, elo1=5, alpha=0.05, beta=0.1, W=10 D=5 L=5 → 0.209311;
    // bounds ln(0.1/0.95) = -2.251292, ln(0.9/0.05) = 2.890372.
    let s2 = Sprt::new(-5.0, 5.0, 0.05, 0.1).unwrap();
    assert!(close(s2.llr_wdl(&Wdl::new(10, 5, 5)), 0.209_311_468, 1e-6));
    assert!(close(s2.lower_bound(), -2.251_291_799, 1e-9));
    assert!(close(s2.upper_bound(), 2.890_371_758, 1e-9));
    assert_eq!(s2.state(3.0), SprtState::AcceptH1);
    assert_eq!(s2.state(-2.3), SprtState::AcceptH0);
    // No information yet.
    assert_eq!(sprt.llr_wdl(&Wdl::default()), 0.0);
    // All draws: padded with one loss and one win (L=1 D=7 W=1): mean 0.5,
    // var (0.25+0.25)/9 = 0.0555…, LLR = 0.0143871·(1 − 1.0143871)/(0.0555…/9)/2
    // = −0.0167663: equal strength leans towards H0, slowly.
    assert!(close(sprt.llr_wdl(&Wdl::new(0, 7, 0)), -0.016_766_3, 1e-6));
    // All wins (W=3, padded L=1 W=4): mean 0.8, var 0.16, LLR
    // 0.0143871·(1.6 − 1.0143871)/(0.16/5)/2 = 0.131637: it moves towards H1.
    assert!(close(sprt.llr_wdl(&Wdl::new(3, 0, 0)), 0.131_637, 1e-5));
    // A losing engine drifts towards H0: W=40 D=40 L=120 has LLR
    // 0.0143871·(0.6 − 1.0143871)/(0.16/200)/2 = -3.726165 < -2.944.
    let losing = sprt.llr_wdl(&Wdl::new(40, 40, 120));
    assert!(close(losing, -3.726_165, 1e-5), "{losing}");
    assert_eq!(sprt.state(losing), SprtState::AcceptH0);
}

#[test]
fn sprt_rejects_bad_parameters() {
    assert!(matches!(
        Sprt::new(5.0, 0.0, 0.05, 0.05),
        Err(SprtError::Hypotheses { .. })
    ));
    assert!(matches!(
        Sprt::new(0.0, 5.0, 0.0, 0.05),
        Err(SprtError::ErrorRates { .. })
    ));
    assert!(matches!(
        Sprt::new(0.0, 5.0, 0.6, 0.5),
        Err(SprtError::ErrorRates { .. })
    ));
    assert!(Sprt::new(f64::NAN, 5.0, 0.05, 0.05).is_err());
}

#[test]
fn match_reports() {
    // Numbers from trinomial_statistics, pentanomial_statistics and
    // sprt_bounds_and_llr: margin (218.252 − 86.225)/2 = 66.01;
    // penta margin (127.824 + 18.139)/2 = 72.98; LLR 0.3668 = 12.5% of 2.944.
    let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
    let penta = Penta {
        counts: [2, 5, 10, 8, 5],
    };
    let report = match_report(
        "Alpha",
        "Beta",
        &Wdl::new(60, 20, 20),
        Some(&penta),
        Some(&sprt),
    );
    assert_eq!(
        report,
        "Score of Alpha vs Beta: 60 - 20 - 20  [0.700] 100\n\
             Elo difference: 147.2 +/- 66.0, LOS: 100.0 %, DrawRatio: 20.0 %\n\
             Ptnml(0-2): [2, 5, 10, 8, 5], pair Elo: 52.5 +/- 73.0\n\
             SPRT: llr 0.37 (12.5%), lbound -2.94, ubound 2.94\n"
    );
    // Three wins: LOS = Φ(3/√3) = Φ(1.732) = 0.958; zero variance, so LLR 0.
    let all_wins = match_report("A", "B", &Wdl::new(3, 0, 0), None, Some(&sprt));
    assert_eq!(
        all_wins,
        "Score of A vs B: 3 - 0 - 0  [1.000] 3\n\
             Elo difference: +inf (every point won; no interval), LOS: 95.8 %, DrawRatio: 0.0 %\n\
             SPRT: llr 0.13 (4.5%), lbound -2.94, ubound 2.94\n"
    );
    // One win each and one pair: Elo exactly 0 (not "-0.0"); the
    // games' interval is unbounded, the single pair has no spread at all.
    let even = Penta {
        counts: [0, 0, 1, 0, 0],
    };
    assert_eq!(
            match_report("A", "B", &Wdl::new(1, 0, 1), Some(&even), None),
            "Score of A vs B: 1 - 1 - 0  [0.500] 2\n\
             Elo difference: 0.0 (interval unbounded: too few games), LOS: 50.0 %, DrawRatio: 0.0 %\n\
             Ptnml(0-2): [0, 0, 1, 0, 0], pair Elo: 0.0 (no interval: every result alike)\n"
        );
    assert_eq!(number(-0.04, 1), "0.0");
    assert_eq!(number(-0.06, 1), "-0.1");
    assert_eq!(
        match_report("A", "B", &Wdl::default(), Some(&Penta::default()), None),
        "Score of A vs B: 0 - 0 - 0  [-] 0\n"
    );
}

fn game(s: &str, n: &str, r: GameResult, forfeit: Option<&str>) -> ScoredGame {
    ScoredGame {
        south: s.into(),
        north: n.into(),
        result: r,
        forfeit: forfeit.map(Into::into),
    }
}

#[test]
fn a_gauntlet_ranks_by_score_not_by_points() {
    use GameResult::*;
    // Gauntlet: G plays A and B twice each, scoring 2 of 4 (50 %); A
    // beats G twice (100 %), B loses twice (0 %). By points G (2.0) and
    // A (2.0) tie and G's more games would decide; by score A leads.
    let games = [
        game("A", "G", SouthWins, None),
        game("G", "A", NorthWins, None),
        game("B", "G", NorthWins, None),
        game("G", "B", SouthWins, None),
    ];
    let names = ["G".to_owned(), "A".to_owned(), "B".to_owned()];
    let order: Vec<(String, u32)> = Standings::build(&names, &games)
        .engines
        .iter()
        .map(|e| (e.name.clone(), e.wdl.games()))
        .collect();
    assert_eq!(
        order,
        [
            ("A".to_owned(), 2),
            ("G".to_owned(), 4),
            ("B".to_owned(), 2)
        ]
    );
}

#[test]
fn standings_with_sonneborn_berger() {
    use GameResult::*;
    // A–B 1-0, C–A ½, B–C 1-0, B–A 0-1 (B lost on time).
    // Points: A = 1 + ½ + 1 = 2.5, B = 1, C = ½, D (no games) = 0.
    // SB: A = 2 wins over B (2·1) + draw with C (½·½) = 2.25;
    //     B = win over C (0.5) = 0.5; C = draw with A (½·2.5) = 1.25.
    let games = [
        game("A", "B", SouthWins, None),
        game("C", "A", Draw, None),
        game("B", "C", SouthWins, None),
        game("B", "A", NorthWins, Some("time_forfeit")),
    ];
    let names = ["D".to_owned(), "C".to_owned()];
    let st = Standings::build(&names, &games);
    let order: Vec<&str> = st.engines.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(order, ["A", "B", "C", "D"]);
    let sb: Vec<f64> = st.engines.iter().map(|e| e.sonneborn_berger).collect();
    assert_eq!(sb, [2.25, 0.5, 1.25, 0.0]);
    assert_eq!(st.engines[0].wdl, Wdl::new(2, 1, 0));
    assert_eq!(st.engines[1].forfeits.get("time_forfeit"), Some(&1));
    assert!(st.engines[0].forfeits.is_empty());
    assert_eq!(
        st.cross[0][1],
        PairScore {
            half_points: 4,
            games: 2
        }
    );
    assert_eq!(
        st.cross[2][0],
        PairScore {
            half_points: 1,
            games: 1
        }
    );
    let expected = "\
Rank Name Games Points  Score    W    D    L      SB Forfeits       |     1     2     3     4
   1 A        3    2.5  83.3%    2    1    0    2.25 -              |     x   2/2 0.5/1     -
   2 B        3    1.0  33.3%    1    0    2    0.50 time_forfeit:1 |   0/2     x   1/1     -
   3 C        2    0.5  25.0%    0    1    1    1.25 -              | 0.5/1   0/1     x     -
   4 D        0    0.0      -    0    0    0    0.00 -              |     -     -     -     x
";
    assert_eq!(st.render(), expected);
}

#[test]
fn ties_are_broken_by_sonneborn_berger() {
    use GameResult::*;
    // A–C 1-0, B–C 1-0, A–B 0-1, A–C 1-0 → A 2, B 2, C 0.
    // SB(A) = 2·0 (C) + 0 = 0; SB(B) = 0 (C) + 1·2 (A) = 2 → B first.
    let games = [
        game("A", "C", SouthWins, None),
        game("B", "C", SouthWins, None),
        game("A", "B", NorthWins, None),
        game("A", "C", SouthWins, None),
    ];
    let st = Standings::build(&[], &games);
    let order: Vec<&str> = st.engines.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(order, ["B", "A", "C"]);
    assert_eq!(st.engines[0].points(), st.engines[1].points());
}
