//! Leave values learned by self-play: what the tiles kept after a move are worth, in points of the
//! player's next move.
//!
//! [`learn`] plays games between bots that take the top score every turn (so that what they keep
//! is whatever that leaves, not a choice), records each leave with the points its player scored
//! on their next turn, and fits a linear model by least squares: a value per letter and for the
//! blank, a cost per duplicate, and a cost per vowel off a balanced rack. A leave's worth is the
//! model's prediction less that of no tiles at all.
//!
//! With `synergy`, the model also has a value per pair of tiles kept together (a letter with
//! itself is a duplicate), so tiles that make words together (E with S, I with N, the blank with
//! anything) are worth more than apart, and awkward pairs less.
//!
//! The tables are learned by `selfplay --learn-leaves` and kept as text in `engine/data/leaves/`,
//! per tile set: the linear one the Master bot uses, and the one with pairs
//! (`<tiles>.synergy.txt`) the Expert uses.

use rules::{
    game::TurnEvent, Action, GameConfig, GameState, HandTile, Lexicon, RuleSet, Status, TileSet,
    Variant,
};

use crate::{movegen::Move, Generator, Trie};

/// Letters that count as vowels for the balance feature.
const VOWELS: &str = "AEIOUYÅÄÖÆØ";

/// A learned table of leave values for one tile set.
#[derive(Debug, Clone, PartialEq)]
pub struct Leaves {
    /// Per letter index of the tile set.
    pub letters: Vec<f64>,
    /// Per blank kept.
    pub blank: f64,
    /// Per tile kept that repeats one already kept.
    pub duplicate: f64,
    /// Per vowel off 40 % of the tiles kept (either way).
    pub imbalance: f64,
    /// Per pair of tiles kept together, by [`pair`] of their kinds; empty for a linear table.
    pub pairs: Vec<f64>,
    /// Samples the table was learned from.
    pub samples: usize,
}

/// A tile's kind for the pairs: its letter index, the blank after the letters.
fn kind(tiles: &TileSet, tile: HandTile) -> Option<usize> {
    match tile {
        HandTile::Letter(l) => Some(usize::from(l.0)),
        HandTile::Blank => Some(tiles.letters.len()),
        HandTile::Arrow | HandTile::Stop => None,
    }
}

/// How many kinds there are, and so pairs of them.
fn pair_count(tiles: &TileSet) -> usize {
    let kinds = tiles.letters.len() + 1;
    kinds * (kinds + 1) / 2
}

/// The index of the unordered pair of kinds `a` and `b`.
fn pair(a: usize, b: usize) -> usize {
    let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
    hi * (hi + 1) / 2 + lo
}

/// Every pair of tiles in `left`, by [`pair`] index.
fn pairs_of(tiles: &TileSet, left: &[HandTile]) -> impl Iterator<Item = usize> {
    let kinds: Vec<usize> = left.iter().filter_map(|&t| kind(tiles, t)).collect();
    (0..kinds.len()).flat_map(move |i| {
        let kinds = kinds.clone();
        (i + 1..kinds.len()).map(move |j| pair(kinds[i], kinds[j]))
    })
}

/// What a leave is made of, as the model reads it: bias, letters…, blank, duplicate, imbalance,
/// then with `synergy` the pairs.
fn features(tiles: &TileSet, left: &[HandTile], synergy: bool) -> Vec<f64> {
    let letters = tiles.letters.len();
    let pairs = if synergy { pair_count(tiles) } else { 0 };
    let mut x = vec![0.0; letters + 4 + pairs];
    if synergy {
        for p in pairs_of(tiles, left) {
            x[letters + 4 + p] += 1.0;
        }
    }
    x[0] = 1.0;
    let mut vowels = 0.0;
    let mut seen: Vec<HandTile> = Vec::with_capacity(left.len());
    for &tile in left {
        match tile {
            HandTile::Letter(l) => {
                if let Some(slot) = x.get_mut(1 + usize::from(l.0)) {
                    *slot += 1.0;
                }
                if VOWELS.contains(tiles.char_of(l)) {
                    vowels += 1.0;
                }
            }
            HandTile::Blank => x[letters + 1] += 1.0,
            HandTile::Arrow | HandTile::Stop => {}
        }
        if seen.contains(&tile) {
            x[letters + 2] += 1.0;
        }
        seen.push(tile);
    }
    x[letters + 3] = (vowels - 0.4 * left.len() as f64).abs();
    x
}

