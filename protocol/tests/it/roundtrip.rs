//! Every command and message round-trips through Display/FromStr, and
//! parsing never panics.

use umi::{
    Bound, ComboValue, Command, GameId, GameName, GameResult, Go, Info, Message, Move, OptionDecl,
    OptionKind, OptionName, PositionBase, PositionText, Score, ScoreValue, SetOption, Text,
};

fn mv(s: &str) -> Move {
    Move::new(s).unwrap()
}

fn text(s: &str) -> Text {
    Text::new(s).unwrap()
}

fn check_command(c: &Command) {
    let line = c.to_string();
    assert_eq!(line.parse::<Command>().as_ref(), Ok(c), "line {line:?}");
    assert!(
        !line.contains("  ") && !line.starts_with(' ') && !line.ends_with(' '),
        "{line:?}"
    );
}

fn check_message(m: &Message) {
    let line = m.to_string();
    assert_eq!(line.parse::<Message>().as_ref(), Ok(m), "line {line:?}");
    assert!(
        !line.contains("  ") && !line.starts_with(' ') && !line.ends_with(' '),
        "{line:?}"
    );
}

/// Canonical lines: parse, then display gives the same text.
#[test]
fn canonical_command_lines_redisplay_unchanged() {
    let lines = [
        "umi",
        "isready",
        "setoption name Hash value 64",
        "setoption name Move Overhead value 50",
        "setoption name Clear Hash",
        "setoption name Book File value <empty>",
        "setoption name Style value very solid and slow",
        "newgame bohnenspiel",
        "newgame bohnenspiel-hemprich",
        "newgame bosh",
        "newgame kimasai",
        "newgame kujifunza",
        "position startpos",
        "position startpos moves 1 7 3",
        "position pos bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 1",
        "position pos bosh 0,x,4,4,4,4,4,4,4,4 N 8/0 2 moves 3 8",
        "position pos kujifunza 2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2 S moves 14+-+ 20-",
        "position startpos moves pass 3",
        "go",
        "go infinite",
        "go ponder p1time 1 p2time 2 p1inc 3 p2inc 4 movestogo 5 movetime 6 depth 7 nodes 8 infinite",
        "go p1time 18446744073709551615",
        "go depth 4294967295",
        "go perft 0",
        "go perft 5",
        "stop",
        "ponderhit",
        "gameover 1-0",
        "gameover 0-1 South forfeits on time",
        "gameover 1/2-1/2 repetition: third occurrence",
        "quit",
        "d",
    ];
    for line in lines {
        let c: Command = line.parse().unwrap_or_else(|e| panic!("{line:?}: {e}"));
        assert_eq!(c.to_string(), line);
        check_command(&c);
    }
}

#[test]
fn canonical_message_lines_redisplay_unchanged() {
    let lines = [
        "id name Mancala Reference Engine 0.1.0",
        "id author Ünïcødé 作者",
        "games bohnenspiel bosh kimasai kujifunza bohnenspiel-hemprich",
        "games oware",
        "games",
        "option name Hash type spin default 16 min 1 max 4096",
        "option name Contempt type spin default -20 min -100 max 100",
        "option name Ponder type check default false",
        "option name Own Book type check default true",
        "option name Style type combo default Normal var Solid var Normal var Risky",
        "option name Style type combo default very solid var very solid var wild one",
        "option name Clear Hash type button",
        "option name Book File type string default <empty>",
        "option name Log type string default min max var default type",
        "umiok",
        "readyok",
        "info",
        "info depth 1",
        "info depth 9 seldepth 14 multipv 2 score cp -35 upperbound nodes 1000 nps 20000 hashfull 12 time 50 currmove 3 currmovenumber 2 pv 3 9 4 string hello world",
        "info score mate -3",
        "info score mate 2 lowerbound",
        "info string error: invalid holes: too few",
        "info string depth 5 pv 1 2 ponder",
        "info pv 14+-+ 20- pass",
        "bestmove 4",
        "bestmove 23 ponder 47",
        "bestmove 14+-+ ponder 20-",
        "bestmove (none)",
        "1: 6",
        "14+-+: 18446744073709551615",
        "pass: 1",
        "nodes 36",
        "pos kimasai 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,0 S",
    ];
    for line in lines {
        let m: Message = line.parse().unwrap_or_else(|e| panic!("{line:?}: {e}"));
        assert_eq!(m.to_string(), line);
        check_message(&m);
    }
}

