//! The game page's state: the game as last received, and the move being built on top of it (tiles
//! staged on the board, the hand's order, the selected tile, the keyboard cursor). Every component
//! of the page reads and changes it through this one `Copy` handle.

use leptos::prelude::*;
use rules::{
    powers::{Power, StagedPower},
    Direction, HandTile, Letter, NewTile, Placement, Played, PlayerView, Pos, TileSet,
};

use crate::api::play::GamePage;

/// Slots from here on are power-bar items (slot − `BAR_SLOTS` is the bar index): Alfa Power and
/// Golden Tiles are staged like letters, and every item is picked up like a hand tile.
pub const BAR_SLOTS: usize = 1000;

/// A hand tile put on the board for the move being built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Staged {
    pub pos: Pos,
    /// Which hand tile (index into the view's hand).
    pub slot: usize,
    /// What it shows: its letter, or the letter named for a blank.
    pub played: Played,
}

/// Where a drag started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DragFrom {
    /// A tile in the hand.
    Hand(usize),
    /// A staged tile on the board.
    Board(Pos),
    /// An item of the power bar, by index.
    Bar(usize),
}

/// A finger on a tile.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Finger {
    pub(super) start: (f64, f64),
    /// Where the finger is, once it has moved past the slop.
    pub(super) at: Option<(f64, f64)>,
    /// The zoomed board's edges this drag may pan toward: those the finger has been well
    /// inside of since it picked the tile up.
    pub(super) armed: Edges,
}

/// Edges of the zoomed board (left, top, right, bottom, by index), as bits.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Edges(u8);

impl Edges {
    pub(super) fn union(self, other: Edges) -> Edges {
        Edges(self.0 | other.0)
    }

    #[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
    pub(super) fn with(self, index: usize) -> Edges {
        Edges(self.0 | 1 << index)
    }

    #[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
    pub(super) fn has(self, index: usize) -> bool {
        self.0 & 1 << index != 0
    }
}

/// The keyboard cursor: a cell and the direction typing goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    /// The cell.
    pub pos: Pos,
    /// Across or down.
    pub dir: Direction,
}

/// The page's state.
#[derive(Clone, Copy)]
pub struct Table {
    /// The game: the newest received, else the one the page was rendered with.
    pub page: Signal<Option<GamePage>>,
    received: RwSignal<Option<GamePage>>,
    /// Tiles on the board for the move being built, in the order they were put there.
    pub staged: RwSignal<Vec<Staged>>,
    /// The hand's order: hand indices, kept across turns for tiles still held.
    pub order: RwSignal<Vec<usize>>,
    /// The hand tile picked up by a tap.
    pub selected: RwSignal<Option<usize>>,
    /// The keyboard cursor.
    pub cursor: RwSignal<Option<Cursor>>,
    /// On a phone: the cell a tap zoomed the board around, until it is zoomed out (the button,
    /// Recall, Play).
    pub focus: RwSignal<Option<Pos>>,
    /// What is being dragged.
    pub dragging: RwSignal<Option<DragFrom>>,
    /// A touch on a tile that may be, or is, a finger drag.
    pub finger: RwSignal<Option<Finger>>,
    /// A blank waiting for its letter: where it goes and which slot.
    pub naming_blank: RwSignal<Option<(Pos, usize)>>,
    /// Hand tiles chosen for an exchange (or, where the ruleset has no exchange, for the Swap
    /// power), when choosing.
    pub exchanging: RwSignal<Option<Vec<usize>>>,
    /// Alfapet: the arrow's hand slot and the staged letter it lies under (one per move).
    pub arrow: RwSignal<Option<(usize, Pos)>>,
    /// Alfa Kraft: powers drafted for the next Play, with the bar index each uses.
    pub powers: RwSignal<Vec<(usize, StagedPower)>>,
    /// Alfa Morf waiting for its letter: the bar index and the board tile.
    pub morphing: RwSignal<Option<(usize, Pos)>>,
    /// Alfa Kraft: the other players' coins as last revealed changed by this much (their net
    /// change, shown with their move).
    pub coin_change: RwSignal<Vec<i32>>,
    /// The last refusal or failure, for the message line (worded when it happens).
    pub message: RwSignal<Option<String>>,
    /// The player accepted a rematch here: once the page shows it accepted, it opens the new game.
    pub accepting_rematch: RwSignal<bool>,
    /// The page's language, for the words of messages.
    pub language: crate::i18n::Language,
}

