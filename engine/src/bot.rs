//! Bots: five levels, each with a displayed rank, from a beginner who plays short words to a
//! master that values the tiles it keeps as self-play taught it, simulates its best candidates
//! two moves deep for as long as its budget allows or until the best is settled, and searches
//! the end of the game ([`crate::endgame`]) once the bag holds one tile or none. A bot decides
//! from its own [`PlayerView`] alone: the board, its hand, the bag's size and the public history.

use std::time::Duration;

// std's natively; the browser's clock in wasm, where std has none (a bot in a Web Worker).
use web_time::Instant;

use rules::{
    bag::Rng,
    board::Square,
    lexicon::AcceptAll,
    play::{evaluate, Situation},
    powers::{coins_for, earned_tiles, POWER_BAR_SLOTS},
    ruleset::SwapRule,
    Action, HandTile, Placement, Played, PlayerView, Power, RuleSet, Seat, StagedPower,
};

use crate::{
    endgame::{stuck_cost, Clock},
    leaves::leave,
    movegen::Move,
    Generator, Trie,
};

/// How strong a bot plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Short words, rarely the best one.
    Beginner,
    /// A fair move, not the best.
    Casual,
    /// The highest score every turn.
    Club,
    /// Score plus the value of the tiles kept, checked against the opponent's best reply.
    Expert,
    /// Leave values learned by self-play, an exchange where the rules allow one, and the best
    /// candidates simulated two moves deep (the opponent's best reply on a sampled rack, then
    /// its own best next move with what it kept and drew) within a time budget
    /// ([`set_master_budget`]; 1 s by default).
    Master,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 5] = [
        Level::Beginner,
        Level::Casual,
        Level::Club,
        Level::Expert,
        Level::Master,
    ];

    /// The fixed rank shown for the bot (Elo scale; players start at 1200): the Elo the levels'
    /// results against each other imply, anchored at the Club bot's 1350 (1,000 games a match in
    /// Classic and in Alfa Kraft, averaged; `selfplay` prints each match's difference). A level
    /// that wins nearly every game against the one below it (Club against Casual won all 2,000,
    /// Casual against Beginner 99.5 %) is put 400 above it: beyond that the games say only
    /// "more".
    pub fn rank(self) -> i32 {
        match self {
            Level::Beginner => 550,
            Level::Casual => 950,
            Level::Club => 1350,
            Level::Expert => 1390,
            Level::Master => 1530,
        }
    }

    /// Display name.
    pub fn name(self) -> &'static str {
        match self {
            Level::Beginner => "Beginner",
            Level::Casual => "Casual",
            Level::Club => "Club",
            Level::Expert => "Expert",
            Level::Master => "Master",
        }
    }

    /// The level with this name (any case).
    pub fn parse(name: &str) -> Option<Level> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(name))
    }
}

/// How much of the opponent's expected best reply counts against a candidate.
const REPLY_WEIGHT: f64 = 0.5;
/// How much the Expert weighs the learned worth of what a move keeps against its points: above
/// one, as measured over 3,000 self-play games against the yardstick (1.0, 1.25, 1.5 and 2.0
/// won 58.2, 58.9, 59.2 and 50.9 %); the table predicts the next move's points alone, and a
/// good leave keeps paying after it.
const EXPERT_LEAVE_WEIGHT: f64 = 1.4;
/// How long the Expert searches an endgame or a pre-endgame: a quarter of the Master's second,
/// so it stays the quick bot it is the rest of the game.
const EXPERT_ENDGAME_BUDGET: Duration = Duration::from_millis(250);
/// How much the heuristic worth of the kept tiles counts.
const LEAVE_WEIGHT: f64 = 1.0;

/// Most time a bot may think about one move.
pub const TIME_BUDGET: Duration = Duration::from_millis(1000);

/// The Master bot's time a move, in milliseconds (1 s unless set).
static MASTER_BUDGET_MS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1000);

/// Sets how long the Master bot may think about a move (for every Master bot of the process).
pub fn set_master_budget(budget: Duration) {
    MASTER_BUDGET_MS.store(
        u64::try_from(budget.as_millis()).unwrap_or(u64::MAX),
        std::sync::atomic::Ordering::Relaxed,
    );
}

/// The Master bot's time a move.
pub fn master_budget() -> Duration {
    Duration::from_millis(MASTER_BUDGET_MS.load(std::sync::atomic::Ordering::Relaxed))
}

/// What the Master bot calls before each candidate's playout (nothing unless set).
static MASTER_COURTESY: std::sync::OnceLock<fn()> = std::sync::OnceLock::new();

/// Sets, once per process, what the Master bot calls before each candidate's playout: a server
/// passes a function that waits a little while requests are being served, so the search fills
/// only time nobody else wants and, on a busy server, thinks less (its budget keeps running
/// while it waits). Later calls are ignored.
pub fn set_master_courtesy(pause: fn()) {
    let _ = MASTER_COURTESY.set(pause);
}

