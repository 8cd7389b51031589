//! A sliding-window limit on failed attempts, kept in memory: enough to make password guessing
//! slow. Each instance counts its own attempts, so N instances allow N times the rate; the limit
//! is set so that this stays far from useful to a guesser.

use std::{
    collections::{HashMap, VecDeque},
    sync::Mutex,
    time::{Duration, Instant},
};

/// Counts failures per key (an account name, a client address) within a window.
#[derive(Debug)]
pub struct Limiter {
    max_failures: usize,
    window: Duration,
    failures: Mutex<HashMap<String, VecDeque<Instant>>>,
}

impl Limiter {
    /// At most `max_failures` failures per key within `window`.
    pub fn new(max_failures: usize, window: Duration) -> Limiter {
        Limiter {
            max_failures,
            window,
            failures: Mutex::new(HashMap::new()),
        }
    }

    /// New accounts, sign-ups and guests together: `per_hour` per address.
    pub fn new_accounts(per_hour: usize) -> Limiter {
        Limiter::new(per_hour, Duration::from_secs(60 * 60))
    }

    /// `None` when every key may try now, else how long until the first of them may.
    pub fn check(&self, keys: &[&str]) -> Option<Duration> {
        let now = Instant::now();
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        keys.iter()
            .filter_map(|key| {
                let times = failures.get_mut(*key)?;
                while times
                    .front()
                    .is_some_and(|t| now.duration_since(*t) >= self.window)
                {
                    times.pop_front();
                }
                (times.len() >= self.max_failures)
                    .then(|| self.window - now.duration_since(times[0]))
            })
            .max()
    }

    /// Records a failure for every key.
    pub fn fail(&self, keys: &[&str]) {
        let now = Instant::now();
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        // Keys nobody has failed on for a window are dropped, so the map cannot grow without end.
        if failures.len() > 100_000 {
            failures.retain(|_, t| {
                t.back()
                    .is_some_and(|t| now.duration_since(*t) < self.window)
            });
        }
        for key in keys {
            failures
                .entry((*key).to_string())
                .or_default()
                .push_back(now);
        }
    }

    /// Forgets a key's failures (after a successful sign-in to that name).
    pub fn clear(&self, key: &str) {
        self.failures
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(key);
    }
}

/// Failed sign-ins under a key: the first `free` cost nothing, then each makes the key wait twice
/// as long as the one before (1 s, 2 s, 4 s …) up to `cap`. A key quiet for an hour starts over,
/// and a success clears it. Slows a guesser to a crawl without a fixed ban.
#[derive(Debug)]
pub struct Backoff {
    free: u32,
    cap: Duration,
    keys: Mutex<HashMap<String, (u32, Instant)>>,
}

/// A key quiet this long starts over.
const FORGET_AFTER: Duration = Duration::from_secs(60 * 60);

impl Backoff {
    /// A backoff with `free` failures before the first wait, waits capped at `cap`.
    pub fn new(free: u32, cap: Duration) -> Backoff {
        Backoff {
            free,
            cap,
            keys: Mutex::new(HashMap::new()),
        }
    }

    fn wait_after(&self, failures: u32) -> Duration {
        match failures.saturating_sub(self.free) {
            0 => Duration::ZERO,
            over => Duration::from_secs(1u64 << (over - 1).min(30)).min(self.cap),
        }
    }

    /// How long `key` must still wait, if at all.
    pub fn check(&self, key: &str) -> Option<Duration> {
        let now = Instant::now();
        let keys = self.keys.lock().unwrap_or_else(|e| e.into_inner());
        let (failures, last) = *keys.get(key)?;
        if now.duration_since(last) >= FORGET_AFTER {
            return None;
        }
        let ends = last + self.wait_after(failures);
        (ends > now).then(|| ends - now)
    }

    /// Records a failure under `key`.
    pub fn fail(&self, key: &str) {
        let now = Instant::now();
        let mut keys = self.keys.lock().unwrap_or_else(|e| e.into_inner());
        // Quiet keys are dropped, so the map cannot grow without end.
        if keys.len() > 100_000 {
            keys.retain(|_, (_, last)| now.duration_since(*last) < FORGET_AFTER);
        }
        let entry = keys.entry(key.to_string()).or_insert((0, now));
        if now.duration_since(entry.1) >= FORGET_AFTER {
            entry.0 = 0;
        }
        entry.0 += 1;
        entry.1 = now;
    }

    /// Forgets `key`'s failures.
    pub fn clear(&self, key: &str) {
        self.keys
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(key);
    }
}