#[test]
fn whitespace_order_and_zeros_are_normalised() {
    let cases = [
        ("  umi  ", "umi"),
        ("isready\r", "isready"),
        (
            "\tposition\t\tstartpos   moves  1\t 7 ",
            "position startpos moves 1 7",
        ),
        ("position startpos moves", "position startpos"),
        (
            "position pos  bosh   4,4,4,4,4,4,4,4,4,4 S 0/0 1 ",
            "position pos bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 1",
        ),
        ("go infinite depth 007 ponder", "go ponder depth 7 infinite"),
        (
            "go nodes 5 p2inc 0 p1time 10",
            "go p1time 10 p2inc 0 nodes 5",
        ),
        ("go   perft\t03", "go perft 3"),
        (
            "setoption  name  Move   Overhead  value  10 ",
            "setoption name Move Overhead value 10",
        ),
        (
            "gameover 1-0   lost   on  time",
            "gameover 1-0 lost on time",
        ),
    ];
    for (input, canonical) in cases {
        let c: Command = input.parse().unwrap_or_else(|e| panic!("{input:?}: {e}"));
        assert_eq!(c.to_string(), canonical, "{input:?}");
    }
    let cases = [
        (
            "info pv 1 2 depth 3 score cp -00 string  a  b ",
            "info depth 3 score cp 0 pv 1 2 string a b",
        ),
        (
            "info time 5 nodes 9 currmove 4 depth 1",
            "info depth 1 nodes 9 time 5 currmove 4",
        ),
        (
            "option name Hash type spin max 64 min 1 default 02",
            "option name Hash type spin default 2 min 1 max 64",
        ),
        (
            "option name S type combo var a var b default b",
            "option name S type combo default b var a var b",
        ),
        ("bestmove\t4\tponder  9", "bestmove 4 ponder 9"),
        ("1:\t\t06", "1: 6"),
        ("games  bosh\tkimasai", "games bosh kimasai"),
        ("id name   A   B", "id name A B"),
    ];
    for (input, canonical) in cases {
        let m: Message = input.parse().unwrap_or_else(|e| panic!("{input:?}: {e}"));
        assert_eq!(m.to_string(), canonical, "{input:?}");
    }
}

/// A small deterministic generator, so the test needs no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn coin(&mut self) -> bool {
        self.below(2) == 0
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
    fn number(&mut self) -> u64 {
        match self.below(4) {
            0 => 0,
            1 => u64::MAX,
            2 => self.below(100),
            _ => self.next(),
        }
    }
    fn opt_u64(&mut self) -> Option<u64> {
        self.coin().then(|| self.number())
    }
    fn opt_u32(&mut self) -> Option<u32> {
        self.coin().then(|| self.number() as u32)
    }
}

const MOVES: &[&str] = &["1", "12", "23", "48", "14+-+", "5-", "pass", "a1", "nodes1"];
const WORDS: &[&str] = &[
    "depth", "pv", "moves", "value", "type", "name", "var", "default", "min", "max", "string",
    "ponder", "x", "Ünï", "1/2-1/2", "(none)", "<empty>", "score", "-", ":", "作者",
];

fn random_words(rng: &mut Rng) -> String {
    let n = 1 + rng.below(5);
    (0..n)
        .map(|_| rng.pick(WORDS))
        .collect::<Vec<_>>()
        .join(" ")
}

fn random_move(rng: &mut Rng) -> Move {
    mv(rng.pick(MOVES))
}

fn random_moves(rng: &mut Rng) -> Vec<Move> {
    (0..rng.below(6)).map(|_| random_move(rng)).collect()
}

/// Text that is valid for type `T`: random words with the reserved ones removed.
fn random_text<T>(rng: &mut Rng, make: fn(&str) -> Result<T, umi::ParseError>) -> T {
    loop {
        if let Ok(t) = make(&random_words(rng)) {
            return t;
        }
    }
}

fn random_go(rng: &mut Rng) -> Go {
    Go {
        ponder: rng.coin(),
        p1time: rng.opt_u64(),
        p2time: rng.opt_u64(),
        p1inc: rng.opt_u64(),
        p2inc: rng.opt_u64(),
        movestogo: rng.opt_u32(),
        movetime: rng.opt_u64(),
        depth: rng.opt_u32(),
        nodes: rng.opt_u64(),
        infinite: rng.coin(),
    }
}

