//! The arena's scheduling decision, pure: given who is connected with how
//! many slots, the games in progress, how long games usually last and each
//! pool's pairing, which games to start now. The server gathers these plain
//! values under its lock ([`Situation`]), asks [`decide`] and starts what it
//! returns (records each game, spawns its task); so the decision is tested
//! here on hand-made situations, without a server, a clock or a database.
//!
//! Each pool in turn, the first one rotating from call to call (so that no
//! pool takes every free slot):
//!
//! - its players are those connected that play its game (and name it, when
//!   they name pools), whose bot is not revoked, that are not paused
//!   ([`crate::backoff`]) and not at an event (an event's players play its
//!   games until it ends);
//! - a new version plays its first pair against its bot's newest older
//!   version, when both are free;
//! - then the pool's pairing ([`crate::pairing`], rules 1 to 4), told what
//!   the ladder knows, how soon each busy player is expected free and how
//!   long each waits for one ([`crate::pace`], rule 3, bounded), who has
//!   waited longer than `--pairing-wait`, and which two house bots may not
//!   start a pair now (rule 4: while another bot of the pool is free, or
//!   past `--house-rate`).
//!
//! At most `room` games start in all (`--max-games`). A game decided for
//! one pool counts, for the pools after it, as a game in progress begun
//! now (its players' slots, when they are expected free, the house rate).

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant, SystemTime};

use crate::backoff::Backoff;
use crate::pace::{expected_free_in, HouseRate, Lengths};
use crate::pairing::{Estimate, Look, Pairing, Start};
use crate::pools::Pool;
use crate::ratings::Rated;
use crate::versions::{bot_of, split};

/// A connected player (a version of a bot, [`crate::versions`]).
#[derive(Clone, Debug)]
pub struct Presence {
    pub slots: usize,
    pub games: Vec<String>,
    pub pools: Option<Vec<String>>,
    pub since: SystemTime,
}

/// Whether a connected player plays in `pool`: it plays the pool's game,
/// and names the pool when it names pools.
pub fn plays_in(presence: &Presence, pool: &Pool) -> bool {
    presence.games.iter().any(|g| g == pool.game.as_str())
        && presence
            .pools
            .as_ref()
            .is_none_or(|named| named.iter().any(|p| p == &pool.name))
}

/// A game in progress: its two players and when it began.
#[derive(Clone, Copy, Debug)]
pub struct Underway<'a> {
    pub players: [&'a str; 2],
    pub began: Instant,
}

/// What the decision reads: the server's state now, as plain values.
#[derive(Clone, Copy)]
pub struct Situation<'a> {
    pub pools: &'a [Pool],
    /// Who is connected, by player.
    pub present: &'a BTreeMap<String, Presence>,
    /// Games in progress per player.
    pub busy: &'a BTreeMap<String, usize>,
    /// The bots whose token is not revoked.
    pub active: &'a BTreeSet<String>,
    pub backoff: &'a Backoff,
    /// The players of the events being played.
    pub in_events: &'a BTreeSet<String>,
    /// Every game in progress (events' too).
    pub underway: &'a [Underway<'a>],
    /// How long each player's latest games lasted.
    pub lengths: &'a Lengths,
    /// Each pool's ratings as last computed, by pool name.
    pub ladders: &'a BTreeMap<String, Vec<Rated>>,
    /// The house bots (by bot).
    pub house: &'a BTreeSet<String>,
    /// When each two house bots last started a pair (`--house-rate`).
    pub house_rate: Option<&'a HouseRate>,
    /// `--pairing-wait`.
    pub pairing_wait: Option<Duration>,
    /// Games the server may still start (`--max-games`).
    pub room: usize,
    pub now: Instant,
}

/// What the decision keeps from one call to the next: each pool's pairing,
/// since when each player has had a free slot (`--pairing-wait`), and the
/// pool to look at first next time.
#[derive(Clone, Debug, Default)]
pub struct Book {
    /// Each pool's pairing, by pool name (a pool missing starts nothing).
    pub pairings: BTreeMap<String, Pairing>,
    free_since: BTreeMap<String, Instant>,
    first_pool: usize,
}

