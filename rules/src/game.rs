//! A game: ruleset + dictionary + secret seed + an append-only list of actions. Its state is a fold
//! over the actions ([`GameState::apply`]); replaying the same actions gives the same state.

use serde::{Deserialize, Serialize};

use crate::{
    bag::{Bag, Rng},
    board::{Board, Premium},
    error::RuleError,
    lexicon::Lexicon,
    play::{evaluate, first_missing, Bonus, NewTile, Placement, ScoredPlay, Situation, WordScore},
    powers::{coins_for, earned_tiles, Power, StagedPower, POWER_BAR_SLOTS, STARTING_COINS},
    ruleset::{EndAfter, FirstPlayer, RuleSet, SwapRule, Variant, WordCheck},
    tiles::HandTile,
};

/// A seat at the table, 0-based in turn order.
pub type Seat = u8;

/// Casual or Blitz: what a missed deadline does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Format {
    /// Long deadlines; running out loses.
    Casual,
    /// 120 s per turn; running out passes, with a strike when the player was away.
    Blitz,
}

/// What a game is, fixed at creation. Holds the secret seed: never sent to a player.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameConfig {
    /// Ruleset and its options.
    pub variant: Variant,
    /// Dictionary id and version, e.g. `en@1`.
    pub dictionary: String,
    /// The secret seed: bag, draws, dice, random board and first-player draw all follow from it.
    pub seed: u64,
    /// Number of seats.
    pub players: u8,
    /// Who plays first where the ruleset lets the creator decide.
    pub first_seat: Seat,
    /// Casual or Blitz.
    pub format: Format,
}

impl Format {
    /// A Blitz turn: 120 s.
    pub const BLITZ_TURN_MS: i64 = 120_000;
}

impl GameConfig {
    /// How long the player to move has for one turn, in ms, when the game is played online
    /// (docs/rules.md: Blitz 120 s; Feud 72 h; Casual 7 days, which the rulesets the sources leave
    /// silent also use so that no game waits forever). Pass-and-play has no clock.
    pub fn turn_limit_ms(&self) -> i64 {
        const HOUR: i64 = 3_600_000;
        match (self.format, self.variant) {
            (Format::Blitz, _) => Format::BLITZ_TURN_MS,
            (Format::Casual, Variant::Feud { .. }) => 72 * HOUR,
            (Format::Casual, _) => 7 * 24 * HOUR,
        }
    }
}

/// Something a player (or the clock) does. The game's log is a list of these.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Place tiles (and commit staged powers).
    Play {
        /// The seat acting.
        seat: Seat,
        /// The tiles placed and the powers committed with them.
        placement: Placement,
    },
    /// End the turn doing nothing.
    Pass {
        /// The seat acting.
        seat: Seat,
    },
    /// Exchange tiles with the bag as the whole turn.
    Exchange {
        /// The seat acting.
        seat: Seat,
        /// Tiles given back.
        tiles: Vec<HandTile>,
    },
    /// Challenge the last play (Classic).
    Challenge {
        /// Who challenges.
        seat: Seat,
    },
    /// Give up; the others win.
    Resign {
        /// The seat acting.
        seat: Seat,
    },
    /// The player to move ran out of time.
    TimedOut {
        /// The seat acting.
        seat: Seat,
        /// Whether they were away (no open connection): a Blitz strike.
        away: bool,
    },
    /// Buy a power (Alfa Kraft), at any time.
    Buy {
        /// The seat acting.
        seat: Seat,
        /// The power bought.
        power: Power,
    },
    /// Sell a power back for its full price (Alfa Kraft), at any time.
    Sell {
        /// The seat acting.
        seat: Seat,
        /// The power sold back.
        power: Power,
    },
    /// Use the Swap power: exchange tiles with the bag; the turn goes on (Alfa Kraft).
    UseSwap {
        /// The seat acting.
        seat: Seat,
        /// Tiles given back.
        tiles: Vec<HandTile>,
    },
}

