//! Throttles and limits. New accounts per address and server-side analyses per player are
//! counted in memory by a sliding window ([`Limiter`]): each instance counts its own, so N
//! instances allow N times the rate, which still bounds what one address can make. Sign-in
//! failures, which must not multiply with instances, are counted in the database
//! ([`sign_ins`]).

pub mod sign_ins;

use std::{
    collections::{HashMap, VecDeque},
    sync::Mutex,
    time::{Duration, Instant},
};

/// New accounts one address may make in an hour, unless the server is told otherwise.
pub const NEW_ACCOUNTS_PER_HOUR: usize = 30;

/// Analyses one player may ask of the server in an hour (the browser's own are not counted).
pub const ANALYSES_PER_HOUR: usize = 10;

/// The client's address, put into each request by the server (from the connection) so the limits
/// can count per address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientAddr(pub std::net::IpAddr);

/// Counts events per key (a client address, a player) within a window.
#[derive(Debug)]
pub struct Limiter {
    max_events: usize,
    window: Duration,
    events: Mutex<HashMap<String, VecDeque<Instant>>>,
}

impl Limiter {
    /// At most `max_events` events per key within `window`.
    pub fn new(max_events: usize, window: Duration) -> Limiter {
        Limiter {
            max_events,
            window,
            events: Mutex::new(HashMap::new()),
        }
    }

    /// New accounts, sign-ups and guests together: `per_hour` per address.
    pub fn new_accounts(per_hour: usize) -> Limiter {
        Limiter::new(per_hour, Duration::from_secs(60 * 60))
    }

    /// `None` when every key may try now, else how long until the first of them may.
    pub fn check(&self, keys: &[&str]) -> Option<Duration> {
        let now = Instant::now();
        let mut events = self.events.lock().unwrap_or_else(|e| e.into_inner());
        keys.iter()
            .filter_map(|key| {
                let times = events.get_mut(*key)?;
                while times
                    .front()
                    .is_some_and(|t| now.duration_since(*t) >= self.window)
                {
                    times.pop_front();
                }
                (times.len() >= self.max_events).then(|| self.window - now.duration_since(times[0]))
            })
            .max()
    }

    /// Records an event for every key.
    pub fn record(&self, keys: &[&str]) {
        let now = Instant::now();
        let mut events = self.events.lock().unwrap_or_else(|e| e.into_inner());
        // Keys with no event for a window are dropped, so the map cannot grow without end.
        if events.len() > 100_000 {
            events.retain(|_, t| {
                t.back()
                    .is_some_and(|t| now.duration_since(*t) < self.window)
            });
        }
        for key in keys {
            events.entry((*key).to_string()).or_default().push_back(now);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_applies_per_key() {
        let limiter = Limiter::new(3, Duration::from_secs(60));
        for _ in 0..3 {
            assert_eq!(limiter.check(&["ann", "1.2.3.4"]), None);
            limiter.record(&["ann", "1.2.3.4"]);
        }
        let wait = limiter.check(&["ann"]).expect("ann is limited");
        assert!(wait > Duration::from_secs(50) && wait <= Duration::from_secs(60));
        assert!(
            limiter.check(&["bob", "1.2.3.4"]).is_some(),
            "the address is limited too"
        );
        assert_eq!(limiter.check(&["bob", "5.6.7.8"]), None);
    }

    #[test]
    fn events_age_out_of_the_window() {
        let limiter = Limiter::new(1, Duration::from_millis(1));
        limiter.record(&["ann"]);
        std::thread::sleep(Duration::from_millis(5));
        assert_eq!(limiter.check(&["ann"]), None);
    }
}