/// Candidates the Master bot simulates; the yardstick simulated fewer.
const MASTER_CANDIDATES: usize = 30;
const MASTER_CANDIDATES_BEFORE: usize = 15;
/// Replies it samples per candidate at most (one when the bag is empty: the rack is known) as
/// the yardstick: the Master of before stopped here, long before its budget.
const MASTER_SAMPLES: u32 = 60;
/// The most rounds of playouts: the budget ends a move long before.
const MASTER_MOST_SAMPLES: u32 = 5000;
/// Candidates the Master and the Expert search the endgames after, with one tile in the bag.
const PRE_ENDGAME_CANDIDATES: usize = 8;
/// Rounds played out before any candidate is dropped.
const MASTER_SETTLE_AFTER: u32 = 30;
/// Standard errors a candidate must be behind the leader by to be dropped.
const MASTER_SETTLED_Z: f64 = 2.5;
/// Budgets after which a Master move stops even inside its first round of playouts. On a
/// machine free to run it, no move comes near (the slowest of 2,000 self-play games took 1.5
/// budgets); on a server too busy to give the bot's low-priority thread its time, the move ends
/// here on its complete rounds, or on static equity when not one round is complete.
const MASTER_HARD_LIMIT: u32 = 5;
/// What earning a Golden Tile is worth to the Master bot in Alfa Kraft, in points: it doubles
/// the words through it on a later play, which added 33 points on average (median 30) to the
/// plays of Master and Club bots in 40 self-play games.
const GOLDEN_TILE_WORTH: f64 = 30.0;
/// What earning an Alfa Power Tile is worth: it doubles one letter on a later play (18 points
/// on average, median 16, in the same games).
const ALFA_POWER_TILE_WORTH: f64 = 15.0;
/// Candidates (by equity) the Master bot scores again with its earned power tiles placed.
const MASTER_POWERED: usize = 20;

/// The Expert's time for an endgame search begun at `started`.
fn expert_clock(started: Instant) -> Clock {
    Clock {
        deadline: started + EXPERT_ENDGAME_BUDGET,
        pause: MASTER_COURTESY.get().copied(),
    }
}

/// A bot for one game's ruleset and dictionary.
pub struct Bot<'a> {
    level: Level,
    /// Plays Expert as it was before its leaves were learned ([`Bot::yardstick`]).
    yardstick: bool,
    rules: &'a RuleSet,
    generator: Generator<'a>,
    reply_generator: Generator<'a>,
    rng: Rng,
    moves: Vec<Move>,
    replies: Vec<Move>,
}

