//! The Daily Challenge (docs/rules.md §2): one solo puzzle per dictionary per UTC day, the same for
//! everyone. The puzzle is a pure function of its seed, which the server draws from a secret of
//! the installation (so no one can compute a day's racks in advance) and keeps with the day: every
//! attempt gets the same one, and two players who play the same moves see the same racks.

use serde::{Deserialize, Serialize};

use crate::{
    game::{Format, GameConfig},
    Language, Variant,
};

pub use crate::ruleset::DAILY_TURNS as TURNS;

/// A UTC day, counted from 1970-01-01. The day rolls over at 00:00 UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Day(pub i64);

const MS_PER_DAY: i64 = 86_400_000;

impl Day {
    /// The day a unix-ms instant falls on.
    pub fn of_unix_ms(ms: i64) -> Day {
        Day(ms.div_euclid(MS_PER_DAY))
    }

    /// The day after.
    pub fn next(self) -> Day {
        Day(self.0 + 1)
    }

    /// The day before.
    pub fn previous(self) -> Day {
        Day(self.0 - 1)
    }

    /// Its date: (year, month, day of month).
    pub fn civil(self) -> (i64, u32, u32) {
        // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
        let z = self.0 + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        (yoe + era * 400 + i64::from(month <= 2), month, day)
    }

    /// The day of a `YYYY-MM-DD` date, if it is one.
    pub fn parse(text: &str) -> Option<Day> {
        let mut parts = text.splitn(3, '-');
        let year: i64 = parts.next()?.parse().ok()?;
        let month: i64 = parts.next()?.parse().ok()?;
        let day: i64 = parts.next()?.parse().ok()?;
        if !(1..=12).contains(&month) || !(1..=31).contains(&day) || text.len() != 10 {
            return None;
        }
        // A civil date to days since 1970-01-01 (the inverse of `civil`).
        let y = if month <= 2 { year - 1 } else { year };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let mp = (month + 9) % 12;
        let doy = (153 * mp + 2) / 5 + day - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        let found = Day(era * 146_097 + doe - 719_468);
        // 2026-02-31 and the like are not dates.
        (found.civil() == (year, month as u32, day as u32)).then_some(found)
    }
}

impl std::fmt::Display for Day {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (year, month, day) = self.civil();
        write!(f, "{year:04}-{month:02}-{day:02}")
    }
}

/// The seed puzzles had before they were drawn from a secret: FNV-1a over the day and the
/// dictionary version (`en@3`), which anyone can compute. Only the puzzles of days before the
/// secret keep it, so their attempts, begun with it, stay the same puzzle.
pub fn dated_seed(day: Day, dictionary: &str) -> u64 {
    format!("alfakraft-daily|{day}|{dictionary}")
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
        })
}

/// The puzzle of `seed` in `dictionary` (a version reference) with tiles of `language`.
pub fn config(seed: u64, dictionary: &str, language: Language) -> GameConfig {
    GameConfig {
        variant: Variant::Daily { language },
        dictionary: dictionary.to_string(),
        seed,
        players: 1,
        first_seat: 0,
        format: Format::Casual,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_read_and_write_as_dates() {
        assert_eq!(Day(0).to_string(), "1970-01-01");
        let day = Day::parse("2026-12-01").unwrap();
        assert_eq!(day.to_string(), "2026-12-01");
        assert_eq!(Day::of_unix_ms(1_796_083_200_000), day, "00:00 UTC");
        assert_eq!(Day::of_unix_ms(1_796_169_599_999), day, "23:59:59.999 UTC");
        assert_eq!(day.next().to_string(), "2026-12-02");
        assert_eq!(
            Day::parse("2024-02-29").unwrap().next().to_string(),
            "2024-03-01"
        );
        for bad in [
            "2026-02-30",
            "2026-13-01",
            "26-12-01",
            "2026-12-1",
            "tomorrow",
        ] {
            assert_eq!(Day::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_dated_seed_depends_on_the_day_and_the_version_only() {
        let day = Day::parse("2026-12-01").unwrap();
        assert_eq!(dated_seed(day, "en"), dated_seed(day, "en"));
        assert_ne!(dated_seed(day, "en"), dated_seed(day.next(), "en"));
        assert_ne!(dated_seed(day, "en"), dated_seed(day, "en@2"));
        assert_ne!(dated_seed(day, "en"), dated_seed(day, "sv"));
    }
}
