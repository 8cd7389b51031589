//! Bots playing each other: match results for the strength table, and positions for the bench.

use std::time::{Duration, Instant};

use rules::{
    game::{GameConfig, Status},
    notation::board_to_text,
    Format, GameState, HandTile, Lexicon, Played, RuleSet, Variant,
};

use crate::{Bot, Level, Trie};

/// A seat's bot in a match: a level, or the yardstick ([`Bot::yardstick`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Player {
    /// Its level.
    pub level: Level,
    /// Whether it plays as the yardstick.
    pub yardstick: bool,
}

impl From<Level> for Player {
    fn from(level: Level) -> Player {
        Player {
            level,
            yardstick: false,
        }
    }
}

impl Player {
    /// The yardstick the ladder measures the Expert against: Expert as it was before its leaves
    /// were learned.
    pub const EXPERT_YARDSTICK: Player = Player {
        level: Level::Expert,
        yardstick: true,
    };

    /// A level's name; `<level>-before` for that level's yardstick, and `yardstick` for
    /// [`Player::EXPERT_YARDSTICK`].
    pub fn parse(name: &str) -> Option<Player> {
        let name = name.to_ascii_lowercase();
        if name == "yardstick" {
            return Some(Player::EXPERT_YARDSTICK);
        }
        match name.strip_suffix("-before") {
            Some(level) => Level::parse(level).map(|level| Player {
                level,
                yardstick: true,
            }),
            None => Level::parse(&name).map(Player::from),
        }
    }

    /// Its name in a table.
    pub fn name(self) -> String {
        match self.yardstick {
            true => format!("{} (before)", self.level.name()),
            false => self.level.name().to_string(),
        }
    }

    fn bot<'a>(self, trie: &'a Trie, rules: &'a RuleSet, seed: u64) -> Bot<'a> {
        let bot = Bot::new(self.level, trie, rules, seed);
        match self.yardstick {
            true => bot.yardstick(),
            false => bot,
        }
    }
}

/// One finished game between two bots.
#[derive(Debug, Clone)]
pub struct GameRecord {
    /// Final scores, by level order of the match (first level, second level).
    pub scores: [i32; 2],
    /// Actions taken.
    pub turns: u32,
    /// The slowest decision.
    pub slowest: Duration,
    /// How long the first level thought about each of its turns.
    pub first_level_times: Vec<Duration>,
    /// Every position a bot moved from: board, then the mover's rack (CGP style).
    pub positions: Vec<String>,
    /// Bot actions the rules refused (always 0 unless the generator is wrong).
    pub refused: u32,
    /// Whether the game reached its end.
    pub finished: bool,
    /// Powers the bots bought.
    pub purchases: u32,
    /// Earned Golden and Alfa Power Tiles the bots placed.
    pub power_tiles: u32,
    /// Swap powers the bots used.
    pub swaps: u32,
    /// The game's config and every action the rules took, in order: the game's log.
    pub log: (GameConfig, Vec<rules::Action>),
}

/// Plays one game of `variant` between bots of `levels`; `seed` fixes the bag and the bots' choices.
/// The first level sits in seat `seed % 2`, so matches alternate who starts.
pub fn play_game<L: Lexicon + ?Sized, P: Into<Player> + Copy>(
    variant: Variant,
    levels: [P; 2],
    trie: &Trie,
    lexicon: &L,
    seed: u64,
) -> GameRecord {
    let rules = RuleSet::new(variant);
    let config = match_config(variant, seed);
    let first_level_seat = (seed % 2) as usize;
    let mut state = GameState::new(config.clone());
    let mut log = Vec::new();
    let levels = levels.map(Into::<Player>::into);
    let seat_levels = if first_level_seat == 0 {
        levels
    } else {
        [levels[1], levels[0]]
    };
    let mut bots = [
        seat_levels[0].bot(trie, &rules, seed.wrapping_mul(31)),
        seat_levels[1].bot(trie, &rules, seed.wrapping_mul(37).wrapping_add(1)),
    ];
    let mut turns = 0;
    let mut slowest = Duration::ZERO;
    let mut first_level_times = Vec::new();
    let mut positions = Vec::new();
    let mut refused = 0;
    let mut purchases = 0;
    let mut power_tiles = 0;
    let mut swaps = 0;
    while *state.status() == Status::Playing && turns < 400 {
        let seat = state.to_move();
        let view = state.view(seat);
        positions.push(format!(
            "{} {}",
            board_to_text(&view.board, rules.tiles),
            rack_text(&view.hand, &rules)
        ));
        let started = Instant::now();
        let actions = bots[usize::from(seat)].decide_turn(&view);
        slowest = slowest.max(started.elapsed());
        if usize::from(seat) == first_level_seat {
            first_level_times.push(started.elapsed());
        }
        for action in actions {
            match &action {
                rules::Action::Buy { .. } => purchases += 1,
                rules::Action::UseSwap { .. } => swaps += 1,
                rules::Action::Play { placement, .. } => {
                    power_tiles += placement
                        .tiles
                        .iter()
                        .filter(|t| matches!(t.tile, Played::Golden(_) | Played::AlfaPower(_)))
                        .count() as u32;
                }
                _ => {}
            }
            if let Err(error) = state.apply(&action, lexicon) {
                // A bot's move is always legal; if not, say so and pass to keep the game going.
                eprintln!("refused bot action {action:?}: {error}");
                refused += 1;
                let pass = rules::Action::Pass { seat };
                if state.apply(&pass, lexicon).is_ok() {
                    log.push(pass);
                }
                break;
            }
            log.push(action);
        }
        turns += 1;
    }
    let finished = *state.status() != Status::Playing;
    let finals = match state.status() {
        Status::Over(outcome) => outcome.final_scores.clone(),
        Status::Playing => state.scores().to_vec(),
    };
    let scores = if first_level_seat == 0 {
        [finals[0], finals[1]]
    } else {
        [finals[1], finals[0]]
    };
    GameRecord {
        scores,
        turns,
        slowest,
        first_level_times,
        positions,
        refused,
        finished,
        purchases,
        power_tiles,
        swaps,
        log: (config, log),
    }
}