impl<'a> Bot<'a> {
    /// A bot of `level`; `seed` makes its choices reproducible.
    pub fn new(level: Level, trie: &'a Trie, rules: &'a RuleSet, seed: u64) -> Bot<'a> {
        Bot {
            level,
            yardstick: false,
            rules,
            generator: Generator::new(trie, rules),
            reply_generator: Generator::new(trie, rules),
            rng: Rng::new(seed),
            moves: Vec::new(),
            replies: Vec::new(),
        }
    }

    /// Its level.
    pub fn level(&self) -> Level {
        self.level
    }

    /// The same bot as it played before its learned leaves and endgame search, the yardstick the self-play ladder
    /// measures the new one against: an Expert by the hand-written leave heuristic, exchanging
    /// only with no move at all; a Master simulating its endgames instead of solving them. Other
    /// levels are as they are.
    pub fn yardstick(mut self) -> Bot<'a> {
        self.yardstick = true;
        self
    }

    /// The bot's turn in `view` (its own view), with Alfa Kraft's powers where they pay:
    /// - Golden and Alfa Power Tiles the bot earned take the place of one of the move's letters
    ///   (every level: they are free, and worth nothing left in the bar);
    /// - Club and Expert put a Charge or a Dice on the move's best tile, buying it first, when the
    ///   points it adds (the die's average, for Dice) beat what it costs;
    /// - Club and Expert with no move at all use a Swap (bought if need be) instead of passing;
    ///   the turn goes on, and the bot is asked again with its new hand.
    pub fn decide_turn(&mut self, view: &PlayerView) -> Vec<Action> {
        let action = self.decide(view);
        if !self.rules.economy {
            return vec![action];
        }
        let (seat, placement) = match action {
            Action::Play { seat, placement } => (seat, placement),
            Action::Pass { seat } => {
                return self
                    .swap_when_stuck(view)
                    .unwrap_or_else(|| vec![Action::Pass { seat }])
            }
            other => return vec![other],
        };
        let placement = self.with_power_tiles(view, placement);
        if self.level < Level::Club || !placement.powers.is_empty() {
            return vec![Action::Play { seat, placement }];
        }
        let coins = view.coins[usize::from(seat)];
        let bar_full = view.power_bar.len() >= POWER_BAR_SLOTS;
        // Coins are worth a point each at the end, and a play earns a tenth of its score in coins:
        // a power pays when its gain beats its price by a margin.
        let best = [Power::Charge, Power::Dice]
            .into_iter()
            .filter_map(|power| {
                let owned = view.power_bar.contains(&power);
                let price = power.price()?;
                if !owned && (coins < price || bar_full) {
                    return None;
                }
                let (powered, gain) = self.best_target(view, &placement, power)?;
                let cost = if owned { 0 } else { price };
                Some((power, owned, powered, gain - f64::from(cost)))
            })
            .filter(|(_, _, _, net)| *net > 2.0)
            .max_by(|a, b| a.3.total_cmp(&b.3));
        let Some((power, owned, powered, _)) = best else {
            return vec![Action::Play { seat, placement }];
        };
        let play = Action::Play {
            seat,
            placement: powered,
        };
        if owned {
            vec![play]
        } else {
            vec![Action::Buy { seat, power }, play]
        }
    }

    /// The placement with each earned Golden or Alfa Power Tile in the bar standing in for the
    /// move's letter where it adds most: a Golden Tile doubles the words through it, an Alfa Power
    /// Tile doubles its letter. The letter it replaces stays in the hand.
    fn with_power_tiles(&self, view: &PlayerView, placement: Placement) -> Placement {
        let at = Situation {
            rules: self.rules,
            board: &view.board,
            hand: &view.hand,
            bar: &view.power_bar,
        };
        let score = |p: &Placement| evaluate(at, p, &AcceptAll, &mut || 1).ok().map(|s| s.total);
        let Some(mut best_total) = score(&placement) else {
            return placement;
        };
        let mut placement = placement;
        let earned = view
            .power_bar
            .iter()
            .filter_map(|power| match power {
                Power::GoldenTile => Some(Played::Golden as fn(_) -> _),
                Power::AlfaPowerTile => Some(Played::AlfaPower as fn(_) -> _),
                _ => None,
            })
            .collect::<Vec<_>>();
        for power_tile in earned {
            let candidates = placement.tiles.iter().enumerate().filter_map(|(i, t)| {
                let (Played::Letter(letter) | Played::Blank(letter)) = t.tile else {
                    return None;
                };
                let mut tried = placement.clone();
                tried.tiles[i].tile = power_tile(letter);
                Some((score(&tried)?, tried))
            });
            if let Some((total, tried)) = candidates.max_by_key(|(total, _)| *total) {
                if total > best_total {
                    best_total = total;
                    placement = tried;
                }
            }
        }
        placement
    }

    /// With no move: a Swap of every tile but blanks, bought first if the bar has none, when the
    /// bag can take them. Club and Expert only.
    fn swap_when_stuck(&self, view: &PlayerView) -> Option<Vec<Action>> {
        if self.level < Level::Club {
            return None;
        }
        let seat = view.seat;
        let tiles = all_but_blanks(&view.hand);
        if tiles.is_empty() || (view.bag_size as usize) < tiles.len() {
            return None;
        }
        let swap = Action::UseSwap { seat, tiles };
        if view.power_bar.contains(&Power::Swap) {
            return Some(vec![swap]);
        }
        let price = Power::Swap.price()?;
        let can_buy =
            view.coins[usize::from(seat)] >= price && view.power_bar.len() < POWER_BAR_SLOTS;
        can_buy.then(|| {
            vec![
                Action::Buy {
                    seat,
                    power: Power::Swap,
                },
                swap,
            ]
        })
    }

    /// The placement with `power` (Charge or Dice) on its most rewarding tile, and the points it
    /// adds on average (a Dice's roll is unknown until the commit: every face counts once).
    fn best_target(
        &self,
        view: &PlayerView,
        placement: &Placement,
        power: Power,
    ) -> Option<(Placement, f64)> {
        let mut bar = view.power_bar.clone();
        if !bar.contains(&power) {
            bar.push(power);
        }
        let at = Situation {
            rules: self.rules,
            board: &view.board,
            hand: &view.hand,
            bar: &bar,
        };
        let base = evaluate(at, placement, &AcceptAll, &mut || 1).ok()?.total;
        let rolls: &[u8] = match power {
            Power::Dice => &[1, 2, 3, 4, 5, 6],
            _ => &[1],
        };
        placement
            .tiles
            .iter()
            .filter(|t| matches!(t.tile, Played::Letter(_)))
            .filter_map(|t| {
                let mut powered = placement.clone();
                powered.powers.push(match power {
                    Power::Dice => StagedPower::Dice(t.pos),
                    _ => StagedPower::Charge(t.pos),
                });
                let mut sum = 0;
                for &roll in rolls {
                    sum += evaluate(at, &powered, &AcceptAll, &mut || roll).ok()?.total - base;
                }
                Some((powered, f64::from(sum) / rolls.len() as f64))
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
    }

    /// The bot's action for its turn in `view` (its own view), without shopping.
    pub fn decide(&mut self, view: &PlayerView) -> Action {
        let started = Instant::now();
        let seat = view.seat;
        // Classic: after an opponent goes out, the next player accepts by passing (the bot's own
        // moves are always valid, so it has no reason to challenge).
        let someone_out = view
            .hand_sizes
            .iter()
            .enumerate()
            .any(|(s, &n)| s != usize::from(seat) && n == 0);
        if view.bag_size == 0 && someone_out {
            return Action::Pass { seat };
        }
        let mut moves = std::mem::take(&mut self.moves);
        let chosen = if self.level == Level::Club {
            // The top score, fewest tiles: the pruning search, which never lists every move.
            self.generator.best(&view.board, &view.hand, &mut moves)
        } else {
            self.generator.generate(&view.board, &view.hand, &mut moves);
            match self.level {
                Level::Beginner => self.pick_short(&mut moves),
                Level::Casual => self.pick_fair(&mut moves),
                Level::Master => match self.pick_master(view, &moves, started) {
                    MasterChoice::Play(m) => Some(m),
                    MasterChoice::Exchange(tiles) => {
                        self.moves = moves;
                        return Action::Exchange { seat, tiles };
                    }
                    MasterChoice::Nothing => None,
                },
                _ => match self.pick_expert(view, &moves, started) {
                    MasterChoice::Play(m) => Some(m),
                    MasterChoice::Exchange(tiles) => {
                        self.moves = moves;
                        return Action::Exchange { seat, tiles };
                    }
                    MasterChoice::Nothing => None,
                },
            }
        };
        self.moves = moves;
        match chosen {
            Some(m) => Action::Play {
                seat,
                placement: m.placement(),
            },
            None => self.no_move(view, seat),
        }
    }

    fn pick_short(&mut self, moves: &mut [Move]) -> Option<Move> {
        moves.sort_by_key(|m| m.score);
        let short: Vec<Move> = moves.iter().copied().filter(|m| m.main_len <= 4).collect();
        let pool = if short.is_empty() {
            moves.to_vec()
        } else {
            short
        };
        // The lower 60% by score.
        let cut = (pool.len() * 3).div_ceil(5).max(1).min(pool.len());
        (!pool.is_empty()).then(|| pool[self.rng.below(cut)])
    }

    fn pick_fair(&mut self, moves: &mut [Move]) -> Option<Move> {
        if moves.is_empty() {
            return None;
        }
        moves.sort_by_key(|m| m.score);
        // Between the 40th and the 85th percentile.
        let lo = moves.len() * 2 / 5;
        let hi = (moves.len() * 17 / 20).max(lo + 1).min(moves.len());
        Some(moves[lo + self.rng.below(hi - lo)])
    }

    /// The endgame searched where it can be ([`Bot::endgame_choice`]); else static equity: the
    /// move's points plus what it keeps, by the learned leaves with pairs, weighted
    /// [`EXPERT_LEAVE_WEIGHT`], with one tile in the bag the pre-endgame after the best of them,
    /// and where the rules allow one, the exchange that keeps the rack's best tiles, as a
    /// candidate of its own. Without a learned table for the tile set, in Alfa Kraft, or as the
    /// yardstick, the Expert of before ([`Bot::pick_yardstick`]).
    fn pick_expert(&mut self, view: &PlayerView, moves: &[Move], started: Instant) -> MasterChoice {
        let tiles = self.rules.tiles;
        // Only a table with pairs measured stronger (Classic's): elsewhere the linear tables
        // play no better than the Expert of before.
        let table = crate::leaves::Leaves::shipped_synergy(tiles);
        if let Some(solved) = self.endgame_choice(view, expert_clock(started)) {
            return solved;
        }
        // Alfa Kraft's powers outweigh what a move keeps: there the look-ahead measured better.
        let Some(table) = table.filter(|_| !self.yardstick && !self.rules.economy) else {
            return self
                .pick_yardstick(view, moves, started)
                .map_or(MasterChoice::Nothing, MasterChoice::Play);
        };
        let worth = |left: &[HandTile]| EXPERT_LEAVE_WEIGHT * self.leave_worth(view, table, left);
        let mut ranked: Vec<(f64, &Move)> = moves
            .iter()
            .map(|m| (f64::from(m.score) + worth(&leave(&view.hand, m)), m))
            .collect();
        if view.bag_size == 1 {
            ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        }
        let best_first = ranked.iter().map(|(_, m)| **m);
        if let Some(chosen) = self.pre_endgame_choice(view, best_first, expert_clock(started)) {
            return MasterChoice::Play(chosen);
        }
        let best = ranked.into_iter().max_by(|a, b| a.0.total_cmp(&b.0));
        let exchange = Some(table)
            .filter(|_| self.may_exchange(view))
            .and_then(|table| best_keep(tiles, table, &view.hand));
        match (best, exchange) {
            (Some((_, m)), None) => MasterChoice::Play(*m),
            (Some((equity, m)), Some(keep)) if equity >= EXPERT_LEAVE_WEIGHT * keep.worth => {
                MasterChoice::Play(*m)
            }
            (_, Some(keep)) => MasterChoice::Exchange(keep.given),
            (None, None) => MasterChoice::Nothing,
        }
    }

    /// With two players and the bag empty, the endgame searched within `clock`: the opponent's
    /// rack is what the player has not seen.
    fn endgame_choice(&mut self, view: &PlayerView, clock: Clock) -> Option<MasterChoice> {
        if view.bag_size != 0 || !self.searchable(view) {
            return None;
        }
        let unseen = unseen_tiles(self.rules, view);
        let solved = crate::endgame::solve(
            &mut self.reply_generator,
            self.rules,
            &view.board,
            &view.hand,
            &unseen,
            clock,
        )?;
        Some(
            solved
                .best
                .map_or(MasterChoice::Nothing, MasterChoice::Play),
        )
    }

    /// With two players and one tile in the bag, which of `candidates` (best first, the first
    /// [`PRE_ENDGAME_CANDIDATES`] of them) leads to the best endgame, searched within `clock`.
    fn pre_endgame_choice(
        &mut self,
        view: &PlayerView,
        candidates: impl Iterator<Item = Move>,
        clock: Clock,
    ) -> Option<Move> {
        if view.bag_size != 1 || !self.searchable(view) {
            return None;
        }
        let candidates: Vec<Move> = candidates.take(PRE_ENDGAME_CANDIDATES).collect();
        let unseen = unseen_tiles(self.rules, view);
        crate::endgame::pre_endgame(
            &mut self.reply_generator,
            self.rules,
            &view.board,
            &view.hand,
            &unseen,
            &candidates,
            clock,
        )
    }

    /// Whether the game's end can be searched: two players, rules without powers or special
    /// tiles, and not the yardstick, which played before the search was written.
    fn searchable(&self, view: &PlayerView) -> bool {
        !self.yardstick && view.hand_sizes.len() == 2 && crate::endgame::applies(self.rules)
    }

    /// The Expert of before its leaves were learned: static equity by the hand-written leave
    /// heuristic picks eight candidates, then each loses half the opponent's best reply on a few
    /// sampled racks, while half the time budget lasts.
    fn pick_yardstick(
        &mut self,
        view: &PlayerView,
        moves: &[Move],
        started: Instant,
    ) -> Option<Move> {
        if moves.is_empty() {
            return None;
        }
        let unseen = unseen_tiles(self.rules, view);
        let mut ranked: Vec<(f64, Move)> = moves
            .iter()
            .map(|m| {
                (
                    f64::from(m.score)
                        + LEAVE_WEIGHT * leave_value(self.rules, &leave(&view.hand, m)),
                    *m,
                )
            })
            .collect();
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        ranked.truncate(8);
        // Look one reply ahead while the budget lasts: the opponent's best score on sampled racks.
        let samples = if view.bag_size > 0 { 4 } else { 1 };
        let rack_size = usize::from(self.rules.hand_size).min(unseen.len());
        let mut best = ranked[0];
        let mut best_value = f64::NEG_INFINITY;
        for (equity, m) in ranked {
            if started.elapsed() > TIME_BUDGET / 2 {
                break;
            }
            let board = m.played_on(&view.board);
            let mut reply_total = 0i32;
            for _ in 0..samples {
                let rack = sample(&unseen, rack_size, &mut self.rng);
                let mut replies = std::mem::take(&mut self.replies);
                let reply = self
                    .reply_generator
                    .best(&board, &rack, &mut replies)
                    .map_or(0, |r| r.score);
                self.replies = replies;
                reply_total += reply;
            }
            let value = equity - REPLY_WEIGHT * f64::from(reply_total) / f64::from(samples);
            if value > best_value {
                best_value = value;
                best = (equity, m);
            }
        }
        Some(best.1)
    }

    /// What keeping `left` is worth by the learned `table`, or once the bag is empty, what the
    /// tiles cost their holder at the end (and, where the rules say so, give the player who goes
    /// out).
    fn leave_worth(
        &self,
        view: &PlayerView,
        table: &crate::leaves::Leaves,
        left: &[HandTile],
    ) -> f64 {
        if view.bag_size > 0 {
            return table.value(self.rules.tiles, left);
        }
        -f64::from(stuck_cost(self.rules, left))
    }

    /// With two players and the bag empty, the endgame is searched instead; with one tile in
    /// the bag, the endgames after the best candidates. Otherwise static equity with learned
    /// leave values picks the candidates; then, round after round while the time budget lasts,
    /// each still running is played out on one deal from the unseen tiles: the opponent's best
    /// reply on a sampled rack, then the bot's own best next move with what it kept and drew,
    /// ending on the worth of what that move keeps. A candidate clearly behind the leader is
    /// dropped ([`Tally::settle`]); the search ends when one is left. The candidate whose static
    /// value plus its average playout is highest wins. (As the yardstick: at most 60 rounds, none
    /// dropped, and with the bag empty one exact playout.)
    ///
    /// Where the ruleset lets a turn exchange tiles, keeping the rack's best subset (by learned
    /// value) and giving back the rest is a candidate too, simulated the same way on the board
    /// as it stands.
    fn pick_master(&mut self, view: &PlayerView, moves: &[Move], started: Instant) -> MasterChoice {
        let budget = master_budget();
        let tiles = self.rules.tiles;
        let learned = crate::leaves::Leaves::shipped(tiles);
        let bag_empty = view.bag_size == 0;
        // What the player has not seen: the opponent's rack and the bag.
        let unseen = unseen_tiles(self.rules, view);
        let clock = Clock {
            deadline: started + budget,
            pause: MASTER_COURTESY.get().copied(),
        };
        if let Some(solved) = self.endgame_choice(view, clock) {
            return solved;
        }
        // Once the bag is empty, tiles held at the end count against their holder, and (where
        // the rules say so) for the player who went out.
        let worth = |left: &[HandTile]| -> f64 {
            if bag_empty {
                -f64::from(stuck_cost(self.rules, left))
            } else {
                learned.map_or_else(
                    || leave_value(self.rules, left),
                    |table| table.value(tiles, left),
                )
            }
        };
        let (ranked, exchange) = self.master_candidates(view, moves, &worth, learned);
        if ranked.is_empty() {
            return MasterChoice::Nothing;
        }
        let best_first = ranked.iter().filter_map(|(_, m)| *m);
        if let Some(m) = self.pre_endgame_choice(view, best_first, clock) {
            return MasterChoice::Play(m);
        }
        let boards: Vec<rules::Board> = ranked
            .iter()
            .map(|(_, m)| m.map_or_else(|| view.board.clone(), |m| m.played_on(&view.board)))
            .collect();
        // What each candidate keeps, for the player's own next move.
        let kept: Vec<Vec<HandTile>> = ranked
            .iter()
            .map(|(_, m)| match (m, &exchange) {
                (Some(m), _) => leave(&view.hand, m),
                (None, Some(keep)) => keep.kept.clone(),
                (None, None) => Vec::new(),
            })
            .collect();
        // The playout stands in for the kept tiles' worth.
        let statics = ranked
            .iter()
            .zip(&kept)
            .map(|((equity, _), kept)| equity - worth(kept))
            .collect();
        let mut tally = Tally::new(statics);
        let samples = match (bag_empty, self.yardstick) {
            (true, _) => 1,
            (false, true) => MASTER_SAMPLES,
            (false, false) => MASTER_MOST_SAMPLES,
        };
        // A round is not begun when it would end past the budget (the last one's time foretells
        // the next's), so a move takes at most about the budget.
        let mut last_round = Duration::ZERO;
        let hard_limit = budget * MASTER_HARD_LIMIT;
        'rounds: while tally.rounds < samples
            && (tally.rounds == 0 || started.elapsed() + last_round < budget)
        {
            let round_started = Instant::now();
            // One deal per round, the same for every candidate: their differences are the moves'.
            let (rack, draws) = self.deal(&unseen, bag_empty);
            let mut round = vec![0.0f64; ranked.len()];
            for k in (0..ranked.len()).filter(|&k| tally.alive[k]) {
                if let Some(pause) = MASTER_COURTESY.get() {
                    pause();
                }
                if started.elapsed() > hard_limit {
                    break 'rounds;
                }
                let deal = Deal {
                    board: &boards[k],
                    kept: &kept[k],
                    goes_out: bag_empty && kept[k].is_empty() && ranked[k].1.is_some(),
                    rack: &rack,
                    draws: &draws,
                };
                round[k] = self.playout(&deal, bag_empty, &worth);
            }
            tally.add(&round);
            last_round = round_started.elapsed();
            if !self.yardstick && tally.settle() {
                break;
            }
        }
        let best = (0..ranked.len())
            .filter(|&k| tally.alive[k])
            // Static equity if the hard limit came before one round was complete.
            .map(|k| match tally.rounds {
                0 => (ranked[k].0, ranked[k].1),
                _ => (tally.value(k), ranked[k].1),
            })
            .max_by(|a, b| a.0.total_cmp(&b.0));
        match (best, exchange) {
            (Some((_, Some(m))), _) => MasterChoice::Play(m),
            (Some((_, None)), Some(keep)) => MasterChoice::Exchange(keep.given),
            _ => MasterChoice::Nothing,
        }
    }

    /// A deal from the `unseen` tiles: the opponent's rack (all of them once the bag is empty)
    /// and what the player draws next.
    fn deal(&mut self, unseen: &[HandTile], bag_empty: bool) -> (Vec<HandTile>, Vec<HandTile>) {
        let hand_size = usize::from(self.rules.hand_size);
        let mut pool = unseen.to_vec();
        let rack: Vec<HandTile> = if bag_empty {
            std::mem::take(&mut pool)
        } else {
            (0..hand_size.min(pool.len()))
                .map(|_| pool.swap_remove(self.rng.below(pool.len())))
                .collect()
        };
        let draws = (0..hand_size.min(pool.len()))
            .map(|_| pool.swap_remove(self.rng.below(pool.len())))
            .collect();
        (rack, draws)
    }

    /// What one deal adds to a candidate's score: the opponent's best reply on the dealt rack,
    /// then the player's best next move with what they kept and drew, ending on `worth` of what
    /// that keeps; with the bag empty, the end of the game where a move goes out.
    fn playout(&mut self, deal: &Deal, bag_empty: bool, worth: &dyn Fn(&[HandTile]) -> f64) -> f64 {
        let rack = deal.rack;
        if deal.goes_out {
            // It goes out: the game ends, and the opponent's rack is known.
            return f64::from(stuck_cost(self.rules, rack));
        }
        let mut scratch = std::mem::take(&mut self.replies);
        let reply = self.reply_generator.best(deal.board, rack, &mut scratch);
        let reply_score = reply.map_or(0.0, |r| f64::from(r.score));
        if bag_empty && reply.is_some_and(|r| r.tile_count() == rack.len()) {
            // The opponent goes out with its reply: what the player kept is stuck.
            self.replies = scratch;
            return -reply_score - f64::from(stuck_cost(self.rules, deal.kept));
        }
        // The player's next move: after that reply, with what they kept and drew; the playout
        // ends on what that move keeps, not on a rack emptied for points.
        let after = reply.map_or_else(|| deal.board.clone(), |r| r.played_on(deal.board));
        let mut next_rack = deal.kept.to_vec();
        let need = usize::from(self.rules.hand_size).saturating_sub(next_rack.len());
        next_rack.extend(deal.draws.iter().take(need));
        let next = match self.reply_generator.best(&after, &next_rack, &mut scratch) {
            Some(next) if bag_empty && next.tile_count() == next_rack.len() => {
                // It goes out next: the opponent is left with what the reply kept.
                let stuck = reply.map_or_else(|| rack.to_vec(), |r| leave(rack, &r));
                f64::from(next.score) + f64::from(stuck_cost(self.rules, &stuck))
            }
            Some(next) => f64::from(next.score) + worth(&leave(&next_rack, &next)),
            None => worth(&next_rack),
        };
        self.replies = scratch;
        next - reply_score
    }

    /// The Master's candidates by static equity (score, coins and power tiles, plus `worth` of
    /// what a move keeps), the best [`MASTER_CANDIDATES`] of them, and the exchange, when the
    /// rules allow one, as a candidate of its own (`None` in place of a move).
    fn master_candidates(
        &self,
        view: &PlayerView,
        moves: &[Move],
        worth: &dyn Fn(&[HandTile]) -> f64,
        learned: Option<&crate::leaves::Leaves>,
    ) -> (Vec<(f64, Option<Move>)>, Option<Keep>) {
        let mut ranked: Vec<(f64, Option<Move>)> = moves
            .iter()
            .map(|m| {
                let gains = f64::from(m.score) + self.economy_worth(view, m);
                (gains + worth(&leave(&view.hand, m)), Some(*m))
            })
            .collect();
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        if self.rules.economy && view.power_bar.iter().any(|p| p.price().is_none()) {
            // An earned tile doubles a word or a letter of the play it joins: the best
            // candidates count what it would add to each.
            ranked.truncate(MASTER_POWERED);
            for (equity, m) in &mut ranked {
                if let Some(m) = m {
                    *equity += self.power_tiles_gain(view, m);
                }
            }
            ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        }
        ranked.truncate(match self.yardstick {
            true => MASTER_CANDIDATES_BEFORE,
            false => MASTER_CANDIDATES,
        });
        let exchange = learned
            .filter(|_| self.may_exchange(view))
            .and_then(|table| best_keep(self.rules.tiles, table, &view.hand));
        if let Some(keep) = &exchange {
            ranked.push((keep.worth, None));
        }
        (ranked, exchange)
    }

    /// In Alfa Kraft, what a move earns beside its points: its coins (a point each at the end)
    /// and the power tiles it earns while the bar has room for them.
    fn economy_worth(&self, view: &PlayerView, m: &Move) -> f64 {
        if !self.rules.economy {
            return 0.0;
        }
        let coins = f64::from(coins_for(m.score));
        // The bar keeps what it has room for, in the order the tiles are earned.
        let room = POWER_BAR_SLOTS.saturating_sub(view.power_bar.len());
        let rewards: f64 = earned_tiles(m.tile_count(), usize::from(m.words))
            .take(room)
            .map(|power| match power {
                Power::GoldenTile => GOLDEN_TILE_WORTH,
                Power::AlfaPowerTile => ALFA_POWER_TILE_WORTH,
                _ => 0.0, // only earned tiles are earned
            })
            .sum();
        coins + rewards
    }

    /// The points the bar's earned Golden and Alfa Power Tiles add to `m` when they join it
    /// (see [`Bot::with_power_tiles`]).
    fn power_tiles_gain(&self, view: &PlayerView, m: &Move) -> f64 {
        let at = Situation {
            rules: self.rules,
            board: &view.board,
            hand: &view.hand,
            bar: &view.power_bar,
        };
        let powered = self.with_power_tiles(view, m.placement());
        evaluate(at, &powered, &AcceptAll, &mut || 1)
            .map_or(0.0, |scored| f64::from(scored.total - m.score))
    }

    /// Whether the ruleset lets this turn be an exchange of a full rack's worth.
    fn may_exchange(&self, view: &PlayerView) -> bool {
        let bag = view.bag_size as usize;
        match self.rules.swap {
            SwapRule::Never => false,
            SwapRule::WhileBagHolds(n) => bag >= usize::from(n),
            SwapRule::WhileBagHasEnough => bag >= view.hand.len(),
        }
    }

    fn no_move(&mut self, view: &PlayerView, seat: Seat) -> Action {
        let can_exchange = match self.rules.swap {
            SwapRule::Never => false,
            SwapRule::WhileBagHolds(n) => view.bag_size >= u32::from(n),
            SwapRule::WhileBagHasEnough => view.bag_size as usize >= view.hand.len(),
        };
        if can_exchange && !view.hand.is_empty() {
            let tiles = all_but_blanks(&view.hand);
            if !tiles.is_empty()
                && (self.rules.swap != SwapRule::WhileBagHasEnough
                    || view.bag_size as usize >= tiles.len())
            {
                return Action::Exchange { seat, tiles };
            }
        }
        Action::Pass { seat }
    }
}

/// What the Master bot does with its turn.
enum MasterChoice {
    /// This move.
    Play(Move),
    /// Give these tiles back.
    Exchange(Vec<HandTile>),
    /// Nothing to play or exchange.
    Nothing,
}

/// One round's deal for one candidate of the Master's: the board after it, what it keeps, and
/// the opponent's rack and the player's draws, the same for every candidate.
struct Deal<'d> {
    board: &'d rules::Board,
    kept: &'d [HandTile],
    /// Whether it empties the rack with the bag empty: the game ends on it.
    goes_out: bool,
    rack: &'d [HandTile],
    draws: &'d [HandTile],
}