impl Action {
    /// Who acts.
    pub fn seat(&self) -> Seat {
        match self {
            Action::Play { seat, .. }
            | Action::Pass { seat }
            | Action::Exchange { seat, .. }
            | Action::Challenge { seat }
            | Action::Resign { seat }
            | Action::TimedOut { seat, .. }
            | Action::Buy { seat, .. }
            | Action::Sell { seat, .. }
            | Action::UseSwap { seat, .. } => *seat,
        }
    }
}

/// A power-bar reward for a big play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Reward {
    /// Alfa Power Tile (6+ tiles) or Golden Tile (4+ words).
    pub power: Power,
    /// False when the bar was full and the reward was lost.
    pub kept: bool,
}

/// What happened in one turn, as every player may see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum TurnEvent {
    /// A play.
    Play {
        /// Tiles placed.
        tiles: Vec<NewTile>,
        /// Powers committed.
        powers: Vec<StagedPower>,
        /// Words formed, scored.
        words: Vec<WordScore>,
        /// The bonuses on top of the words (bingo, placement, combo).
        bonuses: Vec<Bonus>,
        /// Dice rolls.
        dice: Vec<(crate::Pos, u8)>,
        /// The turn's points.
        total: i32,
        /// Coins earned.
        coins: i32,
        /// Power-bar rewards.
        rewards: Vec<Reward>,
    },
    /// A pass; `auto` when the clock passed for the player.
    Pass {
        /// Passed by the clock.
        auto: bool,
        /// A Blitz inactivity strike came with it.
        strike: bool,
    },
    /// An exchange of this many tiles.
    Exchange {
        /// Tiles exchanged.
        count: u8,
    },
    /// The Swap power exchanged this many tiles; the turn went on.
    Swap {
        /// Tiles exchanged.
        count: u8,
    },
    /// A challenge of the previous play.
    Challenge {
        /// The challenged player.
        challenged: Seat,
        /// True when a word was invalid and the play was withdrawn.
        withdrawn: bool,
    },
    /// Hard mode: an invalid word cost the turn.
    TurnMissed,
    /// A lost challenge cost this turn.
    Skipped,
    /// A resignation.
    Resign,
    /// A deadline expired.
    TimedOut,
}

/// One entry of the public play history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnRecord {
    /// Whose turn (for a challenge: the challenger).
    pub seat: Seat,
    /// What happened.
    pub event: TurnEvent,
    /// Everyone's score after it.
    pub scores: Vec<i32>,
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EndReason {
    /// This player emptied their hand with the bag empty.
    WentOut(Seat),
    /// The ruleset's pass or scoreless-turn limit.
    Passes,
    /// This player resigned.
    Resigned(Seat),
    /// This player's deadline expired.
    TimedOut(Seat),
    /// This player collected three Blitz inactivity strikes.
    Strikes(Seat),
    /// The ruleset's turns were all taken (the Daily Challenge): the score is the points made.
    TurnLimit,
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Why the game ended.
    pub reason: EndReason,
    /// Final scores: leftovers applied, coins added.
    pub final_scores: Vec<i32>,
    /// The winner, or several on a draw.
    pub winners: Vec<Seat>,
}

/// Playing, or over.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Status {
    /// The game goes on.
    Playing,
    /// The game has ended.
    Over(Outcome),
}

/// What a challenge would undo: the state before the last play.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Challengeable {
    seat: Seat,
    valid: bool,
    went_out: bool,
    board: Board,
    hand: Vec<HandTile>,
    bag: Bag,
    score: i32,
    scoreless: u8,
}

/// A game's state: the fold of its actions. Server-side only: it holds every hand and the bag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameState {
    config: GameConfig,
    rules: RuleSet,
    rng: Rng,
    initial_board: Board,
    board: Board,
    bag: Bag,
    hands: Vec<Vec<HandTile>>,
    scores: Vec<i32>,
    to_move: Seat,
    status: Status,
    /// Passes in a row, by anyone.
    passes: u8,
    /// Scoreless turns in a row, by anyone.
    scoreless: u8,
    history: Vec<TurnRecord>,
    coins: Vec<i32>,
    /// Coins as the others see them: revealed when the player's turn ends.
    shown_coins: Vec<i32>,
    bars: Vec<Vec<Power>>,
    strikes: Vec<u8>,
    /// Classic: a lost challenge costs the challenger their next turn.
    skip_next: Vec<bool>,
    challengeable: Option<Challengeable>,
    /// Actions applied.
    version: u32,
}

