//! What a bot's evaluation reads off a position: hole contents in notation
//! order, the stores or reserves, the round. These are the fields of the
//! position string, typed, so that nobody parses the string by hand.

use mancala_rules::games::bohnenspiel::Bean;
use mancala_rules::games::bosh::Bosh;
use mancala_rules::games::kalah::KalahBoard;
use mancala_rules::games::kimasai::{Kimasai, HOLES as KIMASAI_HOLES};
use mancala_rules::games::kujifunza::Kujifunza;
use mancala_rules::games::oware::Oware;
use mancala_rules::games::pit::PitBoard;

/// The contents of a position, per game.
pub trait Board {
    /// Seeds (stones) per hole, index `n - 1` for hole `n`; `None` for a
    /// closed Bosh hole.
    fn holes(&self) -> Vec<Option<u8>>;
    /// Stores (Bohnenspiel) or reserves (Bosh), South first.
    fn stores(&self) -> Option<[u8; 2]> {
        None
    }
    /// The round number (Bosh).
    fn round(&self) -> Option<u32> {
        None
    }
}

impl<const HEMPRICH: bool> Board for Bean<HEMPRICH> {
    fn holes(&self) -> Vec<Option<u8>> {
        self.pits().iter().map(|&n| Some(n)).collect()
    }
    fn stores(&self) -> Option<[u8; 2]> {
        Some(Bean::stores(self))
    }
}

impl Board for Bosh {
    fn holes(&self) -> Vec<Option<u8>> {
        Bosh::holes(self).to_vec()
    }
    fn stores(&self) -> Option<[u8; 2]> {
        Some(self.reserves())
    }
    fn round(&self) -> Option<u32> {
        Some(Bosh::round(self))
    }
}

impl Board for Kimasai {
    fn holes(&self) -> Vec<Option<u8>> {
        (1..=KIMASAI_HOLES as u8)
            .map(|h| Some(u8::from(self.has_stone(h))))
            .collect()
    }
}

impl Board for Kujifunza {
    fn holes(&self) -> Vec<Option<u8>> {
        Kujifunza::holes(self).iter().map(|&n| Some(n)).collect()
    }
}

impl<const SEEDS: u8> Board for KalahBoard<SEEDS> {
    fn holes(&self) -> Vec<Option<u8>> {
        PitBoard::holes(self).iter().map(|&n| Some(n)).collect()
    }
    fn stores(&self) -> Option<[u8; 2]> {
        Some(PitBoard::stores(self))
    }
}

impl Board for Oware {
    fn holes(&self) -> Vec<Option<u8>> {
        PitBoard::holes(self).iter().map(|&n| Some(n)).collect()
    }
    fn stores(&self) -> Option<[u8; 2]> {
        Some(PitBoard::stores(self))
    }
}