/// The Master's candidates as their playouts come in: each one's value besides its playouts,
/// what each round's deal added to it, and whether it is still in the running.
struct Tally {
    statics: Vec<f64>,
    /// Per candidate, a value per round (candidates dropped stop being played out).
    playouts: Vec<Vec<f64>>,
    alive: Vec<bool>,
    rounds: u32,
}

impl Tally {
    fn new(statics: Vec<f64>) -> Tally {
        let n = statics.len();
        Tally {
            statics,
            playouts: vec![Vec::new(); n],
            alive: vec![true; n],
            rounds: 0,
        }
    }

    /// Counts a complete round: `round[k]` for each candidate still running.
    fn add(&mut self, round: &[f64]) {
        for (k, value) in round.iter().enumerate() {
            if self.alive[k] {
                self.playouts[k].push(*value);
            }
        }
        self.rounds += 1;
    }

    /// Its value: the static part and the playouts' average.
    fn value(&self, k: usize) -> f64 {
        let playouts = &self.playouts[k];
        self.statics[k] + playouts.iter().sum::<f64>() / playouts.len().max(1) as f64
    }

    /// Drops the candidates clearly behind the leader: those whose difference from it, over
    /// the deals both were played out on (every deal since the start: the leader was never
    /// dropped), is below zero with [`MASTER_SETTLED_Z`] standard errors to spare. Whether one
    /// is left: the move is settled.
    fn settle(&mut self) -> bool {
        if self.rounds < MASTER_SETTLE_AFTER {
            return false;
        }
        let running = || (0..self.alive.len()).filter(|&k| self.alive[k]);
        let Some(leader) = running().max_by(|&a, &b| self.value(a).total_cmp(&self.value(b)))
        else {
            return true;
        };
        let n = self.rounds as f64;
        let behind: Vec<usize> = running()
            .filter(|&k| k != leader)
            .filter(|&k| {
                let diffs = self.playouts[k].iter().zip(&self.playouts[leader]);
                let (sum, squares) = diffs.fold((0.0, 0.0), |(s, q), (a, b)| {
                    let d = a - b;
                    (s + d, q + d * d)
                });
                let mean = sum / n;
                let variance = (squares / n - mean * mean).max(0.0) * n / (n - 1.0);
                let gap = self.statics[k] - self.statics[leader] + mean;
                gap + MASTER_SETTLED_Z * (variance / n).sqrt() < 0.0
            })
            .collect();
        for k in behind {
            self.alive[k] = false;
        }
        self.alive.iter().filter(|&&alive| alive).count() == 1
    }
}