impl Leaves {
    /// What keeping `left` is worth, in points.
    pub fn value(&self, tiles: &TileSet, left: &[HandTile]) -> f64 {
        let x = features(tiles, left, false);
        let weights = self
            .letters
            .iter()
            .chain([&self.blank, &self.duplicate, &self.imbalance]);
        let linear: f64 = x[1..].iter().zip(weights).map(|(x, w)| x * w).sum();
        if self.pairs.is_empty() {
            return linear;
        }
        linear
            + pairs_of(tiles, left)
                .map(|p| self.pairs.get(p).copied().unwrap_or(0.0))
                .sum::<f64>()
    }

    /// The linear table learned for the tile set `tiles`, if one is shipped.
    pub fn shipped(tiles: &TileSet) -> Option<&'static Leaves> {
        use std::sync::OnceLock;
        static TABLES: OnceLock<Vec<(&'static str, Leaves)>> = OnceLock::new();
        find(TABLES.get_or_init(|| read_all(SHIPPED)), tiles)
    }

    /// The table with pairs learned for the tile set `tiles`, if one is shipped.
    pub fn shipped_synergy(tiles: &TileSet) -> Option<&'static Leaves> {
        use std::sync::OnceLock;
        static TABLES: OnceLock<Vec<(&'static str, Leaves)>> = OnceLock::new();
        find(TABLES.get_or_init(|| read_all(SHIPPED_SYNERGY)), tiles)
    }

    /// The table as text: `<letter> <value>` per line, then `? `, `dup `, `imbalance `.
    pub fn to_text(&self, tiles: &TileSet) -> String {
        let mut out = format!(
            "# leave values for the {} tiles, learned from {} samples\n",
            tiles.id, self.samples
        );
        for (i, value) in self.letters.iter().enumerate() {
            let ch = tiles.char_of(rules::Letter(i as u8));
            out.push_str(&format!("{ch} {value:.2}\n"));
        }
        out.push_str(&format!(
            "? {:.2}\ndup {:.2}\nimbalance {:.2}\n",
            self.blank, self.duplicate, self.imbalance
        ));
        let kinds = tiles.letters.len() + 1;
        let name = |k: usize| match k == kinds - 1 {
            true => '?',
            false => tiles.char_of(rules::Letter(k as u8)),
        };
        for hi in 0..kinds {
            for lo in 0..=hi {
                let value = self.pairs.get(pair(lo, hi)).copied().unwrap_or(0.0);
                if value.abs() >= 0.005 {
                    out.push_str(&format!("{}{} {value:.2}\n", name(lo), name(hi)));
                }
            }
        }
        out
    }

    /// Reads [`Leaves::to_text`]'s text for the tile set `tiles`.
    pub fn parse(text: &str, tiles: &TileSet) -> Option<Leaves> {
        let letters = tiles.letters.len();
        let mut table = Leaves {
            letters: vec![0.0; letters],
            blank: 0.0,
            duplicate: 0.0,
            imbalance: 0.0,
            pairs: Vec::new(),
            samples: 0,
        };
        if let Some(samples) = text
            .lines()
            .next()
            .and_then(|l| l.split("learned from ").nth(1))
            .and_then(|l| l.split(' ').next()?.parse().ok())
        {
            table.samples = samples;
        }
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let (key, value) = line.split_once(' ')?;
            let value: f64 = value.trim().parse().ok()?;
            match key {
                "?" => table.blank = value,
                "dup" => table.duplicate = value,
                "imbalance" => table.imbalance = value,
                two if two.chars().count() == 2 => {
                    let kind_of = |ch: char| match ch {
                        '?' => Some(letters),
                        ch => tiles.letter(ch).map(|l| usize::from(l.0)),
                    };
                    let mut chars = two.chars().filter_map(kind_of);
                    let (a, b) = (chars.next()?, chars.next()?);
                    if table.pairs.is_empty() {
                        table.pairs = vec![0.0; pair_count(tiles)];
                    }
                    *table.pairs.get_mut(pair(a, b))? = value;
                }
                letter => {
                    let ch = letter.chars().next()?;
                    let l = tiles.letter(ch)?;
                    *table.letters.get_mut(usize::from(l.0))? = value;
                }
            }
        }
        Some(table)
    }
}

