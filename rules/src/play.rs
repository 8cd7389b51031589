//! A play: where the tiles go, whether that is legal, which words it forms and what it scores.
//!
//! [`evaluate`] is the single judge: the server commits with it, and the browser's preview calls it
//! on the player's view with the same arguments, so both always agree.

use serde::{Deserialize, Serialize};

use crate::{
    board::{Board, BoardTile, Direction, Premium, Square, TileKind},
    error::RuleError,
    lexicon::Lexicon,
    powers::{Power, StagedPower},
    ruleset::{RuleSet, Scoring},
    tiles::{HandTile, Letter, TileSet},
    Pos,
};

/// What goes onto a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Played {
    /// A letter tile from the hand.
    Letter(Letter),
    /// A blank from the hand, naming this letter.
    Blank(Letter),
    /// An Alfa Power Tile from the power bar, naming this letter.
    AlfaPower(Letter),
    /// A Golden Tile from the power bar, naming this letter.
    Golden(Letter),
    /// Alfapet's stop from the hand.
    Stop,
}

impl Played {
    /// The letter it shows, if it shows one.
    pub fn letter(self) -> Option<Letter> {
        match self {
            Played::Letter(l) | Played::Blank(l) | Played::AlfaPower(l) | Played::Golden(l) => {
                Some(l)
            }
            Played::Stop => None,
        }
    }
}

/// One tile of a play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct NewTile {
    /// Where it goes.
    pub pos: Pos,
    /// What it is.
    pub tile: Played,
    /// Alfapet: an arrow from the hand goes under it, where the word turns.
    #[serde(default)]
    pub arrow: bool,
}

impl NewTile {
    /// A plain letter tile at `pos`.
    pub fn letter(pos: Pos, letter: Letter) -> NewTile {
        NewTile {
            pos,
            tile: Played::Letter(letter),
            arrow: false,
        }
    }
}

/// A play as the player submits it: tiles, and (Alfa Kraft) the powers staged with them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Placement {
    /// The tiles placed.
    pub tiles: Vec<NewTile>,
    /// Powers committed with the play.
    #[serde(default)]
    pub powers: Vec<StagedPower>,
}

/// One word a play forms, scored.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct WordScore {
    /// The word, lower case.
    pub word: String,
    /// Its cells in reading order (a word turning at an arrow reads across, then down, or the reverse).
    pub cells: Vec<Pos>,
    /// Whether the dictionary has it.
    pub valid: bool,
    /// The letters' points with letter premiums, Charge, Dice and power tiles.
    pub letters: i32,
    /// The product of the word premiums covered.
    pub word_factor: i32,
    /// Golden Tiles in it: ×2 each.
    pub golden_factor: i32,
    /// Long words: the length multiplier in halves (5 = ×2.5), after hook damping.
    pub length_halves: Option<u8>,
    /// The word's points.
    pub points: i32,
}

impl WordScore {
    /// The word of a play that names it: the one that scored most (the longest on a tie),
    /// upper case, as players read it.
    pub fn main(words: &[WordScore]) -> Option<String> {
        words
            .iter()
            .max_by_key(|w| (w.points, w.word.chars().count()))
            .map(|w| crate::case::upper_str(&w.word))
    }
}

/// Points added on top of the words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Bonus {
    /// A whole hand's worth of tiles in one play.
    Bingo(i32),
    /// Alfa Kraft: by tiles placed.
    Placement(i32),
    /// Alfa Kraft: by words formed.
    Combo(i32),
}

impl Bonus {
    /// Its points.
    pub fn points(self) -> i32 {
        match self {
            Bonus::Bingo(p) | Bonus::Placement(p) | Bonus::Combo(p) => p,
        }
    }
}

/// A judged play: words, bonuses, total, what it uses and the board it leaves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoredPlay {
    /// Every word formed, in board order of their first new tile.
    pub words: Vec<WordScore>,
    /// Words that powers changed without a new tile in them (Alfa Morf): judged, not scored.
    pub checked_words: Vec<WordScore>,
    /// Bonuses earned.
    pub bonuses: Vec<Bonus>,
    /// Words plus bonuses.
    pub total: i32,
    /// Tiles placed, power tiles included, stops not.
    pub tiles_placed: usize,
    /// Hand tiles used.
    pub from_hand: Vec<HandTile>,
    /// Power bar items used.
    pub from_bar: Vec<Power>,
    /// Tiles a Rubber sent back to the bag.
    pub to_bag: Vec<HandTile>,
    /// Dice rolls, by cell.
    pub dice: Vec<(Pos, u8)>,
    /// The board after the play.
    pub board: Board,
}

