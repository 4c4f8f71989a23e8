//! Extending a finished (or interrupted) tournament with more rounds:
//! `--resume` with a larger `--rounds` than the results log was written with.
//!
//! The schedule is built round by round, and a round's games and openings do
//! not depend on how many rounds follow, so the first R rounds of an
//! (R + k)-round schedule are exactly the R-round schedule, slot for slot.
//! Only the fingerprint ([`crate::event::schedule::Schedule::id`]) and the
//! slot count in the tags differ. [`adopt_fewer_rounds`] recognises games of
//! the same event with fewer rounds and retags them for the longer schedule;
//! the caller replaces the results log with them (so `arbiter merge` and later
//! resumes see one schedule).

use crate::event::schedule::{EventSpec, Schedule, SlotKey};
use crate::records::log::GameLog;

/// If the games of `games` carry the fingerprint that `spec` has with fewer
/// rounds, retags them for `schedule` (the schedule of `spec`) and returns
/// that smaller round count; otherwise changes nothing and returns `None`
/// (games of another event stay foreign, and are reported as such).
pub fn adopt_fewer_rounds(
    games: &mut [GameLog],
    spec: &EventSpec,
    schedule: &Schedule,
) -> Option<usize> {
    let per_round = schedule.len() / spec.rounds.max(1);
    let key = games
        .iter()
        .filter_map(SlotKey::of)
        .find(|k| k.schedule != schedule.id)?;
    if per_round == 0 || key.size % per_round != 0 {
        return None;
    }
    let old_rounds = key.size / per_round;
    if old_rounds == 0 || old_rounds >= spec.rounds {
        return None;
    }
    let mut old_spec = spec.clone();
    old_spec.rounds = old_rounds;
    let old = Schedule::build(&old_spec);
    if old.id != key.schedule {
        return None;
    }
    for g in games.iter_mut() {
        let Some(k) = SlotKey::of(g).filter(|k| k.schedule == old.id) else {
            continue;
        };
        // why: the first rounds are the same jobs in the same slots (checked
        // in the tests); a slot outside the old schedule is left foreign.
        if let (Some(job), true) = (schedule.job(k.index), k.index < old.len()) {
            schedule.tag(g, &job);
        }
    }
    Some(old_rounds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::schedule::Format;
    use crate::records::log::tests::rules_log;
    use mancala_rules::GameId;

    fn spec(rounds: usize, event: &str) -> EventSpec {
        let games = vec![GameId::Bohnenspiel, GameId::Bosh];
        EventSpec {
            event: event.into(),
            ..crate::event::schedule::tests::spec(3, Format::RoundRobin, rounds, games)
        }
    }

    fn played(schedule: &Schedule) -> Vec<GameLog> {
        schedule
            .jobs()
            .map(|job| {
                let mut g = rules_log();
                schedule.tag(&mut g, &job);
                g
            })
            .collect()
    }

    #[test]
    fn the_first_rounds_of_a_longer_schedule_are_unchanged() {
        let short = Schedule::build(&spec(2, "e"));
        let long = Schedule::build(&spec(5, "e"));
        assert_ne!(short.id, long.id);
        // (Job has no PartialEq; its Debug text shows every field.)
        let text = |s: &Schedule, n: usize| format!("{:?}", s.jobs().take(n).collect::<Vec<_>>());
        assert_eq!(text(&long, short.len()), text(&short, short.len()));
    }

    #[test]
    fn games_of_fewer_rounds_are_retagged_for_the_longer_schedule() {
        let short = Schedule::build(&spec(2, "e"));
        let long_spec = spec(5, "e");
        let long = Schedule::build(&long_spec);
        let mut games = played(&short);
        assert_eq!(adopt_fewer_rounds(&mut games, &long_spec, &long), Some(2));
        for (g, job) in games.iter().zip(long.jobs()) {
            let k = SlotKey::of(g).unwrap();
            assert_eq!(
                (k.schedule.as_str(), k.index),
                (long.id.as_str(), job.index)
            );
            assert_eq!(k.size, long.len());
        }
        // Already adopted: nothing more to do.
        assert_eq!(adopt_fewer_rounds(&mut games, &long_spec, &long), None);
    }

    #[test]
    fn other_events_and_more_rounds_are_not_adopted() {
        let long_spec = spec(5, "e");
        let long = Schedule::build(&long_spec);
        let mut other = played(&Schedule::build(&spec(2, "another")));
        let before = other.clone();
        assert_eq!(adopt_fewer_rounds(&mut other, &long_spec, &long), None);
        assert_eq!(other, before);
        // Fewer rounds than the log: not an extension.
        let short_spec = spec(2, "e");
        let short = Schedule::build(&short_spec);
        let mut more = played(&long);
        assert_eq!(adopt_fewer_rounds(&mut more, &short_spec, &short), None);
    }
}
