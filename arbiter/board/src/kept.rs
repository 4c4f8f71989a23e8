//! The engines a page keeps between its games, as an `arbiter match` slot
//! keeps its engines: at a game's end each engine is sent `gameover` and kept
//! under the choice that started it (engine and `Level`); the next game with
//! the same choice takes it back (`newgame` … `isready`) instead of starting a
//! new process. What the next game does not choose is ended. Generic over the
//! kept thing so the bookkeeping is tested without processes.

/// What a page chose for one side: the engine and its `Level`. Two games
/// with equal keys may share an engine process (its options are the
/// server's, fixed per engine name, plus the level).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineKey {
    pub name: String,
    pub level: Option<u32>,
}

/// Engines kept between games, at most a few (one per side).
#[derive(Debug)]
pub struct Kept<T> {
    items: Vec<(EngineKey, T)>,
}

impl<T> Default for Kept<T> {
    fn default() -> Self {
        Kept { items: Vec::new() }
    }
}

impl<T> Kept<T> {
    pub fn keep(&mut self, key: EngineKey, item: T) {
        self.items.push((key, item));
    }

    /// One kept engine started under `key`, if there is one.
    pub fn take(&mut self, key: &EngineKey) -> Option<T> {
        let i = self.items.iter().position(|(k, _)| k == key)?;
        Some(self.items.swap_remove(i).1)
    }

    /// For each of `wanted` (a new game's choices), the kept engine it
    /// reuses, in order; every kept engine no choice takes is handed back
    /// in the second list, to be ended.
    pub fn assign(&mut self, wanted: &[Option<&EngineKey>]) -> (Vec<Option<T>>, Vec<T>) {
        let reused = wanted
            .iter()
            .map(|key| key.and_then(|k| self.take(k)))
            .collect();
        (reused, self.drain())
    }

    /// Everything kept (the page is closed).
    pub fn drain(&mut self) -> Vec<T> {
        self.items.drain(..).map(|(_, item)| item).collect()
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(name: &str, level: Option<u32>) -> EngineKey {
        EngineKey {
            name: name.to_owned(),
            level,
        }
    }

    #[test]
    fn the_same_choice_takes_back_its_engine() {
        let mut kept = Kept::default();
        kept.keep(key("reference", Some(3)), 101);
        let (reused, ended) = kept.assign(&[None, Some(&key("reference", Some(3)))]);
        assert_eq!(reused, vec![None, Some(101)]);
        assert!(ended.is_empty());
        assert!(kept.is_empty());
    }

    #[test]
    fn a_changed_choice_ends_the_old_engine() {
        let mut kept = Kept::default();
        kept.keep(key("reference", Some(3)), 101);
        kept.keep(key("crasher", None), 102);
        // Another level is another choice; a side made human takes nothing.
        let (reused, ended) = kept.assign(&[Some(&key("reference", Some(4))), None]);
        assert_eq!(reused, vec![None, None]);
        let mut ended = ended;
        ended.sort();
        assert_eq!(ended, vec![101, 102]);
        assert!(kept.is_empty());
    }

    #[test]
    fn the_same_engine_on_both_sides_uses_two_processes_and_sides_may_swap() {
        let mut kept = Kept::default();
        let a = key("a", None);
        let b = key("b", None);
        kept.keep(a.clone(), 1);
        kept.keep(a.clone(), 2);
        let (reused, ended) = kept.assign(&[Some(&a), Some(&a)]);
        assert_eq!(reused.iter().flatten().count(), 2);
        assert!(ended.is_empty());
        // Swapped sides: each engine is found under its own key.
        kept.keep(a.clone(), 1);
        kept.keep(b.clone(), 3);
        let (reused, ended) = kept.assign(&[Some(&b), Some(&a)]);
        assert_eq!(reused, vec![Some(3), Some(1)]);
        assert!(ended.is_empty());
        // A third seat asking for `a` when only one is kept starts a new one.
        kept.keep(a.clone(), 1);
        let (reused, _) = kept.assign(&[Some(&a), Some(&a)]);
        assert_eq!(reused, vec![Some(1), None]);
        assert_eq!(kept.len(), 0);
    }
}