/// A game to start: its pool (an index into [`Situation::pools`]) and its
/// players, pair and leg.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub pool: usize,
    pub start: Start,
}

/// The games to start now (module doc). `book` notes them: the pairings
/// count them as started.
pub fn decide(now: &Situation<'_>, book: &mut Book) -> Vec<Decision> {
    let t = now.now;
    let may_play = |player: &str| {
        now.active.contains(bot_of(player))
            && now.backoff.may_play(player, t)
            && !now.in_events.contains(player)
    };
    let mut free: BTreeMap<String, usize> = now
        .present
        .iter()
        .filter(|(player, _)| may_play(player))
        .map(|(player, p)| {
            let busy = now.busy.get(player).copied().unwrap_or(0);
            (player.clone(), p.slots.saturating_sub(busy))
        })
        .filter(|(_, n)| *n > 0)
        .collect();
    let impatient = impatient(now, &mut book.free_since, &free);
    // Each player's games in progress, with those decided below added.
    let mut games: BTreeMap<String, Vec<([String; 2], Instant)>> = BTreeMap::new();
    for g in now.underway {
        for p in g.players {
            let players = g.players.map(str::to_owned);
            games
                .entry(p.to_owned())
                .or_default()
                .push((players, g.began));
        }
    }
    // Two house bots that start a pair in this call (as `--house-rate` counts).
    let mut house_paired: BTreeSet<(String, String)> = BTreeSet::new();
    let mut room = now.room;
    let mut out = Vec::new();
    let n = now.pools.len();
    let first = book.first_pool % n.max(1);
    book.first_pool = book.first_pool.wrapping_add(1);
    for k in 0..n {
        let i = (first + k) % n;
        let pool = &now.pools[i];
        let mut here: BTreeMap<String, usize> = free
            .iter()
            .filter(|(player, _)| now.present.get(*player).is_some_and(|p| plays_in(p, pool)))
            .map(|(p, n)| (p.clone(), *n))
            .collect();
        let before = here.clone();
        // Who plays here now, free or in a game (not paused, not revoked,
        // not at an event): pairing rule 3 waits for the busy ones.
        let connected: BTreeSet<String> = now
            .present
            .iter()
            .filter(|(player, p)| plays_in(p, pool) && may_play(player))
            .map(|(player, _)| player.clone())
            .collect();
        let look = look(
            now,
            pool,
            &here,
            &connected,
            &impatient,
            &games,
            &house_paired,
        );
        let Some(pairing) = book.pairings.get_mut(&pool.name) else {
            continue;
        };
        let mut got = first_pairs_of_new_versions(pairing, &before, &mut here, room);
        got.extend(pairing.next_looking(&mut here, &look, room.saturating_sub(got.len())));
        for (player, n) in &before {
            let used = n - here.get(player).copied().unwrap_or(0);
            if let Some(f) = free.get_mut(player) {
                *f -= used.min(*f);
            }
        }
        for start in got {
            room = room.saturating_sub(1);
            let players = [start.south.clone(), start.north.clone()];
            for p in &players {
                games
                    .entry(p.clone())
                    .or_default()
                    .push((players.clone(), t));
            }
            let is_house = |p: &str| now.house.contains(bot_of(p));
            if start.leg == 1 && is_house(&start.south) && is_house(&start.north) {
                house_paired.insert(ordered(&start.south, &start.north));
            }
            out.push(Decision { pool: i, start });
        }
    }
    out
}

/// Who has waited longer than `--pairing-wait` with a free slot; `since`
/// is kept only with the flag (without it no one is impatient).
fn impatient(
    now: &Situation<'_>,
    since: &mut BTreeMap<String, Instant>,
    free: &BTreeMap<String, usize>,
) -> BTreeSet<String> {
    let Some(wait) = now.pairing_wait else {
        return BTreeSet::new();
    };
    since.retain(|player, _| free.contains_key(player));
    for player in free.keys() {
        since.entry(player.clone()).or_insert(now.now);
    }
    since
        .iter()
        .filter(|(_, at)| now.now.duration_since(**at) >= wait)
        .map(|(player, _)| player.clone())
        .collect()
}

