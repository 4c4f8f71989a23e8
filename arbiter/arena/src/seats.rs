//! Both sides of the arena's bots as one [`Seats`]: the house bots it runs
//! itself and the remote bots that connect, each bot seated from the side
//! it is on.

use std::sync::Arc;

use mancala_rules::GameId;

use crate::house::House;
use crate::lobby::Seats;
use crate::remote::RemoteBots;
use arbiter_core::contender::session::{Fault, Session};

/// The house bots' seats and the remote bots': a bot is seated from the
/// side it is on (a house bot's name is never a remote bot's: the gate
/// refuses its token).
pub struct BothSeats {
    pub house: Arc<House>,
    pub remote: Arc<RemoteBots>,
}

impl BothSeats {
    fn side(&self, bot: &str) -> &dyn Seats {
        if self.house.has(bot) {
            &*self.house
        } else {
            &*self.remote
        }
    }

    async fn seat_now(
        &self,
        bot: &str,
        game: GameId,
        options: &[(String, String)],
    ) -> Result<Session, Fault> {
        self.side(bot).seat(bot, game, options).await
    }

    async fn release_now(&self, bot: &str, session: Session, fit: bool) {
        self.side(bot).release(bot, session, fit).await
    }

    fn live_now(&self, bot: &str) -> bool {
        self.side(bot).is_live(bot)
    }
}

crate::lobby::seats_by_async_methods!(BothSeats, live_now);
