//! Static evaluation, one implementation per game.

pub mod pits;
pub mod tablebase;
pub mod tb_score;

use mancala_rules::games::bohnenspiel::{Bean, BeanMove};
use mancala_rules::games::bosh::Bosh;
use mancala_rules::games::kalah::KalahBoard;
use mancala_rules::games::kimasai::Kimasai;
use mancala_rules::games::kujifunza::Kujifunza;
use mancala_rules::games::oware::Oware;
use mancala_rules::Game;
use mancala_tablebase::Tablebase;

/// A position's static value in centi-seeds (100 = one seed of advantage) for
/// the side to move.
pub trait Evaluate: Game {
    fn evaluate(&self) -> i32;

    /// The exact score of this position from an endgame database, with the
    /// moves that keep it (`None`: no database for this game, or the
    /// position is not in it). See [`tb_score::score`].
    fn tablebase(&self, _tb: &Tablebase) -> Option<(i32, Vec<Self::Move>)> {
        None
    }

    /// Only the exact score (the search's leaves): [`Evaluate::tablebase`]
    /// without the moves.
    fn tablebase_score(&self, _tb: &Tablebase) -> Option<i32> {
        None
    }
}

/// Kimasai: stones are everything (a player without stones loses, and no
/// position ever repeats); a little weight on mobility breaks ties.
impl Evaluate for Kimasai {
    fn evaluate(&self) -> i32 {
        let me = self.side_to_move();
        let material = self.stone_count(me) as i32 - self.stone_count(me.opponent()) as i32;
        let mobility = self.movable().count_ones() as i32;
        100 * material + 2 * mobility
    }
}

/// Bosh: the match is about stones held. Reserves are safe; stones in one's
/// own holes still have to survive the round, so they count a little less.
impl Evaluate for Bosh {
    fn evaluate(&self) -> i32 {
        let me = self.side_to_move();
        let reserves = self.reserves();
        let reserve = i32::from(reserves[me.index()]) - i32::from(reserves[me.opponent().index()]);
        let total = self.stones_of(me) as i32 - self.stones_of(me.opponent()) as i32;
        let board = total - reserve;
        100 * reserve + 70 * board
    }
}

/// Bohnenspiel (both variants): beans in the store are won for good; beans on
/// one's own side are worth a little (they keep the player able to move and,
/// at the end, may be swept to him).
impl<const HEMPRICH: bool> Evaluate for Bean<HEMPRICH> {
    fn evaluate(&self) -> i32 {
        let me = self.side_to_move();
        let stores = self.stores();
        let store = i32::from(stores[me.index()]) - i32::from(stores[me.opponent().index()]);
        let side = self.beans_on(me) as i32 - self.beans_on(me.opponent()) as i32;
        100 * store + 10 * side
    }

    fn tablebase(&self, tb: &Tablebase) -> Option<(i32, Vec<BeanMove>)> {
        let probe = tb.probe(self).ok()??;
        let score = tb_score::score(self.side_to_move(), probe.scores);
        Some((score, probe.moves))
    }

    #[inline]
    fn tablebase_score(&self, tb: &Tablebase) -> Option<i32> {
        let value = tb.value(self)?;
        let me = self.side_to_move();
        let stores = self.stores();
        // The mover's gain g with g + g' = beans on the board, g - g' = value.
        let beans = self.beans_on_board() as i32;
        let mine = (beans + value) / 2;
        let mut scores = stores.map(u32::from);
        scores[me.index()] += mine as u32;
        scores[me.opponent().index()] += (beans - mine) as u32;
        Some(tb_score::score(me, scores))
    }
}

/// Kujifunza: seeds change hands by capture, so seeds owned are material;
/// an empty front row loses, so occupied front holes count extra.
impl Evaluate for Kujifunza {
    fn evaluate(&self) -> i32 {
        let me = self.side_to_move();
        let seeds = |s| self.circuit(s).iter().map(|&n| i32::from(n)).sum::<i32>();
        let front = |s| self.front_row(s).iter().filter(|&&n| n > 0).count() as i32;
        100 * (seeds(me) - seeds(me.opponent())) + 30 * (front(me) - front(me.opponent()))
    }
}

/// Kalah (both sizes): [`pits::kalah`].
impl<const SEEDS: u8> Evaluate for KalahBoard<SEEDS> {
    fn evaluate(&self) -> i32 {
        pits::kalah(self)
    }
}

/// Oware: [`pits::oware`].
impl Evaluate for Oware {
    fn evaluate(&self) -> i32 {
        pits::oware(self)
    }
}

/// The one-ply greedy mover the strength bars are measured against: an
/// immediate win if there is one, otherwise the move after which this
/// evaluation is best for the mover (a loss only when nothing else is left).
pub fn greedy_move<G: Evaluate>(pos: &G) -> Option<G::Move> {
    let me = pos.side_to_move();
    pos.legal_move_list().into_iter().max_by_key(|&m| {
        let after = pos.after(m);
        match after.status() {
            Some(o) if o.result.winner() == Some(me) => i32::MAX,
            Some(o) if o.result.winner().is_some() => i32::MIN,
            _ if after.side_to_move() == me => after.evaluate(),
            _ => -after.evaluate(),
        }
    })
}
