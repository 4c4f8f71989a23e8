//! The plies of a game in progress that its view does not show yet: each
//! move, and the figures (time, clocks, the mover's search) of the newest
//! `delay + 1`. A hub without a delay shows the newest ply when the event
//! is read; one with a delay shows the ply `delay` behind it, whose figures
//! it then needs. Older figures are dropped as plies come, so a game that
//! nobody reads keeps little more than its moves.

use std::collections::VecDeque;

/// The unshown plies; `F`: a ply's figures (the hub's `PlyFigures`). why
/// generic: this room then needs nothing of the hub, which holds it.
#[derive(Debug)]
pub(super) struct Unshown<F> {
    /// Oldest first; the figures of all but the newest `keep` are `None`.
    plies: VecDeque<(String, Option<F>)>,
    keep: usize,
}

impl<F> Unshown<F> {
    /// For a view `delay` plies behind the game.
    pub(super) fn new(delay: u32) -> Unshown<F> {
        Unshown {
            plies: VecDeque::new(),
            keep: delay as usize + 1,
        }
    }

    pub(super) fn push(&mut self, mv: String, figures: F) {
        self.plies.push_back((mv, Some(figures)));
        if let Some(k) = self.plies.len().checked_sub(self.keep + 1) {
            self.plies[k].1 = None;
        }
    }

    pub(super) fn clear(&mut self) {
        self.plies.clear();
    }

    pub(super) fn len(&self) -> usize {
        self.plies.len()
    }

    /// Takes the oldest `n` plies: their moves, and the figures of the last
    /// of them (`None` only if it is older than `delay + 1`, which a caller
    /// that leaves the newest `delay` never asks for).
    pub(super) fn take(&mut self, n: usize) -> (Vec<String>, Option<F>) {
        let n = n.min(self.plies.len());
        let mut figures = None;
        let moves = self
            .plies
            .drain(..n)
            .map(|(mv, f)| {
                figures = f;
                mv
            })
            .collect();
        (moves, figures)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::hub::PlyFigures;

    fn figures(ply: u32) -> PlyFigures {
        PlyFigures {
            ply,
            ..PlyFigures::default()
        }
    }

    #[test]
    fn only_the_newest_plies_keep_their_figures() {
        let mut u = Unshown::new(2);
        for ply in 1..=6 {
            u.push(ply.to_string(), figures(ply));
        }
        assert_eq!(u.len(), 6);
        let kept: Vec<Option<u32>> = u
            .plies
            .iter()
            .map(|(_, f)| f.as_ref().map(|f| f.ply))
            .collect();
        assert_eq!(kept, [None, None, None, Some(4), Some(5), Some(6)]);
        // Shown up to 2 behind: plies 1 to 4, with ply 4's figures.
        let (moves, last) = u.take(u.len() - 2);
        assert_eq!(moves, ["1", "2", "3", "4"]);
        assert_eq!(last.map(|f| f.ply), Some(4));
        assert_eq!(u.len(), 2);
        assert_eq!(u.take(0), (Vec::new(), None));
    }
}