impl GameState {
    /// The state before any action: board laid out, first player chosen, hands dealt.
    pub fn new(config: GameConfig) -> GameState {
        let rules = RuleSet::new(config.variant);
        let players = config.players.clamp(rules.min_players, rules.max_players);
        let config = GameConfig {
            players,
            first_seat: config.first_seat % players,
            ..config
        };
        let mut rng = Rng::new(config.seed);
        let mut board = Board::new(rules.layout, rules.start_premium);
        if rules.random_board {
            shuffle_premiums(&mut board, &mut rng);
        }
        let mut bag = Bag::full(rules.tiles, rules.special_tiles);
        let first = choose_first(&rules, &config, &bag, &mut rng);
        let mut hands = vec![Vec::new(); usize::from(players)];
        for i in 0..players {
            let seat = (first + i) % players;
            hands[usize::from(seat)] = bag.draw(usize::from(rules.hand_size), &mut rng);
        }
        let n = usize::from(players);
        GameState {
            initial_board: board.clone(),
            board,
            bag,
            hands,
            scores: vec![0; n],
            to_move: first,
            status: Status::Playing,
            passes: 0,
            scoreless: 0,
            history: Vec::new(),
            coins: vec![if rules.economy { STARTING_COINS } else { 0 }; n],
            shown_coins: vec![if rules.economy { STARTING_COINS } else { 0 }; n],
            bars: vec![Vec::new(); n],
            strikes: vec![0; n],
            skip_next: vec![false; n],
            challengeable: None,
            version: 0,
            rng,
            rules,
            config,
        }
    }

