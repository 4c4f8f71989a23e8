//! Failed logins by client address: a token guesser must not get unlimited
//! tries. Each address may fail [`LoginLimit::failures`] token checks
//! within [`LoginLimit::window`]; after that it is refused — before its
//! token is even looked at — until the oldest of those failures is a
//! window old (a sliding window: never more failures in any window).
//!
//! Pure: the caller passes the time, so the counting is tested without
//! waiting. Bounded: at most [`LoginLimit::addresses`] addresses are
//! tracked, each with at most `failures` instants. When the table is full,
//! addresses whose failures have all left the window are forgotten first;
//! if none has, the one whose latest failure is the oldest is forgotten
//! (its count starts again). why not refuse the newcomer instead: an
//! untracked address would then guess without limit, and why not refuse
//! everyone: one attacker with many addresses would lock every bot out.
//!
//! An IPv6 client is counted by its /64 (one host usually has a whole
//! /64, so counting single addresses would count nothing); an IPv4-mapped
//! IPv6 address is its IPv4 address.

use std::collections::{HashMap, VecDeque};
use std::net::{IpAddr, Ipv6Addr};
use std::time::{Duration, Instant};

/// How many failed token checks an address may have, within how long, and
/// how many addresses are tracked at most.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoginLimit {
    pub failures: usize,
    pub window: Duration,
    pub addresses: usize,
}

impl Default for LoginLimit {
    fn default() -> LoginLimit {
        LoginLimit {
            // why these: a bot with a mistyped token fails once and (the
            // bridge) stops; ten a minute leaves room for a few people
            // behind one NAT fixing their configuration, and is nothing to a
            // guesser of a 192-bit token.
            failures: 10,
            window: Duration::from_secs(60),
            // why: 4096 addresses × 10 instants is about 700 KB at most.
            addresses: 4096,
        }
    }
}

/// An address locked out: until when, as the wait from the moment asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Locked {
    pub retry_after: Duration,
}

impl Locked {
    /// The wait in whole seconds, rounded up, at least 1 (HTTP's
    /// `Retry-After` is whole seconds; 0 would invite a retry that is
    /// refused again).
    pub fn retry_secs(&self) -> u64 {
        let whole = self.retry_after.as_secs();
        let secs = if self.retry_after.subsec_nanos() > 0 {
            whole + 1
        } else {
            whole
        };
        secs.max(1)
    }
}

/// The failed token checks of each address, within the window.
#[derive(Debug)]
pub struct FailedLogins {
    limit: LoginLimit,
    /// Each address's failures still in the window, oldest first (at most
    /// `limit.failures`: older ones no longer matter).
    by_address: HashMap<IpAddr, VecDeque<Instant>>,
}

/// The key an address is counted under (see the module's notes).
fn key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let prefix = u128::from(v6) & !((1u128 << 64) - 1);
                IpAddr::V6(Ipv6Addr::from(prefix))
            }
        },
    }
}

impl FailedLogins {
    pub fn new(limit: LoginLimit) -> FailedLogins {
        FailedLogins {
            limit: LoginLimit {
                failures: limit.failures.max(1),
                addresses: limit.addresses.max(1),
                ..limit
            },
            by_address: HashMap::new(),
        }
    }

    pub fn limit(&self) -> LoginLimit {
        self.limit
    }

    /// Whether `ip` may have its token checked at `now`.
    pub fn check(&mut self, ip: IpAddr, now: Instant) -> Result<(), Locked> {
        let key = key(ip);
        let window = self.limit.window;
        let Some(times) = self.by_address.get_mut(&key) else {
            return Ok(());
        };
        expire(times, now, window);
        if times.is_empty() {
            self.by_address.remove(&key);
            return Ok(());
        }
        if times.len() < self.limit.failures {
            return Ok(());
        }
        // why the oldest: when it leaves the window, one more try is free.
        let free_at = times[0] + window;
        Err(Locked {
            retry_after: free_at.saturating_duration_since(now),
        })
    }

    /// Notes a failed token check of `ip` at `now`.
    pub fn failed(&mut self, ip: IpAddr, now: Instant) {
        let key = key(ip);
        if !self.by_address.contains_key(&key) && self.by_address.len() >= self.limit.addresses {
            self.make_room(now);
        }
        let times = self.by_address.entry(key).or_default();
        expire(times, now, self.limit.window);
        times.push_back(now);
        while times.len() > self.limit.failures {
            times.pop_front();
        }
    }

    /// Addresses tracked now.
    pub fn tracked(&self) -> usize {
        self.by_address.len()
    }

    /// Frees one place at least: the addresses with no failure left in the
    /// window, else the one whose latest failure is the oldest.
    fn make_room(&mut self, now: Instant) {
        let window = self.limit.window;
        self.by_address.retain(|_, times| {
            expire(times, now, window);
            !times.is_empty()
        });
        if self.by_address.len() < self.limit.addresses {
            return;
        }
        let stalest = self
            .by_address
            .iter()
            .min_by_key(|(_, times)| times.back().copied())
            .map(|(ip, _)| *ip);
        if let Some(ip) = stalest {
            self.by_address.remove(&ip);
        }
    }
}