fn random_score(rng: &mut Rng) -> Score {
    let v = rng.next() as i32;
    let value = if rng.coin() {
        ScoreValue::Cp(v)
    } else {
        ScoreValue::Mate(v)
    };
    let bound = match rng.below(3) {
        0 => None,
        1 => Some(Bound::Lower),
        _ => Some(Bound::Upper),
    };
    Score { value, bound }
}

fn random_info(rng: &mut Rng) -> Info {
    Info {
        depth: rng.opt_u32(),
        seldepth: rng.opt_u32(),
        multipv: rng.opt_u32(),
        score: rng.coin().then(|| random_score(rng)),
        nodes: rng.opt_u64(),
        nps: rng.opt_u64(),
        hashfull: rng.opt_u32(),
        time: rng.opt_u64(),
        currmove: rng.coin().then(|| random_move(rng)),
        currmovenumber: rng.opt_u32(),
        pv: random_moves(rng),
        string: rng.coin().then(|| random_text(rng, Text::new)),
    }
}

fn random_option(rng: &mut Rng) -> OptionDecl {
    let name = random_text(rng, OptionName::new);
    let kind = match rng.below(5) {
        0 => OptionKind::Check {
            default: rng.coin(),
        },
        1 => {
            let mut v = [rng.next() as i64, rng.next() as i64, rng.next() as i64];
            v.sort();
            OptionKind::Spin {
                min: v[0],
                default: v[1],
                max: v[2],
            }
        }
        2 => {
            let vars: Vec<ComboValue> = (0..1 + rng.below(4))
                .map(|_| random_text(rng, ComboValue::new))
                .collect();
            let default = vars[rng.below(vars.len() as u64) as usize].clone();
            OptionKind::Combo { default, vars }
        }
        3 => OptionKind::Button,
        _ => OptionKind::String {
            default: random_text(rng, Text::new),
        },
    };
    OptionDecl::new(name, kind).unwrap()
}

fn random_command(rng: &mut Rng) -> Command {
    match rng.below(12) {
        0 => Command::Umi,
        1 => Command::IsReady,
        2 => Command::SetOption(SetOption {
            name: random_text(rng, OptionName::new),
            value: rng.coin().then(|| random_text(rng, Text::new)),
        }),
        3 => Command::NewGame(GameId::ALL[rng.below(5) as usize]),
        4 => Command::Position {
            base: if rng.coin() {
                PositionBase::StartPos
            } else {
                PositionBase::Pos(random_text(rng, PositionText::new))
            },
            moves: random_moves(rng),
        },
        5 => Command::Go(random_go(rng)),
        6 => Command::Perft {
            depth: rng.number() as u32,
        },
        7 => Command::Stop,
        8 => Command::PonderHit,
        9 => Command::GameOver {
            result: [
                GameResult::SouthWins,
                GameResult::NorthWins,
                GameResult::Draw,
            ][rng.below(3) as usize],
            reason: rng.coin().then(|| random_text(rng, Text::new)),
        },
        10 => Command::Quit,
        _ => Command::Board,
    }
}

fn random_message(rng: &mut Rng) -> Message {
    match rng.below(12) {
        0 => Message::IdName(random_text(rng, Text::new)),
        1 => Message::IdAuthor(random_text(rng, Text::new)),
        2 => Message::Games(
            (0..rng.below(4))
                .map(|_| GameName::new(rng.pick(&["bosh", "awari", "kimasai", "x-1"])).unwrap())
                .collect(),
        ),
        3 => Message::Option(random_option(rng)),
        4 => Message::UmiOk,
        5 => Message::ReadyOk,
        6 => Message::Info(random_info(rng)),
        7 => Message::BestMove {
            best: random_move(rng),
            ponder: rng.coin().then(|| random_move(rng)),
        },
        8 => Message::BestMoveNone,
        9 => Message::PerftMove {
            mv: random_move(rng),
            count: rng.number(),
        },
        10 => Message::PerftTotal(rng.number()),
        _ => Message::Pos(random_text(rng, PositionText::new)),
    }
}

#[test]
fn random_values_round_trip() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..20_000 {
        check_command(&random_command(&mut rng));
        check_message(&random_message(&mut rng));
    }
}

