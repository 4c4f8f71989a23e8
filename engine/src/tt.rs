//! The transposition table: a fixed-size array of entries addressed by the
//! Zobrist key, shared by every game (moves are stored as their index in the
//! position's generated move list, which is deterministic).

/// Which side of the window a stored score is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    Exact,
    /// The true score is at least this (a fail-high).
    Lower,
    /// The true score is at most this (a fail-low).
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub key: u64,
    pub score: i32,
    pub depth: u8,
    pub bound: Bound,
    /// Index of the best move in the generated move list.
    pub best: u8,
}

const EMPTY: Option<Entry> = None;

pub struct Table {
    entries: Vec<Option<Entry>>,
    used: usize,
}

impl Table {
    /// A table of about `mib` MiB (at least one entry).
    pub fn new(mib: usize) -> Table {
        let bytes = mib.max(1) * 1024 * 1024;
        let n = (bytes / std::mem::size_of::<Option<Entry>>()).max(1);
        Table {
            entries: vec![EMPTY; n],
            used: 0,
        }
    }

    /// [`Table::new`], but an allocation the system refuses is an error
    /// instead of an abort (`setoption name Hash` with too little memory).
    pub fn try_new(mib: usize) -> Result<Table, std::collections::TryReserveError> {
        let bytes = mib.max(1).saturating_mul(1024 * 1024);
        let n = (bytes / std::mem::size_of::<Option<Entry>>()).max(1);
        let mut entries = Vec::new();
        entries.try_reserve_exact(n)?;
        entries.resize(n, EMPTY);
        Ok(Table { entries, used: 0 })
    }

    fn slot(&self, key: u64) -> usize {
        // why: multiply-high maps the key onto any table size without a modulo bias.
        ((u128::from(key) * self.entries.len() as u128) >> 64) as usize
    }

    pub fn get(&self, key: u64) -> Option<Entry> {
        self.entries[self.slot(key)].filter(|e| e.key == key)
    }

    /// Stores an entry, replacing a shallower or different-position one.
    pub fn put(&mut self, entry: Entry) {
        let slot = self.slot(entry.key);
        match &mut self.entries[slot] {
            Some(old)
                if old.key == entry.key
                    && old.depth > entry.depth
                    && entry.bound != Bound::Exact => {}
            Some(old) => *old = entry,
            e @ None => {
                *e = Some(entry);
                self.used += 1;
            }
        }
    }

    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = None);
        self.used = 0;
    }

    /// Fill in permille, as UCI's `hashfull`.
    pub fn hashfull(&self) -> u32 {
        (self.used as u64 * 1000 / self.entries.len() as u64) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_by_key() {
        let mut t = Table::new(1);
        let e = Entry {
            key: 42,
            score: 7,
            depth: 3,
            bound: Bound::Exact,
            best: 1,
        };
        t.put(e);
        assert_eq!(t.get(42).map(|e| e.score), Some(7));
        assert!(t.get(43).is_none());
        assert!(t.hashfull() <= 1);
        t.clear();
        assert!(t.get(42).is_none());
    }

    #[test]
    fn deeper_bound_survives_shallower_bound() {
        let mut t = Table::new(1);
        t.put(Entry {
            key: 5,
            score: 1,
            depth: 8,
            bound: Bound::Lower,
            best: 0,
        });
        t.put(Entry {
            key: 5,
            score: 2,
            depth: 2,
            bound: Bound::Upper,
            best: 0,
        });
        assert_eq!(t.get(5).map(|e| e.depth), Some(8));
        t.put(Entry {
            key: 5,
            score: 3,
            depth: 2,
            bound: Bound::Exact,
            best: 0,
        });
        assert_eq!(t.get(5).map(|e| e.score), Some(3));
    }
}