/// A game of `variant` from `seed`, played by two Club bots until the bag holds `bag` tiles and
/// both players hold tiles, together at most `most`: an endgame to search (a pre-endgame with
/// tiles in the bag). `None` when the game ends first or the bag never holds that many.
pub fn endgame<L: Lexicon + ?Sized>(
    variant: Variant,
    trie: &Trie,
    lexicon: &L,
    seed: u64,
    bag: usize,
    most: usize,
) -> Option<GameState> {
    let rules = RuleSet::new(variant);
    let mut state = GameState::new(match_config(variant, seed));
    let mut bot = Bot::new(Level::Club, trie, &rules, seed);
    while *state.status() == Status::Playing {
        let held: Vec<usize> = (0..2).map(|s| state.view(s).hand.len()).collect();
        if state.bag().len() < bag {
            return None;
        }
        if state.bag().len() == bag && !held.contains(&0) && held.iter().sum::<usize>() <= most {
            return Some(state);
        }
        let action = bot.decide(&state.view(state.to_move()));
        state.apply(&action, lexicon).ok()?;
    }
    None
}

/// A two-player Casual game of `variant` from `seed`, as the matches play it.
fn match_config(variant: Variant, seed: u64) -> GameConfig {
    GameConfig {
        variant,
        dictionary: "en".into(),
        seed,
        players: 2,
        first_seat: 0,
        format: Format::Casual,
    }
}

/// `state` played to its end by `players` (by seat): the final scores by seat, or `None` if a bot
/// made an action the rules refused.
pub fn play_out<L: Lexicon + ?Sized>(
    mut state: GameState,
    players: [Player; 2],
    trie: &Trie,
    lexicon: &L,
    seed: u64,
) -> Option<Vec<i32>> {
    let rules = RuleSet::new(state.config().variant);
    let mut bots = players.map(|player| player.bot(trie, &rules, seed));
    while *state.status() == Status::Playing {
        let seat = state.to_move();
        for action in bots[usize::from(seat)].decide_turn(&state.view(seat)) {
            state.apply(&action, lexicon).ok()?;
        }
    }
    match state.status() {
        Status::Over(outcome) => Some(outcome.final_scores.clone()),
        Status::Playing => None,
    }
}

fn rack_text(hand: &[HandTile], rules: &RuleSet) -> String {
    hand.iter()
        .map(|t| match t {
            HandTile::Letter(l) => rules.tiles.char_of(*l),
            HandTile::Blank => '?',
            HandTile::Arrow => '>',
            HandTile::Stop => '#',
        })
        .collect()
}

/// A match's totals.
#[derive(Debug, Clone, Default)]
pub struct MatchResult {
    /// Games played.
    pub games: u32,
    /// Wins of the first and the second level.
    pub wins: [u32; 2],
    /// Drawn games.
    pub draws: u32,
    /// Sum of final scores per level.
    pub points: [i64; 2],
    /// Bot decisions made.
    pub turns: u64,
    /// The slowest single decision.
    pub slowest: Duration,
    /// How long the first level thought about each of its turns, in order of play.
    pub first_level_times: Vec<Duration>,
    /// Wall time.
    pub elapsed: Duration,
}

impl MatchResult {
    /// The first level's share of the points for wins (draws count half).
    pub fn first_win_rate(&self) -> f64 {
        (f64::from(self.wins[0]) + 0.5 * f64::from(self.draws)) / f64::from(self.games.max(1))
    }

    /// The first level's thinking time a turn at quantile `q` (0.5: the median).
    pub fn first_level_time(&self, q: f64) -> Duration {
        let mut times = self.first_level_times.clone();
        times.sort_unstable();
        let i = ((times.len() as f64 - 1.0) * q).round() as usize;
        times.get(i).copied().unwrap_or_default()
    }

    /// The rating difference the first level's score share implies (Elo's logistic curve).
    pub fn elo_difference(&self) -> f64 {
        let p = self.first_win_rate().clamp(0.001, 0.999);
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// Plays `games` games between the two levels, alternating who starts.
pub fn play_match<L: Lexicon + ?Sized, P: Into<Player> + Copy>(
    variant: Variant,
    levels: [P; 2],
    trie: &Trie,
    lexicon: &L,
    games: u32,
    seed: u64,
) -> MatchResult {
    let started = Instant::now();
    let mut result = MatchResult::default();
    for g in 0..games {
        let record = play_game(
            variant,
            levels,
            trie,
            lexicon,
            seed.wrapping_add(u64::from(g)),
        );
        result.games += 1;
        match record.scores[0].cmp(&record.scores[1]) {
            std::cmp::Ordering::Greater => result.wins[0] += 1,
            std::cmp::Ordering::Less => result.wins[1] += 1,
            std::cmp::Ordering::Equal => result.draws += 1,
        }
        result.points[0] += i64::from(record.scores[0]);
        result.points[1] += i64::from(record.scores[1]);
        result.turns += u64::from(record.turns);
        result.slowest = result.slowest.max(record.slowest);
        result.first_level_times.extend(record.first_level_times);
    }
    result.elapsed = started.elapsed();
    result
}
