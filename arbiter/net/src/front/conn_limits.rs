//! How many connections a listener holds: at most so many in all, and at
//! most so many from one client address, so that one client cannot take
//! every place. A connection is admitted with a [`Ticket`] it holds for as
//! long as it is open (a WebSocket's included); dropping the ticket gives
//! the place back.
//!
//! The same counter shares out other places a client may hold while it has
//! not yet proved who it is: the KGP listener's greetings
//! ([`crate::remote::kgp`]), each counted under its own [`Names`] so that a
//! refusal names the right limit.

use std::collections::HashMap;
use std::fmt;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};

/// The places of one listener; cheap to clone.
#[derive(Clone, Debug)]
pub struct Admission {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    max: usize,
    max_per_address: usize,
    names: Names,
    /// Open connections in all and by address (no entry: none).
    open: Mutex<Open>,
}

#[derive(Debug, Default)]
struct Open {
    total: usize,
    by_address: HashMap<IpAddr, usize>,
}

/// What a counter counts and where its limits are set, for the messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Names {
    /// What is counted: "connections", "KGP greetings in progress".
    pub what: &'static str,
    /// Where the limit in all is set: "--max-connections".
    pub max: &'static str,
    /// Where the limit per address is set.
    pub per_address: &'static str,
}

/// A listener's connections (`--max-connections`,
/// `--max-connections-per-address`).
pub const CONNECTIONS: Names = Names {
    what: "connections",
    max: "--max-connections",
    per_address: "--max-connections-per-address",
};

/// Why a connection was not admitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Full {
    /// The listener holds its most connections.
    Server { max: usize, names: Names },
    /// This address holds its most connections.
    Address {
        address: IpAddr,
        max: usize,
        names: Names,
    },
}

impl fmt::Display for Full {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Full::Server { max, names } => write!(
                f,
                "the server holds its most {} ({max}, {})",
                names.what, names.max
            ),
            Full::Address {
                address,
                max,
                names,
            } => write!(
                f,
                "{address} holds its most {} ({max}, {})",
                names.what, names.per_address
            ),
        }
    }
}

/// One admitted connection's place.
#[derive(Debug)]
pub struct Ticket {
    admission: Admission,
    address: IpAddr,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut open = self.admission.open();
        open.total -= 1;
        if let Some(n) = open.by_address.get_mut(&self.address) {
            *n -= 1;
            if *n == 0 {
                open.by_address.remove(&self.address);
            }
        }
    }
}

impl Admission {
    /// At most `max` connections, `max_per_address` from one address.
    pub fn new(max: usize, max_per_address: usize) -> Admission {
        Admission::counting(CONNECTIONS, max, max_per_address)
    }

    /// At most `max` places of what `names` names, `max_per_address` from
    /// one address.
    pub fn counting(names: Names, max: usize, max_per_address: usize) -> Admission {
        Admission {
            inner: Arc::new(Inner {
                max,
                max_per_address,
                names,
                open: Mutex::default(),
            }),
        }
    }

    // why not `lock().unwrap()`: a panic elsewhere must not stop the server
    // from admitting (the counts are updated in one step, never half).
    fn open(&self) -> MutexGuard<'_, Open> {
        self.inner
            .open
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A place for a connection from `address`, or why there is none.
    pub fn admit(&self, address: IpAddr) -> Result<Ticket, Full> {
        // why the canonical form: `::ffff:127.0.0.1` is 127.0.0.1.
        let address = address.to_canonical();
        let mut open = self.open();
        let from_here = open.by_address.get(&address).copied().unwrap_or(0);
        if from_here >= self.inner.max_per_address {
            return Err(Full::Address {
                address,
                max: self.inner.max_per_address,
                names: self.inner.names,
            });
        }
        if open.total >= self.inner.max {
            return Err(Full::Server {
                max: self.inner.max,
                names: self.inner.names,
            });
        }
        open.total += 1;
        *open.by_address.entry(address).or_default() += 1;
        drop(open);
        Ok(Ticket {
            admission: self.clone(),
            address,
        })
    }

    /// Connections open now.
    pub fn open_now(&self) -> usize {
        self.open().total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_counted_in_all_and_by_address_and_come_back() {
        let a = Admission::new(3, 2);
        let one: IpAddr = "127.0.0.1".parse().expect("address");
        let two: IpAddr = "::1".parse().expect("address");
        let t1 = a.admit(one).expect("first");
        let _t2 = a.admit(one).expect("second from one");
        assert_eq!(
            a.admit(one).unwrap_err(),
            Full::Address {
                address: one,
                max: 2,
                names: CONNECTIONS,
            }
        );
        // The same address in its IPv4-mapped form is the same address.
        let mapped: IpAddr = "::ffff:127.0.0.1".parse().expect("address");
        assert!(a.admit(mapped).is_err());
        let _t3 = a.admit(two).expect("another address");
        assert_eq!(
            a.admit(two).unwrap_err(),
            Full::Server {
                max: 3,
                names: CONNECTIONS
            }
        );
        assert_eq!(a.open_now(), 3);
        drop(t1);
        assert_eq!(a.open_now(), 2);
        let _t4 = a.admit(two).expect("a place came back");
        let full = Full::Server {
            max: 3,
            names: CONNECTIONS,
        };
        assert!(full
            .to_string()
            .contains("connections (3, --max-connections)"));
    }
}