impl Table {
    /// A table over the game as first loaded (rendered on the server, then hydrated).
    pub fn new(initial: Signal<Option<GamePage>>) -> Table {
        let received = RwSignal::new(None::<GamePage>);
        Table {
            // A memo, not a derived signal: every reader borrows one copy instead of cloning the
            // whole game, and an answer equal to what the page shows (the page's data settling
            // after hydration, a refresh that brings nothing new) re-renders nothing.
            page: Memo::new(move |_| received.get().or_else(|| initial.get())).into(),
            received,
            staged: RwSignal::new(Vec::new()),
            order: RwSignal::new(Vec::new()),
            selected: RwSignal::new(None),
            cursor: RwSignal::new(None),
            focus: RwSignal::new(None),
            dragging: RwSignal::new(None),
            finger: RwSignal::new(None),
            naming_blank: RwSignal::new(None),
            exchanging: RwSignal::new(None),
            arrow: RwSignal::new(None),
            powers: RwSignal::new(Vec::new()),
            morphing: RwSignal::new(None),
            coin_change: RwSignal::new(Vec::new()),
            message: RwSignal::new(None),
            accepting_rematch: RwSignal::new(false),
            language: crate::i18n::Language::expect(),
        }
    }

    /// Shows a message in the page's language.
    fn tell(&self, words: fn(crate::i18n::Texts) -> &'static str) {
        self.message
            .set(Some(words(self.language.get_untracked()).to_string()));
    }

    /// Forgets the game (the page moved to another one).
    pub fn forget(&self) {
        self.received.set(None);
        self.order.set(Vec::new());
        self.recall();
        self.cursor.set(None);
        self.exchanging.set(None);
        self.message.set(None);
        self.coin_change.set(Vec::new());
    }

    /// Who sits in each seat, as the page last received it.
    pub fn seats(&self) -> Signal<Vec<crate::api::SeatHolder>> {
        let page = self.page;
        Signal::derive(move || {
            page.with(|p| p.as_ref().map(|p| p.card.seats.clone()).unwrap_or_default())
        })
    }

    /// The player's view, if loaded.
    pub fn view(&self) -> Option<PlayerView> {
        self.page.with(|p| p.as_ref().map(|p| p.view.clone()))
    }