impl ScoredPlay {
    /// The words the dictionary lacks, powers' words included.
    pub fn invalid_words(&self) -> Vec<String> {
        self.words
            .iter()
            .chain(&self.checked_words)
            .filter(|w| !w.valid)
            .map(|w| w.word.clone())
            .collect()
    }
}

/// Everything a play is judged against: the ruleset, the board and what the player holds.
#[derive(Debug, Clone, Copy)]
pub struct Situation<'a> {
    /// The game's ruleset.
    pub rules: &'a RuleSet,
    /// The board before the play.
    pub board: &'a Board,
    /// The player's hand.
    pub hand: &'a [HandTile],
    /// The player's power bar.
    pub bar: &'a [Power],
}

/// Judges `placement` and scores it. `roll` draws a die (1–6) for each Dice power, in target order.
///
/// Words are looked up but invalid ones do not make this fail: the caller decides by the ruleset's
/// [`crate::ruleset::WordCheck`] (see [`ScoredPlay::invalid_words`]).
pub fn evaluate<L: Lexicon + ?Sized>(
    at: Situation<'_>,
    placement: &Placement,
    lexicon: &L,
    roll: &mut dyn FnMut() -> u8,
) -> Result<ScoredPlay, RuleError> {
    let rules = at.rules;
    if placement.tiles.is_empty() && placement.powers.is_empty() {
        return Err(RuleError::EmptyMove);
    }
    let (from_hand, from_bar) = check_supplies(at, placement)?;
    let mut board = at.board.clone();
    let first_move = board.is_empty();

    // Powers on the board first: the play is then judged on the board they leave.
    let BoardPowers {
        to_bag,
        out_of_play,
        morphed,
    } = apply_board_powers(&mut board, placement, first_move)?;
    let first_move = board.is_empty();
    let before = board.clone();

    let premiums = place_tiles(&mut board, placement, &out_of_play)?;

    let letters: Vec<&NewTile> = placement
        .tiles
        .iter()
        .filter(|t| t.tile != Played::Stop)
        .collect();
    let has_power_tile = letters
        .iter()
        .any(|t| matches!(t.tile, Played::AlfaPower(_)));
    // Alfa Power Tiles ignore alignment and adjacency; the other tiles keep the one-line rule.
    let lined: Vec<Pos> = letters
        .iter()
        .filter(|t| !matches!(t.tile, Played::AlfaPower(_)))
        .map(|t| t.pos)
        .collect();

    let arrow = placement.tiles.iter().filter(|t| t.arrow).count();
    let runs = match arrow {
        0 => {
            check_line(&board, &lined)?;
            straight_runs(&board, letters.iter().map(|t| t.pos))
        }
        1 => bent_runs(&board, placement, &lined)?,
        _ => return Err(RuleError::ArrowMisplaced),
    };

    for new in placement.tiles.iter().filter(|t| t.tile == Played::Stop) {
        if !ends_a_word(&board, new.pos) {
            return Err(RuleError::StopMisplaced);
        }
    }
    if !letters.is_empty() && runs.is_empty() {
        return Err(RuleError::NoWord);
    }
    if first_move {
        if !letters.is_empty() && !runs.iter().any(|run| run.contains(&board.start())) {
            return Err(RuleError::MissesStart);
        }
    } else if !has_power_tile
        && !letters.is_empty()
        && !letters.iter().any(|t| before.touches_tile(t.pos))
    {
        return Err(RuleError::NotConnected);
    }

    let (factors, dice) = tile_factors(placement, roll)?;

    let scorer = Scorer {
        rules,
        board: &board,
        premiums: &premiums,
        factors: &factors,
        placement,
        lexicon,
    };
    let words: Vec<WordScore> = runs.iter().map(|run| scorer.score(run)).collect();
    let mut checked_words = Vec::new();
    for pos in morphed {
        for run in straight_runs(&board, [pos]) {
            if !runs.contains(&run) && !checked_words.iter().any(|w: &WordScore| w.cells == run) {
                checked_words.push(scorer.score(&run));
            }
        }
    }

    let bonuses = bonuses(rules, placement, letters.len(), words.len());
    let total = words.iter().map(|w| w.points).sum::<i32>()
        + bonuses.iter().map(|b| b.points()).sum::<i32>();
    Ok(ScoredPlay {
        words,
        checked_words,
        bonuses,
        total,
        tiles_placed: letters.len(),
        from_hand,
        from_bar,
        to_bag,
        dice,
        board,
    })
}