/// The tables in `shipped`, read.
fn read_all(shipped: &[(&'static str, &str)]) -> Vec<(&'static str, Leaves)> {
    shipped
        .iter()
        .filter_map(|(id, text)| Some((*id, Leaves::parse(text, TileSet::by_id(id)?)?)))
        .collect()
}

fn find<'t>(tables: &'t [(&'static str, Leaves)], tiles: &TileSet) -> Option<&'t Leaves> {
    tables
        .iter()
        .find(|(id, _)| *id == tiles.id)
        .map(|(_, table)| table)
}

/// The shipped tables with pairs: tile set id and text. Only where the Expert using one beat the
/// Expert before it in self-play: Feud's (learned the same way) won 49.5 % of 1,000 games, so
/// Feud and Alfa Kraft keep the Expert of before.
const SHIPPED_SYNERGY: &[(&str, &str)] = &[(
    "classic_en_100",
    include_str!("../data/leaves/classic_en_100.synergy.txt"),
)];

/// The shipped linear tables: tile set id and text.
const SHIPPED: &[(&str, &str)] = &[
    (
        "classic_en_100",
        include_str!("../data/leaves/classic_en_100.txt"),
    ),
    ("feud_en", include_str!("../data/leaves/feud_en.txt")),
];

/// Learns a table from `games` games of `variant` between top-score bots, seeded from `seed`;
/// with `synergy`, with a value per pair of tiles kept.
pub fn learn<L: Lexicon + ?Sized>(
    variant: Variant,
    trie: &Trie,
    lexicon: &L,
    games: u64,
    seed: u64,
    synergy: bool,
) -> Leaves {
    let rules = RuleSet::new(variant);
    let letters = rules.tiles.letters.len();
    let mut generator = Generator::new(trie, &rules);
    let mut scratch = Vec::new();
    let mut normal = Normal::new(letters + 4 + if synergy { pair_count(rules.tiles) } else { 0 });
    for g in 0..games {
        let config = GameConfig {
            variant,
            dictionary: "en".into(),
            seed: seed.wrapping_add(g),
            players: 2,
            first_seat: 0,
            format: rules::Format::Casual,
        };
        let mut state = GameState::new(config);
        // Per seat, the leave of its last move while tiles remained to draw.
        let mut pending: [Option<Vec<f64>>; 2] = [None, None];
        let mut turns = 0;
        while *state.status() == Status::Playing && turns < 200 {
            turns += 1;
            let seat = state.to_move();
            let hand = state.hand(seat).to_vec();
            let chosen = generator.best(state.board(), &hand, &mut scratch);
            let left = chosen.map_or_else(|| hand.clone(), |m| leave(&hand, &m));
            let action = match chosen {
                Some(m) => Action::Play {
                    seat,
                    placement: m.placement(),
                },
                None => Action::Pass { seat },
            };
            let bag_before = state.bag().len();
            let before = state.history().len();
            if state.apply(&action, lexicon).is_err() {
                let _ = state.apply(&Action::Pass { seat }, lexicon);
            }
            let points = state.history()[before..]
                .iter()
                .filter(|r| r.seat == seat)
                .map(|r| match r.event {
                    TurnEvent::Play { total, .. } => total,
                    _ => 0,
                })
                .sum::<i32>();
            // This move's points are what the last leave of this seat led to.
            if let Some(x) = pending[usize::from(seat)].take() {
                normal.add(&x, f64::from(points));
            }
            // A leave is worth learning while the bag still refills the rack.
            if bag_before > usize::from(rules.hand_size) {
                pending[usize::from(seat)] = Some(features(rules.tiles, &left, synergy));
            }
        }
    }
    // Pairs seen rarely are pulled toward nothing rather than fitted to a few games.
    let samples = normal.samples;
    let weights = normal.solve(if synergy { 5.0 } else { 1e-3 });
    Leaves {
        letters: weights[1..=letters].to_vec(),
        blank: weights[letters + 1],
        duplicate: weights[letters + 2],
        imbalance: weights[letters + 3],
        pairs: weights[letters + 4..].to_vec(),
        samples,
    }
}

/// The normal equations of a least-squares fit, summed sample by sample (a few hundred
/// features over millions of samples: the samples are not kept).
struct Normal {
    /// XᵀX beside Xᵀy, as rows of n + 1.
    a: Vec<Vec<f64>>,
    samples: usize,
}

impl Normal {
    fn new(n: usize) -> Normal {
        Normal {
            a: vec![vec![0.0; n + 1]; n],
            samples: 0,
        }
    }

    fn add(&mut self, x: &[f64], y: f64) {
        let n = x.len();
        let nonzero: Vec<usize> = (0..n).filter(|&i| x[i] != 0.0).collect();
        for &i in &nonzero {
            for &j in &nonzero {
                self.a[i][j] += x[i] * x[j];
            }
            self.a[i][n] += x[i] * y;
        }
        self.samples += 1;
    }

    /// Solves (XᵀX + λI) w = Xᵀy by Gaussian elimination with partial pivoting.
    fn solve(self, lambda: f64) -> Vec<f64> {
        least_squares(self.a, lambda)
    }
}

fn least_squares(mut a: Vec<Vec<f64>>, lambda: f64) -> Vec<f64> {
    let n = a.len();
    for (i, row) in a.iter_mut().enumerate() {
        row[i] += lambda;
    }
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&p, &q| a[p][col].abs().total_cmp(&a[q][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        let p = a[col][col];
        if p.abs() < 1e-12 {
            continue;
        }
        let pivot_row = a[col].clone();
        for (r, row) in a.iter_mut().enumerate() {
            if r != col {
                let f = row[col] / p;
                if f != 0.0 {
                    for (x, pivot) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                        *x -= f * pivot;
                    }
                }
            }
        }
    }
    (0..n)
        .map(|i| {
            if a[i][i].abs() < 1e-12 {
                0.0
            } else {
                a[i][n] / a[i][i]
            }
        })
        .collect()
}

/// The hand without the tiles the move uses.
pub fn leave(hand: &[HandTile], m: &Move) -> Vec<HandTile> {
    let mut left = hand.to_vec();
    for used in m.hand_tiles() {
        if let Some(i) = left.iter().position(|t| *t == used) {
            left.remove(i);
        }
    }
    left
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn least_squares_recovers_a_line() {
        let mut normal = Normal::new(2);
        for i in 0..20 {
            normal.add(&[1.0, f64::from(i)], 3.0 + 2.0 * f64::from(i));
        }
        let w = normal.solve(0.0);
        assert!(
            (w[0] - 3.0).abs() < 1e-9 && (w[1] - 2.0).abs() < 1e-9,
            "{w:?}"
        );
    }

    #[test]
    fn the_shipped_english_table_reads_and_values_the_blank_highest() {
        let tiles = RuleSet::new(Variant::Classic).tiles;
        let table = Leaves::shipped(tiles).expect("the English table");
        assert!(table.samples > 10_000);
        let blank = table.value(tiles, &[HandTile::Blank]);
        for l in 0..tiles.letters.len() {
            let letter = table.value(tiles, &[HandTile::Letter(rules::Letter(l as u8))]);
            assert!(
                blank > letter,
                "the blank beats {}",
                tiles.char_of(rules::Letter(l as u8))
            );
        }
        assert_eq!(table.value(tiles, &[]), 0.0);
        let round_trip = Leaves::parse(&table.to_text(tiles), tiles).unwrap();
        assert!((round_trip.blank - table.blank).abs() < 0.01);
    }

    #[test]
    fn the_table_with_pairs_values_tiles_that_make_words_together() {
        let tiles = RuleSet::new(Variant::Classic).tiles;
        let table = Leaves::shipped_synergy(tiles).expect("the English table with pairs");
        assert!(table.samples > 1_000_000);
        assert_eq!(table.pairs.len(), pair_count(tiles));
        let hand = |text: &str| -> Vec<HandTile> {
            text.chars()
                .map(|c| match c {
                    '?' => HandTile::Blank,
                    c => HandTile::Letter(tiles.letter(c).unwrap()),
                })
                .collect()
        };
        let value = |text: &str| table.value(tiles, &hand(text));
        // A pair's worth is more than its letters' apart where they make words together, and
        // duplicates cost.
        let apart = |a: &str, b: &str| value(a) + value(b);
        assert!(
            value("ES") > apart("E", "S"),
            "ES {} against {}",
            value("ES"),
            apart("E", "S")
        );
        assert!(value("II") < apart("I", "I"));
        assert!(value("QU") > apart("Q", "U"));
        // A bingo-prone leave is worth far more than an awkward one of as many tiles.
        assert!(value("AEINST") > value("UUVWQI") + 15.0);
        // Read back as written.
        let round_trip = Leaves::parse(&table.to_text(tiles), tiles).unwrap();
        assert!((round_trip.value(tiles, &hand("AEINST")) - value("AEINST")).abs() < 0.2);
    }
}