    /// The tile set of the game.
    pub fn tiles(&self) -> Option<&'static TileSet> {
        self.page.with(|p| p.as_ref().map(|p| p.view.rules().tiles))
    }

    /// Takes a newer page: the move in progress is dropped when the board or hand changed under it,
    /// and the hand keeps its order for tiles still held.
    pub fn receive(&self, page: GamePage) {
        // Play again keeps the page's state: another game starts from nothing of this one.
        let same_game = self
            .page
            .with_untracked(|p| p.as_ref().is_some_and(|p| p.card.id == page.card.id));
        let old_hand = self.page.with_untracked(|p| {
            p.as_ref()
                .filter(|_| same_game)
                .map(|p| (p.view.seat, p.view.hand.clone()))
        });
        let old_order = self.order_untracked();
        let new_hand = page.view.hand.clone();
        let same_seat = old_hand
            .as_ref()
            .is_some_and(|(seat, _)| *seat == page.view.seat);
        let order = match old_hand {
            Some((_, old)) if same_seat => keep_order(&old, &old_order, &new_hand),
            _ => (0..new_hand.len()).collect(),
        };
        // A new turn, a new hand or another seat starts the move afresh; a change that leaves
        // the board and the hand alone (a live refresh, the other player's purchase) keeps it.
        let changed = !same_game
            || self.page.with_untracked(|p| {
                p.as_ref().is_none_or(|p| {
                    p.view.seat != page.view.seat
                        || p.view.history.len() != page.view.history.len()
                        || p.view.hand != page.view.hand
                        || p.view.status != page.view.status
                })
            });
        if changed {
            self.recall();
            self.exchanging.set(None);
        }
        // What the other players' coins did since this game's last page.
        if !same_game {
            self.coin_change.set(Vec::new());
        }
        let change = self.page.with_untracked(|p| {
            let old = &p.as_ref().filter(|_| same_game)?.view;
            let new = &page.view;
            (old.seat == new.seat && old.coins.len() == new.coins.len()).then(|| {
                (0..new.coins.len())
                    .map(|s| match s == usize::from(new.seat) {
                        true => 0,
                        false => new.coins[s] - old.coins[s],
                    })
                    .collect::<Vec<i32>>()
            })
        });
        if let Some(change) = change.filter(|c| c.iter().any(|d| *d != 0)) {
            self.coin_change.set(change);
        }
        self.order.set(order);
        self.received.set(Some(page));
    }

    /// The hand's order, or the hand as dealt when no order fits it.
    fn order_untracked(&self) -> Vec<usize> {
        let len = self
            .page
            .with_untracked(|p| p.as_ref().map_or(0, |p| p.view.hand.len()));
        let order = self.order.get_untracked();
        if order.len() == len {
            order
        } else {
            (0..len).collect()
        }
    }

    /// Hand slots not on the board, in the hand's order.
    pub fn rack(&self) -> Vec<usize> {
        let staged = self.staged.get();
        let arrow = self
            .arrow_under()
            .and(self.arrow.get().map(|(slot, _)| slot));
        self.hand_order()
            .into_iter()
            .filter(|slot| !staged.iter().any(|s| s.slot == *slot) && Some(*slot) != arrow)
            .collect()
    }

    /// Every hand slot in the hand's order, those out on the board included (the hand keeps their
    /// places, faded).
    pub fn hand_order(&self) -> Vec<usize> {
        let len = self
            .page
            .with(|p| p.as_ref().map_or(0, |p| p.view.hand.len()));
        let order = self.order.get();
        if order.len() == len {
            order
        } else {
            (0..len).collect()
        }
    }

    /// Takes a hand slot's tile back from the board, with any power drafted onto it (a Charge or
    /// Dice), or the arrow placed from it.
    pub fn take_back(&self, slot: usize) {
        let staged = self
            .staged
            .with_untracked(|all| all.iter().find(|s| s.slot == slot).map(|s| s.pos));
        match staged {
            Some(pos) => self.unstage(pos),
            None if self.arrow.get_untracked().is_some_and(|(s, _)| s == slot) => {
                self.arrow.set(None)
            }
            None => {}
        }
    }

    /// Where the arrow lies: under a staged letter (an arrow whose letter left goes back to the
    /// hand).
    pub fn arrow_under(&self) -> Option<Pos> {
        let (_, pos) = self.arrow.get()?;
        self.staged_at(pos)
            .filter(|s| s.played != Played::Stop)
            .map(|s| s.pos)
    }

    /// The hand tile in a slot.
    pub fn hand_tile(&self, slot: usize) -> Option<HandTile> {
        self.page
            .with(|p| p.as_ref().and_then(|p| p.view.hand.get(slot).copied()))
    }

    /// Whether the player may build a move now.
    pub fn my_turn(&self) -> bool {
        self.page
            .with(|p| p.as_ref().is_some_and(|p| p.card.my_turn))
    }

    /// The staged tile on a cell.
    pub fn staged_at(&self, pos: Pos) -> Option<Staged> {
        self.staged
            .with(|s| s.iter().find(|s| s.pos == pos).copied())
    }

    /// Whether a cell takes a new tile: on the board, empty, nothing staged there.
    pub fn is_free(&self, pos: Pos) -> bool {
        self.page.with(|p| {
            p.as_ref().is_some_and(|p| {
                p.view.board.contains(pos) && p.view.board.square(pos) == rules::Square::Empty
            })
        }) && self.staged_at(pos).is_none()
    }

    /// Puts a hand tile on a free cell; a blank first asks for its letter. An arrow goes under a
    /// staged letter instead, where the word turns.
    pub fn place(&self, slot: usize, pos: Pos) {
        if !self.my_turn() {
            return;
        }
        if let Some(index) = slot.checked_sub(BAR_SLOTS) {
            return self.use_power(index, pos);
        }
        if self.hand_tile(slot) == Some(HandTile::Arrow) {
            if self
                .staged_at(pos)
                .is_some_and(|s| s.played != Played::Stop)
            {
                self.arrow.set(Some((slot, pos)));
                self.selected.set(None);
            } else {
                self.tell(|texts| crate::tr!(texts, placing.arrow_under));
            }
            return;
        }
        if !self.is_free(pos) {
            return;
        }
        // A tile moved from another cell leaves it.
        self.staged.update(|s| s.retain(|s| s.slot != slot));
        self.selected.set(None);
        self.message.set(None);
        match self.hand_tile(slot) {
            Some(HandTile::Letter(letter)) => self.stage(slot, pos, Played::Letter(letter)),
            Some(HandTile::Blank) => self.naming_blank.set(Some((pos, slot))),
            Some(HandTile::Stop) => self.stage(slot, pos, Played::Stop),
            Some(HandTile::Arrow) | None => {}
        }
    }

    /// The power-bar item at `index`.
    pub fn bar_item(&self, index: usize) -> Option<Power> {
        self.page.with(|p| {
            p.as_ref()
                .and_then(|p| p.view.power_bar.get(index).copied())
        })
    }

    /// Whether a bar item is drafted for the next Play (as a staged tile or a power).
    pub fn bar_item_used(&self, index: usize) -> bool {
        self.staged
            .with(|s| s.iter().any(|s| s.slot == BAR_SLOTS + index))
            || self.powers.with(|p| p.iter().any(|(i, _)| *i == index))
    }

    /// Takes a drafted bar item back.
    pub fn release_bar_item(&self, index: usize) {
        self.staged
            .update(|s| s.retain(|s| s.slot != BAR_SLOTS + index));
        self.powers.update(|p| p.retain(|(i, _)| *i != index));
    }

    /// Drafts bar item `index` onto `pos`, as docs/rules.md targets it: Alfa Power and Golden Tiles on
    /// a free cell (then their letter is named), Charge and Dice on a staged letter, Rubber on any
    /// cell, Alfa Morf on a board tile (then the new letter is named).
    fn use_power(&self, index: usize, pos: Pos) {
        let Some(power) = self.bar_item(index) else {
            return;
        };
        self.selected.set(None);
        self.message.set(None);
        let staged = self.staged_at(pos);
        let on_board = self.page.with_untracked(|p| {
            p.as_ref()
                .filter(|p| p.view.board.contains(pos))
                .map(|p| p.view.board.square(pos))
        });
        let refuse = |words| self.tell(words);
        let draft = |power: StagedPower| self.draft(index, power);
        match power {
            Power::AlfaPowerTile | Power::GoldenTile => {
                if self.is_free(pos) {
                    self.release_bar_item(index);
                    self.naming_blank.set(Some((pos, BAR_SLOTS + index)));
                }
            }
            Power::Charge | Power::Dice => match staged {
                Some(s) if matches!(s.played, Played::Letter(_) | Played::Blank(_)) => {
                    draft(if power == Power::Charge {
                        StagedPower::Charge(pos)
                    } else {
                        StagedPower::Dice(pos)
                    })
                }
                _ => refuse(|texts| crate::tr!(texts, placing.charge_dice_target)),
            },
            Power::Rubber => match (on_board, staged) {
                (Some(_), None) => draft(StagedPower::Rubber(pos)),
                _ => refuse(|texts| crate::tr!(texts, placing.rubber_target)),
            },
            Power::AlfaMorf => match on_board {
                Some(rules::Square::Tile(_)) => self.morphing.set(Some((index, pos))),
                _ => refuse(|texts| crate::tr!(texts, placing.morf_target)),
            },
            Power::Swap => refuse(|texts| crate::tr!(texts, placing.swap_how)),
        }
    }

    /// Names the letter Alfa Morf turns its tile into, and drafts it.
    pub fn name_morph(&self, letter: Letter) {
        if let Some((index, pos)) = self.morphing.get_untracked() {
            self.morphing.set(None);
            self.draft(index, StagedPower::AlfaMorf(pos, letter));
        }
    }

    /// Drafts bar item `index` as `power`, in place of whatever it was drafted as before.
    fn draft(&self, index: usize, power: StagedPower) {
        self.powers.update(|p| {
            p.retain(|(i, _)| *i != index);
            p.push((index, power));
        });
    }

    /// Stages a tile as it will be played.
    pub fn stage(&self, slot: usize, pos: Pos, played: Played) {
        self.staged.update(|s| s.push(Staged { pos, slot, played }));
    }

    /// Names the pending blank's letter and stages it.
    pub fn name_blank(&self, letter: Letter) {
        if let Some((pos, slot)) = self.naming_blank.get_untracked() {
            self.naming_blank.set(None);
            let played = match slot.checked_sub(BAR_SLOTS).and_then(|i| self.bar_item(i)) {
                Some(Power::AlfaPowerTile) => Played::AlfaPower(letter),
                Some(Power::GoldenTile) => Played::Golden(letter),
                _ => Played::Blank(letter),
            };
            self.stage(slot, pos, played);
        }
    }

    /// Takes a staged tile back to the hand (with the arrow under it, and the Charge or Dice on
    /// it).
    pub fn unstage(&self, pos: Pos) {
        self.staged.update(|s| s.retain(|s| s.pos != pos));
        self.powers.update(|p| {
            p.retain(|(_, power)| {
                !matches!(power, StagedPower::Charge(at) | StagedPower::Dice(at) if *at == pos)
            })
        });
        if self.arrow.get_untracked().is_some_and(|(_, at)| at == pos) {
            self.arrow.set(None);
        }
    }

    /// Moves a staged tile (and the arrow under it) to another free cell.
    pub fn move_staged(&self, from: Pos, to: Pos) {
        self.staged.update(|all| {
            if let Some(t) = all.iter_mut().find(|t| t.pos == from) {
                t.pos = to;
            }
        });
        self.arrow.update(|a| {
            if let Some((_, at)) = a.as_mut().filter(|(_, at)| *at == from) {
                *at = to;
            }
        });
        self.powers.update(|p| {
            for (_, power) in p.iter_mut() {
                match power {
                    StagedPower::Charge(at) | StagedPower::Dice(at) if *at == from => *at = to,
                    _ => {}
                }
            }
        });
    }

    /// Takes every staged tile back.
    /// What is being dragged lands on a cell of the board.
    pub fn drop_on_cell(&self, pos: Pos) {
        match self.dragging.get_untracked() {
            Some(DragFrom::Hand(slot)) => self.place(slot, pos),
            Some(DragFrom::Bar(index)) => self.place(BAR_SLOTS + index, pos),
            Some(DragFrom::Board(from)) if from != pos && self.is_free(pos) => {
                self.move_staged(from, pos);
            }
            _ => {}
        }
        self.dragging.set(None);
    }

    /// What is being dragged lands on the hand: before the tile in `slot`, or at its end.
    pub fn drop_on_hand(&self, slot: Option<usize>) {
        match (self.dragging.get_untracked(), slot) {
            (Some(DragFrom::Hand(from)), Some(slot)) if from != slot => {
                self.reorder(from, Some(slot))
            }
            (Some(DragFrom::Board(pos)), _) => self.unstage(pos),
            _ => {}
        }
        self.dragging.set(None);
    }

    pub fn recall(&self) {
        self.focus.set(None);
        self.staged.set(Vec::new());
        self.selected.set(None);
        self.naming_blank.set(None);
        self.arrow.set(None);
        self.powers.set(Vec::new());
        self.morphing.set(None);
    }

    /// Moves a hand slot to another place in the hand's order.
    pub fn reorder(&self, slot: usize, before: Option<usize>) {
        let mut order = self.order_untracked();
        {
            order.retain(|s| *s != slot);
            let at = before
                .and_then(|b| order.iter().position(|s| *s == b))
                .unwrap_or(order.len());
            order.insert(at, slot);
        }
        self.order.set(order);
    }

    /// Shuffles the hand's order.
    pub fn shuffle(&self) {
        let mut order = self.order_untracked();
        {
            // A small LCG seeded from the clock: a shuffle need not be secure, only different.
            let mut state = now_seed();
            for i in (1..order.len()).rev() {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let j = (state >> 33) as usize % (i + 1);
                order.swap(i, j);
            }
        }
        self.order.set(order);
    }

    /// The move being built, as the rules take it.
    pub fn placement(&self) -> Placement {
        let arrow = self.arrow_under();
        Placement {
            tiles: self
                .staged
                .get()
                .into_iter()
                .map(|s| NewTile {
                    pos: s.pos,
                    tile: s.played,
                    arrow: Some(s.pos) == arrow,
                })
                .collect(),
            powers: self.powers.get().into_iter().map(|(_, p)| p).collect(),
        }
    }
}

