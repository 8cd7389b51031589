//! The sign-in throttle, kept in the database: every instance on one Postgres counts the same
//! failures, so a second instance is no way around it (and a restart forgets nothing).
//!
//! Three keys, each with its own doubling backoff. The strict one is the address and the name
//! together, so a guesser slows down fast; the name alone has a soft one, so guessing from many
//! addresses still slows, but the owner never waits more than half a minute; the address alone
//! catches one address trying many names. A key quiet for an hour starts over, and a success
//! clears the name's keys.

use std::time::Duration;

use crate::db::{now_ms, placeholders, Database};

/// Failed sign-ins under one kind of key: the first `free` cost nothing, then each makes the key
/// wait twice as long as the one before (1 s, 2 s, 4 s …) up to `cap`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Backoff {
    /// The key's prefix in the table.
    kind: &'static str,
    free: u32,
    cap: Duration,
}

impl Backoff {
    fn wait_after(&self, failures: u32) -> Duration {
        match failures.saturating_sub(self.free) {
            0 => Duration::ZERO,
            over => Duration::from_secs(1u64 << (over - 1).min(30)).min(self.cap),
        }
    }
}

/// Address and name together: 5 free, then up to 15 minutes.
const PAIR: Backoff = Backoff {
    kind: "pair",
    free: 5,
    cap: Duration::from_secs(15 * 60),
};
/// The name, from anywhere: 20 free, then at most 30 seconds.
const NAME: Backoff = Backoff {
    kind: "name",
    free: 20,
    cap: Duration::from_secs(30),
};
/// The address, for any name: 30 free, then up to 15 minutes.
const ADDRESS: Backoff = Backoff {
    kind: "address",
    free: 30,
    cap: Duration::from_secs(15 * 60),
};

/// A key quiet this long starts over.
const FORGET_AFTER_MS: i64 = 60 * 60 * 1000;

/// The keys a sign-in to `name` from `address` counts under, with their backoffs. A name longer
/// than any account's counts by its first 21 characters, so a request's size is not what is
/// stored: every name that long is no account's, and they may as well share their failures.
fn keys(name: &str, address: Option<&str>) -> Vec<(Backoff, String)> {
    let name: String = name
        .trim()
        .chars()
        .take(21)
        .collect::<String>()
        .to_lowercase();
    let mut keys = vec![(NAME, format!("{}:{name}", NAME.kind))];
    if let Some(address) = address {
        keys.push((PAIR, format!("{}:{address}|{name}", PAIR.kind)));
        keys.push((ADDRESS, format!("{}:{address}", ADDRESS.kind)));
    }
    keys
}