/// Checks that each of the placement's tiles goes on an empty square of the board, in play and
/// not twice, and puts them there; the premiums under them, in the placement's order.
fn place_tiles(
    board: &mut Board,
    placement: &Placement,
    out_of_play: &[Pos],
) -> Result<Vec<(Pos, Premium)>, RuleError> {
    let mut premiums = Vec::with_capacity(placement.tiles.len());
    for (i, new) in placement.tiles.iter().enumerate() {
        let pos = new.pos;
        if !board.contains(pos) {
            return Err(RuleError::OffBoard(pos));
        }
        if placement.tiles[..i].iter().any(|t| t.pos == pos) {
            return Err(RuleError::SameCell(pos));
        }
        if out_of_play.contains(&pos) {
            return Err(RuleError::OutOfPlay(pos));
        }
        if board.square(pos) != Square::Empty {
            return Err(RuleError::Occupied(pos));
        }
        premiums.push((pos, board.premium(pos)));
    }
    for new in &placement.tiles {
        board.set(new.pos, square_of(*new));
    }
    Ok(premiums)
}

/// What Charge and Dice multiply a staged tile's face value by, before premiums, with the dice
/// rolled (`roll`): a power aimed at no letter of the play, or at one it cannot touch, is refused.
#[allow(clippy::type_complexity)]
fn tile_factors(
    placement: &Placement,
    roll: &mut dyn FnMut() -> u8,
) -> Result<(Vec<(Pos, i32)>, Vec<(Pos, u8)>), RuleError> {
    let mut factors: Vec<(Pos, i32)> = Vec::new();
    let mut dice = Vec::new();
    for power in &placement.powers {
        let (pos, factor) = match *power {
            StagedPower::Charge(pos) => (pos, 3),
            StagedPower::Dice(pos) => {
                let rolled = roll().clamp(1, 6);
                dice.push((pos, rolled));
                (pos, i32::from(rolled))
            }
            _ => continue,
        };
        match placement
            .tiles
            .iter()
            .find(|t| t.pos == pos)
            .map(|t| t.tile)
        {
            Some(Played::Letter(_) | Played::Blank(_)) => factors.push((pos, factor)),
            Some(Played::AlfaPower(_) | Played::Golden(_)) => return Err(RuleError::Immune(pos)),
            Some(Played::Stop) | None => return Err(RuleError::NoTarget(pos)),
        }
    }
    Ok((factors, dice))
}

/// The bonuses a play earns: all of the hand (bingo), tiles placed, words made.
fn bonuses(rules: &RuleSet, placement: &Placement, placed: usize, words: usize) -> Vec<Bonus> {
    let hand_tiles_placed = placement
        .tiles
        .iter()
        .filter(|t| matches!(t.tile, Played::Letter(_) | Played::Blank(_)))
        .count();
    let mut bonuses = Vec::new();
    if rules.bingo_bonus > 0 && hand_tiles_placed == usize::from(rules.hand_size) {
        bonuses.push(Bonus::Bingo(rules.bingo_bonus));
    }
    let placement_bonus = RuleSet::bonus_for(rules.placement_bonus, placed);
    if placement_bonus > 0 {
        bonuses.push(Bonus::Placement(placement_bonus));
    }
    let combo_bonus = RuleSet::bonus_for(rules.combo_bonus, words);
    if combo_bonus > 0 {
        bonuses.push(Bonus::Combo(combo_bonus));
    }
    bonuses
}

/// The square a new tile makes.
pub fn square_of(new: NewTile) -> Square {
    let (letter, kind) = match new.tile {
        Played::Letter(l) => (l, TileKind::Normal),
        Played::Blank(l) => (l, TileKind::Blank),
        Played::AlfaPower(l) => (l, TileKind::AlfaPower),
        Played::Golden(l) => (l, TileKind::Golden),
        Played::Stop => return Square::Stop,
    };
    Square::Tile(BoardTile {
        letter,
        kind,
        arrow: new.arrow,
        printed: None,
    })
}