/// The new hand's order: tiles still held keep their places (matched by value, in order), new
/// ones go to the end.
fn keep_order(old: &[HandTile], old_order: &[usize], new: &[HandTile]) -> Vec<usize> {
    let mut taken = vec![false; new.len()];
    let mut order = Vec::with_capacity(new.len());
    for &slot in old_order {
        let Some(tile) = old.get(slot) else { continue };
        if let Some(i) = (0..new.len()).find(|&i| !taken[i] && new[i] == *tile) {
            taken[i] = true;
            order.push(i);
        }
    }
    order.extend((0..new.len()).filter(|&i| !taken[i]));
    order
}

fn now_seed() -> u64 {
    #[cfg(feature = "hydrate")]
    {
        js_sys::Date::now() as u64
    }
    #[cfg(not(feature = "hydrate"))]
    {
        0x5EED
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_tiles_keep_their_places_and_new_ones_go_last() {
        let tile = |n| HandTile::Letter(Letter(n));
        let old = [tile(1), tile(2), tile(3), tile(4)];
        // The player had arranged them 4 3 2 1, then played the 3.
        let order = [3, 2, 1, 0];
        let new = [tile(1), tile(2), tile(4), tile(9)];
        assert_eq!(keep_order(&old, &order, &new), vec![2, 1, 0, 3]);
    }
}

/// The hand's order survives a reload: it is kept in the browser's local storage per game and
/// seat, as the tiles in the order shown.
#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
pub mod saved_order {
    use rules::{HandTile, Letter};

    fn code(tile: HandTile) -> String {
        match tile {
            HandTile::Letter(letter) => letter.0.to_string(),
            HandTile::Blank => "b".into(),
            HandTile::Arrow => "a".into(),
            HandTile::Stop => "s".into(),
        }
    }

    fn tile(code: &str) -> Option<HandTile> {
        Some(match code {
            "b" => HandTile::Blank,
            "a" => HandTile::Arrow,
            "s" => HandTile::Stop,
            n => HandTile::Letter(Letter(n.parse().ok()?)),
        })
    }

    /// The tiles as stored: codes separated by commas.
    pub fn encode(tiles: &[HandTile]) -> String {
        tiles.iter().map(|t| code(*t)).collect::<Vec<_>>().join(",")
    }

    /// The stored tiles; nothing for anything malformed.
    pub fn decode(text: &str) -> Vec<HandTile> {
        text.split(',').filter_map(tile).collect()
    }

    #[cfg(feature = "hydrate")]
    fn storage() -> Option<web_sys::Storage> {
        web_sys::window()?.local_storage().ok()?
    }

    /// Remembers the order for a game and seat.
    pub fn save(key: &str, tiles: &[HandTile]) {
        #[cfg(feature = "hydrate")]
        if let Some(storage) = storage() {
            let _ = storage.set_item(key, &encode(tiles));
        }
        #[cfg(not(feature = "hydrate"))]
        let _ = (key, tiles);
    }

    /// The order remembered for a game and seat.
    pub fn load(key: &str) -> Option<Vec<HandTile>> {
        #[cfg(feature = "hydrate")]
        {
            storage()?.get_item(key).ok()?.map(|text| decode(&text))
        }
        #[cfg(not(feature = "hydrate"))]
        {
            let _ = key;
            None
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn tiles_round_trip_and_junk_is_dropped() {
            let tiles = [
                HandTile::Letter(Letter(3)),
                HandTile::Blank,
                HandTile::Stop,
                HandTile::Arrow,
            ];
            assert_eq!(decode(&encode(&tiles)), tiles);
            assert_eq!(decode("x,,300,4"), vec![HandTile::Letter(Letter(4))]);
        }
    }
}

impl Table {
    /// The storage key of the shown hand's order.
    fn order_key(&self) -> Option<String> {
        self.page.with_untracked(|p| {
            p.as_ref()
                .map(|p| format!("alfakraft:hand:{}:{}", p.card.id, p.view.seat))
        })
    }

    /// Saves the hand's order as shown.
    pub fn save_order(&self) {
        let Some(key) = self.order_key() else { return };
        let hand = self
            .page
            .with_untracked(|p| p.as_ref().map(|p| p.view.hand.clone()).unwrap_or_default());
        let tiles: Vec<HandTile> = self
            .order_untracked()
            .iter()
            .filter_map(|s| hand.get(*s).copied())
            .collect();
        saved_order::save(&key, &tiles);
    }

    /// Takes the saved order, if any fits the hand.
    pub fn restore_order(&self) {
        let Some(key) = self.order_key() else { return };
        let Some(saved) = saved_order::load(&key) else {
            return;
        };
        let hand = self
            .page
            .with_untracked(|p| p.as_ref().map(|p| p.view.hand.clone()).unwrap_or_default());
        let identity: Vec<usize> = (0..saved.len()).collect();
        self.order.set(keep_order(&saved, &identity, &hand));
    }
}
