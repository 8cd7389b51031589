//! What the game page's regions share beyond the table: the actions under way, the preview's
//! judgement, and the page's own state (a confirmation asked, the history open, the hand covered
//! on a shared device, the finished board explored). One `Copy` handle, made once by
//! [`super::GamePage`] and handed to each region.

use leptos::prelude::*;
use rules::{game::Status, Action as Move, Seat};

use super::{preview::Judgement, table::Table};
use crate::{
    acting::Acting,
    api::{play::GamePage, Phase, Refusal},
    live::Presence,
};

/// A server function's answer with the game in it.
pub(super) type Answer = Result<Result<GamePage, Refusal>, ServerFnError>;

/// What the confirmation line asks about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Confirm {
    Pass,
    Challenge,
    Resign,
}

/// The page's shared state.
#[derive(Clone, Copy)]
pub(super) struct Screen {
    /// The game as received and the move being built.
    pub table: Table,
    /// A move sent (play, pass, exchange, a purchase…).
    pub acting: Acting<Move, Answer>,
    /// A resignation sent.
    pub resigning: Acting<(), Answer>,
    /// What the preview says of the staged tiles.
    pub judgement: Memo<Judgement>,
    /// The question the confirmation line asks, if any.
    pub confirm: RwSignal<Option<Confirm>>,
    /// Whether the history is open.
    pub history_open: RwSignal<bool>,
    /// The turn the history shows (past the end: the last).
    pub history_turn: RwSignal<usize>,
    /// Pass-and-play: the seat whose hand was shown on its player's tap.
    pub shown_seat: RwSignal<Option<Seat>>,
    /// On a shared device, whether the hand of the player to move stays covered.
    pub covered: Memo<bool>,
    /// After the end: the result card dismissed and the board zoomed (1 = fits), or `None`.
    pub exploring: RwSignal<Option<u8>>,
    /// The site's origin, for whole links: known in the browser only, so set after hydration.
    pub origin: RwSignal<String>,
    /// Who has a live page open, as the live stream reports it.
    pub presence: RwSignal<Presence>,
    /// A tile held or staged, or a cell tapped: on a phone the board zooms in.
    pub placing: Memo<bool>,
    /// The game is under way.
    pub playing: Memo<bool>,
    /// The board's frame, which zooms and scrolls.
    pub board_frame: NodeRef<leptos::html::Div>,
    /// The game's chat, when it has one.
    pub chat: RwSignal<Option<crate::api::chat::ChatView>>,
}

impl Screen {
    /// The shared state of `table`'s page, with its actions.
    pub fn new(
        table: Table,
        acting: Acting<Move, Answer>,
        resigning: Acting<(), Answer>,
        judgement: Memo<Judgement>,
    ) -> Screen {
        let shown_seat = RwSignal::new(None::<Seat>);
        Screen {
            table,
            acting,
            resigning,
            judgement,
            confirm: RwSignal::new(None),
            history_open: RwSignal::new(false),
            history_turn: RwSignal::new(usize::MAX),
            shown_seat,
            covered: Memo::new(move |_| {
                table.page.with(|page| {
                    page.as_ref().is_some_and(|page| {
                        page.card.my_seats.len() > 1
                            && page.card.phase == Phase::Playing
                            && shown_seat.get() != Some(page.view.seat)
                    })
                })
            }),
            exploring: RwSignal::new(None),
            origin: RwSignal::new(String::new()),
            presence: RwSignal::new(Presence::new()),
            placing: Memo::new(move |_| {
                table.selected.with(Option::is_some)
                    || table.staged.with(|s| !s.is_empty())
                    || table.focus.with(Option::is_some)
            }),
            playing: Memo::new(move |_| {
                table.page.with(|p| {
                    p.as_ref()
                        .is_some_and(|p| matches!(p.view.status, Status::Playing))
                })
            }),
            board_frame: NodeRef::new(),
            chat: RwSignal::new(None),
        }
    }

    /// Whether an action is on its way to the server.
    pub fn busy(&self) -> bool {
        self.acting.pending().get() || self.resigning.pending().get()
    }

    /// Plays the staged tiles and powers, when it is the player's turn and there is something to
    /// play.
    pub fn play(&self) {
        let table = self.table;
        let Some(view) = table.view() else { return };
        let nothing = table.staged.with_untracked(|s| s.is_empty())
            && table.powers.with_untracked(|p| p.is_empty());
        if !table.my_turn() || nothing {
            return;
        }
        self.acting.dispatch(Move::Play {
            seat: view.seat,
            placement: table.placement(),
        });
    }
}