#[test]
fn every_variant_is_generated() {
    // why: guards the generators above against silently losing a variant.
    let mut rng = Rng(7);
    let mut commands = std::collections::HashSet::new();
    let mut messages = std::collections::HashSet::new();
    for _ in 0..2_000 {
        commands.insert(std::mem::discriminant(&random_command(&mut rng)));
        messages.insert(std::mem::discriminant(&random_message(&mut rng)));
    }
    assert_eq!(commands.len(), 12);
    assert_eq!(messages.len(), 12);
}

/// Lines assembled from protocol words, numbers and junk: parsing never
/// panics, and whatever parses is stable under display → parse.
#[test]
fn token_soup_never_panics_and_parsed_lines_are_stable() {
    const SOUP: &[&str] = &[
        "umi",
        "isready",
        "setoption",
        "name",
        "value",
        "newgame",
        "bosh",
        "position",
        "startpos",
        "pos",
        "moves",
        "go",
        "perft",
        "ponder",
        "p1time",
        "infinite",
        "depth",
        "nodes",
        "stop",
        "gameover",
        "1-0",
        "1/2-1/2",
        "d",
        "id",
        "author",
        "games",
        "option",
        "type",
        "spin",
        "check",
        "combo",
        "button",
        "string",
        "default",
        "min",
        "max",
        "var",
        "true",
        "info",
        "score",
        "cp",
        "mate",
        "lowerbound",
        "pv",
        "currmove",
        "bestmove",
        "(none)",
        "1:",
        ":",
        "umiok",
        "0",
        "-1",
        "007",
        "99999999999999999999999",
        "-9223372036854775809",
        "14+-+",
        "pass",
        "é",
        "\t",
        "  ",
        "\u{0}",
        "\u{7f}",
        "\r",
        "\u{2028}",
    ];
    let mut rng = Rng(12345);
    let (mut parsed_commands, mut parsed_messages) = (0, 0);
    for _ in 0..200_000 {
        let n = rng.below(8);
        let sep = if rng.coin() { " " } else { "\t " };
        let line = (0..n).map(|_| rng.pick(SOUP)).collect::<Vec<_>>().join(sep);
        if let Ok(c) = line.parse::<Command>() {
            parsed_commands += 1;
            check_command(&c);
        }
        if let Ok(m) = line.parse::<Message>() {
            parsed_messages += 1;
            check_message(&m);
        }
    }
    // why: the property above is vacuous if nothing parses.
    assert!(
        parsed_commands > 1000 && parsed_messages > 1000,
        "{parsed_commands} {parsed_messages}"
    );
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng(99);
    for _ in 0..50_000 {
        let bytes: Vec<u8> = (0..rng.below(40)).map(|_| rng.next() as u8).collect();
        let line = String::from_utf8_lossy(&bytes);
        let _ = line.parse::<Command>();
        let _ = line.parse::<Message>();
    }
    let huge = format!("go depth {}", "9".repeat(100_000));
    assert!(huge.parse::<Command>().is_err());
    let long = format!("position startpos moves {}", "1 ".repeat(200_000));
    match long.parse::<Command>() {
        Ok(Command::Position { moves, .. }) => assert_eq!(moves.len(), 200_000),
        other => panic!("{other:?}"),
    }
}

#[test]
fn helpers() {
    assert_eq!(
        Message::error("bad\u{0}thing  here").to_string(),
        "info string error: badthing here"
    );
    assert_eq!(Info::string(text("hi")).to_string(), "info string hi");
    assert_eq!(
        Message::Info(Info {
            score: Some(Score::mate(-2)),
            ..Info::default()
        })
        .to_string(),
        "info score mate -2"
    );
    assert_eq!(Score::cp(15).to_string(), "score cp 15");
    let go: Go = match "go p1time 100 p2time 200 p1inc 1 p2inc 2".parse::<Command>() {
        Ok(Command::Go(go)) => go,
        other => panic!("{other:?}"),
    };
    assert_eq!(go.time(umi::Side::South), Some(100));
    assert_eq!(go.time(umi::Side::North), Some(200));
    assert_eq!(go.inc(umi::Side::North), Some(2));
    let name = OptionName::new("Move Overhead").unwrap();
    assert!(name.matches("move overhead"));
    assert!(!name.matches("move"));
    assert_eq!(GameName::from(GameId::Kujifunza).to_string(), "kujifunza");
}