/// Forgets the failures counted against `name`, from any address: its account was closed and
/// the name is anyone's now.
pub async fn forget_name(conn: &mut sqlx::AnyConnection, name: &str) -> Result<(), sqlx::Error> {
    let name = name.trim().to_lowercase();
    // Names may hold `_`, a LIKE wildcard.
    let pattern = format!("{}:%|{}", PAIR.kind, name.replace('_', "\\_"));
    sqlx::query("DELETE FROM sign_in_failures WHERE key = $1 OR key LIKE $2 ESCAPE '\\'")
        .bind(format!("{}:{name}", NAME.kind))
        .bind(pattern)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// A key's failures as stored.
#[derive(sqlx::FromRow)]
struct Failures {
    key: String,
    failures: i64,
    last_at: i64,
}

/// How long a sign-in to `name` from `address` must still wait, if at all.
pub async fn check(
    db: &Database,
    name: &str,
    address: Option<&str>,
) -> Result<Option<Duration>, sqlx::Error> {
    let keys = keys(name, address);
    let sql = format!(
        "SELECT key, failures, last_at FROM sign_in_failures WHERE key IN ({})",
        placeholders(1, keys.len())
    );
    let mut query = sqlx::query_as::<_, Failures>(&sql);
    for (_, key) in &keys {
        query = query.bind(key);
    }
    let now = now_ms();
    let wait = query
        .fetch_all(&db.pool)
        .await?
        .into_iter()
        .filter(|f| now - f.last_at < FORGET_AFTER_MS)
        .filter_map(|f| {
            let (backoff, _) = keys.iter().find(|(_, k)| *k == f.key)?;
            let failures = u32::try_from(f.failures).unwrap_or(u32::MAX);
            let ends = f.last_at + backoff.wait_after(failures).as_millis() as i64;
            (ends > now).then(|| Duration::from_millis((ends - now) as u64))
        })
        .max();
    if wait.is_some() {
        metrics::counter!("alfakraft_rate_limited_total", "limit" => "sign_in").increment(1);
    }
    Ok(wait)
}

/// A wrong name or password: one more failure under each key.
pub async fn fail(db: &Database, name: &str, address: Option<&str>) -> Result<(), sqlx::Error> {
    metrics::counter!("alfakraft_sign_in_failures_total").increment(1);
    let now = now_ms();
    let forgotten = now - FORGET_AFTER_MS;
    // Keys quiet for an hour go, so the table holds only the last hour's failures.
    sqlx::query("DELETE FROM sign_in_failures WHERE last_at <= $1")
        .bind(forgotten)
        .execute(&db.pool)
        .await?;
    for (_, key) in keys(name, address) {
        sqlx::query(
            "INSERT INTO sign_in_failures (key, failures, last_at) VALUES ($1, 1, $2)
             ON CONFLICT (key) DO UPDATE SET
                 failures = CASE WHEN sign_in_failures.last_at <= $3 THEN 1
                                 ELSE sign_in_failures.failures + 1 END,
                 last_at = $2",
        )
        .bind(key)
        .bind(now)
        .bind(forgotten)
        .execute(&db.pool)
        .await?;
    }
    Ok(())
}

/// A success: the name's failures, and this address's against it, are forgotten. The address's
/// own count stays: one good password does not buy a guesser more tries at other names.
pub async fn succeed(db: &Database, name: &str, address: Option<&str>) -> Result<(), sqlx::Error> {
    for (backoff, key) in keys(name, address) {
        if backoff != ADDRESS {
            sqlx::query("DELETE FROM sign_in_failures WHERE key = $1")
                .bind(key)
                .execute(&db.pool)
                .await?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_its_cap() {
        let waits: Vec<u64> = (0..12).map(|n| NAME.wait_after(n).as_secs()).collect();
        assert_eq!(waits, [0; 12]);
        let waits: Vec<u64> = (20..28).map(|n| NAME.wait_after(n).as_secs()).collect();
        assert_eq!(waits, [0, 1, 2, 4, 8, 16, 30, 30]);
        assert_eq!(PAIR.wait_after(6), Duration::from_secs(1));
        assert_eq!(PAIR.wait_after(40), Duration::from_secs(15 * 60));
    }

    #[test]
    fn the_name_is_one_key_however_it_is_typed() {
        let a = keys(" Ann ", Some("1.2.3.4"));
        let b = keys("ann", Some("1.2.3.4"));
        assert_eq!(a, b);
        assert_eq!(
            a.iter().map(|(_, k)| k.as_str()).collect::<Vec<_>>(),
            ["name:ann", "pair:1.2.3.4|ann", "address:1.2.3.4"]
        );
        assert_eq!(keys("ann", None).len(), 1);
    }

    #[test]
    fn a_huge_name_is_stored_as_a_short_key() {
        let huge = "Ä".repeat(200_000);
        let all = keys(&huge, Some("1.2.3.4"));
        assert!(all.iter().all(|(_, key)| key.len() < 80), "{all:?}");
        // Every name that long shares the one key, whatever follows its first 21 characters.
        assert_eq!(all, keys(&format!("{huge}x"), Some("1.2.3.4")));
        // A real name is untouched.
        assert_eq!(
            keys("a_twenty_char_name_x", None)[0].1,
            "name:a_twenty_char_name_x"
        );
    }
}