/// Drops the failures that have left the window.
fn expire(times: &mut VecDeque<Instant>, now: Instant, window: Duration) {
    while times
        .front()
        .is_some_and(|t| now.saturating_duration_since(*t) >= window)
    {
        times.pop_front();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn limit(failures: usize, addresses: usize) -> LoginLimit {
        LoginLimit {
            failures,
            window: Duration::from_secs(60),
            addresses,
        }
    }

    #[test]
    fn an_address_is_locked_after_its_failures_until_the_oldest_leaves_the_window() {
        let mut f = FailedLogins::new(limit(3, 16));
        let t0 = Instant::now();
        let a = ip("127.0.0.1");
        for k in 0..3 {
            assert_eq!(f.check(a, t0 + Duration::from_secs(k)), Ok(()));
            f.failed(a, t0 + Duration::from_secs(k));
        }
        // The fourth try, 10 s after the first failure: refused for 50 s.
        let locked = f.check(a, t0 + Duration::from_secs(10)).unwrap_err();
        assert_eq!(locked.retry_after, Duration::from_secs(50));
        assert_eq!(locked.retry_secs(), 50);
        // Still refused a moment before the oldest failure is 60 s old …
        let just_before = t0 + Duration::from_millis(59_500);
        let locked = f.check(a, just_before).unwrap_err();
        assert_eq!(locked.retry_after, Duration::from_millis(500));
        assert_eq!(locked.retry_secs(), 1, "rounded up, never 0");
        // … and let in once it is: one more try, whose failure locks it
        // again until the second failure leaves the window.
        let freed = t0 + Duration::from_secs(60);
        assert_eq!(f.check(a, freed), Ok(()));
        f.failed(a, freed);
        let locked = f.check(a, freed).unwrap_err();
        assert_eq!(locked.retry_after, Duration::from_secs(1));
        // Long after, the address is forgotten altogether.
        assert_eq!(f.check(a, t0 + Duration::from_secs(600)), Ok(()));
        assert_eq!(f.tracked(), 0);
    }

    #[test]
    fn one_addresss_failures_do_not_lock_out_another() {
        let mut f = FailedLogins::new(limit(2, 16));
        let t0 = Instant::now();
        f.failed(ip("127.0.0.1"), t0);
        f.failed(ip("127.0.0.1"), t0);
        assert!(f.check(ip("127.0.0.1"), t0).is_err());
        assert_eq!(f.check(ip("127.0.0.2"), t0), Ok(()));
        // An IPv4-mapped IPv6 address is its IPv4 address.
        assert!(f.check(ip("::ffff:127.0.0.1"), t0).is_err());
    }

    #[test]
    fn an_ipv6_client_is_counted_by_its_64() {
        let mut f = FailedLogins::new(limit(2, 16));
        let t0 = Instant::now();
        f.failed(ip("2001:db8:1:2::1"), t0);
        f.failed(ip("2001:db8:1:2:ffff::9"), t0);
        assert!(f.check(ip("2001:db8:1:2::77"), t0).is_err());
        assert_eq!(f.check(ip("2001:db8:1:3::1"), t0), Ok(()));
    }

    #[test]
    fn the_table_is_bounded_and_forgets_the_stalest_address_when_full() {
        let mut f = FailedLogins::new(limit(2, 3));
        let t0 = Instant::now();
        let at = |s: u64| t0 + Duration::from_secs(s);
        // Three addresses, each locked (two failures), at 0 s, 1 s, 2 s.
        for (k, a) in ["10.0.0.1", "10.0.0.2", "10.0.0.3"].iter().enumerate() {
            f.failed(ip(a), at(k as u64));
            f.failed(ip(a), at(k as u64));
        }
        assert_eq!(f.tracked(), 3);
        // A fourth: the table is full and every failure is in the window,
        // so the address failing longest ago is forgotten.
        f.failed(ip("10.0.0.4"), at(3));
        assert_eq!(f.tracked(), 3);
        assert_eq!(f.check(ip("10.0.0.1"), at(3)), Ok(()), "forgotten");
        assert!(f.check(ip("10.0.0.2"), at(3)).is_err());
        assert!(f.check(ip("10.0.0.3"), at(3)).is_err());
        // Later, addresses whose failures left the window go first: at
        // 61.5 s those of 0 s and 1 s have, 10.0.0.3's (2 s) have not.
        f.failed(ip("10.0.0.5"), t0 + Duration::from_millis(61_500));
        assert!(f.tracked() <= 3);
        assert!(f
            .check(ip("10.0.0.3"), t0 + Duration::from_millis(61_500))
            .is_err());
    }

    #[test]
    fn a_failure_count_never_grows_past_the_limit() {
        let mut f = FailedLogins::new(limit(3, 4));
        let t0 = Instant::now();
        for k in 0..1000 {
            f.failed(ip("127.0.0.1"), t0 + Duration::from_millis(k));
        }
        assert_eq!(f.by_address.values().map(VecDeque::len).max(), Some(3));
        // Locked until the oldest kept failure (at 997 ms) is 60 s old.
        let locked = f
            .check(ip("127.0.0.1"), t0 + Duration::from_secs(1))
            .unwrap_err();
        assert_eq!(locked.retry_after, Duration::from_millis(59_997));
    }
}