/// The sign-in throttle. The strict key is the address and the name together, so a guesser
/// slows down fast; the name alone has a soft one, so guessing from many addresses still slows,
/// but the owner never waits more than half a minute; the address alone catches one address
/// trying many names.
#[derive(Debug)]
pub struct SignInThrottle {
    /// Address and name together: 5 free, then up to 15 minutes.
    pair: Backoff,
    /// The name, from anywhere: 20 free, then at most 30 seconds.
    name: Backoff,
    /// The address, for any name: 30 free, then up to 15 minutes.
    address: Backoff,
}

impl Default for SignInThrottle {
    fn default() -> SignInThrottle {
        SignInThrottle {
            pair: Backoff::new(5, Duration::from_secs(15 * 60)),
            name: Backoff::new(20, Duration::from_secs(30)),
            address: Backoff::new(30, Duration::from_secs(15 * 60)),
        }
    }
}

impl SignInThrottle {
    fn keys(name: &str, address: Option<&str>) -> (String, Option<String>) {
        let name = name.trim().to_lowercase();
        let pair = address.map(|a| format!("{a}|{name}"));
        (name, pair)
    }

    /// How long a sign-in to `name` from `address` must wait, if at all.
    pub fn check(&self, name: &str, address: Option<&str>) -> Option<Duration> {
        let (name, pair) = Self::keys(name, address);
        [
            self.name.check(&name),
            pair.and_then(|k| self.pair.check(&k)),
            address.and_then(|k| self.address.check(k)),
        ]
        .into_iter()
        .flatten()
        .max()
    }

    /// A wrong name or password.
    pub fn fail(&self, name: &str, address: Option<&str>) {
        let (name, pair) = Self::keys(name, address);
        self.name.fail(&name);
        if let Some(pair) = pair {
            self.pair.fail(&pair);
        }
        if let Some(address) = address {
            self.address.fail(address);
        }
    }

    /// A success: the name's failures, and this address's against it, are forgotten.
    pub fn succeed(&self, name: &str, address: Option<&str>) {
        let (name, pair) = Self::keys(name, address);
        self.name.clear(&name);
        if let Some(pair) = pair {
            self.pair.clear(&pair);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_guesser_slows_down_and_the_owner_elsewhere_waits_half_a_minute_at_most() {
        let throttle = SignInThrottle::default();
        for _ in 0..5 {
            assert_eq!(throttle.check("Ann", Some("1.2.3.4")), None);
            throttle.fail("Ann", Some("1.2.3.4"));
        }
        // The sixth failure from that address makes the next try wait a second (then 2, 4 …).
        throttle.fail("ann", Some("1.2.3.4"));
        let wait = throttle
            .check("ann", Some("1.2.3.4"))
            .expect("the guesser waits");
        assert!(
            wait <= Duration::from_secs(1) && wait > Duration::ZERO,
            "{wait:?}"
        );
        // The owner, from another address, is not held up by those six.
        assert_eq!(throttle.check("ann", Some("5.6.7.8")), None);
        // Many addresses guessing: the name alone slows, for half a minute at most.
        for i in 0..40 {
            throttle.fail("ann", Some(&format!("10.0.0.{i}")));
        }
        let wait = throttle
            .check("ann", Some("5.6.7.8"))
            .expect("a short wait");
        assert!(wait <= Duration::from_secs(30), "{wait:?}");
        // A success clears the name.
        throttle.succeed("ann", Some("5.6.7.8"));
        assert_eq!(throttle.check("ann", Some("5.6.7.8")), None);
    }

    #[test]
    fn backoff_doubles_up_to_its_cap() {
        let backoff = Backoff::new(2, Duration::from_secs(10));
        let waits: Vec<u64> = (0..8).map(|n| backoff.wait_after(n).as_secs()).collect();
        assert_eq!(waits, [0, 0, 0, 1, 2, 4, 8, 10]);
    }

    #[test]
    fn the_limit_applies_per_key_and_clears() {
        let limiter = Limiter::new(3, Duration::from_secs(60));
        for _ in 0..3 {
            assert_eq!(limiter.check(&["ann", "1.2.3.4"]), None);
            limiter.fail(&["ann", "1.2.3.4"]);
        }
        let wait = limiter.check(&["ann"]).expect("ann is limited");
        assert!(wait > Duration::from_secs(50) && wait <= Duration::from_secs(60));
        assert!(
            limiter.check(&["bob", "1.2.3.4"]).is_some(),
            "the address is limited too"
        );
        assert_eq!(limiter.check(&["bob", "5.6.7.8"]), None);
        limiter.clear("ann");
        assert_eq!(limiter.check(&["ann"]), None);
    }

    #[test]
    fn failures_age_out_of_the_window() {
        let limiter = Limiter::new(1, Duration::from_millis(1));
        limiter.fail(&["ann"]);
        std::thread::sleep(Duration::from_millis(5));
        assert_eq!(limiter.check(&["ann"]), None);
    }
}