/// Checks the play against the ruleset and what the player holds; returns what it uses.
fn check_supplies(
    at: Situation<'_>,
    placement: &Placement,
) -> Result<(Vec<HandTile>, Vec<Power>), RuleError> {
    let rules = at.rules;
    let alphabet = rules.tiles.letters.len();
    let mut from_hand = Vec::new();
    let mut from_bar = Vec::new();
    for new in &placement.tiles {
        if new
            .tile
            .letter()
            .is_some_and(|l| usize::from(l.0) >= alphabet)
        {
            return Err(RuleError::NoSuchLetter);
        }
        match new.tile {
            Played::Letter(l) => from_hand.push(HandTile::Letter(l)),
            Played::Blank(_) => from_hand.push(HandTile::Blank),
            Played::Stop => from_hand.push(HandTile::Stop),
            Played::AlfaPower(_) => from_bar.push(Power::AlfaPowerTile),
            Played::Golden(_) => from_bar.push(Power::GoldenTile),
        }
        if new.arrow {
            if matches!(new.tile, Played::Stop | Played::AlfaPower(_)) {
                return Err(RuleError::ArrowMisplaced);
            }
            from_hand.push(HandTile::Arrow);
        }
    }
    for power in &placement.powers {
        if let StagedPower::AlfaMorf(_, l) = power {
            if usize::from(l.0) >= alphabet {
                return Err(RuleError::NoSuchLetter);
            }
        }
        from_bar.push(power.power());
    }
    let special = from_hand
        .iter()
        .any(|t| matches!(t, HandTile::Stop | HandTile::Arrow));
    if (!from_bar.is_empty() && !rules.economy) || (special && rules.special_tiles == 0) {
        return Err(RuleError::NotInRuleset);
    }
    if let Some(missing) = first_missing(at.hand, &from_hand) {
        return Err(RuleError::NotInHand(missing));
    }
    if let Some(missing) = first_missing(at.bar, &from_bar) {
        return Err(RuleError::NotInPowerBar(missing));
    }
    Ok((from_hand, from_bar))
}

/// The first item of `wanted` that `held` cannot cover, counting duplicates.
pub(crate) fn first_missing<T: Copy + PartialEq>(held: &[T], wanted: &[T]) -> Option<T> {
    let mut used = vec![false; held.len()];
    for item in wanted {
        match (0..held.len()).find(|&i| !used[i] && held[i] == *item) {
            Some(i) => used[i] = true,
            None => return Some(*item),
        }
    }
    None
}

/// What Rubber and Alfa Morf did to the board.
#[derive(Default)]
struct BoardPowers {
    /// Tiles a Rubber sent back to the bag.
    to_bag: Vec<HandTile>,
    /// Cells a Rubber took out of play for the turn.
    out_of_play: Vec<Pos>,
    /// Cells Alfa Morf changed.
    morphed: Vec<Pos>,
}

/// Applies Rubber, then Alfa Morf.
fn apply_board_powers(
    board: &mut Board,
    placement: &Placement,
    first_move: bool,
) -> Result<BoardPowers, RuleError> {
    let mut to_bag = Vec::new();
    let mut out_of_play = Vec::new();
    let mut morphed = Vec::new();
    let mut seen: Vec<(Power, Pos)> = Vec::new();
    for power in &placement.powers {
        let pos = power.target();
        if !board.contains(pos) {
            return Err(RuleError::OffBoard(pos));
        }
        if seen.contains(&(power.power(), pos)) {
            return Err(RuleError::PowerTwiceOnCell(pos));
        }
        seen.push((power.power(), pos));
    }
    for power in &placement.powers {
        if let StagedPower::Rubber(pos) = *power {
            if first_move && pos == board.start() {
                return Err(RuleError::RubberOnStart);
            }
            match board.square(pos) {
                Square::Empty => board.erase_premium(pos),
                Square::Stop => to_bag.push(HandTile::Stop),
                Square::Tile(tile) if tile.is_immune() => return Err(RuleError::Immune(pos)),
                Square::Tile(tile) => to_bag.push(match tile.kind {
                    TileKind::Blank => HandTile::Blank,
                    _ => HandTile::Letter(tile.printed.unwrap_or(tile.letter)),
                }),
            }
            // An arrow under a rubbered tile leaves the game with it: it did its work already.
            board.set(pos, Square::Empty);
            out_of_play.push(pos);
        }
    }
    for power in &placement.powers {
        if let StagedPower::AlfaMorf(pos, letter) = *power {
            match board.square(pos) {
                Square::Tile(tile) if tile.is_immune() => return Err(RuleError::Immune(pos)),
                Square::Tile(tile) if tile.letter == letter => {
                    return Err(RuleError::MorfToSameLetter(pos))
                }
                Square::Tile(tile) => {
                    board.set(pos, Square::Tile(tile.morphed(letter)));
                    morphed.push(pos);
                }
                _ => return Err(RuleError::NoTarget(pos)),
            }
        }
    }
    Ok(BoardPowers {
        to_bag,
        out_of_play,
        morphed,
    })
}