fn ordered(a: &str, b: &str) -> (String, String) {
    if a <= b {
        (a.to_owned(), b.to_owned())
    } else {
        (b.to_owned(), a.to_owned())
    }
}

/// What the pairing of `pool` is told ([`Look`]): the ladder, when each
/// `connected` player is expected free and how long each waits (rule
/// 3), who has waited too long (`impatient`), and which two house bots
/// may not start a pair now (rule 4: while another bot is free in
/// `here`, or past `--house-rate`, counting `house_paired`).
fn look(
    now: &Situation<'_>,
    pool: &Pool,
    here: &BTreeMap<String, usize>,
    connected: &BTreeSet<String>,
    impatient: &BTreeSet<String>,
    games: &BTreeMap<String, Vec<([String; 2], Instant)>>,
    house_paired: &BTreeSet<(String, String)>,
) -> Look {
    let ladder = now.ladders.get(&pool.name).map_or(&[][..], Vec::as_slice);
    let mut look = Look {
        estimates: Estimate::from_ladder(ladder),
        impatient: impatient.clone(),
        ..Look::default()
    };
    for player in connected {
        let has_free = here.get(player).is_some_and(|&n| n > 0);
        let of: Vec<([&str; 2], Instant)> = games
            .get(player)
            .map(|gs| {
                gs.iter()
                    .map(|(ps, began)| ([ps[0].as_str(), ps[1].as_str()], *began))
                    .collect()
            })
            .unwrap_or_default();
        let soon = expected_free_in(now.lengths, has_free, &of, now.now);
        look.connected.insert(player.clone(), soon);
        if let Some(wait) = now.lengths.patience(player) {
            look.patience.insert(player.clone(), wait);
        }
    }
    let is_house = |p: &str| now.house.contains(bot_of(p));
    let house: Vec<&String> = connected.iter().filter(|p| is_house(p)).collect();
    if house.len() < 2 {
        return look;
    }
    let other_free = here.iter().any(|(p, &n)| n > 0 && !is_house(p));
    for (i, a) in house.iter().enumerate() {
        for b in &house[i + 1..] {
            let paced = now.house_rate.is_some_and(|r| !r.allows(a, b, now.now))
                || house_paired.contains(&ordered(a, b));
            if other_free || paced {
                look.bar(a, b);
            }
        }
    }
    look
}