/// An exchange's split of the rack.
struct Keep {
    /// What the kept tiles are worth (learned).
    worth: f64,
    kept: Vec<HandTile>,
    given: Vec<HandTile>,
}

/// The rack's best subset to keep when exchanging (by learned value; at least one tile goes).
fn best_keep(
    tiles: &rules::TileSet,
    table: &crate::leaves::Leaves,
    hand: &[HandTile],
) -> Option<Keep> {
    let n = hand.len().min(12);
    (0u32..(1 << n) - 1)
        .map(|mask| {
            let pick = |keep: bool| -> Vec<HandTile> {
                (0..n)
                    .filter(|i| (mask & (1 << i) != 0) == keep)
                    .map(|i| hand[i])
                    .collect()
            };
            let kept = pick(true);
            Keep {
                worth: table.value(tiles, &kept),
                kept,
                given: pick(false),
            }
        })
        .max_by(|a, b| a.worth.total_cmp(&b.worth))
}

/// The tiles a bot gives back when it exchanges or swaps: all but blanks, which are worth keeping.
fn all_but_blanks(hand: &[HandTile]) -> Vec<HandTile> {
    hand.iter()
        .copied()
        .filter(|t| *t != HandTile::Blank)
        .collect()
}

/// A rough worth of the tiles kept: blanks and (in English) S help, high letters and duplicates
/// hurt, and a balance of vowels and consonants helps.
pub fn leave_value(rules: &RuleSet, left: &[HandTile]) -> f64 {
    let tiles = rules.tiles;
    let mut value = 0.0;
    let mut vowels = 0.0;
    let mut seen: Vec<HandTile> = Vec::new();
    for &tile in left {
        match tile {
            HandTile::Blank => value += 20.0,
            HandTile::Letter(l) => {
                let ch = tiles.char_of(l);
                let face = f64::from(tiles.value(l));
                value -= 0.8 * (face - 2.0).max(0.0);
                if ch == 'S' {
                    value += 6.0;
                }
                if "AEIOUYÅÄÖÆØ".contains(ch) {
                    vowels += 1.0;
                }
                if seen.contains(&tile) {
                    value -= 4.0;
                }
            }
            HandTile::Arrow | HandTile::Stop => {}
        }
        seen.push(tile);
    }
    let n = left.len() as f64;
    value - 3.0 * (vowels - 0.4 * n).abs()
}

/// Tiles the bot cannot see: the full bag less the board and its own hand.
pub fn unseen_tiles(rules: &RuleSet, view: &PlayerView) -> Vec<HandTile> {
    let mut pool: Vec<HandTile> = rules::bag::Bag::full(rules.tiles, 0).tiles().to_vec();
    let mut take = |tile: HandTile| {
        if let Some(i) = pool.iter().position(|t| *t == tile) {
            pool.swap_remove(i);
        }
    };
    for (_, square) in view.board.cells() {
        if let Square::Tile(t) = square {
            match t.kind {
                rules::board::TileKind::Blank => take(HandTile::Blank),
                rules::board::TileKind::Normal => {
                    take(HandTile::Letter(t.printed.unwrap_or(t.letter)))
                }
                _ => {}
            }
        }
    }
    for &tile in &view.hand {
        take(tile);
    }
    pool
}

fn sample(pool: &[HandTile], n: usize, rng: &mut Rng) -> Vec<HandTile> {
    let mut pool = pool.to_vec();
    (0..n.min(pool.len()))
        .map(|_| pool.swap_remove(rng.below(pool.len())))
        .collect()
}