/// The one-line rule: the tiles share a row or a column, with no hole in the run they form.
fn check_line(board: &Board, lined: &[Pos]) -> Result<(), RuleError> {
    let Some(&first) = lined.first() else {
        return Ok(());
    };
    let dir = if lined.iter().all(|p| p.row == first.row) {
        Direction::Across
    } else if lined.iter().all(|p| p.col == first.col) {
        Direction::Down
    } else {
        return Err(RuleError::NotInLine);
    };
    let (lo, hi) = (
        lined.iter().min().copied().unwrap_or(first),
        lined.iter().max().copied().unwrap_or(first),
    );
    let mut pos = lo;
    while pos != hi {
        pos = pos.step(dir, true).ok_or(RuleError::Gap(pos))?;
        if board.tile(pos).is_none() {
            return Err(RuleError::Gap(pos));
        }
    }
    Ok(())
}

/// The run of letter tiles through `pos` along `dir`, in reading order.
fn run_through(board: &Board, pos: Pos, dir: Direction) -> Vec<Pos> {
    let mut start = pos;
    while let Some(prev) = start.step(dir, false).filter(|p| board.tile(*p).is_some()) {
        start = prev;
    }
    let mut run = vec![start];
    let mut at = start;
    while let Some(next) = at.step(dir, true).filter(|p| board.tile(*p).is_some()) {
        run.push(next);
        at = next;
    }
    run
}

/// Every run of two or more letters through the given cells, each once.
fn straight_runs(board: &Board, cells: impl IntoIterator<Item = Pos>) -> Vec<Vec<Pos>> {
    let mut runs: Vec<Vec<Pos>> = Vec::new();
    for pos in cells {
        for dir in [Direction::Across, Direction::Down] {
            let run = run_through(board, pos, dir);
            if run.len() >= 2 && !runs.contains(&run) {
                runs.push(run);
            }
        }
    }
    runs
}

/// Alfapet's arrow: the move's word reads along one leg to the corner tile, then turns down the
/// other. Across-then-down needs letters left of and below the corner (and none right of or above
/// it); down-then-across, letters above and right of it (none left or below).
fn bent_runs(
    board: &Board,
    placement: &Placement,
    lined: &[Pos],
) -> Result<Vec<Vec<Pos>>, RuleError> {
    let corner = placement
        .tiles
        .iter()
        .find(|t| t.arrow)
        .map(|t| t.pos)
        .ok_or(RuleError::ArrowMisplaced)?;
    let has = |pos: Option<Pos>| pos.is_some_and(|p| board.tile(p).is_some());
    let (left, right) = (
        has(corner.step(Direction::Across, false)),
        has(corner.step(Direction::Across, true)),
    );
    let (up, down) = (
        has(corner.step(Direction::Down, false)),
        has(corner.step(Direction::Down, true)),
    );
    let (first_leg, second_leg) =
        match (left && down && !right && !up, up && right && !left && !down) {
            (true, false) => (Direction::Across, Direction::Down),
            (false, true) => (Direction::Down, Direction::Across),
            _ => return Err(RuleError::ArrowMisplaced),
        };
    // Every lined tile sits on one of the legs: before the corner on the first, after it on the second.
    let on_first = |p: &Pos| match first_leg {
        Direction::Across => p.row == corner.row && p.col < corner.col,
        Direction::Down => p.col == corner.col && p.row < corner.row,
    };
    let on_second = |p: &Pos| match second_leg {
        Direction::Across => p.row == corner.row && p.col > corner.col,
        Direction::Down => p.col == corner.col && p.row > corner.row,
    };
    if !lined
        .iter()
        .all(|p| *p == corner || on_first(p) || on_second(p))
    {
        return Err(RuleError::NotInLine);
    }
    let leg_one = run_through(board, corner, first_leg);
    let leg_two = run_through(board, corner, second_leg);
    for p in lined {
        if *p != corner && !leg_one.contains(p) && !leg_two.contains(p) {
            return Err(RuleError::Gap(*p));
        }
    }
    let mut word: Vec<Pos> = leg_one.clone();
    word.extend(leg_two.iter().skip(1));
    let mut runs = vec![word];
    for new in placement
        .tiles
        .iter()
        .filter(|t| t.tile != Played::Stop && t.pos != corner)
    {
        let dirs: &[Direction] =
            if matches!(new.tile, Played::AlfaPower(_)) && !lined.contains(&new.pos) {
                &[Direction::Across, Direction::Down]
            } else if leg_one.contains(&new.pos) {
                &[first_leg.other()]
            } else {
                &[second_leg.other()]
            };
        for &dir in dirs {
            let run = run_through(board, new.pos, dir);
            if run.len() >= 2 && !runs.contains(&run) {
                runs.push(run);
            }
        }
    }
    Ok(runs)
}