/// A new version's first pair, against the newest older version of its bot
/// among the free players `players` (when it has one): the first thing a
/// new version's author wants to know is whether it beats the last one.
fn first_pairs_of_new_versions(
    pairing: &mut Pairing,
    players: &BTreeMap<String, usize>,
    free: &mut BTreeMap<String, usize>,
    most: usize,
) -> Vec<Start> {
    let mut out = Vec::new();
    for player in players.keys() {
        let (bot, n) = split(player);
        if n <= 1 || pairing.pairs_of(player) > 0 {
            continue;
        }
        let previous = players
            .keys()
            .filter(|k| {
                let (b, m) = split(k);
                b == bot && m < n
            })
            .max_by_key(|k| split(k).1);
        if let Some(previous) = previous {
            out.extend(pairing.start_pair(player, previous, free, most - out.len()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::backoff::Policy;

    const MS: Duration = Duration::from_millis(1);

    /// One pool `p` of Kalah, or two (`p`, `q`) of the same game.
    fn pools(n: usize) -> Vec<Pool> {
        let all = r#"[{"name": "p", "game": "kalah", "each": "st=1"},
                      {"name": "q", "game": "kalah", "each": "st=1"}]"#;
        let mut pools = crate::pools::parse(all, Path::new(".")).expect("two pools");
        pools.truncate(n);
        pools
    }

    fn presence(slots: usize) -> Presence {
        Presence {
            slots,
            games: vec!["kalah".to_owned()],
            pools: None,
            since: SystemTime::UNIX_EPOCH,
        }
    }

    /// A hand-made arena: who is connected and with how many slots, every
    /// bot active, no one paused, no event, no game in progress.
    struct Arena {
        pools: Vec<Pool>,
        present: BTreeMap<String, Presence>,
        busy: BTreeMap<String, usize>,
        active: BTreeSet<String>,
        backoff: Backoff,
        in_events: BTreeSet<String>,
        underway: Vec<([String; 2], Instant)>,
        lengths: Lengths,
        ladders: BTreeMap<String, Vec<Rated>>,
        house: BTreeSet<String>,
        house_rate: Option<HouseRate>,
        pairing_wait: Option<Duration>,
        room: usize,
        book: Book,
    }

    impl Arena {
        fn new(pool_count: usize, players: &[(&str, usize)]) -> Arena {
            let pools = pools(pool_count);
            let book = Book {
                pairings: pools
                    .iter()
                    .map(|p| (p.name.clone(), Pairing::new()))
                    .collect(),
                ..Book::default()
            };
            Arena {
                pools,
                present: players
                    .iter()
                    .map(|(p, n)| ((*p).to_owned(), presence(*n)))
                    .collect(),
                busy: BTreeMap::new(),
                active: players.iter().map(|(p, _)| bot_of(p).to_owned()).collect(),
                backoff: Backoff::new(Policy::default()),
                in_events: BTreeSet::new(),
                underway: Vec::new(),
                lengths: Lengths::default(),
                ladders: BTreeMap::new(),
                house: BTreeSet::new(),
                house_rate: None,
                pairing_wait: None,
                room: usize::MAX,
                book,
            }
        }

        /// A game in progress between `a` and `b` since `began`.
        fn playing(&mut self, a: &str, b: &str, began: Instant) {
            for p in [a, b] {
                *self.busy.entry(p.to_owned()).or_default() += 1;
            }
            self.underway.push(([a.to_owned(), b.to_owned()], began));
        }

        /// The pairs `a` and `b` have played before (each a leg 1 and a 2).
        fn met(&mut self, pool: &str, a: &str, b: &str, pairs: u64) {
            let legs: Vec<(String, String, u64, u8)> = (0..pairs)
                .flat_map(|k| {
                    [
                        (a.to_owned(), b.to_owned(), k, 1),
                        (b.to_owned(), a.to_owned(), k, 2),
                    ]
                })
                .collect();
            let pairing = Pairing::restore(
                legs.iter()
                    .map(|(s, n, k, l)| (s.as_str(), n.as_str(), *k, *l)),
            );
            self.book.pairings.insert(pool.to_owned(), pairing);
        }

        /// The decision at `now`, as `(pool, south, north, leg)`.
        fn decide(&mut self, now: Instant) -> Vec<(String, String, String, u8)> {
            let underway: Vec<Underway<'_>> = self
                .underway
                .iter()
                .map(|(p, began)| Underway {
                    players: [p[0].as_str(), p[1].as_str()],
                    began: *began,
                })
                .collect();
            let situation = Situation {
                pools: &self.pools,
                present: &self.present,
                busy: &self.busy,
                active: &self.active,
                backoff: &self.backoff,
                in_events: &self.in_events,
                underway: &underway,
                lengths: &self.lengths,
                ladders: &self.ladders,
                house: &self.house,
                house_rate: self.house_rate.as_ref(),
                pairing_wait: self.pairing_wait,
                room: self.room,
                now,
            };
            decide(&situation, &mut self.book)
                .into_iter()
                .map(|d| {
                    let pool = self.pools[d.pool].name.clone();
                    (pool, d.start.south, d.start.north, d.start.leg)
                })
                .collect()
        }
    }

    fn game(pool: &str, south: &str, north: &str, leg: u8) -> (String, String, String, u8) {
        (pool.to_owned(), south.to_owned(), north.to_owned(), leg)
    }

    #[test]
    fn two_free_bots_play_a_pair_both_legs_at_once_when_they_have_two_slots() {
        let now = Instant::now();
        let mut one = Arena::new(1, &[("a", 1), ("b", 1)]);
        assert_eq!(one.decide(now), [game("p", "a", "b", 1)]);
        // Their slots are busy now: nothing more, and leg 2 is owed.
        one.playing("a", "b", now);
        assert_eq!(one.decide(now), []);
        assert_eq!(one.book.pairings["p"].owed().len(), 1);
        let mut two = Arena::new(1, &[("a", 2), ("b", 2)]);
        assert_eq!(
            two.decide(now),
            [game("p", "a", "b", 1), game("p", "b", "a", 2)]
        );
    }

    #[test]
    fn revoked_paused_event_and_other_game_players_are_not_paired() {
        let now = Instant::now();
        let players = [("a", 1), ("b", 1), ("c", 1), ("d", 1), ("e", 1)];
        let mut arena = Arena::new(1, &players);
        arena.active.remove("b");
        let policy = Policy::default();
        for _ in 0..policy.strikes {
            arena.backoff.record("c", true, now);
        }
        arena.in_events.insert("d".to_owned());
        if let Some(e) = arena.present.get_mut("e") {
            e.games = vec!["oware".to_owned()];
        }
        // Only `a` may play: no game.
        assert_eq!(arena.decide(now), []);
        // Once `c`'s pause is over it meets `a`.
        let later = now + policy.longest_pause;
        assert_eq!(arena.decide(later), [game("p", "a", "c", 1)]);
    }

    #[test]
    fn a_bot_that_names_pools_plays_only_in_those() {
        let now = Instant::now();
        let mut arena = Arena::new(2, &[("a", 2), ("b", 2)]);
        for p in ["a", "b"] {
            if let Some(bot) = arena.present.get_mut(p) {
                bot.pools = Some(vec!["q".to_owned()]);
            }
        }
        let games = arena.decide(now);
        assert!(!games.is_empty());
        assert!(games.iter().all(|g| g.0 == "q"), "{games:?}");
    }

    #[test]
    fn the_first_pool_rotates_and_room_bounds_every_pool_together() {
        let now = Instant::now();
        // Two slots each: the first pool looked at takes both.
        let mut arena = Arena::new(2, &[("a", 2), ("b", 2)]);
        let first = arena.decide(now);
        assert_eq!(first, [game("p", "a", "b", 1), game("p", "b", "a", 2)]);
        let mut arena = Arena::new(2, &[("a", 2), ("b", 2)]);
        arena.book.first_pool = 1;
        assert_eq!(
            arena.decide(now),
            [game("q", "a", "b", 1), game("q", "b", "a", 2)]
        );
        // Room for three games: p's pair, then one leg of its next.
        let mut arena = Arena::new(2, &[("a", 4), ("b", 4), ("c", 2)]);
        if let Some(c) = arena.present.get_mut("c") {
            c.pools = Some(vec!["q".to_owned()]);
        }
        arena.room = 3;
        let games = arena.decide(now);
        assert_eq!(games.len(), 3, "{games:?}");
        // q, looked at after p, got nothing: no room left.
        assert!(games.iter().all(|g| g.0 == "p"), "{games:?}");
        // Next time q is first: the slots left and room for one more game.
        arena.room = 1;
        for g in &games {
            let (south, north) = (g.1.clone(), g.2.clone());
            arena.playing(&south, &north, now);
        }
        assert_eq!(arena.decide(now), [game("q", "a", "b", 1)]);
    }

    #[test]
    fn a_new_version_meets_its_predecessor_first() {
        let now = Instant::now();
        // `a#2` is a's second version (crate::versions); `b` has fewer
        // pairs than anyone and would be the plain rule's choice.
        let mut arena = Arena::new(1, &[("a", 1), ("a#2", 1), ("b", 1)]);
        arena.met("p", "a", "b", 1);
        let games = arena.decide(now);
        assert_eq!(games[0], game("p", "a#2", "a", 1), "{games:?}");
    }

    /// `a` and `b` free, having met twice; `c` and `d` busy in a game
    /// begun `ago`, never met by either: rule 3 makes `a` and `b` wait for
    /// them only while they are expected free within half a usual game.
    fn rule_3_arena(usual_fast: Duration, usual_busy: Duration) -> Arena {
        let mut arena = Arena::new(1, &[("a", 1), ("b", 1), ("c", 1), ("d", 1)]);
        arena.met("p", "a", "b", 2);
        for p in ["a", "b"] {
            arena.lengths.note(p, usual_fast);
        }
        for p in ["c", "d"] {
            arena.lengths.note(p, usual_busy);
        }
        arena
    }

    #[test]
    fn rule_3_waits_for_a_busy_bot_expected_free_within_half_a_game() {
        let now = Instant::now();
        let mut arena = rule_3_arena(1000 * MS, 1000 * MS);
        // c and d's game is 100 ms from its usual end; a and b wait 500 ms.
        arena.playing("c", "d", now - 900 * MS);
        assert_eq!(arena.decide(now), []);
        // Once c and d's game is expected to last longer than that, a and b
        // play each other.
        arena.underway.clear();
        arena.busy.clear();
        arena.playing("c", "d", now - 100 * MS);
        assert_eq!(arena.decide(now), [game("p", "a", "b", 1)]);
    }

    #[test]
    fn rule_3_does_not_wait_for_a_slow_busy_bot() {
        let now = Instant::now();
        // c and d usually play for 20 s and have played 1 s: they are
        // expected free in 19 s, far past a and b's 500 ms of patience.
        let mut arena = rule_3_arena(1000 * MS, 20_000 * MS);
        arena.playing("c", "d", now - 1000 * MS);
        assert_eq!(arena.decide(now), [game("p", "a", "b", 1)]);
    }

    #[test]
    fn pairing_wait_lifts_rule_3_for_a_bot_free_that_long() {
        let t0 = Instant::now();
        let wait = Duration::from_secs(10);
        for flag in [None, Some(wait)] {
            let mut arena = rule_3_arena(1000 * MS, 1000 * MS);
            arena.pairing_wait = flag;
            arena.playing("c", "d", t0 - 900 * MS);
            assert_eq!(arena.decide(t0), []);
            // c and d are still playing, always expected free soon (a
            // quarter of a game past its usual length).
            let later = arena.decide(t0 + wait);
            match flag {
                None => assert_eq!(later, []),
                Some(_) => assert_eq!(later, [game("p", "a", "b", 1)]),
            }
        }
    }

    #[test]
    fn two_house_bots_wait_for_a_free_remote_bot_and_for_their_rate() {
        let now = Instant::now();
        let mut arena = Arena::new(1, &[("h1", 1), ("h2", 1), ("r", 1)]);
        arena.house = ["h1", "h2"].map(str::to_owned).into();
        arena.house_rate = Some(HouseRate::new(12));
        // r is free: it plays one of them, the other waits.
        let games = arena.decide(now);
        assert_eq!(games.len(), 1, "{games:?}");
        assert!(games[0].1 == "r" || games[0].2 == "r", "{games:?}");
        // Alone, the two house bots play, unless they played just now.
        let mut alone = Arena::new(1, &[("h1", 1), ("h2", 1)]);
        alone.house = arena.house.clone();
        let mut rate = HouseRate::new(12);
        rate.started("h1", "h2", now);
        alone.house_rate = Some(rate);
        assert_eq!(alone.decide(now + 60_000 * MS), []);
        assert_eq!(alone.decide(now + 600_000 * MS), [game("p", "h1", "h2", 1)]);
    }

    #[test]
    fn a_game_decided_in_one_pool_takes_its_slots_from_the_next() {
        let now = Instant::now();
        // a and b play in both pools, c only in q; p is looked at first.
        let arena = |a_slots| {
            let mut arena = Arena::new(2, &[("a", a_slots), ("b", 2), ("c", 1)]);
            if let Some(c) = arena.present.get_mut("c") {
                c.pools = Some(vec!["q".to_owned()]);
            }
            arena
        };
        // p's pair takes every slot of a and b: c finds no one in q.
        assert_eq!(
            arena(2).decide(now),
            [game("p", "a", "b", 1), game("p", "b", "a", 2)]
        );
        // With a third slot, a meets c in q.
        assert_eq!(
            arena(3).decide(now),
            [
                game("p", "a", "b", 1),
                game("p", "b", "a", 2),
                game("q", "a", "c", 1)
            ]
        );
    }
}