    /// Replays a log. Fails with the index and error of the first action the rules refuse.
    pub fn replay<'a, L: Lexicon + ?Sized>(
        config: GameConfig,
        actions: impl IntoIterator<Item = &'a Action>,
        lexicon: &L,
    ) -> Result<GameState, (usize, RuleError)> {
        let mut state = GameState::new(config);
        for (i, action) in actions.into_iter().enumerate() {
            state.apply(action, lexicon).map_err(|e| (i, e))?;
        }
        Ok(state)
    }

    /// The game's settings, seed included.
    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    /// The ruleset.
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The board before the first move (premiums as laid out).
    pub fn initial_board(&self) -> &Board {
        &self.initial_board
    }

    /// A seat's hand.
    pub fn hand(&self, seat: Seat) -> &[HandTile] {
        self.hands.get(usize::from(seat)).map_or(&[], Vec::as_slice)
    }

    /// The bag.
    pub fn bag(&self) -> &Bag {
        &self.bag
    }

    /// Scores so far (before end-of-game adjustments).
    pub fn scores(&self) -> &[i32] {
        &self.scores
    }

    /// Who is to move.
    pub fn to_move(&self) -> Seat {
        self.to_move
    }

    /// Playing or over.
    pub fn status(&self) -> &Status {
        &self.status
    }

    /// The public history.
    pub fn history(&self) -> &[TurnRecord] {
        &self.history
    }

    /// A seat's coins.
    pub fn coins(&self, seat: Seat) -> i32 {
        self.coins.get(usize::from(seat)).copied().unwrap_or(0)
    }

    /// A seat's power bar.
    pub fn power_bar(&self, seat: Seat) -> &[Power] {
        self.bars.get(usize::from(seat)).map_or(&[], Vec::as_slice)
    }

    /// Actions applied so far.
    pub fn version(&self) -> u32 {
        self.version
    }

    /// Number of seats.
    pub fn players(&self) -> u8 {
        self.config.players
    }

    /// Passes in a row.
    pub fn consecutive_passes(&self) -> u8 {
        self.passes
    }

    /// Whether `seat` may challenge the last play now.
    pub fn can_challenge(&self, seat: Seat) -> bool {
        self.challengeable.as_ref().is_some_and(|c| c.seat != seat)
    }

    /// Blitz inactivity strikes per seat.
    pub fn strikes(&self) -> &[u8] {
        &self.strikes
    }

    pub(crate) fn shown_coins(&self) -> &[i32] {
        &self.shown_coins
    }

    /// Reorders the bag without changing what it holds. For tests showing views ignore its order.
    #[doc(hidden)]
    pub fn reverse_bag_for_tests(&mut self) {
        self.bag.reverse_for_tests();
    }

    /// Gives `seat` exactly `tiles`, trading with the bag (or, failing that, with another hand,
    /// which gets a tile from the bag instead) so every tile is still accounted for. For tests that
    /// need a known hand; panics if no tile of a kind is left anywhere.
    #[doc(hidden)]
    pub fn set_hand_for_tests(&mut self, seat: Seat, tiles: &[HandTile]) {
        let old = std::mem::take(&mut self.hands[usize::from(seat)]);
        self.bag.put_back(old);
        for &tile in tiles {
            if self.bag.take_for_tests(tile) {
                continue;
            }
            let holder = self.hands.iter().position(|hand| hand.contains(&tile));
            let holder = holder.unwrap_or_else(|| panic!("no {tile:?} left to give"));
            remove_all(&mut self.hands[holder], &[tile]);
            let replacement = self.bag.draw(1, &mut self.rng);
            self.hands[holder].extend(replacement);
        }
        self.hands[usize::from(seat)] = tiles.to_vec();
    }

    /// Gives `seat` power-bar items and coins directly. For tests of powers.
    #[doc(hidden)]
    pub fn grant_for_tests(&mut self, seat: Seat, powers: &[Power], coins: i32) {
        self.bars[usize::from(seat)].extend_from_slice(powers);
        self.coins[usize::from(seat)] += coins;
    }

    /// Judges a play by `seat` without applying it (dice roll as 1).
    pub fn evaluate<L: Lexicon + ?Sized>(
        &self,
        seat: Seat,
        placement: &Placement,
        lexicon: &L,
    ) -> Result<ScoredPlay, RuleError> {
        let situation = Situation {
            rules: &self.rules,
            board: &self.board,
            hand: self.hand(seat),
            bar: self.power_bar(seat),
        };
        evaluate(situation, placement, lexicon, &mut || 1)
    }

    /// Applies one action, or refuses it and changes nothing.
    pub fn apply<L: Lexicon + ?Sized>(
        &mut self,
        action: &Action,
        lexicon: &L,
    ) -> Result<(), RuleError> {
        let seat = action.seat();
        if seat >= self.config.players {
            return Err(RuleError::NoSuchSeat(seat));
        }
        if self.status != Status::Playing {
            return Err(RuleError::GameOver);
        }
        match action {
            Action::Buy { power, .. } => self.buy(seat, *power)?,
            Action::Sell { power, .. } => self.sell(seat, *power)?,
            Action::Resign { .. } => {
                self.challengeable = None;
                self.record(seat, TurnEvent::Resign);
                self.finish(EndReason::Resigned(seat));
            }
            Action::Challenge { .. } => self.challenge(seat)?,
            _ if seat != self.to_move => return Err(RuleError::NotYourTurn),
            // An out-play in a challenge ruleset waits for the next player: challenge, or pass to accept.
            Action::Pass { .. } | Action::TimedOut { .. }
                if self.challengeable.as_ref().is_some_and(|c| c.went_out) =>
            {
                let out = self.challengeable.take().map_or(seat, |c| c.seat);
                self.finish(EndReason::WentOut(out));
            }
            _ if self.challengeable.as_ref().is_some_and(|c| c.went_out) => {
                return Err(RuleError::GameOver)
            }
            Action::UseSwap { tiles, .. } => self.use_swap(seat, tiles)?,
            Action::Play { placement, .. } => self.play(seat, placement, lexicon)?,
            Action::Pass { .. } => {
                self.challengeable = None;
                self.pass(seat, false, false);
            }
            Action::Exchange { tiles, .. } => self.exchange(seat, tiles)?,
            Action::TimedOut { away, .. } => {
                self.challengeable = None;
                match self.config.format {
                    Format::Casual => {
                        self.record(seat, TurnEvent::TimedOut);
                        self.finish(EndReason::TimedOut(seat));
                    }
                    Format::Blitz => {
                        let s = usize::from(seat);
                        if *away {
                            self.strikes[s] += 1;
                        }
                        self.pass(seat, true, *away);
                        if self.strikes[s] >= 3 && self.status == Status::Playing {
                            self.finish(EndReason::Strikes(seat));
                        }
                    }
                }
            }
        }
        self.version += 1;
        Ok(())
    }

    fn record(&mut self, seat: Seat, event: TurnEvent) {
        self.history.push(TurnRecord {
            seat,
            event,
            scores: self.scores.clone(),
        });
    }

    fn buy(&mut self, seat: Seat, power: Power) -> Result<(), RuleError> {
        if !self.rules.economy {
            return Err(RuleError::NotInRuleset);
        }
        let price = power.price().ok_or(RuleError::NotForSale(power))?;
        let s = usize::from(seat);
        if self.bars[s].len() >= POWER_BAR_SLOTS {
            return Err(RuleError::PowerBarFull);
        }
        if self.coins[s] < price {
            return Err(RuleError::NotEnoughCoins {
                price,
                coins: self.coins[s],
            });
        }
        self.coins[s] -= price;
        self.bars[s].push(power);
        Ok(())
    }

    fn sell(&mut self, seat: Seat, power: Power) -> Result<(), RuleError> {
        if !self.rules.economy {
            return Err(RuleError::NotInRuleset);
        }
        let price = power.price().ok_or(RuleError::NotForSale(power))?;
        let bar = &mut self.bars[usize::from(seat)];
        let i = bar
            .iter()
            .position(|p| *p == power)
            .ok_or(RuleError::NotInPowerBar(power))?;
        bar.remove(i);
        self.coins[usize::from(seat)] += price;
        Ok(())
    }

    fn use_swap(&mut self, seat: Seat, tiles: &[HandTile]) -> Result<(), RuleError> {
        if !self.rules.economy {
            return Err(RuleError::NotInRuleset);
        }
        let s = usize::from(seat);
        if !self.bars[s].contains(&Power::Swap) {
            return Err(RuleError::NotInPowerBar(Power::Swap));
        }
        self.trade_with_bag(seat, tiles, tiles.len().max(1))?;
        let i = self.bars[s]
            .iter()
            .position(|p| *p == Power::Swap)
            .unwrap_or(0);
        self.bars[s].remove(i);
        self.record(
            seat,
            TurnEvent::Swap {
                count: tiles.len() as u8,
            },
        );
        Ok(())
    }

    /// Gives `tiles` back for as many new ones: draw first, then return, so a tile never comes
    /// straight back.
    fn trade_with_bag(
        &mut self,
        seat: Seat,
        tiles: &[HandTile],
        bag_needs: usize,
    ) -> Result<(), RuleError> {
        if tiles.is_empty() {
            return Err(RuleError::EmptyMove);
        }
        let s = usize::from(seat);
        if let Some(missing) = first_missing(&self.hands[s], tiles) {
            return Err(RuleError::NotInHand(missing));
        }
        if self.bag.len() < bag_needs {
            return Err(RuleError::BagTooSmall {
                needed: bag_needs as u32,
                in_bag: self.bag.len() as u32,
            });
        }
        remove_all(&mut self.hands[s], tiles);
        let drawn = self.bag.draw(tiles.len(), &mut self.rng);
        self.hands[s].extend(drawn);
        self.bag.put_back(tiles.iter().copied());
        Ok(())
    }

    fn exchange(&mut self, seat: Seat, tiles: &[HandTile]) -> Result<(), RuleError> {
        let needs = match self.rules.swap {
            SwapRule::Never => return Err(RuleError::SwapNotAllowed),
            SwapRule::WhileBagHolds(n) => usize::from(n).max(tiles.len()),
            SwapRule::WhileBagHasEnough => tiles.len(),
        };
        self.trade_with_bag(seat, tiles, needs)?;
        self.challengeable = None;
        self.record(
            seat,
            TurnEvent::Exchange {
                count: tiles.len() as u8,
            },
        );
        self.passes = 0;
        self.scoreless += 1;
        self.end_turn(seat);
        Ok(())
    }

    fn pass(&mut self, seat: Seat, auto: bool, strike: bool) {
        self.record(seat, TurnEvent::Pass { auto, strike });
        self.passes += 1;
        self.scoreless += 1;
        self.end_turn(seat);
    }

    fn play<L: Lexicon + ?Sized>(
        &mut self,
        seat: Seat,
        placement: &Placement,
        lexicon: &L,
    ) -> Result<(), RuleError> {
        let s = usize::from(seat);
        let situation = Situation {
            rules: &self.rules,
            board: &self.board,
            hand: &self.hands[s],
            bar: &self.bars[s],
        };
        // Dice roll from a copy, kept only if the play is accepted, so a refused play changes nothing.
        let mut rng = self.rng.clone();
        let scored = evaluate(situation, placement, lexicon, &mut || rng.die())?;
        let invalid = scored.invalid_words();
        let valid = invalid.is_empty();
        match self.rules.word_check {
            WordCheck::Reject if !valid => return Err(RuleError::InvalidWords(invalid)),
            WordCheck::LoseTurn if !valid => {
                self.challengeable = None;
                self.record(seat, TurnEvent::TurnMissed);
                self.passes = 0;
                self.scoreless += 1;
                self.end_turn(seat);
                return Ok(());
            }
            _ => {}
        }
        self.rng = rng;
        let before = Challengeable {
            seat,
            valid,
            went_out: false,
            board: self.board.clone(),
            hand: self.hands[s].clone(),
            bag: self.bag.clone(),
            score: self.scores[s],
            scoreless: self.scoreless,
        };
        remove_all(&mut self.hands[s], &scored.from_hand);
        remove_all(&mut self.bars[s], &scored.from_bar);
        self.bag.put_back(scored.to_bag.iter().copied());
        self.board = scored.board.clone();
        self.scores[s] += scored.total;
        let missing = usize::from(self.rules.hand_size).saturating_sub(self.hands[s].len());
        let drawn = self.bag.draw(missing, &mut self.rng);
        self.hands[s].extend(drawn);
        let went_out = self.hands[s].is_empty() && self.bag.is_empty();

        let mut coins = 0;
        let mut rewards = Vec::new();
        if self.rules.economy {
            coins = coins_for(scored.total);
            self.coins[s] += coins;
            // The play that ends the game earns no rewards (seed 000 §3).
            if !went_out {
                for power in earned_tiles(scored.tiles_placed, scored.words.len()) {
                    let kept = self.bars[s].len() < POWER_BAR_SLOTS;
                    if kept {
                        self.bars[s].push(power);
                    }
                    rewards.push(Reward { power, kept });
                }
            }
        }
        self.record(
            seat,
            TurnEvent::Play {
                tiles: placement.tiles.clone(),
                powers: placement.powers.clone(),
                words: scored.words,
                bonuses: scored.bonuses,
                dice: scored.dice,
                total: scored.total,
                coins,
                rewards,
            },
        );
        self.passes = 0;
        self.scoreless = if scored.total == 0 {
            self.scoreless + 1
        } else {
            0
        };
        self.strikes[s] = 0;
        self.challengeable = (self.rules.word_check == WordCheck::Challenge)
            .then_some(Challengeable { went_out, ..before });
        if went_out && self.challengeable.is_none() {
            self.finish(EndReason::WentOut(seat));
            return Ok(());
        }
        self.end_turn(seat);
        Ok(())
    }

    fn challenge(&mut self, seat: Seat) -> Result<(), RuleError> {
        let Some(last) = self.challengeable.take() else {
            return Err(RuleError::NothingToChallenge);
        };
        if last.seat == seat {
            self.challengeable = Some(last);
            return Err(RuleError::NothingToChallenge);
        }
        let challenged = usize::from(last.seat);
        if last.valid {
            self.record(
                seat,
                TurnEvent::Challenge {
                    challenged: last.seat,
                    withdrawn: false,
                },
            );
            if last.went_out {
                self.finish(EndReason::WentOut(last.seat));
            } else if seat == self.to_move {
                self.record(seat, TurnEvent::Skipped);
                self.scoreless += 1;
                self.advance();
            } else {
                self.skip_next[usize::from(seat)] = true;
            }
        } else {
            // Withdrawn: board, hand, bag and score as before the play; the turn stays lost.
            self.board = last.board;
            self.hands[challenged] = last.hand;
            self.bag = last.bag;
            self.scores[challenged] = last.score;
            self.scoreless = last.scoreless + 1;
            self.record(
                seat,
                TurnEvent::Challenge {
                    challenged: last.seat,
                    withdrawn: true,
                },
            );
            self.check_pass_limit();
        }
        Ok(())
    }

    /// After a turn: reveal the player's coins, then end the game or hand the turn on.
    fn end_turn(&mut self, seat: Seat) {
        self.shown_coins[usize::from(seat)] = self.coins[usize::from(seat)];
        if !self.check_pass_limit() {
            self.advance();
        }
    }

    fn check_pass_limit(&mut self) -> bool {
        let over = match self.rules.end_after {
            EndAfter::ConsecutivePasses(n) => self.passes >= n,
            EndAfter::PassesPerPlayer(n) => {
                u32::from(self.passes) >= u32::from(n) * u32::from(self.config.players)
            }
            EndAfter::ScorelessTurns(n) => self.scoreless >= n,
            EndAfter::Turns(n) => self.turns_taken() >= usize::from(n),
        };
        if over {
            self.finish(match self.rules.end_after {
                EndAfter::Turns(_) => EndReason::TurnLimit,
                _ => EndReason::Passes,
            });
        }
        over
    }

    /// Turns taken so far, by anyone: plays, passes, exchanges and turns lost.
    pub fn turns_taken(&self) -> usize {
        self.history
            .iter()
            .filter(|turn| {
                matches!(
                    turn.event,
                    TurnEvent::Play { .. }
                        | TurnEvent::Pass { .. }
                        | TurnEvent::Exchange { .. }
                        | TurnEvent::TurnMissed
                        | TurnEvent::Skipped
                        | TurnEvent::TimedOut
                )
            })
            .count()
    }

    fn advance(&mut self) {
        let players = self.config.players;
        self.to_move = (self.to_move + 1) % players;
        while self.skip_next[usize::from(self.to_move)] {
            let seat = self.to_move;
            self.skip_next[usize::from(seat)] = false;
            self.record(seat, TurnEvent::Skipped);
            self.scoreless += 1;
            if self.check_pass_limit() {
                return;
            }
            self.to_move = (self.to_move + 1) % players;
        }
    }

    fn finish(&mut self, reason: EndReason) {
        let tiles = self.rules.tiles;
        let leftovers: Vec<i32> = self
            .hands
            .iter()
            .map(|hand| hand.iter().map(|t| t.leftover_value(tiles)).sum())
            .collect();
        let before = self.scores.clone();
        let mut finals = self.scores.clone();
        match reason {
            EndReason::WentOut(out) => {
                for (seat, left) in leftovers.iter().enumerate() {
                    finals[seat] -= left;
                    if self.rules.out_gains_leftovers {
                        finals[usize::from(out)] += left;
                    }
                }
            }
            EndReason::Passes => {
                for (seat, left) in leftovers.iter().enumerate() {
                    finals[seat] -= left;
                }
            }
            EndReason::Resigned(_)
            | EndReason::TimedOut(_)
            | EndReason::Strikes(_)
            | EndReason::TurnLimit => {}
        }
        for (seat, coins) in self.coins.iter().enumerate() {
            finals[seat] += coins;
        }
        let loser = match reason {
            EndReason::Resigned(s) | EndReason::TimedOut(s) | EndReason::Strikes(s) => Some(s),
            _ => None,
        };
        let contenders: Vec<Seat> = (0..self.config.players)
            .filter(|s| Some(*s) != loser)
            .collect();
        let best = contenders
            .iter()
            .map(|&s| finals[usize::from(s)])
            .max()
            .unwrap_or(0);
        let mut winners: Vec<Seat> = contenders
            .into_iter()
            .filter(|&s| finals[usize::from(s)] == best)
            .collect();
        if winners.len() > 1 && self.rules.tie_break_before_leftovers && loser.is_none() {
            let best_before = winners
                .iter()
                .map(|&s| before[usize::from(s)])
                .max()
                .unwrap_or(0);
            winners.retain(|&s| before[usize::from(s)] == best_before);
        }
        self.status = Status::Over(Outcome {
            reason,
            final_scores: finals,
            winners,
        });
    }
}

