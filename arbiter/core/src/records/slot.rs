//! The tags that place a logged game in its tournament's schedule, and
//! [`SlotKey`], their reading. The schedule (`crate::event::schedule`)
//! writes them; the merge, resume and the statistics read them back.

use crate::records::log::GameLog;

/// Tag with the schedule's fingerprint (`Schedule::id`).
pub const TAG_SCHEDULE: &str = "Schedule";
/// Tag `index/size`: the slot in the schedule.
pub const TAG_SLOT: &str = "Slot";
/// Tag with the pair number (the two games of a pair share it).
pub const TAG_PAIR: &str = "Pair";
/// Tag `south-north`: the engines' positions in the event's engine list.
pub const TAG_SEATS: &str = "Seats";

/// Where a logged game sits in its schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotKey {
    pub schedule: String,
    pub index: usize,
    /// The number of slots of the schedule.
    pub size: usize,
    pub pair: Option<usize>,
    /// Engine list positions of South and North.
    pub seats: Option<(usize, usize)>,
}

impl SlotKey {
    /// The key of a log written by a tournament; `None` for other logs.
    pub fn of(log: &GameLog) -> Option<SlotKey> {
        let schedule = log.tags.get(TAG_SCHEDULE)?.clone();
        let (index, size) = log.tags.get(TAG_SLOT)?.split_once('/')?;
        let seats = log.tags.get(TAG_SEATS).and_then(|s| {
            let (a, b) = s.split_once('-')?;
            Some((a.parse().ok()?, b.parse().ok()?))
        });
        Some(SlotKey {
            schedule,
            index: index.parse().ok()?,
            size: size.parse().ok()?,
            pair: log.tags.get(TAG_PAIR).and_then(|p| p.parse().ok()),
            seats,
        })
    }
}
