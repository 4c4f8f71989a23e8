//! What a KGP listener's connections share, over both transports: the
//! registry their tokens are checked against, whose tokens it takes, the
//! limits, and the greetings in progress. A leaf: the listener
//! ([`crate::remote::kgp`]) and each connection
//! ([`crate::remote::kgp::conn`]) use it.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::front::conn_limits::{Admission, Names};
use crate::remote::limits::Limits;
use crate::remote::registry::Registry;

/// The games a KGP bot plays (the engine spec's, where `proto=kgp` is read).
pub use arbiter_core::contender::config::KGP_GAMES as GAMES;

/// KGP's registered port, the default of `--kgp-listen`.
pub const PORT: u16 = 2671;

/// Connections greeted but not yet past `mode` at once, over both
/// transports; more are refused (`error`, then closed).
pub const MAX_GREETINGS: usize = 64;
/// The same from one client address: why a share, not only a total, is
/// that 64 silent connections from one machine, each held for the whole
/// authentication deadline, would otherwise lock every other bot out.
pub const MAX_GREETINGS_PER_ADDRESS: usize = 8;

/// What the greetings' refusals say.
const GREETINGS: Names = Names {
    what: "KGP greetings in progress",
    max: "the KGP listener's limit",
    per_address: "the KGP listener's limit per address",
};

/// Whose tokens the KGP endpoint takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Speakers {
    /// Only these remote ids (an event's `proto=kgp` engines); other ids'
    /// tokens are refused here (they connect to `/umi`).
    Only(BTreeSet<String>),
    /// Every bot the registry's gate knows (the arena: a bot's account is
    /// the same whichever protocol it speaks).
    Any,
}

impl Speakers {
    /// Whether `remote` may connect over KGP.
    pub fn admits(&self, remote: &str) -> bool {
        match self {
            Speakers::Only(ids) => ids.contains(remote),
            Speakers::Any => true,
        }
    }
}

/// What the listener's connections share.
pub struct KgpEndpoint {
    pub registry: Arc<Registry>,
    /// Whose tokens are taken here.
    pub speakers: Speakers,
    pub limits: Limits,
    /// The greetings in progress, in all and by the bot's address.
    pub(crate) greetings: Admission,
}

impl KgpEndpoint {
    /// An endpoint greeting at most [`MAX_GREETINGS`] bots at once,
    /// [`MAX_GREETINGS_PER_ADDRESS`] from one address.
    pub fn new(registry: Arc<Registry>, speakers: Speakers, limits: Limits) -> KgpEndpoint {
        KgpEndpoint {
            registry,
            speakers,
            limits,
            greetings: Admission::counting(GREETINGS, MAX_GREETINGS, MAX_GREETINGS_PER_ADDRESS),
        }
    }

    /// The same, greeting at most `max` bots at once, `per_address` from
    /// one address.
    pub fn with_greetings(mut self, max: usize, per_address: usize) -> KgpEndpoint {
        self.greetings = Admission::counting(GREETINGS, max, per_address);
        self
    }
}