fn remove_all<T: PartialEq>(from: &mut Vec<T>, items: &[T]) {
    for item in items {
        if let Some(i) = from.iter().position(|x| x == item) {
            from.remove(i);
        }
    }
}

/// Feud's random board: the layout's premiums shuffled over the non-start cells; the start is plain.
fn shuffle_premiums(board: &mut Board, rng: &mut Rng) {
    let width = usize::from(board.width());
    let start = usize::from(board.start().row) * width + usize::from(board.start().col);
    let mut premiums = board.premiums().to_vec();
    premiums[start] = Premium::Plain;
    let mut others: Vec<usize> = (0..premiums.len()).filter(|&i| i != start).collect();
    for i in (1..others.len()).rev() {
        let j = rng.below(i + 1);
        others.swap(i, j);
    }
    let values: Vec<Premium> = (0..premiums.len())
        .filter(|&i| i != start)
        .map(|i| premiums[i])
        .collect();
    for (cell, value) in others.into_iter().zip(values) {
        premiums[cell] = value;
    }
    board.set_premiums(premiums);
}

/// Who starts: given, or decided by each player drawing a tile (redrawing among ties); the drawn
/// tiles go back, so the bag is untouched.
fn choose_first(rules: &RuleSet, config: &GameConfig, bag: &Bag, rng: &mut Rng) -> Seat {
    let rank = |tile: HandTile| -> i32 {
        match (rules.first_player, tile) {
            // Closest to A: a blank beats every letter, then A, B, C… (alphabets are byte-ordered).
            (FirstPlayer::ClosestToA, HandTile::Blank) => 1000,
            (FirstPlayer::ClosestToA, HandTile::Letter(l)) => 999 - i32::from(l.0),
            (FirstPlayer::HighestValue, t) => t.leftover_value(rules.tiles),
            _ => 0,
        }
    };
    if rules.first_player == FirstPlayer::Given {
        return config.first_seat;
    }
    let mut contenders: Vec<Seat> = (0..config.players).collect();
    // Bounded: with every tile equal forever we fall back to the first contender.
    for _ in 0..64 {
        let mut draw = bag.clone();
        let ranks: Vec<i32> = contenders
            .iter()
            .map(|_| draw.draw(1, rng).first().map_or(0, |t| rank(*t)))
            .collect();
        let best = ranks.iter().copied().max().unwrap_or(0);
        contenders = contenders
            .into_iter()
            .zip(ranks)
            .filter(|(_, r)| *r == best)
            .map(|(s, _)| s)
            .collect();
        if contenders.len() == 1 {
            break;
        }
    }
    contenders[0]
}