/// Alfapet's stop goes at the end of a word: next to the last letter of a run of two or more that
/// points at it.
fn ends_a_word(board: &Board, pos: Pos) -> bool {
    [Direction::Across, Direction::Down].into_iter().any(|dir| {
        [true, false].into_iter().any(|forward| {
            let near = pos.step(dir, !forward);
            let far = near.and_then(|p| p.step(dir, !forward));
            near.and_then(|p| board.tile(p)).is_some() && far.and_then(|p| board.tile(p)).is_some()
        })
    })
}

/// What a tile on the board is worth in a word, before premiums: its face value; 0 for a blank;
/// twice its letter's face value for an Alfa Power Tile.
pub fn tile_points(tiles: &TileSet, tile: BoardTile) -> i32 {
    let face = i32::from(tiles.value(tile.letter));
    match tile.kind {
        TileKind::Normal | TileKind::Golden => face,
        TileKind::Blank => 0,
        TileKind::AlfaPower => 2 * face,
    }
}

struct Scorer<'a, L: ?Sized> {
    rules: &'a RuleSet,
    board: &'a Board,
    /// The premium under each new tile, read before the tile consumed it.
    premiums: &'a [(Pos, Premium)],
    /// Charge and Dice factors on new tiles.
    factors: &'a [(Pos, i32)],
    placement: &'a Placement,
    lexicon: &'a L,
}

impl<L: Lexicon + ?Sized> Scorer<'_, L> {
    fn score(&self, cells: &[Pos]) -> WordScore {
        let tiles: &TileSet = self.rules.tiles;
        let mut letters = 0;
        let mut word_factor = 1;
        let mut golden_factor = 1;
        let mut spelled = Vec::with_capacity(cells.len());
        for &pos in cells {
            let Some(tile) = self.board.tile(pos) else {
                continue;
            };
            spelled.push(tile.letter);
            let mut value = tile_points(tiles, tile);
            if let Some(&(_, premium)) = self.premiums.iter().find(|(p, _)| *p == pos) {
                for (_, factor) in self.factors.iter().filter(|(p, _)| *p == pos) {
                    value *= factor;
                }
                value *= premium.letter_factor();
                word_factor *= premium.word_factor();
                if tile.kind == TileKind::Golden {
                    golden_factor *= 2;
                }
            }
            letters += value;
        }
        let word = tiles.spell(spelled);
        let valid = self.lexicon.contains(&word);
        let raw = letters * word_factor * golden_factor;
        let (points, length_halves) = match self.rules.scoring {
            Scoring::Standard => (raw, None),
            Scoring::LengthMultiplier => {
                let halves = self.length_halves(cells);
                // m(n) = n/2, so points = raw·halves/2 rounded half up.
                ((raw * i32::from(halves) + 1).div_euclid(2), Some(halves))
            }
        };
        WordScore {
            word,
            cells: cells.to_vec(),
            valid,
            letters,
            word_factor,
            golden_factor,
            length_halves,
            points,
        }
    }

    /// Long words: m(n) = 1 + 0.5·(n − 2) = n/2, capped at 8.5; a lone final S hooked onto an
    /// existing word caps it at 1.5, a lone final D at 2.0 (docs/rules.md §6).
    fn length_halves(&self, cells: &[Pos]) -> u8 {
        let halves = cells.len().min(17) as u8;
        let [only] = self.placement.tiles.as_slice() else {
            return halves;
        };
        if cells.last() != Some(&only.pos) || cells.len() < 3 {
            return halves;
        }
        let cap = match only.tile.letter().map(|l| self.rules.tiles.char_of(l)) {
            Some('S') => 3,
            Some('D') => 4,
            _ => return halves,
        };
        halves.min(cap)
    }
}
